// The format parsers of document ingest (issue 17), each a well-kept library behind one call: PDF text layers through
// unpdf (PDF.js, page by page, no OCR, scripts never run), DOCX through mammoth (after the ZIP guard), HTML through
// htmlparser2 (scripts, styles and other non-content dropped), e-mail through mailparser (headers become metadata,
// attachments come back to be ingested as documents of their own), Markdown and text as UTF-8. Every parser returns
// blocks — headings and paragraphs in reading order with their pages — for lib/ingest/regularise.ts. Failures are
// coded errors naming the file.
import "server-only";
import { parseDocument as parseHtml } from "htmlparser2";
import type { ChildNode, Element } from "domhandler";
import { CasegraphError, type FailureCode } from "../../domain/failure-codes";
import { textBlocks, type Block } from "../../ingest/regularise";
import type { DocumentKind } from "../../ingest/kinds";
import { checkZip, DEFAULT_ZIP_LIMITS, type ZipLimits } from "./zip-guard";
import { withoutByteOrderMark } from "../../domain/file-text";

export interface ParseLimits {
  maxPdfPages: number;
  zip: ZipLimits;
}

export const DEFAULT_PARSE_LIMITS: ParseLimits = { maxPdfPages: 2_000, zip: DEFAULT_ZIP_LIMITS };

export interface Attachment {
  name: string;
  bytes: Buffer;
}

export interface ParsedDocument {
  blocks: Block[];
  /** Pages of a PDF, else null. */
  pages: number | null;
  /** Format facts kept with the document (e-mail headers, pages without text, scripts found and never run). */
  metadata: Record<string, unknown>;
  warnings: string[];
  attachments: Attachment[];
}

export const failure = (code: FailureCode, file: string, why: string, cause?: unknown) =>
  new CasegraphError(code, `${file}: ${why}`, [{ path: file, message: why }], cause ? { cause } : undefined);

export async function parseDocument(
  file: string,
  kind: DocumentKind,
  bytes: Buffer,
  limits = DEFAULT_PARSE_LIMITS,
): Promise<ParsedDocument> {
  switch (kind) {
    case "pdf":
      return parsePdf(file, bytes, limits);
    case "docx":
      return parseDocx(file, bytes, limits);
    case "html":
      return simple(htmlBlocks(decodeText(file, bytes)));
    case "markdown":
      return simple(textBlocks(decodeText(file, bytes), true));
    case "text":
      return simple(textBlocks(decodeText(file, bytes), false));
    case "email":
      return parseEmail(file, bytes);
    case "csv":
      throw new Error("CSV call records are streamed (csv.ts), not parsed whole");
  }
}

const simple = (blocks: Block[]): ParsedDocument => ({ blocks, pages: null, metadata: {}, warnings: [], attachments: [] });

