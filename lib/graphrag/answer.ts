// The evidence-first answer pipeline (DESIGN.md "The answer pipeline", seed 002 with 000, 003 and 004 folded in).
// It reads top to bottom as the nine steps. It talks only to ports, so the HTTP route, the server actions, the CLI,
// the bench and the unit tests (with in-memory fakes and a mock model) all run this same function.
import { randomUUID } from "node:crypto";
import { asCasegraphError, CasegraphError, FAILURES } from "../domain/failure-codes";
import type { AnswerModel, CaseAccess, CaseDisclosure, CaseGraphStore, CaseRef, CaseScope, EvidenceStore, Ledger } from "../ports";
import { answerDigest, recordAudit, type AuditFacts } from "./audit";
import { buildContext, type ContextBuild } from "./context";
import { auditableText, classifyRequest, parseInput, refusalText } from "./input";
import { PolicyGate, type PolicySummary } from "./policy-filter";
import { buildUserPrompt, modelOutputSchema, PROMPT_VERSION, SYSTEM_PROMPT } from "./prompt";
import { retrieve } from "./retrieve";
import { composeUnknownDetails, type HiddenReport } from "./unknowns";
import {
  NO_EVIDENCE_TEXT, NO_VISIBLE_EVIDENCE_TEXT, parseModelOutput, validateAnswer, type ModelOutput, type ValidatedAnswer,
} from "./validate";
import {
  DEFAULT_LIMITS, HARD_LIMITS, type Answer, type AnswerOutcome, type Asker, type GraphRagFailure, type Limits,
  type ProgressEvent, type RawContext, type ResponseType, type UnknownDetail,
} from "./types";

export interface AnswerDeps {
  access: CaseAccess;
  /** Case-level totals of what the asker cannot see (how hidden items are reported unless the tenant chose exact counts). */
  disclosure: CaseDisclosure;
  graph: CaseGraphStore;
  evidence: EvidenceStore;
  model: AnswerModel;
  ledger: Ledger;
  /** AUDIT_QUERY_MODE: keep the question text in the audit payload, or only its SHA-256. */
  auditQueryMode?: "text" | "hash";
  /** Configured limits (env); clamped to HARD_LIMITS. */
  limits?: Partial<Limits>;
  clock?: () => Date;
  newId?: () => string;
}

export interface AnswerOptions {
  /** Progress for streaming UIs: stages and counts, never content. */
  onProgress?: (event: ProgressEvent) => void;
  signal?: AbortSignal;
}

const EMPTY_CONTEXT: RawContext = { nodes: [], edges: [], evidenceSnippets: [] };

/** The audit facts of a request before step 1 has accepted anything: what was sent, bounded and sanitised. */
function initialFacts(deps: RefusalDeps, asker: Asker, raw: unknown): AuditFacts {
  const newId = deps.newId ?? randomUUID;
  return {
    auditId: newId(),
    requestId: newId(),
    timestamp: (deps.clock ?? (() => new Date()))().toISOString(),
    promptVersion: PROMPT_VERSION,
    queryMode: deps.auditQueryMode ?? "text",
    asker,
    caseId: rawField(raw, "caseId", 200),
    // Until step 1 accepts it, the audit keeps what was sent (bounded), so rejected questions are traceable too.
    question: rawField(raw, "question", HARD_LIMITS.maxQuestionChars),
    model: deps.model ? { provider: deps.model.provider, id: deps.model.modelId } : null,
    responseType: "error",
    latencyMs: 0,
  };
}

export type RefusalDeps = Pick<AnswerDeps, "ledger" | "auditQueryMode" | "clock" | "newId"> & { model?: AnswerModel };

/** Nobody signed in: a refused request still names what it could (nothing of a person). */
export const ANONYMOUS_ASKER: Asker = { userId: "", tenantId: "", clearance: "UNREADABLE", needToKnow: [] };

/**
 * A question refused before the pipeline could run it (no or bad credential, foreign Origin, a role that may not ask,
 * a body the entry point could not even shape): one ledger entry like any other refused request, then the coded
 * error. Issue 11 §3: every refused question leaves one entry, whatever the reason.
 */
export async function refuseRequest(deps: RefusalDeps, asker: Asker | null, raw: unknown, error: CasegraphError): Promise<AnswerOutcome> {
  const facts = initialFacts(deps, asker ?? ANONYMOUS_ASKER, raw);
  return fail(deps, facts, performance.now(), error, undefined, undefined, undefined);
}

