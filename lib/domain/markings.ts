// Markings: classification levels, licenses' allowed uses and need-to-know tags (DESIGN.md: Markings).

export const CLASSIFICATIONS = ["PUBLIC", "CUI", "CONFIDENTIAL", "SECRET", "TOP_SECRET", "TS_SCI"] as const;
export type Classification = (typeof CLASSIFICATIONS)[number];

const ALIASES: Record<string, Classification> = {
  UNCLASSIFIED: "PUBLIC",
  U: "PUBLIC",
  TS: "TOP_SECRET",
  "TOP SECRET": "TOP_SECRET",
  "TS-SCI": "TS_SCI",
  "TS/SCI": "TS_SCI",
};

/** Parses a marking as written in a bundle. Unknown markings return null: the caller reports them, never defaults. */
export function parseClassification(raw: unknown): Classification | null {
  if (typeof raw !== "string") return null;
  const key = raw.trim().toUpperCase();
  if ((CLASSIFICATIONS as readonly string[]).includes(key)) return key as Classification;
  return ALIASES[key] ?? null;
}

export function classificationRank(c: Classification): number {
  return CLASSIFICATIONS.indexOf(c);
}

/** True when a holder of `clearance` may read an item marked `marking`. */
export function clearanceCovers(clearance: Classification, marking: Classification): boolean {
  return classificationRank(marking) <= classificationRank(clearance);
}

export const LICENSE_USES = ["INGEST", "ANALYZE", "INTERNAL_USE", "EXPORT", "FULL_ACCESS"] as const;
export type LicenseUse = (typeof LICENSE_USES)[number];

export const ROLES = ["investigator", "supervisor", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const CASE_STATUSES = ["OPEN", "CLOSED", "ARCHIVED"] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

/** Need-to-know tags are compared case-insensitively and stored normalised. */
export function normaliseTag(tag: string): string {
  return tag.trim().toLowerCase();
}