export function decodeText(file: string, bytes: Buffer): string {
  try {
    return withoutByteOrderMark(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch (err) {
    throw failure("CG-INGEST-001", file, "is not UTF-8 text", err);
  }
}

// ----------------------------------------------------------------------------------------------------------- PDF

interface TextItem {
  str: string;
  transform: number[];
  height: number;
  hasEOL: boolean;
}

const latin1 = (b: Buffer) => b.toString("latin1");

async function parsePdf(file: string, bytes: Buffer, limits: ParseLimits): Promise<ParsedDocument> {
  const raw = latin1(bytes);
  if (/\/Encrypt\s*(?:\d+\s+\d+\s+R|<<)/.test(raw)) throw failure("CG-INGEST-005", file, "is an encrypted PDF");
  const hasJavaScript = /\/(?:JavaScript|JS)\s*[(<\d]/.test(raw) || /\/S\s*\/JavaScript/.test(raw);
  const { getDocumentProxy } = await import("unpdf");
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // PDF.js never runs the document's scripts here: there is no scripting sandbox outside a viewer.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { enableXfa: false, stopAtErrors: true });
  } catch (err) {
    if ((err as Error)?.name === "PasswordException") throw failure("CG-INGEST-005", file, "is a password-protected PDF", err);
    throw failure("CG-INGEST-001", file, "is not a readable PDF (damaged or truncated)", err);
  }
  try {
    if (pdf.numPages > limits.maxPdfPages) throw failure("CG-INGEST-002", file, `has ${pdf.numPages} pages (limit ${limits.maxPdfPages})`);
    const blocks: Block[] = [];
    const empty: number[] = [];
    for (let n = 1; n <= pdf.numPages; n++) {
      const page = await pdf.getPage(n);
      const content = await page.getTextContent();
      const paragraphs = pdfParagraphs(content.items as TextItem[]);
      if (!paragraphs.length) empty.push(n);
      for (const text of paragraphs) blocks.push({ kind: "paragraph", text, page: n });
      page.cleanup();
    }
    if (!blocks.length) throw failure("CG-INGEST-007", file, "has no text layer on any page (scanned pages are not read: no OCR)");
    const warnings = empty.map((n) => `page ${n} has no text layer (not read: no OCR)`);
    if (hasJavaScript) warnings.push("the PDF carries JavaScript; it was never run");
    return {
      blocks,
      pages: pdf.numPages,
      metadata: { ...(empty.length ? { pagesWithoutText: empty } : {}), ...(hasJavaScript ? { hasJavaScript: true } : {}) },
      warnings,
      attachments: [],
    };
  } catch (err) {
    if (err instanceof CasegraphError) throw err;
    throw failure("CG-INGEST-001", file, "is not a readable PDF (damaged or truncated)", err);
  } finally {
    await pdf.loadingTask.destroy().catch(() => {});
  }
}

/** A page's text items → paragraphs: lines by end-of-line marks, paragraphs by a vertical gap wider than a line. */
export function pdfParagraphs(items: readonly TextItem[]): string[] {
  const lines: Array<{ text: string; y: number; h: number }> = [];
  let text = "";
  let y: number | null = null;
  let h = 0;
  const endLine = () => {
    if (text.trim()) lines.push({ text, y: y ?? 0, h: h || 10 });
    text = "";
    y = null;
    h = 0;
  };
  for (const it of items) {
    if (typeof it.str !== "string") continue;
    if (y !== null && it.str && Math.abs(it.transform[5] - y) > Math.max(h, it.height || 0) * 0.6) endLine();
    if (it.str) {
      if (y === null) y = it.transform[5];
      h = Math.max(h, it.height || 0);
      text += it.str;
    }
    if (it.hasEOL) endLine();
  }
  endLine();
  const paragraphs: string[] = [];
  let current: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const gap = i ? lines[i - 1].y - lines[i].y : 0;
    if (i && (gap > Math.max(lines[i - 1].h, lines[i].h) * 1.7 || gap < 0)) {
      paragraphs.push(current.join(" "));
      current = [];
    }
    current.push(lines[i].text.trim());
  }
  if (current.length) paragraphs.push(current.join(" "));
  return paragraphs.filter((p) => p.trim());
}

// ---------------------------------------------------------------------------------------------------------- DOCX

/** A DOCX as HTML (mammoth keeps headings as h1…h6), after the ZIP guard has inflated every part under its caps. */
export async function docxHtml(file: string, bytes: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<string> {
  const parts = checkZip(file, bytes, limits);
  if (!parts.has("word/document.xml")) throw failure("CG-INGEST-001", file, "is a ZIP archive without a word-processing document");
  const mammoth = await import("mammoth");
  try {
    return (await mammoth.convertToHtml({ buffer: bytes })).value;
  } catch (err) {
    throw failure("CG-INGEST-001", file, "is not a readable DOCX", err);
  }
}

async function parseDocx(file: string, bytes: Buffer, limits: ParseLimits): Promise<ParsedDocument> {
  const blocks = htmlBlocks(await docxHtml(file, bytes, limits.zip));
  if (!blocks.length) throw failure("CG-INGEST-007", file, "has no text");
  return simple(blocks);
}

// ---------------------------------------------------------------------------------------------------------- HTML

/** Elements whose content is never document text. */
const SKIP = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "head",
  "iframe",
  "object",
  "embed",
  "svg",
  "math",
  "canvas",
  "button",
  "select",
  "textarea",
]);
const BLOCK = new Set([
  "p",
  "div",
  "li",
  "blockquote",
  "pre",
  "section",
  "article",
  "header",
  "footer",
  "main",
  "aside",
  "nav",
  "dd",
  "dt",
  "figcaption",
  "caption",
  "address",
  "body",
  "ul",
  "ol",
  "dl",
  "table",
  "tbody",
  "thead",
  "tfoot",
  "form",
  "fieldset",
  "hr",
]);

