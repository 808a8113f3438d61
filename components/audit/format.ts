// Small display helpers shared by the audit explorer's server and client components.
export function utc(iso: string): string {
  return iso.replace("T", " ").replace(/\.\d{3}Z$/, " UTC");
}

export function shortHash(h: string, n = 12): string {
  return h.length > n ? `${h.slice(0, n)}…` : h;
}

export function kindLabel(kind: string): string {
  if (kind === "graphrag.answer") return "answer";
  return kind.replace(/^admin\./, "admin · ").replace(/^audit\./, "audit · ");
}

export const RESPONSE_TONE: Record<string, "green" | "amber" | "red" | "neutral" | "blue"> = {
  answer: "green",
  no_evidence: "neutral",
  refused: "blue",
  unable: "amber",
  error: "red",
  escalated: "amber",
};

/** An answer entry's claim-support counts (issue 13), in words; "—" for entries written before they were recorded. */
export function claimSupportSummary(payload: Record<string, unknown>): string {
  const c = payload.claim_support as { supported?: unknown; partial?: unknown; unsupported?: unknown } | undefined;
  if (!c || typeof c !== "object") return "—";
  const n = (v: unknown) => (typeof v === "number" ? v : 0);
  return (
    `${n(c.supported)} supported, ${n(c.partial)} partly supported, ${n(c.unsupported)} unsupported (removed); ` +
    `${n(payload.dropped_directive_count)} repeating instructions from evidence and ${n(payload.dropped_unsupported_step_count)} unsupported steps removed`
  );
}
