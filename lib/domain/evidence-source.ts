// Where evidence made from an ingested document comes from (issue 17), read from the item's metadata: the document,
// page, offsets or CSV line, section, and the links the entity linker recorded — restricted to the nodes the reader may
// see, so a link never names a node hidden from them.
import type { EvidenceSource } from "./workbench-views";

/** The source fields of an evidence item's metadata, links restricted to the nodes the user may see. */
export function evidenceSource(metadata: Record<string, unknown>, visibleNodes: ReadonlySet<string>): EvidenceSource | null {
  if (typeof metadata.documentId !== "string") return null;
  const num = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
  const links = Array.isArray(metadata.links) ? (metadata.links as Array<Record<string, unknown>>) : [];
  return {
    documentId: metadata.documentId,
    document: typeof metadata.document === "string" ? metadata.document : metadata.documentId,
    ...(num(metadata.page) !== undefined ? { page: num(metadata.page) } : {}),
    ...(num(metadata.start) !== undefined ? { start: num(metadata.start) } : {}),
    ...(num(metadata.end) !== undefined ? { end: num(metadata.end) } : {}),
    ...(num(metadata.line) !== undefined ? { line: num(metadata.line) } : {}),
    ...(typeof metadata.section === "string" ? { section: metadata.section } : {}),
    links: links
      .filter((l) => typeof l?.node === "string" && visibleNodes.has(l.node))
      .map((l) => ({ node: l.node as string, kind: String(l.kind ?? ""), matched: String(l.matched ?? "") })),
  };
}

/** Metadata keys the source already shows (the evidence panel lists the rest as they are). */
export const SOURCE_KEYS = new Set(["documentId", "document", "page", "pageEnd", "start", "end", "line", "section", "chunk", "links"]);
