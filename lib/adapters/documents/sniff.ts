// What a file is by its content (issue 17): binary types by their signature (file-type), UTF-8 text by decoding its
// first 64 KB strictly, with a guess between HTML, an e-mail message and plain text. lib/ingest/kinds.ts decides.
import "server-only";
import type { Sniffed } from "../../ingest/kinds";
import { withoutByteOrderMark } from "../../domain/file-text";

const HEAD = 64 * 1024;
const EMAIL_HEADERS = /^(?:from|to|subject|date|received|message-id|return-path|mime-version|delivered-to|reply-to|cc)\s*:/i;

export async function sniff(bytes: Uint8Array): Promise<Sniffed> {
  const { fileTypeFromBuffer } = await import("file-type");
  const found = await fileTypeFromBuffer(bytes.subarray(0, Math.min(bytes.length, 1024 * 1024)));
  if (found) {
    const kind = found.ext === "pdf" ? "pdf" : found.ext === "docx" ? "docx" : null;
    return { family: "binary", mime: found.mime, ext: found.ext, kind };
  }
  // A PDF's header may sit after some junk (up to 1 KB, as readers allow); file-type wants it at the start.
  const latin = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 1024)).toString("latin1");
  if (latin.includes("%PDF-")) return { family: "binary", mime: "application/pdf", ext: "pdf", kind: "pdf" };
  const head = bytes.subarray(0, Math.min(bytes.length, HEAD));
  if (head.includes(0)) return { family: "unknown" };
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head, { stream: bytes.length > HEAD });
  } catch {
    return { family: "unknown" };
  }
  const text = withoutByteOrderMark(new TextDecoder().decode(head.subarray(0, 8192)));
  if (/^\s*(?:<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(text)) return { family: "text", guess: "html" };
  const lines = text.split(/\r?\n/, 30);
  const headerLines = lines.slice(0, lines.findIndex((l) => l.trim() === "") >>> 0).filter((l) => EMAIL_HEADERS.test(l));
  if (headerLines.length >= 2 && EMAIL_HEADERS.test(lines[0])) return { family: "text", guess: "email" };
  return { family: "text", guess: "text" };
}
