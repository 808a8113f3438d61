// Step 8 — Audit: one hash-chained ledger entry per request, whatever the outcome (seed 000 §4.1 fields + seed 002's
// audit columns). It records ids, counts and hashes — what the model saw is identified by ids, the answer by its
// SHA-256 — never evidence text. The hashed payload holds the question's SHA-256 (query_sha256); with
// AUDIT_QUERY_MODE=text the question text is stored next to the entry, outside the hash (LedgerAppend.redactable), so
// retention can erase it after AUDIT_RETENTION_DAYS without breaking the chain; with `hash` only the SHA-256 is kept.
import { canonicalJson } from "../domain/canonical-json";
import { asCasegraphError, CasegraphError } from "../domain/failure-codes";
import { sha256Hex } from "../domain/ledger-chain";
import type { Ledger } from "../ports";
import type { HoldFacts } from "./hold";
import type { PolicySummary } from "./policy-filter";
import type { ValidationReport } from "./validate";
import type { Asker, RawContext, ResponseType } from "./types";

export const AUDIT_KIND = "graphrag.answer";

export { sha256Hex as sha256 };

export interface AuditFacts {
  auditId: string;
  requestId: string;
  timestamp: string;
  promptVersion: string;
  queryMode: "text" | "hash";
  asker: Asker;
  caseId: string | null;
  question: string | null;
  model: { provider: string; id: string } | null;
  responseType: ResponseType;
  errorCode?: string;
  errorMessage?: string;
  rawContext?: RawContext;
  policy?: PolicySummary;
  validation?: ValidationReport;
  citationIds?: string[];
  /** Verdicts of the answer's claims (kept supported/partial, removed unsupported). */
  claimSupport?: { supported: number; partial: number; unsupported: number };
  stepCitationIds?: string[];
  numCitations?: number;
  numUnknowns?: number;
  confidence?: number;
  needsReview?: boolean;
  /** SHA-256 of the canonical JSON of the delivered { answer, rawContext }. */
  answerSha256?: string;
  retries?: number;
  narrowed?: boolean;
  estimatedTokens?: number;
  latencyMs: number;
  modelLatencyMs?: number;
  /** The answer policies it was checked against (issue 14); absent when the tenant has no active bundle. */
  compliance?: { bundleSha256: string; score: number; action: string; attempts: number; violations: number; reviewId: string | null };
  /** The thread and turn (issue 18); absent for a request refused before its thread was opened. */
  thread?: ThreadFacts;
  /** The thread id such a refused request named (bounded, as sent): which conversation it tried to continue. */
  sentThreadId?: string | null;
  /** Issue 15: the expired evidence the model drafted from, when no active evidence answered. */
  expiredContextEvidenceIds?: string[];
  /** A draft held for a supervisor: why, its review, and its digest (recorded before anything is returned). */
  hold?: HoldFacts;
}

export interface ThreadFacts {
  id: string;
  turn: number;
  /** The question as the pipeline read it, when a follow-up's references were replaced (only its SHA-256 is kept). */
  resolvedQuestion: string | null;
  /** Earlier turns' nodes and evidence that passed the policy again and seeded this turn. */
  seedIds: string[];
  /** How many references of the follow-up were resolved. */
  references: number;
  /** Earlier turns the conversation bound left out (last N turns, token budget). */
  turnsLeftOut: number;
  /** Items cited in earlier turns the asker can no longer see (nothing of them was used). */
  noLongerVisible: number;
}