export async function answerQuestion(deps: AnswerDeps, asker: Asker, raw: unknown, options: AnswerOptions = {}): Promise<AnswerOutcome> {
  const started = performance.now();
  const facts = initialFacts(deps, asker, raw);
  const progress = (stage: ProgressEvent["stage"], detail?: Record<string, number>) => options.onProgress?.({ stage, ...(detail ? { detail } : {}) });
  let context: ContextBuild | undefined;
  let policy: PolicySummary | undefined;
  let hidden: HiddenReport | undefined;

  try {
    // 1. Input: caseId + question (≤ 2,000 chars, trimmed, no control characters) + optional lower limits.
    const input = parseInput(raw);
    facts.caseId = input.caseId;
    facts.question = input.question;
    const limits = resolveLimits(deps.limits, input.limits);

    // 2. Access: an active member of the case, in its tenant. Deny by default.
    const caseRef = await deps.access.assertCaseAccess(asker, input.caseId);
    const scope = { tenantId: caseRef.tenantId, caseId: caseRef.id };

    //    Requests to act, or for data outside the case graph, are refused before anything is retrieved.
    const request = classifyRequest(input.question);
    if (request.kind !== "question") {
      facts.model = null;
      return await deliver(deps, facts, started, {
        answer: answerOf({
          responseType: "refused",
          answerText: refusalText(request),
          confidence: 1,
          confidenceJustification: "Deterministic refusal: the assistant explains evidence and never acts or reaches outside the case.",
          unknowns: [],
        }, EMPTY_CONTEXT),
        rawContext: EMPTY_CONTEXT,
      });
    }

    // 3. Retrieve (bounded) and 4. Policy filter: every store result passes the gate before retrieval or anything
    //    after it uses it; hidden evidence, nodes and edges only leave counts behind.
    progress("retrieving");
    const gate = new PolicyGate(asker);
    const [retrieved, totals] = await Promise.all([
      retrieve(deps, scope, input.question, limits, gate),
      caseTotals(deps, caseRef, asker, scope),
    ]);
    policy = gate.summary();
    hidden = totals ? { mode: "case", totals } : { mode: "exact", policy };
    progress("filtering", { evidence: retrieved.evidence.length, nodes: retrieved.nodes.length, edges: retrieved.edges.length });

    // 5. Context: minimal, fenced, neutralised, within the token budget (narrowed, never cut mid-item).
    context = buildContext(retrieved, limits);
    const rawContext = context.rawContext;
    facts.rawContext = rawContext;
    facts.policy = policy;
    facts.estimatedTokens = context.estimatedTokens;
    facts.narrowed = context.leftOut.hopsReducedTo !== null || context.leftOut.snippetsByBudget + context.leftOut.nodesByBudget + context.leftOut.edgesByBudget > 0;

    if (rawContext.evidenceSnippets.length === 0) {
      // Nothing visible to cite: every claim would be uncited, so the model is not asked. Whether hidden evidence
      // "matched" is said only where the tenant accepts per-question counts; otherwise the case totals decide, so the
      // reply is the same whatever words the question used.
      const someHidden = hidden.mode === "exact" ? hidden.policy.evidence.filtered > 0 : hidden.totals.evidence > 0;
      const matchedHidden = hidden.mode === "exact" && someHidden;
      facts.model = null;
      return await deliver(deps, facts, started, {
        answer: answerOf({
          responseType: "no_evidence",
          answerText: matchedHidden ? NO_VISIBLE_EVIDENCE_TEXT : NO_EVIDENCE_TEXT,
          confidence: someHidden ? 0.3 : 0.9,
          confidenceJustification: matchedHidden
            ? "Matching evidence exists outside your permissions; the answer may be in evidence you cannot see."
            : someHidden
              ? "No evidence visible to you matched the question; part of this case is outside your permissions, so the answer may be in evidence you cannot see."
              : "No evidence visible to you matched the question's words or the entities it names; the search is lexical, so differently worded evidence can be missed.",
          unknowns: composeUnknownDetails({ model: matchedHidden ? [] : ["No visible evidence in this case matched the question."], hidden, context, ...capsOf(limits) }),
        }, rawContext),
        rawContext,
      });
    }

    // 6. Model: versioned system prompt + fenced context + question, structured output at temperature 0; one retry
    //    with a stricter prompt when the output is unusable, then a coded error.
    progress("asking_model", { snippets: rawContext.evidenceSnippets.length, nodes: rawContext.nodes.length, edges: rawContext.edges.length });
    const modelStarted = performance.now();
    const run = await askModel(deps.model, rawContext, input.question, options, (chars) => progress("asking_model", { outputChars: chars }));
    facts.modelLatencyMs = performance.now() - modelStarted;
    facts.retries = run.retries;

    // 7. Validate: citations checked against rawContext, uncited claims dropped, markers and citations reconciled;
    //    and ground: each claim checked against what it cites (unsupported removed, partial flagged), and nothing
    //    that repeats an instruction found in the evidence kept.
    progress("validating");
    const validated = validateAnswer(run.output, rawContext, { directives: context.directives });
    facts.validation = validated.report;
    const unknowns = composeUnknownDetails({ model: validated.unknowns, hidden, context, validation: validated.report, ...capsOf(limits) });

    // 8. Audit and 9. Respond: the answer leaves only after its ledger entry is written.
    return await deliver(deps, facts, started, { answer: answerOf({ ...validated, unknowns }, rawContext), rawContext });
  } catch (err) {
    return await fail(deps, facts, started, asCasegraphError(err), context?.rawContext, policy, hidden);
  }
}

