// Seed 003's filter before the model: deterministic label matching removes every playbook that does not fit the case,
// the asker and the tenant; lexical relevance ranks the rest; confidence = 0.5 · relevance + 0.5 · label match.
//
// The catalogue store runs this filter IN THE DATABASE (lib/adapters/prisma/playbook-store.ts); the functions here are
// its reference: the in-memory catalogue of the unit tests uses them, and the integration property test checks that
// the SQL returns exactly what they return, for random catalogues and askers. Deny by default: a label that cannot be
// read (not one of the canonical values, a blank tag, not a list) filters the playbook out, whoever asks.
import { clearanceCovers, normaliseTag, readClassification, UNREADABLE, type StoredClassification } from "../domain/markings";
import { AUTHORITIES, RISK_LEVELS, SHARED_OWNER, type Authority, type RiskLevel } from "./catalogue";

/** Why a playbook of the tenant's catalogue was filtered out: the first label (in this order) that does not fit. */
export const FILTER_REASONS = [
  "inactive",
  "unreadable_label",
  "case_type",
  "jurisdiction",
  "clearance",
  "need_to_know",
  "authority",
  "risk",
] as const;
export type FilterReason = (typeof FILTER_REASONS)[number];

export const DEFAULT_MAX_RESULTS = 5;
export const HARD_MAX_RESULTS = 20;
export const DEFAULT_MIN_CONFIDENCE = 0;

/** Everything the filter and the ranking read: the case's labels, the asker, the tenant, the question's terms. */
export interface SelectionQuery {
  tenantId: string;
  /** The case's labels (normalised); null: unlabelled, so only playbooks naming none fit. */
  caseType: string | null;
  jurisdiction: string | null;
  clearance: StoredClassification;
  needToKnow: readonly string[];
  /** heldAuthorities(roles, legalAuthority). */
  authorities: readonly Authority[];
  /** The tenant's risk tolerance; null when it cannot be read (then nothing fits). */
  riskTolerance: RiskLevel | null;
  /** descriptionTerms of the question (and of the last answer on a follow-up). */
  terms: readonly string[];
  minConfidence: number;
  maxResults: number;
}

/** A catalogue row as stored. Typed loosely on purpose: a value another tool wrote must deny, not throw or widen. */
export interface StoredPlaybook {
  owner: string;
  id: string;
  version: string;
  description: string;
  terms: unknown;
  caseTypes: unknown;
  jurisdictions: unknown;
  requiredAuthority: unknown;
  minClearance: unknown;
  riskLevel: unknown;
  needToKnow: unknown;
  active: unknown;
  revision: number;
}

/** A playbook that passed the filter, ranked: the four fields the model may see, and whose it is. */
export interface Candidate {
  owner: string;
  id: string;
  version: string;
  description: string;
  confidence: number;
  relevance: number;
  labelMatch: number;
}

export interface SelectionCounts {
  /** Playbooks in the tenant's view of the catalogue (its own and the shared ones). */
  catalogue: number;
  /** Passed every label. */
  allowed: number;
  /** Removed by a label (sum of byReason). */
  filtered: number;
  byReason: Record<FilterReason, number>;
  /** Allowed, but under min_confidence. */
  belowMinConfidence: number;
  /** Allowed and above min_confidence, but past max_results. */
  beyondMaxResults: number;
  /** What the model is offered. */
  offered: number;
}

export interface Selection {
  candidates: Candidate[];
  counts: SelectionCounts;
  /** "rev-<n>": the highest revision in the tenant's view of the catalogue (every write takes a new one; nothing is deleted). */
  catalogueVersion: string;
}

export const inScope = (q: Pick<SelectionQuery, "tenantId">, owner: string) =>
  q.tenantId !== "" && (owner === q.tenantId || owner === SHARED_OWNER);

// Stored labels are written normalised (lib/playbooks/catalogue.ts) and compared as stored: a tag another tool wrote
// in another form matches nobody, which denies.
const isLabelList = (raw: unknown): raw is string[] => Array.isArray(raw) && raw.every((t) => typeof t === "string" && t !== "");
const rank = (list: readonly string[], v: unknown) => (typeof v === "string" ? list.indexOf(v) : -1);

