// Which parser reads a file (issue 17): decided by its content, checked against its name. A file whose extension
// names one type and whose content is another is refused (CG-INGEST-006); content of no supported type is refused with
// the type found (CG-INGEST-003). Pure: the adapter sniffs the bytes (lib/adapters/documents/sniff.ts).
import path from "node:path";

export const DOCUMENT_KINDS = ["pdf", "docx", "html", "markdown", "text", "email", "csv"] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** The file extensions each kind is read from. */
export const EXTENSIONS: Readonly<Record<string, DocumentKind>> = {
  pdf: "pdf",
  docx: "docx",
  html: "html",
  htm: "html",
  xhtml: "html",
  md: "markdown",
  markdown: "markdown",
  txt: "text",
  text: "text",
  eml: "email",
  csv: "csv",
};

/** The evidence type a document of each kind gets unless the uploader names one. */
export const DEFAULT_EVIDENCE_TYPE: Readonly<Record<DocumentKind, string>> = {
  pdf: "document",
  docx: "document",
  html: "document",
  markdown: "document",
  text: "document",
  email: "email",
  csv: "call_record",
};

export const MEDIA_TYPES: Readonly<Record<DocumentKind, string>> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  html: "text/html",
  markdown: "text/markdown",
  text: "text/plain",
  email: "message/rfc822",
  csv: "text/csv",
};

const TEXT_KINDS: ReadonlySet<DocumentKind> = new Set(["html", "markdown", "text", "email", "csv"]);

/** What the content looks like: a binary type (by signature), UTF-8 text (with a guess), or neither. */
export type Sniffed =
  | { family: "binary"; mime: string; ext: string; kind: DocumentKind | null }
  | { family: "text"; guess: "html" | "email" | "text" }
  | { family: "unknown" };

export type KindDecision = { kind: DocumentKind } | { code: "CG-INGEST-003" | "CG-INGEST-006"; why: string };

const described = (s: Sniffed) => (s.family === "binary" ? `${s.mime} (.${s.ext})` : s.family === "text" ? "text" : "of no known type");

export function decideKind(fileName: string, sniffed: Sniffed): KindDecision {
  const ext = path.extname(fileName).toLowerCase().slice(1);
  const named = EXTENSIONS[ext] as DocumentKind | undefined;
  const byContent: DocumentKind | null =
    sniffed.family === "binary" ? sniffed.kind : sniffed.family === "text" ? (sniffed.guess === "text" ? "text" : sniffed.guess) : null;
  if (named) {
    if (named === "pdf" || named === "docx") {
      if (byContent === named) return { kind: named };
      // A DOCX is a ZIP archive; one that does not look like a DOCX to the sniffer is checked by the ZIP guard and the
      // DOCX parser (a zip bomb is CG-INGEST-004, an archive without a document CG-INGEST-001).
      if (named === "docx" && sniffed.family === "binary" && sniffed.ext === "zip") return { kind: "docx" };
      return { code: "CG-INGEST-006", why: `named .${ext} but is ${described(sniffed)} by its content` };
    }
    if (sniffed.family === "text") return { kind: named };
    return { code: "CG-INGEST-006", why: `named .${ext} but is ${described(sniffed)} by its content` };
  }
  if (ext && sniffed.family === "binary" && sniffed.ext === ext) {
    return { code: "CG-INGEST-003", why: `${sniffed.mime} is not a supported document type` };
  }
  if (ext && byContent) return { code: "CG-INGEST-006", why: `named .${ext} but is ${described(sniffed)} by its content` };
  if (byContent) return { kind: byContent };
  return { code: "CG-INGEST-003", why: `${described(sniffed)} is not a supported document type` };
}

export const isTextKind = (k: DocumentKind) => TEXT_KINDS.has(k);
