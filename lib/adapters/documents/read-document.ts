// Reads a document's text for the policy extractor: Markdown, text and HTML as they are, PDF through its text layer
// and DOCX through mammoth (to HTML, so headings still mark sections) — the same parsers, limits and ZIP guard as
// document ingest (parse.ts; no OCR). A file over the size limit or a PDF over the page limit is refused before it is
// parsed; whatever cannot be read is CG-POLICY-088 naming the file.
import "server-only";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { CasegraphError } from "../../domain/failure-codes";
import { DEFAULT_PARSE_LIMITS, docxHtml, parseDocument } from "./parse";

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
  const name = path.basename(file);
  try {
    if (ext === "pdf") {
      if (!bytes.subarray(0, 1024).toString("latin1").includes("%PDF-")) throw unreadable(file, "is not a PDF");
      const parsed = await parseDocument(name, "pdf", bytes, { ...DEFAULT_PARSE_LIMITS, maxPdfPages: MAX_PDF_PAGES });
      return { text: parsed.blocks.map((b) => b.text).join("\n\n"), kind: "txt" };
    }
    if (ext === "docx") {
      if (bytes.subarray(0, 2).toString("latin1") !== "PK") throw unreadable(file, "is not a DOCX (Office Open XML) file");
      return { text: await docxHtml(name, bytes), kind: "html" };
    }
  } catch (err) {
    // The parsers' coded errors (damaged, encrypted, no text layer, zip bomb…) become this command's one code.
    if (err instanceof CasegraphError && err.code !== "CG-POLICY-088") throw unreadable(file, err.message.replace(`${name}: `, ""), err);
    throw err;
  }
  return { text: bytes.toString("utf8"), kind: ext === "html" || ext === "htm" ? "html" : ext === "txt" ? "txt" : "md" };
}