/** The first label that does not fit, or null when the playbook may be offered. Total over any stored values. */
export function filterReason(q: SelectionQuery, p: StoredPlaybook): FilterReason | null {
  if (p.active !== true) return "inactive";
  if (
    !isLabelList(p.caseTypes) ||
    !isLabelList(p.jurisdictions) ||
    !isLabelList(p.needToKnow) ||
    rank(AUTHORITIES, p.requiredAuthority) < 0 ||
    readClassification(p.minClearance) === UNREADABLE ||
    rank(RISK_LEVELS, p.riskLevel) < 0
  )
    return "unreadable_label";
  if (p.caseTypes.length && (q.caseType === null || !p.caseTypes.includes(q.caseType))) return "case_type";
  if (p.jurisdictions.length && (q.jurisdiction === null || !p.jurisdictions.includes(q.jurisdiction))) return "jurisdiction";
  if (!clearanceCovers(q.clearance, p.minClearance)) return "clearance";
  if (p.needToKnow.length) {
    const held = new Set(q.needToKnow.map(normaliseTag));
    if (!p.needToKnow.some((t) => held.has(t))) return "need_to_know";
  }
  if (!q.authorities.includes(p.requiredAuthority as Authority)) return "authority";
  if (q.riskTolerance === null || rank(RISK_LEVELS, p.riskLevel) > rank(RISK_LEVELS, q.riskTolerance)) return "risk";
  return null;
}

/** Label match of an allowed playbook: per label (case type, jurisdiction), 1 when it names the case's, ½ when it names none. */
export function labelMatch(p: Pick<StoredPlaybook, "caseTypes" | "jurisdictions">): number {
  const dim = (list: unknown) => (Array.isArray(list) && list.length ? 1 : 0.5);
  return (dim(p.caseTypes) + dim(p.jurisdictions)) / 2;
}

/** Overlap coefficient of the query's terms and the description's: |Q ∩ D| / min(|Q|, |D|), in [0, 1]. */
export function relevance(queryTerms: readonly string[], descriptionTerms: unknown): number {
  const d = Array.isArray(descriptionTerms) ? descriptionTerms : [];
  if (queryTerms.length === 0 || d.length === 0) return 0;
  const q = new Set(queryTerms);
  const hits = d.filter((t) => q.has(t as string)).length;
  return Math.min(1, hits / Math.min(queryTerms.length, d.length));
}

export const confidenceOf = (rel: number, match: number) => 0.5 * rel + 0.5 * match;

/** Orders candidates: confidence, highest first; then id in code-unit order (SQL: COLLATE "C"). */
export function byConfidence(a: Candidate, b: Candidate): number {
  if (a.confidence !== b.confidence) return b.confidence - a.confidence;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function emptyCounts(): SelectionCounts {
  return {
    catalogue: 0,
    allowed: 0,
    filtered: 0,
    byReason: Object.fromEntries(FILTER_REASONS.map((r) => [r, 0])) as Record<FilterReason, number>,
    belowMinConfidence: 0,
    beyondMaxResults: 0,
    offered: 0,
  };
}

/** The whole selection over rows in memory: the reference the SQL store must equal. */
export function selectFromRows(rows: readonly StoredPlaybook[], q: SelectionQuery): Selection {
  const counts = emptyCounts();
  let revision = 0;
  const ranked: Candidate[] = [];
  for (const p of rows) {
    if (!inScope(q, p.owner)) continue;
    counts.catalogue++;
    revision = Math.max(revision, p.revision);
    const reason = filterReason(q, p);
    if (reason) {
      counts.filtered++;
      counts.byReason[reason]++;
      continue;
    }
    counts.allowed++;
    const rel = relevance(q.terms, p.terms);
    const match = labelMatch(p);
    const confidence = confidenceOf(rel, match);
    if (confidence < q.minConfidence) {
      counts.belowMinConfidence++;
      continue;
    }
    ranked.push({
      owner: p.owner,
      id: p.id,
      version: p.version,
      description: p.description,
      confidence,
      relevance: rel,
      labelMatch: match,
    });
  }
  ranked.sort(byConfidence);
  const candidates = ranked.slice(0, q.maxResults);
  counts.beyondMaxResults = ranked.length - candidates.length;
  counts.offered = candidates.length;
  return { candidates, counts, catalogueVersion: `rev-${revision}` };
}
