// What a reviewer may see of a ledger entry (issue 11 §6). Answer entries name the nodes, edges and evidence the model
// saw and cited; a supervisor whose own clearance or need-to-know does not cover an item must not learn even its id
// from the audit trail. The entry is verified on the full, stored payload; what is shown is this redacted copy, with a
// count of what was left out ("3 items outside your permissions").

/** Payload fields that list case items by id (lib/graphrag/audit.ts). */
export const ITEM_ID_FIELDS = [
  "context_node_ids",
  "context_edge_ids",
  "context_evidence_ids",
  "citation_ids",
  "invalid_citation_ids",
  "thread_seed_ids",
  "expired_context_evidence_ids",
  "expired_citation_ids",
] as const;

const idsIn = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/** Every item id an entry's payload names, once each, sorted. */
export function itemIdsOf(payload: Record<string, unknown>): string[] {
  return [...new Set(ITEM_ID_FIELDS.flatMap((f) => idsIn(payload[f])))].sort();
}

export interface RedactedPayload {
  payload: Record<string, unknown>;
  /** Distinct item ids removed because the reviewer may not see them. */
  hiddenItems: number;
}

/** The payload with every hidden id removed from the id lists; everything else as stored. */
export function redactPayload(payload: Record<string, unknown>, hidden: (id: string) => boolean): RedactedPayload {
  const removed = new Set<string>();
  const out: Record<string, unknown> = { ...payload };
  for (const field of ITEM_ID_FIELDS) {
    if (!Array.isArray(payload[field])) continue;
    out[field] = idsIn(payload[field]).filter((id) => {
      if (!hidden(id)) return true;
      removed.add(id);
      return false;
    });
  }
  return { payload: out, hiddenItems: removed.size };
}

export const hiddenItemsText = (n: number) => `${n} item${n === 1 ? "" : "s"} outside your permissions`;

/**
 * Entries about an ingested document (issue 17: `evidence.ingest`, `evidence.ingest_refused`) name the file; a file
 * name can say what a document holds ("informant-debrief.pdf"), so a reviewer whose permissions do not cover the
 * document's markings sees it replaced, and counted. `covers` decides with the same policy as evidence.
 */
export function redactDocumentName(
  r: RedactedPayload,
  covers: (marking: { classification: unknown; needToKnow: unknown }) => boolean,
): RedactedPayload {
  const doc = r.payload.document as Record<string, unknown> | undefined;
  const markings = r.payload.markings as { classification?: unknown; needToKnow?: unknown } | undefined;
  if (!doc || typeof doc !== "object" || typeof doc.name !== "string") return r;
  // No markings (a refusal before they could be read): nobody's permissions are known to cover it.
  if (markings && typeof markings === "object" && covers({ classification: markings.classification, needToKnow: markings.needToKnow }))
    return r;
  return { payload: { ...r.payload, document: { ...doc, name: "[outside your permissions]" } }, hiddenItems: r.hiddenItems + 1 };
}