export function auditPayload(f: AuditFacts): Record<string, unknown> {
  const ctx = f.rawContext;
  const p = f.policy;
  const byReason = (c: PolicySummary["evidence"]) => ({ allowed: c.allowed, filtered: c.filtered, by_reason: c.byReason });
  const citationIds = [...new Set([...(f.citationIds ?? []), ...(f.stepCitationIds ?? [])])].sort();
  return {
    id: f.auditId,
    ts: f.timestamp,
    request_id: f.requestId,
    prompt_version: f.promptVersion,
    tenant_id: f.asker.tenantId,
    actor_id: f.asker.userId,
    actor_via: f.asker.via ?? null,
    actor_token: f.asker.token ? { id: f.asker.token.id, issuer: f.asker.token.issuer } : null,
    case_id: f.caseId,
    query_mode: f.queryMode,
    query_sha256: f.question === null ? null : sha256Hex(f.question),
    model: f.model ? `${f.model.provider}:${f.model.id}` : null,
    response_type: f.responseType,
    ...(f.errorCode ? { error_code: f.errorCode, error_message: f.errorMessage ?? null } : {}),
    context_node_count: ctx?.nodes.length ?? 0,
    context_edge_count: ctx?.edges.length ?? 0,
    context_evidence_count: ctx?.evidenceSnippets.length ?? 0,
    context_node_ids: ctx?.nodes.map((n) => n.id) ?? [],
    context_edge_ids: ctx?.edges.map((e) => e.id) ?? [],
    context_evidence_ids: ctx?.evidenceSnippets.map((s) => s.id) ?? [],
    context_estimated_tokens: f.estimatedTokens ?? 0,
    context_narrowed: f.narrowed ?? false,
    policy_allowed_count: p?.allowed ?? 0,
    policy_filtered_count: p?.filtered ?? 0,
    policy: p ? { evidence: byReason(p.evidence), nodes: byReason(p.nodes), edges: byReason(p.edges) } : null,
    answer_has_answer: f.responseType === "answer",
    answer_num_citations: f.numCitations ?? 0,
    answer_num_unknowns: f.numUnknowns ?? 0,
    answer_sha256: f.answerSha256 ?? null,
    // Seed 000 §4.1's explanation_summary, structural only: the answer's text stays out of the ledger (it can carry
    // content above a supervisor's clearance); answer_sha256 binds the delivered answer to this entry instead.
    explanation_summary: summaryOf(f),
    citation_count: citationIds.length,
    citation_ids: citationIds,
    all_citations_in_context: f.validation?.allCitationsInContext ?? null,
    invalid_citation_count: f.validation?.invalidCitationCount ?? 0,
    invalid_citation_ids: f.validation?.invalidCitationIds ?? [],
    dropped_claim_count: f.validation ? f.validation.droppedUncitedClaims + f.validation.droppedInventedReferences : 0,
    dropped_action_count: f.validation?.droppedActionStatements ?? 0,
    // Issue 13: claim-level support. Counts only — the reasons quote the answer, which stays out of the ledger.
    claim_support: {
      supported: f.claimSupport?.supported ?? 0,
      partial: f.claimSupport?.partial ?? 0,
      unsupported: f.claimSupport?.unsupported ?? 0,
    },
    dropped_directive_count: f.validation?.droppedDirectives ?? 0,
    dropped_unsupported_step_count: f.validation?.droppedUnsupportedSteps ?? 0,
    markers_citations_mismatch: f.validation ? f.validation.markersWithoutEntry + f.validation.entriesWithoutMarker : 0,
    output_neutralised: f.validation?.neutralisedOutput ?? false,
    removed_link_count: f.validation?.removedLinks ?? 0,
    confidence: f.confidence ?? null,
    needs_review: f.needsReview ?? false,
    model_retries: f.retries ?? 0,
    latency_ms: Math.round(f.latencyMs),
    model_latency_ms: f.modelLatencyMs === undefined ? null : Math.round(f.modelLatencyMs),
    ...(f.thread
      ? {
          thread_id: f.thread.id,
          thread_turn: f.thread.turn,
          thread_seed_ids: [...f.thread.seedIds].sort(),
          thread_references: f.thread.references,
          thread_turns_left_out: f.thread.turnsLeftOut,
          thread_no_longer_visible: f.thread.noLongerVisible,
          query_resolved_sha256: f.thread.resolvedQuestion === null ? null : sha256Hex(f.thread.resolvedQuestion),
        }
      : f.sentThreadId
        ? { thread_id_sent: f.sentThreadId }
        : {}),
    ...(f.expiredContextEvidenceIds ? { expired_context_evidence_ids: [...f.expiredContextEvidenceIds].sort() } : {}),
    ...(f.hold
      ? {
          hold: { reason: f.hold.reason, review_id: f.hold.reviewId, draft_sha256: f.hold.draftSha256 },
          ...(f.hold.reason === "expired_evidence" ? { expired_citation_ids: f.hold.expiredEvidenceIds } : {}),
        }
      : {}),
    ...(f.compliance
      ? {
          answer_policy: {
            bundle_sha256: f.compliance.bundleSha256,
            score: f.compliance.score,
            action: f.compliance.action,
            attempts: f.compliance.attempts,
            violation_count: f.compliance.violations,
            review_id: f.compliance.reviewId,
          },
        }
      : {}),
  };
}

function summaryOf(f: AuditFacts): string {
  if (f.responseType === "error") return `error ${f.errorCode ?? ""}`.trim();
  const steps = f.stepCitationIds?.length ? ` with explanation steps citing ${new Set(f.stepCitationIds).size} id(s)` : "";
  return `${f.responseType}: ${f.numCitations ?? 0} citation(s) to ${new Set(f.citationIds ?? []).size} evidence item(s)${steps}, ${f.numUnknowns ?? 0} unknown(s)`;
}

/** Appends the entry and returns its seq; any failure is CG-AUDIT-001 and the caller withholds the answer. */
export async function recordAudit(ledger: Ledger, facts: AuditFacts): Promise<number> {
  try {
    const entry = await ledger.append({
      kind: AUDIT_KIND,
      payload: auditPayload(facts),
      tenantId: facts.asker.tenantId || null,
      actorId: facts.asker.userId || null,
      caseId: facts.caseId,
      ...(facts.queryMode === "text" && facts.question !== null ? { redactable: { questionText: facts.question } } : {}),
    });
    return entry.seq;
  } catch (err) {
    const e = asCasegraphError(err, "CG-AUDIT-001");
    throw e.code === "CG-AUDIT-001" ? e : new CasegraphError("CG-AUDIT-001", undefined, [], { cause: err });
  }
}

export function answerDigest(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
