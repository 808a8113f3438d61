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
};
