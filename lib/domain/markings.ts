// Markings: classification levels, licenses' allowed uses and need-to-know tags (docs/architecture.md "Where policy applies").
//
// Two ways in, on purpose different: `parseClassification` reads what a person wrote in a bundle (aliases, any case,
// surrounding spaces) and its caller reports what it cannot read; the `read*` functions read what comes back from a
// store, a session or a token, where only the canonical form is valid and anything else is UNREADABLE. The policy
// (lib/domain/policy.ts) denies an unreadable marking and gives an unreadable clearance nothing, so a value written
// by another tool ("SECRET//NOFORN", "secret ", null, 3) can never widen what anyone sees.

export const CLASSIFICATIONS = ["PUBLIC", "CUI", "CONFIDENTIAL", "SECRET", "TOP_SECRET", "TS_SCI"] as const;
export type Classification = (typeof CLASSIFICATIONS)[number];

/** A marking or clearance read back from storage that is not one of CLASSIFICATIONS. Denies; grants nothing. */
export const UNREADABLE = "UNREADABLE" as const;
export type StoredClassification = Classification | typeof UNREADABLE;

const ALIASES: Record<string, Classification> = {
  UNCLASSIFIED: "PUBLIC",
  U: "PUBLIC",
  TS: "TOP_SECRET",
  "TOP SECRET": "TOP_SECRET",
  "TS-SCI": "TS_SCI",
  "TS/SCI": "TS_SCI",
};

const isClassification = (raw: unknown): raw is Classification =>
  typeof raw === "string" && (CLASSIFICATIONS as readonly string[]).includes(raw);

/** Parses a marking as written in a bundle. Unknown markings return null: the caller reports them, never defaults. */
export function parseClassification(raw: unknown): Classification | null {
  if (typeof raw !== "string") return null;
  const key = raw.trim().toUpperCase();
  if (isClassification(key)) return key;
  return ALIASES[key] ?? null;
}

/** A stored marking or clearance: exactly a canonical name, or UNREADABLE (no trimming, no aliases, no case folding). */
export function readClassification(raw: unknown): StoredClassification {
  return isClassification(raw) ? raw : UNREADABLE;
}

/** Rank in the lattice; -1 for anything that is not a canonical marking. */
export function classificationRank(c: unknown): number {
  return isClassification(c) ? CLASSIFICATIONS.indexOf(c) : -1;
}

/**
 * True when a holder of `clearance` may read an item marked `marking`. Total over any input and fail-closed: an
 * unreadable marking is covered by no clearance, and an unreadable clearance covers nothing.
 */
export function clearanceCovers(clearance: unknown, marking: unknown): boolean {
  const held = classificationRank(clearance);
  const needed = classificationRank(marking);
  return held >= 0 && needed >= 0 && needed <= held;
}

export const LICENSE_USES = ["INGEST", "ANALYZE", "INTERNAL_USE", "EXPORT", "FULL_ACCESS"] as const;
export type LicenseUse = (typeof LICENSE_USES)[number];

/** A license's stored uses: the known ones, in catalogue order; null (no use at all) when not a list. Unknown uses grant nothing. */
export function readLicenseUses(raw: unknown): LicenseUse[] | null {
  if (!Array.isArray(raw)) return null;
  return LICENSE_USES.filter((use) => raw.includes(use));
}

export const ROLES = ["investigator", "supervisor", "admin"] as const;
export type Role = (typeof ROLES)[number];

/** Stored roles: the known ones only, in catalogue order (an unknown role grants nothing). */
export function readRoles(raw: unknown): Role[] {
  return Array.isArray(raw) ? ROLES.filter((role) => raw.includes(role)) : [];
}

export const CASE_STATUSES = ["OPEN", "CLOSED", "ARCHIVED"] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

/** Need-to-know tags are compared case-insensitively and stored normalised. */
export function normaliseTag(tag: string): string {
  return tag.trim().toLowerCase();
}

/** Stored need-to-know tags: a list of non-blank strings, or null when the list (or any tag in it) is unreadable. */
export function readTags(raw: unknown): string[] | null {
  if (!Array.isArray(raw)) return null;
  const tags: string[] = [];
  for (const tag of raw) {
    if (typeof tag !== "string" || normaliseTag(tag) === "") return null;
    tags.push(tag);
  }
  return tags;
}

/** Tags a user holds, as stored: the readable ones (an unreadable tag is simply not held). */
export function readHeldTags(raw: unknown): string[] {
  return Array.isArray(raw) ? raw.filter((tag): tag is string => typeof tag === "string" && normaliseTag(tag) !== "") : [];
}

/** A stored tenant id: a non-blank string, or "" (which matches no tenant). */
export function readTenantId(raw: unknown): string {
  return typeof raw === "string" && raw.trim() !== "" ? raw : "";
}

/**
 * An item's stored marking read as a whole: tenant, classification and tags. When the tags are unreadable the whole
 * marking is (an item whose need-to-know cannot be read must not fall back to "no restriction").
 */
/** A marking as stored in a database row (snake_case columns). */
export function readRowMarking(r: { tenant_id: unknown; classification: unknown; need_to_know: unknown }) {
  return readMarking({ tenantId: r.tenant_id, classification: r.classification, needToKnow: r.need_to_know });
}

export function readMarking(raw: { tenantId: unknown; classification: unknown; needToKnow: unknown }): {
  tenantId: string;
  classification: StoredClassification;
  needToKnow: string[];
} {
  const tags = readTags(raw.needToKnow);
  return {
    tenantId: readTenantId(raw.tenantId),
    classification: tags === null ? UNREADABLE : readClassification(raw.classification),
    needToKnow: tags ?? [],
  };
}
