// What one request's steps produced, each value set once by the step that made it, and the ledger entry's facts
// assembled from those values at the end (step 8) — instead of one record mutated across the pipeline.
import { FAILURES, type CasegraphError } from "../domain/failure-codes";
import { answerDigest, type AuditFacts } from "./audit";
import type { ContextBuild } from "./context";
import type { HoldFacts } from "./hold";
import type { AnswerInput } from "./input";
import type { PolicySummary } from "./policy-filter";
import type { Answer, Asker, RawContext } from "./types";
import type { HiddenReport } from "./unknowns";
import { threadFactsOf, type ThreadTurn } from "./thread";
import type { ValidationReport } from "./validate";

export interface Trace {
  /** Fixed when the request arrives: ids, time, who asked, and what was sent (bounded, sanitised). */
  request: {
    auditId: string;
    requestId: string;
    timestamp: string;
    asker: Asker;
    queryMode: "text" | "hash";
    sentCaseId: string | null;
    sentQuestion: string | null;
    /** The thread id the request named, kept for a request refused before its thread was opened. */
    sentThreadId: string | null;
  };
  /** Step 1. */
  input?: AnswerInput;
  /** Step 2's thread (issue 18): this turn, its resolved question and what earlier turns contribute. */
  thread?: ThreadTurn | null;
  /** Steps 3–4: what the policy gate let through and what is reported hidden. */
  retrieval?: { policy: PolicySummary; hidden: HiddenReport };
  /** Step 5: the context of active evidence (what the asker is shown with any reply). */
  context?: ContextBuild;
  /** Issue 15: no active evidence answered, and the model drafted from these matching expired items instead. */
  expired?: { evidenceIds: string[] };
  /** Step 6: the model asked and the prompt it got. */
  generation?: { model: { provider: string; id: string }; promptVersion: string; latencyMs?: number; retries?: number };
  /** Step 7: validation and claim support of the delivered draft. */
  validation?: ValidationReport;
  /** Answer policies' verdict (issue 14), when a bundle is active. */
  compliance?: AuditFacts["compliance"];
  /** The draft held for a supervisor (escalated by the answer policies, or resting on expired evidence). */
  hold?: HoldFacts;
}

export type Delivered = { answer: Answer; rawContext: RawContext } | { error: CasegraphError };

/** The ledger entry's facts for this request and how it ended. */
export function auditFactsOf(t: Trace, result: Delivered, latencyMs: number, defaultPromptVersion: string): AuditFacts {
  const ctx = t.context;
  const base: AuditFacts = {
    auditId: t.request.auditId,
    requestId: t.request.requestId,
    timestamp: t.request.timestamp,
    promptVersion: t.generation?.promptVersion ?? defaultPromptVersion,
    queryMode: t.request.queryMode,
    asker: t.request.asker,
    caseId: t.input?.caseId ?? t.request.sentCaseId,
    question: t.input?.question ?? t.request.sentQuestion,
    sentThreadId: t.request.sentThreadId,
    model: t.generation?.model ?? null,
    responseType: "error",
    rawContext: ctx?.rawContext,
    policy: t.retrieval?.policy,
    estimatedTokens: ctx?.estimatedTokens,
    narrowed: ctx
      ? ctx.leftOut.hopsReducedTo !== null || ctx.leftOut.snippetsByBudget + ctx.leftOut.nodesByBudget + ctx.leftOut.edgesByBudget > 0
      : undefined,
    validation: t.validation,
    modelLatencyMs: t.generation?.latencyMs,
    retries: t.generation?.retries,
    compliance: t.compliance,
    expiredContextEvidenceIds: t.expired?.evidenceIds,
    hold: t.hold,
    latencyMs,
    ...(t.thread && t.input ? { thread: threadFactsOf(t.thread, t.input.question) } : {}),
  };
  if ("error" in result) return { ...base, errorCode: result.error.code, errorMessage: result.error.message };
  const { answer, rawContext } = result;
  return {
    ...base,
    responseType: answer.responseType,
    rawContext,
    citationIds: answer.citations.map((c) => c.evidenceId),
    stepCitationIds: answer.explanationSteps.flatMap((s) => s.citations),
    numCitations: answer.citations.length,
    claimSupport: t.validation?.claimSupport,
    numUnknowns: answer.unknowns.length,
    confidence: answer.confidence,
    needsReview: answer.needsReview,
    answerSha256: answerDigest({ answer, rawContext }),
    ...(answer.responseType === "unable" ? { errorCode: "CG-CITE-001", errorMessage: FAILURES["CG-CITE-001"].message } : {}),
    ...(t.hold?.reason === "expired_evidence" ? { errorCode: "CG-GROUND-013", errorMessage: FAILURES["CG-GROUND-013"].message } : {}),
  };
}
