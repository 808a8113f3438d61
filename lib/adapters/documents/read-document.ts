// Reads a document's text for the policy extractor: Markdown, text and HTML as they are, PDF through its text layer
// (unpdf, a serverless build of PDF.js; no OCR), DOCX through mammoth (to HTML, so headings still mark sections).
// Bounded: a file over the size limit or a PDF over the page limit is refused before it is parsed.
import "server-only";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { CasegraphError } from "../../domain/failure-codes";

export type DocumentKind = "md" | "txt" | "html";
export const DOCUMENT_TYPES = ["md", "markdown", "txt", "html", "htm", "pdf", "docx"] as const;
const MAX_BYTES = 20 * 1024 * 1024;
const MAX_PDF_PAGES = 500;

const unreadable = (file: string, why: string, cause?: unknown) =>
  new CasegraphError("CG-POLICY-088", `${path.basename(file)}: ${why}`, [{ path: file, message: why }], cause ? { cause } : undefined);

/** The text of `file` and how to regularise it (lib/policy/extract.ts). */
export async function readDocument(file: string): Promise<{ text: string; kind: DocumentKind }> {
  const ext = path.extname(file).toLowerCase().slice(1);
  if (!(DOCUMENT_TYPES as readonly string[]).includes(ext)) throw unreadable(file, `unsupported document type .${ext}`);
  const size = await stat(file).then(
    (s) => s.size,
    () => -1,
  );
  if (size < 0) throw unreadable(file, "cannot be read");
  if (size > MAX_BYTES) throw unreadable(file, `larger than ${MAX_BYTES / 1024 / 1024} MB`);
  const bytes = await readFile(file);
  if (ext === "pdf") return { text: await pdfText(file, bytes), kind: "txt" };
  if (ext === "docx") return { text: await docxHtml(file, bytes), kind: "html" };
  return { text: bytes.toString("utf8"), kind: ext === "html" || ext === "htm" ? "html" : ext === "txt" ? "txt" : "md" };
}

async function pdfText(file: string, bytes: Buffer): Promise<string> {
  if (bytes.subarray(0, 5).toString("latin1") !== "%PDF-") throw unreadable(file, "is not a PDF");
  const { extractText, getDocumentProxy } = await import("unpdf");
  try {
    const pdf = await getDocumentProxy(new Uint8Array(bytes));
    if (pdf.numPages > MAX_PDF_PAGES) throw unreadable(file, `more than ${MAX_PDF_PAGES} pages`);
    const { text } = await extractText(pdf, { mergePages: false });
    const pages = (Array.isArray(text) ? text : [text]).map((t) => t.trim());
    if (!pages.some(Boolean)) throw unreadable(file, "has no text layer (scanned pages are not read: no OCR)");
    return pages.join("\n\n");
  } catch (err) {
    throw err instanceof CasegraphError ? err : unreadable(file, "is not a readable PDF (damaged or encrypted)", err);
  }
}

async function docxHtml(file: string, bytes: Buffer): Promise<string> {
  if (bytes.subarray(0, 2).toString("latin1") !== "PK") throw unreadable(file, "is not a DOCX (Office Open XML) file");
  const mammoth = await import("mammoth");
  try {
    return (await mammoth.convertToHtml({ buffer: bytes })).value;
  } catch (err) {
    throw unreadable(file, "is not a readable DOCX", err);
  }
}