/** HTML → blocks: headings, paragraph-like elements, table rows (cells joined by " | "); no script ever read. */
export function htmlBlocks(html: string): Block[] {
  const doc = parseHtml(html, { decodeEntities: true });
  const blocks: Block[] = [];
  let buffer = "";
  const flush = () => {
    if (buffer.trim()) blocks.push({ kind: "paragraph", text: buffer, page: null });
    buffer = "";
  };
  const textOf = (nodes: ChildNode[]): string =>
    nodes
      .map((n) => {
        if (n.type === "text") return (n as unknown as { data: string }).data;
        if (n.type === "tag" || n.type === "script" || n.type === "style") {
          const el = n as Element;
          if (SKIP.has(el.name)) return "";
          if (el.name === "br") return " ";
          return textOf(el.children) + (el.name === "td" || el.name === "th" ? " | " : "");
        }
        return "";
      })
      .join("");
  const walk = (nodes: ChildNode[]) => {
    for (const n of nodes) {
      if (n.type === "text") {
        buffer += (n as unknown as { data: string }).data;
        continue;
      }
      if (n.type !== "tag" && n.type !== "script" && n.type !== "style") continue;
      const el = n as Element;
      if (SKIP.has(el.name)) continue;
      const heading = /^h([1-6])$/.exec(el.name);
      if (heading) {
        flush();
        const text = textOf(el.children);
        if (text.trim()) blocks.push({ kind: "heading", text, page: null, level: Number(heading[1]) });
      } else if (el.name === "tr") {
        flush();
        const row = textOf(el.children).replace(/\s*\|\s*$/, "");
        if (row.replace(/[|\s]/g, "")) blocks.push({ kind: "paragraph", text: row, page: null });
      } else if (el.name === "br") buffer += " ";
      else if (BLOCK.has(el.name)) {
        flush();
        walk(el.children);
        flush();
      } else walk(el.children);
    }
  };
  walk(doc.children);
  flush();
  return blocks;
}

// --------------------------------------------------------------------------------------------------------- E-mail

async function parseEmail(file: string, bytes: Buffer): Promise<ParsedDocument> {
  const { simpleParser } = await import("mailparser");
  let mail: Awaited<ReturnType<typeof simpleParser>>;
  try {
    mail = await simpleParser(bytes, { skipImageLinks: true, skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true });
  } catch (err) {
    throw failure("CG-INGEST-001", file, "is not a readable e-mail message", err);
  }
  const addresses = (v: unknown): string | undefined => {
    if (!v) return undefined;
    const list = Array.isArray(v) ? v : [v];
    const text = list
      .map((a) => (a as { text?: string }).text ?? "")
      .filter(Boolean)
      .join(", ");
    return text || undefined;
  };
  const headers = {
    from: addresses(mail.from),
    to: addresses(mail.to),
    cc: addresses(mail.cc),
    subject: mail.subject || undefined,
    date: mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date.toISOString() : undefined,
    messageId: mail.messageId || undefined,
  };
  const metadata = Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string>;
  const headerLine = [
    metadata.from && `From: ${metadata.from}.`,
    metadata.to && `To: ${metadata.to}.`,
    metadata.cc && `Cc: ${metadata.cc}.`,
    metadata.date && `Date: ${metadata.date}.`,
  ]
    .filter(Boolean)
    .join(" ");
  const blocks: Block[] = [];
  if (metadata.subject) blocks.push({ kind: "heading", text: metadata.subject, page: null, level: 1 });
  if (headerLine) blocks.push({ kind: "paragraph", text: headerLine, page: null });
  const body = mail.text?.trim() ? textBlocks(mail.text, false) : typeof mail.html === "string" ? htmlBlocks(mail.html) : [];
  blocks.push(...body);
  const attachments = (mail.attachments ?? [])
    .filter((a) => a.content && a.content.length > 0)
    .map((a, i) => ({ name: safeName(a.filename || `attachment-${i + 1}${extensionFor(a.contentType)}`), bytes: a.content }));
  if (!body.length && !attachments.length) throw failure("CG-INGEST-007", file, "has no text and no attachments");
  return {
    blocks,
    pages: null,
    metadata: { email: metadata, ...(attachments.length ? { attachments: attachments.map((a) => a.name) } : {}) },
    warnings: [],
    attachments,
  };
}

function extensionFor(contentType: string): string {
  const map: Record<string, string> = {
    "application/pdf": ".pdf",
    "text/plain": ".txt",
    "text/html": ".html",
    "text/csv": ".csv",
    "message/rfc822": ".eml",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": ".docx",
  };
  return map[contentType?.toLowerCase()] ?? "";
}

/** A file name from a message: its last path segment, printable, bounded. */
export function safeName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const clean = base
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .trim()
    .slice(0, 200);
  return clean || "attachment";
}
