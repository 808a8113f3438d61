// The playbook catalogue (issue 16, seed 003): what a playbook is, the labels the filter reads, and how a playbook is
// written in a workspace bundle or the admin form. Labels never reach the model: it gets id, version, description and
// a confidence (lib/playbooks/view.ts). Pure.
import { z } from "zod";
import { normaliseTag, parseClassification, type Classification, type Role } from "../domain/markings";
import { isStopword, stem, words } from "../graphrag/text";

export const RISK_LEVELS = ["low", "medium", "high"] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

/** What a step needs before anyone may take it, from none to a court's order. */
export const AUTHORITIES = ["none", "supervisor_approval", "subpoena", "warrant", "court_order"] as const;
export type Authority = (typeof AUTHORITIES)[number];

/** The legal process a user can hold (user.legalAuthority); `none` and `supervisor_approval` come with the roles. */
export const LEGAL_AUTHORITIES = ["subpoena", "warrant", "court_order"] as const;
export type LegalAuthority = (typeof LEGAL_AUTHORITIES)[number];

/** '*' owns the shared playbooks (imported by operators, visible to every tenant). */
export const SHARED_OWNER = "*";

export interface Playbook {
  id: string;
  version: string;
  description: string;
  caseTypes: string[];
  jurisdictions: string[];
  requiredAuthority: Authority;
  minClearance: Classification;
  riskLevel: RiskLevel;
  /** The maintaining tenant; null: shared. */
  tenant: string | null;
  needToKnow: string[];
  active: boolean;
}

/** Case types and jurisdictions are compared trimmed, lower-case, with single spaces. */
export function normaliseLabel(value: string): string {
  return value.trim().toLowerCase().replace(/\s+/g, " ");
}

/** "Supervisor approval", "court-order", "COURT_ORDER" → the canonical name; null when it is none of them. */
export function parseAuthority(raw: unknown): Authority | null {
  if (typeof raw !== "string") return null;
  const key = raw
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
  return (AUTHORITIES as readonly string[]).includes(key) ? (key as Authority) : null;
}

export function parseRiskLevel(raw: unknown): RiskLevel | null {
  if (typeof raw !== "string") return null;
  const key = raw.trim().toLowerCase();
  return (RISK_LEVELS as readonly string[]).includes(key) ? (key as RiskLevel) : null;
}

/**
 * The authorities an asker holds: `none` always, `supervisor_approval` with a role that may ask (every suggestion goes
 * through a supervisor's approval anyway), and the legal process their record lists. Unknown values grant nothing.
 */
export function heldAuthorities(roles: readonly Role[], legalAuthority: unknown): Authority[] {
  const held = new Set<Authority>(["none"]);
  if (roles.includes("investigator") || roles.includes("supervisor")) held.add("supervisor_approval");
  if (Array.isArray(legalAuthority))
    for (const a of legalAuthority) if ((LEGAL_AUTHORITIES as readonly string[]).includes(a)) held.add(a as Authority);
  return AUTHORITIES.filter((a) => held.has(a));
}

/**
 * The lexical terms of a text, as relevance compares them: words (identifiers kept whole), lower-cased, stopwords and
 * one-letter words dropped, lightly stemmed, unique and sorted. Stored with each playbook's description.
 */
export function descriptionTerms(text: string): string[] {
  const out = new Set<string>();
  for (const w of words(text)) if (w.lower.length > 1 && !isStopword(w.lower)) out.add(stem(w.lower));
  return [...out].sort();
}

// ------------------------------------------------------------------------------------------------ bundle / form shape

const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;
export const PLAYBOOK_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/;
const label = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(80, "must be at most 80 characters")
  .regex(NO_CONTROL, "must not contain control characters");

/** A playbook as written in a bundle's `playbooks` section or the admin form; aliases and any case accepted. */
export const playbookInputSchema = z
  .object({
    id: z.string().trim().regex(PLAYBOOK_ID, "letters, digits and . _ : - (at most 100), starting with a letter or digit"),
    version: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(40, "must be at most 40 characters")
      .regex(NO_CONTROL, "must not contain control characters"),
    description: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(500, "must be at most 500 characters")
      .regex(NO_CONTROL, "must be one line of plain text"),
    caseTypes: z.array(label).max(50).optional(),
    jurisdictions: z.array(label).max(50).optional(),
    requiredAuthority: z.string(),
    minClearance: z.string(),
    riskLevel: z.string(),
    tenant: z.string().trim().min(1).max(200).optional(),
    needToKnow: z.array(label).max(50).optional(),
    active: z.boolean().optional(),
  })
  .strict();
export type PlaybookInput = z.infer<typeof playbookInputSchema>;

/** The problems of the three enumerated labels, each with its field; [] when they read. */
export function labelProblems(input: Pick<PlaybookInput, "requiredAuthority" | "minClearance" | "riskLevel">) {
  const problems: Array<{ path: "requiredAuthority" | "minClearance" | "riskLevel"; message: string }> = [];
  if (!parseAuthority(input.requiredAuthority))
    problems.push({ path: "requiredAuthority", message: `unknown authority "${input.requiredAuthority}" (${AUTHORITIES.join(", ")})` });
  if (!parseClassification(input.minClearance)) problems.push({ path: "minClearance", message: `unknown marking "${input.minClearance}"` });
  if (!parseRiskLevel(input.riskLevel))
    problems.push({ path: "riskLevel", message: `unknown risk level "${input.riskLevel}" (low, medium, high)` });
  return problems;
}

const sortedUnique = (list: readonly string[] | undefined, f: (s: string) => string) => [...new Set((list ?? []).map(f))].sort();

/** The canonical playbook of a checked input (labels normalised and sorted). Callers checked labelProblems first. */
export function toPlaybook(input: PlaybookInput): Playbook {
  return {
    id: input.id,
    version: input.version,
    description: input.description.replace(/\s+/g, " "),
    caseTypes: sortedUnique(input.caseTypes, normaliseLabel),
    jurisdictions: sortedUnique(input.jurisdictions, normaliseLabel),
    requiredAuthority: parseAuthority(input.requiredAuthority)!,
    minClearance: parseClassification(input.minClearance)!,
    riskLevel: parseRiskLevel(input.riskLevel)!,
    tenant: input.tenant ?? null,
    needToKnow: sortedUnique(input.needToKnow, normaliseTag),
    active: input.active ?? true,
  };
}

/** A playbook as a bundle holds it (canonical: what export writes and import reads back unchanged). */
export function bundleEntry(p: Playbook) {
  return {
    id: p.id,
    version: p.version,
    description: p.description,
    caseTypes: p.caseTypes,
    jurisdictions: p.jurisdictions,
    requiredAuthority: p.requiredAuthority,
    minClearance: p.minClearance,
    riskLevel: p.riskLevel,
    ...(p.tenant ? { tenant: p.tenant } : {}),
    needToKnow: p.needToKnow,
    active: p.active,
  };
}