// ---------------------------------------------------------------------------------------------------------------

/** The case-level totals, unless the case's tenant chose per-question counts (then null: the gate's counts are used). */
async function caseTotals(deps: AnswerDeps, caseRef: CaseRef, asker: Asker, scope: CaseScope) {
  return caseRef.hiddenCounts === "exact" ? null : deps.disclosure.hiddenTotals(asker, scope);
}

export function resolveLimits(configured: Partial<Limits> = {}, requested: Partial<Limits> = {}): Limits {
  // The configured value is the default; a request may choose any value up to the hard maximum (50 nodes by default,
  // at most 100).
  const pick = (key: keyof Limits, hard: number) => Math.min(requested[key] ?? configured[key] ?? DEFAULT_LIMITS[key], hard);
  return {
    hops: pick("hops", HARD_LIMITS.hops),
    maxNodes: pick("maxNodes", HARD_LIMITS.maxNodes),
    maxEdges: pick("maxEdges", HARD_LIMITS.maxEdges),
    maxSnippets: pick("maxSnippets", HARD_LIMITS.maxSnippets),
    tokenBudget: pick("tokenBudget", Number.MAX_SAFE_INTEGER),
  };
}

const capsOf = (l: Limits) => ({ maxSnippets: l.maxSnippets, maxNodes: l.maxNodes, maxEdges: l.maxEdges });

async function askModel(
  model: AnswerModel,
  context: RawContext,
  question: string,
  options: AnswerOptions,
  onOutputProgress: (chars: number) => void,
): Promise<{ output: ModelOutput; retries: number }> {
  for (let attempt = 1; attempt <= 2; attempt++) {
    let text: string;
    try {
      ({ text } = await model.generate({
        promptVersion: PROMPT_VERSION,
        system: SYSTEM_PROMPT,
        prompt: buildUserPrompt(context, question, attempt),
        context,
        question,
        attempt,
        schema: modelOutputSchema,
        signal: options.signal,
        onOutputProgress: options.onProgress ? onOutputProgress : undefined,
      }));
    } catch (err) {
      throw err instanceof CasegraphError ? err : new CasegraphError("CG-MODEL-001", undefined, [], { cause: err });
    }
    const parsed = parseModelOutput(text);
    if (parsed.ok) return { output: parsed.output, retries: attempt - 1 };
  }
  throw new CasegraphError("CG-MODEL-002");
}

interface AnswerParts {
  responseType: Exclude<ResponseType, "error"> | "error";
  answerText: string;
  citations?: Answer["citations"];
  claims?: Answer["claims"];
  explanationSteps?: Answer["explanationSteps"];
  unknowns: UnknownDetail[];
  confidence: number;
  confidenceJustification: string;
  report?: ValidatedAnswer["report"];
}

/**
 * The answer object in its fixed key order; needsReview follows seed 000 §3.5 plus validation findings: anything
 * removed (invalid citations, uncited, unsupported or instruction-like statements, unsupported steps) or only partly
 * supported.
 */
