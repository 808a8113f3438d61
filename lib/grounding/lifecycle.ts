// The evidence lifecycle (issue 15, seed 004 §5): an item is active, expired (past its validUntil, or older than its
// tenant's maximum age for its type) or revoked (an admin's decision with a reason). Only active evidence is
// retrieved, shown, cited or reused; the stores enforce it in their queries (lib/adapters/prisma/evidence-active.ts),
// this module states the same rule for what is computed in the process (reuse checks, artifacts, import checks).
import { createHash } from "node:crypto";

export type EvidenceState = "active" | "expired" | "revoked";

export interface LifecycleFacts {
  type: string;
  collectedAt: string;
  validUntil?: string | null;
  revokedAt?: string | null;
}

/** Maximum age in days per evidence type, as a tenant configures it. */
export type MaxAgeDays = Readonly<Record<string, number>>;

const DAY_MS = 86_400_000;

/** Revoked wins over expired: a revocation is a decision, an expiry only time passing. */
export function evidenceState(e: LifecycleFacts, now: Date, maxAgeDays: MaxAgeDays = {}): EvidenceState {
  if (e.revokedAt) return "revoked";
  const expiry = expiryOf(e, maxAgeDays);
  return expiry !== null && Date.parse(expiry) <= now.getTime() ? "expired" : "active";
}

/**
 * When the item stops (or stopped) being active by time, ISO-8601: the earlier of its validUntil and its collection
 * time plus its tenant's maximum age for its type; null when neither applies. A held draft says "expired on" this.
 */
export function expiryOf(e: LifecycleFacts, maxAgeDays: MaxAgeDays = {}): string | null {
  const days = Object.hasOwn(maxAgeDays, e.type) ? maxAgeDays[e.type] : undefined;
  const times = [
    ...(e.validUntil ? [Date.parse(e.validUntil)] : []),
    ...(days !== undefined ? [Date.parse(e.collectedAt) + days * DAY_MS] : []),
  ].filter(Number.isFinite);
  return times.length ? new Date(Math.min(...times)).toISOString() : null;
}

/**
 * The content digest duplicate detection and reuse compare: SHA-256 of the text in Unicode NFC with runs of ASCII
 * whitespace collapsed to one space and trimmed. The database's casegraph_content_sha256() computes the same.
 */
export function contentSha256(content: string): string {
  const normalised = content
    .normalize("NFC")
    .replace(/[ \t\n\r\f\v]+/g, " ")
    .replace(/^ +| +$/g, "");
  return createHash("sha256").update(normalised, "utf8").digest("hex");
}

/** The header our own provenance footer starts with (lib/grounding/provenance.ts renders it). */
export const PROVENANCE_FOOTER_HEADER = "Casegraph answer provenance";

/**
 * Text in evidence that would spoof a provenance block or inject identity facts (seed 004 §7): refused on import,
 * never stripped — an item carrying one is not trusted at all. Compared case-insensitively with whitespace collapsed.
 */
const FORGED_MARKERS: ReadonlyArray<{ marker: string; reason: "provenance" | "identity" }> = [
  { marker: "### execution provenance", reason: "provenance" },
  { marker: PROVENANCE_FOOTER_HEADER.toLowerCase(), reason: "provenance" },
  { marker: "[[identity_facts_read_only]]", reason: "identity" },
  { marker: "[[identity_facts", reason: "identity" },
];

export function forgedMarkerIn(content: string): { marker: string; reason: "provenance" | "identity" } | null {
  const text = content.normalize("NFKC").toLowerCase().replace(/\s+/g, " ");
  for (const m of FORGED_MARKERS) if (text.includes(m.marker)) return m;
  return null;
}