function answerOf(p: AnswerParts, ctx: RawContext): Answer {
  const r = p.report;
  const removed = r
    ? r.invalidCitationCount + r.droppedUncitedClaims + r.droppedInventedReferences + r.droppedActionStatements +
      r.droppedUnsupportedClaims + r.droppedDirectives + r.droppedUnsupportedSteps + r.claimSupport.partial + r.partialSteps
    : 0;
  const needsReview = p.responseType === "refused" ? false : p.confidence < 0.5 || removed > 0 || p.responseType === "unable" || p.responseType === "error";
  return {
    answerText: p.answerText,
    citations: p.citations ?? [],
    unknowns: p.unknowns.map((u) => u.text),
    usedContextSummary: { numNodes: ctx.nodes.length, numEdges: ctx.edges.length, numEvidenceSnippets: ctx.evidenceSnippets.length },
    explanationSteps: p.explanationSteps ?? [],
    confidence: p.confidence,
    confidenceJustification: p.confidenceJustification,
    responseType: p.responseType,
    needsReview,
    unknownDetails: p.unknowns,
    claims: p.claims ?? [],
  };
}

async function deliver(
  deps: AnswerDeps,
  facts: AuditFacts,
  started: number,
  result: { answer: Answer; rawContext: RawContext },
): Promise<AnswerOutcome> {
  const { answer, rawContext } = result;
  facts.responseType = answer.responseType;
  facts.rawContext = rawContext;
  facts.citationIds = answer.citations.map((c) => c.evidenceId);
  facts.stepCitationIds = answer.explanationSteps.flatMap((s) => s.citations);
  facts.numCitations = answer.citations.length;
  facts.claimSupport = facts.validation?.claimSupport;
  facts.numUnknowns = answer.unknowns.length;
  facts.confidence = answer.confidence;
  facts.needsReview = answer.needsReview;
  facts.answerSha256 = answerDigest({ answer, rawContext });
  if (answer.responseType === "unable") {
    facts.errorCode = "CG-CITE-001";
    facts.errorMessage = FAILURES["CG-CITE-001"].message;
  }
  facts.latencyMs = performance.now() - started;
  try {
    await recordAudit(deps.ledger, facts);
  } catch (err) {
    return withheld(facts, asCasegraphError(err, "CG-AUDIT-001"));
  }
  return { ok: true, status: 200, body: { answer, rawContext, requestId: facts.requestId, timestamp: facts.timestamp, auditId: facts.auditId } };
}

async function fail(
  deps: RefusalDeps,
  facts: AuditFacts,
  started: number,
  error: CasegraphError,
  rawContext: RawContext | undefined,
  policy: PolicySummary | undefined,
  hidden: HiddenReport | undefined,
): Promise<AnswerOutcome> {
  if (error.code === "CG-AUDIT-001") return withheld(facts, error);
  if (error.code === "CG-SYS-002") console.error("casegraph: answer pipeline failed", error.cause ?? error);
  facts.responseType = "error";
  facts.errorCode = error.code;
  facts.errorMessage = error.message;
  facts.policy = policy;
  facts.latencyMs = performance.now() - started;
  if (!error.code.startsWith("CG-MODEL")) facts.model = facts.rawContext ? facts.model : null;
  try {
    await recordAudit(deps.ledger, facts);
  } catch (err) {
    return withheld(facts, asCasegraphError(err, "CG-AUDIT-001"));
  }
  const body: GraphRagFailure = { error: error.toJSON().error, requestId: facts.requestId, timestamp: facts.timestamp, auditId: facts.auditId };
  // A switched-off model (CG-GROUND-011, issue 15) is `unable`, with retrieval and unknowns as usual.
  if ((error.code.startsWith("CG-MODEL") || error.code === "CG-GROUND-011") && rawContext) {
    body.answer = answerOf({
      responseType: error.code === "CG-GROUND-011" ? "unable" : "error",
      answerText: error.message,
      unknowns: hidden ? composeUnknownDetails({ hidden }) : [],
      confidence: 0,
      confidenceJustification: "No answer: the model failed.",
    }, rawContext);
    body.rawContext = rawContext;
  }
  return { ok: false, status: error.status, body };
}

/** No ledger entry, no answer (DESIGN.md step 8): the response carries only the coded error. */
function withheld(facts: AuditFacts, error: CasegraphError): AnswerOutcome {
  const e = error.code === "CG-AUDIT-001" ? error : new CasegraphError("CG-AUDIT-001", undefined, [], { cause: error });
  console.error("casegraph: audit append failed; answer withheld", e.cause ?? e);
  return {
    ok: false,
    status: e.status,
    body: { error: { code: e.code, message: FAILURES["CG-AUDIT-001"].message }, requestId: facts.requestId, timestamp: facts.timestamp, auditId: null },
  };
}

function rawField(raw: unknown, key: string, max: number): string | null {
  if (!raw || typeof raw !== "object") return null;
  return auditableText((raw as Record<string, unknown>)[key], max);
}
