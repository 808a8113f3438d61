// The evidence-first answer pipeline (docs/architecture.md "The answer pipeline", seed 002 with 000, 003 and 004 folded in).
// It reads top to bottom as the nine steps. It talks only to ports, so the HTTP route, the server actions, the CLI,
// the bench and the unit tests (with in-memory fakes and a mock model) all run this same function.
import { randomUUID } from "node:crypto";
import { asCasegraphError, CasegraphError, FAILURES } from "../domain/failure-codes";
import type {
  AnswerModel,
  CaseAccess,
  CaseDisclosure,
  CaseGraphStore,
  CaseRef,
  CaseScope,
  EvidenceRecord,
  EvidenceStore,
  GraphNodeRecord,
  Ledger,
  ReviewQueue,
  ThreadStore,
} from "../ports";
import type { AnswerPolicyPorts } from "../policy-ports";
import { recordAudit } from "./audit";
import { buildContext, INSTRUCTION_KINDS, type ContextBuild } from "./context";
import { heldReply, holdDraft } from "./hold";
import type { ConversationLimits, ConversationTurn, UnreadReference } from "./follow-up";
import { auditableText, classifyRequest, parseInput, refusalText, type RequestScope } from "./input";
import { PolicyGate } from "./policy-filter";
import { answerCompliance, auditedCompliance, enforcePolicies, preparePolicy } from "./policy-step";
import { buildUserPrompt, CONVERSATION_PROMPT_SUFFIX, modelOutputSchema, PROMPT_VERSION, SYSTEM_PROMPT } from "./prompt";
import { retrieve } from "./retrieve";
import { keepTurn, openThreadTurn, threadFieldsOf, threadTitle, turnRecordOf, type ThreadTurn } from "./thread";
import { auditFactsOf, type Trace } from "./trace";
import { composeUnknownDetails, type HiddenReport } from "./unknowns";
import {
  NO_EVIDENCE_TEXT,
  NO_VISIBLE_EVIDENCE_TEXT,
  parseModelOutput,
  validateAnswer,
  type ModelOutput,
  type ValidatedAnswer,
} from "./validate";
import {
  DEFAULT_LIMITS,
  HARD_LIMITS,
  type Answer,
  type AnswerCompliance,
  type AnswerOutcome,
  type Asker,
  type GraphRagFailure,
  type Limits,
  type ProgressEvent,
  type RawContext,
  type ResponseType,
  type UnknownDetail,
} from "./types";

export interface AnswerDeps {
  access: CaseAccess;
  /** Case-level totals of what the asker cannot see (how hidden items are reported unless the tenant chose exact counts). */
  disclosure: CaseDisclosure;
  graph: CaseGraphStore;
  evidence: EvidenceStore;
  model: AnswerModel;
  ledger: Ledger;
  /** The tenant's answer policies (issue 14); absent or no active bundle → the step is skipped. */
  answerPolicies?: AnswerPolicyPorts;
  /**
   * The supervisors' review queue, where held drafts wait (escalated by the answer policies, or resting on expired
   * evidence). Absent → a draft that must be held is refused instead (CG-REVIEW-005); nothing of it is delivered.
   */
  reviews?: ReviewQueue;
  /** AUDIT_QUERY_MODE: keep the question text in the audit payload, or only its SHA-256. */
  auditQueryMode?: "text" | "hash";
  /** Configured limits (env); clamped to HARD_LIMITS. */
  limits?: Partial<Limits>;
  /** Threads (issue 18): absent → no threads are kept, and a request naming one is refused (CG-THREAD-001). */
  threads?: ThreadStore;
  /** How many earlier turns, and tokens of them, a follow-up may draw on. */
  conversationLimits?: Partial<ConversationLimits>;
  clock?: () => Date;
  newId?: () => string;
}

export interface AnswerOptions {
  /** Progress for streaming UIs: stages and counts, never content. */
  onProgress?: (event: ProgressEvent) => void;
  signal?: AbortSignal;
  /** This request's turn, when the caller already opened it (the grounding layer, to key reuse on the thread). */
  turn?: ThreadTurn | null;
}

const EMPTY_CONTEXT: RawContext = { nodes: [], edges: [], evidenceSnippets: [] };

/** A request as it arrives: its ids and time, who asked, and what was sent (bounded and sanitised until step 1 accepts it). */
function startTrace(deps: RefusalDeps, asker: Asker, raw: unknown): Trace {
  const newId = deps.newId ?? randomUUID;
  return {
    request: {
      auditId: newId(),
      requestId: newId(),
      timestamp: (deps.clock ?? (() => new Date()))().toISOString(),
      asker,
      queryMode: deps.auditQueryMode ?? "text",
      sentCaseId: rawField(raw, "caseId", 200),
      sentQuestion: rawField(raw, "question", HARD_LIMITS.maxQuestionChars),
      sentThreadId: rawField(raw, "threadId", 100),
    },
  };
}

export type RefusalDeps = Pick<AnswerDeps, "ledger" | "auditQueryMode" | "clock" | "newId">;

/** Nobody signed in: a refused request still names what it could (nothing of a person). */
export const ANONYMOUS_ASKER: Asker = { userId: "", tenantId: "", clearance: "UNREADABLE", needToKnow: [] };

/**
 * A question refused before the pipeline could run it (no or bad credential, foreign Origin, a role that may not ask,
 * a body the entry point could not even shape): one ledger entry like any other refused request, then the coded
 * error. Issue 11 §3: every refused question leaves one entry, whatever the reason.
 */
export async function refuseRequest(deps: RefusalDeps, asker: Asker | null, raw: unknown, error: CasegraphError): Promise<AnswerOutcome> {
  return fail(deps, startTrace(deps, asker ?? ANONYMOUS_ASKER, raw), performance.now(), error);
}

export async function answerQuestion(deps: AnswerDeps, asker: Asker, raw: unknown, options: AnswerOptions = {}): Promise<AnswerOutcome> {
  const started = performance.now();
  const trace = startTrace(deps, asker, raw);
  const progress = (stage: ProgressEvent["stage"], detail?: Record<string, number>) =>
    options.onProgress?.({ stage, ...(detail ? { detail } : {}) });

  try {
    // 1. Input: caseId + question (≤ 2,000 chars, trimmed, no control characters) + optional lower limits.
    const input = (trace.input = parseInput(raw));
    const limits = resolveLimits(deps.limits, input.limits);

    // 2. Access: an active member of the case, in its tenant. Deny by default.
    const caseRef = await deps.access.assertCaseAccess(asker, input.caseId);
    const scope = { tenantId: caseRef.tenantId, caseId: caseRef.id };

    //    Thread (issue 18): a new thread, or the next turn of the asker's own open thread on this case. What earlier
    //    turns cited passes the policy gate again here; a follow-up's references are read against what is visible now.
    const thread = (trace.thread =
      options.turn !== undefined
        ? options.turn
        : await openThreadTurn(deps, asker, scope, {
            threadId: input.threadId,
            question: input.question,
            title: threadTitle(input.question, trace.request.queryMode, trace.request.timestamp),
          }));
    const question = thread?.resolved.question ?? input.question;

    //    Requests to act, or for data outside the case graph, are refused before anything is retrieved.
    const request = classifyRequest(input.question);
    if (request.kind !== "question") return await deliver(deps, trace, started, refusalAnswer(request));

    // 3. Retrieve (bounded) and 4. Policy filter: every store result passes the gate before retrieval or anything
    //    after it uses it; hidden evidence, nodes and edges only leave counts behind.
    progress("retrieving");
    const { retrieved, policy, hidden } = await retrieveVisible(deps, asker, caseRef, scope, question, limits, thread?.seeds);
    trace.retrieval = { policy, hidden };
    progress("filtering", { evidence: retrieved.evidence.length, nodes: retrieved.nodes.length, edges: retrieved.edges.length });

    // 5. Context: minimal, fenced, neutralised, within the token budget (narrowed, never cut mid-item).
    const context = (trace.context = buildContext(retrieved, limits));
    //    A follow-up that refers to what an earlier turn asked for and did not find ("Under whose login …?" → "Where
    //    was he that day?") asks about someone no visible evidence names: any answer would guess whom.
    const unread = thread?.resolved.unread ?? [];
    if (unread.length) return await deliver(deps, trace, started, noEvidenceAnswer(hidden, context, limits, thread, unread));
    //    Nothing active to cite. Evidence that matches but has expired is not silently "nothing" (issue 15, seed 004
    //    §5): the model drafts from it, and a draft citing it is held for a supervisor. Otherwise every claim would be
    //    uncited, so the model is not asked.
    let drafting = context;
    let expired: ExpiredContext | null = null;
    if (context.rawContext.evidenceSnippets.length === 0) {
      expired = await expiredContext(deps, asker, scope, question, limits, thread?.seeds.nodes ?? []);
      if (!expired) return await deliver(deps, trace, started, noEvidenceAnswer(hidden, context, limits, thread));
      trace.expired = { evidenceIds: expired.context.rawContext.evidenceSnippets.map((e) => e.id) };
      drafting = expired.context;
    }
    const rawContext = drafting.rawContext;

    // 6. Model: versioned system prompt + fenced context + question, structured output at temperature 0; one retry
    //    with a stricter prompt when the output is unusable, then a coded error.
    //    Answer policies, pre-generation: the rules in force for this question; their scaffold goes into the prompt.
    const policyRun = await preparePolicy(deps.answerPolicies, {
      asker,
      caseRef,
      question,
      model: deps.model,
      now: new Date(trace.request.timestamp),
    });
    // A follow-up's conversation (generative models resolve its references with it) is a section of its own.
    const asked: Asked = { question, text: input.question, conversation: thread?.conversation ?? [], resolved: thread?.resolved.question };
    const prompt = {
      system: SYSTEM_PROMPT + (policyRun?.system ?? ""),
      version: PROMPT_VERSION + (asked.conversation.length ? CONVERSATION_PROMPT_SUFFIX : "") + (policyRun?.promptSuffix ?? ""),
    };
    trace.generation = { model: { provider: deps.model.provider, id: deps.model.modelId }, promptVersion: prompt.version };
    progress("asking_model", {
      snippets: rawContext.evidenceSnippets.length,
      nodes: rawContext.nodes.length,
      edges: rawContext.edges.length,
    });
    const modelStarted = performance.now();
    const run = await askModel(deps.model, rawContext, asked, options, (chars) => progress("asking_model", { outputChars: chars }), prompt);
    trace.generation = { ...trace.generation, latencyMs: performance.now() - modelStarted, retries: run.retries };

    // 7. Validate: citations checked against rawContext, uncited claims dropped, markers and citations reconciled;
    //    and ground: each claim checked against what it cites (unsupported removed, partial flagged), and nothing
    //    that repeats an instruction found in the evidence kept.
    progress("validating");
    const directives = drafting.directives;
    // What the question says (as asked, and as a follow-up's references resolve it) may be named back in the unknowns.
    const questionText = [asked.text, asked.question, asked.resolved ?? ""].join("\n");
    const firstDraft = validateAnswer(run.output, rawContext, { directives, question: questionText });
    //    Answer policies, post-generation: the four checks, the score and its route (regenerations, or a review hold).
    const enforced = await enforcePolicies(policyRun, firstDraft, rawContext, async (extra) =>
      validateAnswer(
        (await askModel(deps.model, rawContext, asked, options, () => {}, { ...prompt, system: prompt.system + extra })).output,
        rawContext,
        { directives, question: questionText },
      ),
    );
    const validated = enforced.validated;
    trace.validation = validated.report;
    //    A draft from expired evidence that cites none of it answers nothing: the asker hears what active evidence says.
    const expiredCited = expired ? citedEvidence(validated).filter((id) => expired.expiredAt.has(id)) : [];
    if (expired && !expiredCited.length) return await deliver(deps, trace, started, noEvidenceAnswer(hidden, context, limits, thread));
    const unknowns = composeUnknownDetails({
      model: validated.unknowns,
      hidden,
      context: drafting,
      validation: validated.report,
      thread: thread?.notes,
      withheldInstructions: withheldFrom(citedEvidence(validated), rawContext),
      ...capsOf(limits),
    });
    const verdict = enforced.outcome?.compliance;
    const answer = answerOf({ ...validated, unknowns }, rawContext, verdict && answerCompliance(verdict));

    // 8. Audit and 9. Respond: the answer leaves only after its ledger entry is written. A held draft never leaves: it
    //    waits in the review queue, and the asker gets a reply saying why (with the active context, for expired evidence).
    const reason = expired ? "expired_evidence" : enforced.outcome?.escalate ? "policy" : null;
    if (!reason) {
      trace.compliance = verdict && auditedCompliance(verdict, null);
      return await deliver(deps, trace, started, { answer, rawContext });
    }
    const reviewId = (deps.newId ?? randomUUID)();
    const held = await holdDraft(deps.reviews, {
      id: reviewId,
      reason,
      tenantId: caseRef.tenantId,
      caseId: caseRef.id,
      askerId: asker.userId,
      askerEmail: asker.email ?? null,
      requestId: trace.request.requestId,
      auditId: trace.request.auditId,
      question: input.question,
      bundleSha256: verdict?.bundleSha256 ?? null,
      // The draft as it would have been delivered, and the full findings (with where each hit is) for the reviewer.
      draft: { answer, rawContext, ...(enforced.outcome ? { checkedText: enforced.outcome.checkedText } : {}) },
      compliance: verdict ?? null,
      expiredEvidence: expired ? expiredCited.map((id) => ({ id, expiredAt: expired.expiredAt.get(id)! })) : null,
    });
    trace.compliance = verdict && auditedCompliance(verdict, reviewId);
    trace.hold = held.facts;
    const shown = expired ? context.rawContext : rawContext;
    const reply = heldReply(reason, reviewId, shown, reason === "policy" ? answer.compliance : undefined);
    return await held.settle(await deliver(deps, trace, started, { answer: reply, rawContext: shown }));
  } catch (err) {
    return await fail(deps, trace, started, asCasegraphError(err));
  }
}

/** Steps 3–4: retrieval through the policy gate, and what is reported hidden (case totals, or this question's counts). */
async function retrieveVisible(
  deps: AnswerDeps,
  asker: Asker,
  caseRef: CaseRef,
  scope: CaseScope,
  question: string,
  limits: Limits,
  threadSeeds?: { nodes: GraphNodeRecord[]; evidence: EvidenceRecord[] },
) {
  const gate = new PolicyGate(asker);
  const [retrieved, totals] = await Promise.all([
    retrieve(deps, scope, question, limits, gate, threadSeeds),
    caseTotals(deps, caseRef, asker, scope),
  ]);
  const policy = gate.summary();
  const hidden: HiddenReport = totals ? { mode: "case", totals } : { mode: "exact", policy };
  return { retrieved, policy, hidden };
}

interface ExpiredContext {
  context: ContextBuild;
  /** When each expired item in the context stopped being active. */
  expiredAt: Map<string, string>;
}

/**
 * Issue 15: the context of matching evidence that has expired — through the same policy gate, never revoked — or null.
 * The gate's counts are never reported: a hidden expired match leaves the reply exactly as if nothing had matched.
 */
async function expiredContext(
  deps: AnswerDeps,
  asker: Asker,
  scope: CaseScope,
  question: string,
  limits: Limits,
  threadNodes: GraphNodeRecord[],
): Promise<ExpiredContext | null> {
  const found = await retrieve(
    deps,
    scope,
    question,
    limits,
    new PolicyGate(asker),
    { nodes: threadNodes, evidence: [] },
    { lifecycle: "expired" },
  );
  if (!found.evidence.length) return null;
  const context = buildContext(found, limits);
  if (!context.rawContext.evidenceSnippets.length) return null;
  return { context, expiredAt: new Map(found.evidence.map((e) => [e.id, e.expiredAt!])) };
}

/** Evidence a validated draft cites, in its claims or its explanation steps, once each. */
function citedEvidence(v: ValidatedAnswer): string[] {
  return [...new Set([...v.citations.map((c) => c.evidenceId), ...v.explanationSteps.flatMap((s) => s.citations)])];
}

/**
 * The cited items part of whose text was withheld from the model as instructions to an automated reader: the asker
 * is told, so that "what does the note say?" is not mistaken for all the note says.
 */
function withheldFrom(cited: readonly string[], rawContext: RawContext): string[] {
  const withheld = new Set(
    rawContext.evidenceSnippets.filter((s) => s.neutralised?.some((k) => INSTRUCTION_KINDS.has(k))).map((s) => s.id),
  );
  return cited.filter((id) => withheld.has(id)).sort();
}

function refusalAnswer(request: Exclude<RequestScope, { kind: "question" }>) {
  return {
    answer: answerOf(
      {
        responseType: "refused",
        answerText: refusalText(request),
        confidence: 1,
        confidenceJustification: "Deterministic refusal: the assistant explains evidence and never acts or reaches outside the case.",
        unknowns: [],
      },
      EMPTY_CONTEXT,
    ),
    rawContext: EMPTY_CONTEXT,
  };
}

/**
 * No visible evidence to cite. Whether hidden evidence "matched" is said only where the tenant accepts per-question
 * counts; otherwise the case totals decide, so the reply is the same whatever words the question used.
 */
function noEvidenceAnswer(
  hidden: HiddenReport,
  context: ContextBuild,
  limits: Limits,
  thread: ThreadTurn | null,
  unread: readonly UnreadReference[] = [],
) {
  const someHidden = hidden.mode === "exact" ? hidden.policy.evidence.filtered > 0 : hidden.totals.evidence > 0;
  const matchedHidden = hidden.mode === "exact" && someHidden;
  const unreadUnknowns = unread.map(
    (r) =>
      `${r.person ? "Whom" : "What"} "${r.phrase}" means is unknown: it refers to what turn ${r.turn} asked for ("${r.question}"), which that turn did not answer.`,
  );
  return {
    answer: answerOf(
      {
        responseType: "no_evidence",
        answerText: matchedHidden ? NO_VISIBLE_EVIDENCE_TEXT : NO_EVIDENCE_TEXT,
        confidence: someHidden ? 0.3 : 0.9,
        confidenceJustification: unread.length
          ? "The follow-up refers to what an earlier turn asked for and did not find; answering would be a guess at whom or what it means."
          : matchedHidden
            ? "Matching evidence exists outside your permissions; the answer may be in evidence you cannot see."
            : someHidden
              ? "No evidence visible to you matched the question; part of this case is outside your permissions, so the answer may be in evidence you cannot see."
              : "No evidence visible to you matched the question's words or the entities it names; the search is lexical, so differently worded evidence can be missed.",
        unknowns: composeUnknownDetails({
          model: unread.length ? unreadUnknowns : matchedHidden ? [] : ["No visible evidence in this case matched the question."],
          hidden,
          context,
          thread: thread?.notes,
          ...capsOf(limits),
        }),
      },
      context.rawContext,
    ),
    rawContext: context.rawContext,
  };
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

/**
 * What the model is asked: `question` as the pipeline reads it (a follow-up's references replaced: the offline
 * answerer reads this), and for the prompt the asker's own words with the thread's earlier turns (generative models
 * resolve the references themselves, with the deterministic reading shown as a hint).
 */
interface Asked {
  question: string;
  text: string;
  conversation: ConversationTurn[];
  resolved?: string;
}

async function askModel(
  model: AnswerModel,
  context: RawContext,
  asked: Asked,
  options: AnswerOptions,
  onOutputProgress: (chars: number) => void,
  prompt: { system: string; version: string } = { system: SYSTEM_PROMPT, version: PROMPT_VERSION },
): Promise<{ output: ModelOutput; retries: number }> {
  for (let attempt = 1; attempt <= 2; attempt++) {
    let text: string;
    try {
      ({ text } = await model.generate({
        promptVersion: prompt.version,
        system: prompt.system,
        prompt: asked.conversation.length
          ? buildUserPrompt(context, asked.text, attempt, { turns: asked.conversation, resolved: asked.resolved })
          : buildUserPrompt(context, asked.question, attempt),
        context,
        question: asked.question,
        followUp: asked.conversation.length > 0,
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
function answerOf(p: AnswerParts, ctx: RawContext, compliance?: AnswerCompliance): Answer {
  const r = p.report;
  const removed = r
    ? r.invalidCitationCount +
      r.droppedUncitedClaims +
      r.droppedInventedReferences +
      r.droppedActionStatements +
      r.droppedUnsupportedClaims +
      r.droppedDirectives +
      r.droppedUnsupportedSteps +
      r.removedLinks +
      r.claimSupport.partial +
      r.partialSteps
    : 0;
  // Output that had to be neutralised (injection phrases, markup, hidden text) came from a model acting on something.
  const needsReview =
    p.responseType === "refused"
      ? false
      : p.confidence < 0.5 || removed > 0 || !!r?.neutralisedOutput || p.responseType === "unable" || p.responseType === "error";
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
    ...(compliance ? { compliance } : {}),
  };
}

async function deliver(
  deps: RefusalDeps & Pick<AnswerDeps, "threads">,
  trace: Trace,
  started: number,
  result: { answer: Answer; rawContext: RawContext },
): Promise<AnswerOutcome> {
  const { answer, rawContext } = result;
  let seq: number;
  try {
    seq = await recordAudit(deps.ledger, auditFactsOf(trace, result, performance.now() - started, PROMPT_VERSION));
  } catch (err) {
    return withheld(trace, asCasegraphError(err, "CG-AUDIT-001"));
  }
  await keepThreadTurn(deps, trace, seq, result);
  const { requestId, timestamp, auditId } = trace.request;
  return {
    ok: true,
    status: 200,
    body: { answer, rawContext, requestId, timestamp, auditId, ...threadFieldsOf(trace.thread, trace.input?.question ?? null) },
  };
}

/** The turn is kept once its ledger entry is written (issue 18); its record holds ids and the delivered answer. */
async function keepThreadTurn(
  deps: Pick<AnswerDeps, "threads">,
  trace: Trace,
  seq: number,
  result: { answer?: Answer; rawContext?: RawContext; errorCode?: string },
) {
  const t = trace.thread;
  if (!t || !trace.input) return;
  const { asker } = trace.request;
  await keepTurn(
    deps.threads,
    { tenantId: asker.tenantId, caseId: trace.input.caseId, userId: asker.userId },
    t,
    turnRecordOf(t, trace.request, seq, result),
  );
}

async function fail(
  deps: RefusalDeps & Pick<AnswerDeps, "threads">,
  trace: Trace,
  started: number,
  error: CasegraphError,
): Promise<AnswerOutcome> {
  if (error.code === "CG-AUDIT-001") return withheld(trace, error);
  if (error.code === "CG-SYS-002") console.error("casegraph: answer pipeline failed", error.cause ?? error);
  let seq: number;
  try {
    seq = await recordAudit(deps.ledger, auditFactsOf(trace, { error }, performance.now() - started, PROMPT_VERSION));
  } catch (err) {
    return withheld(trace, asCasegraphError(err, "CG-AUDIT-001"));
  }
  const { requestId, timestamp, auditId } = trace.request;
  const body: GraphRagFailure = {
    error: error.toJSON().error,
    requestId,
    timestamp,
    auditId,
    ...threadFieldsOf(trace.thread, trace.input?.question ?? null),
  };
  const rawContext = trace.context?.rawContext;
  // A switched-off model (CG-GROUND-011, issue 15) is `unable`, with retrieval and unknowns as usual.
  if ((error.code.startsWith("CG-MODEL") || error.code === "CG-GROUND-011") && rawContext) {
    const hidden = trace.retrieval?.hidden;
    body.answer = answerOf(
      {
        responseType: error.code === "CG-GROUND-011" ? "unable" : "error",
        answerText: error.message,
        unknowns: hidden ? composeUnknownDetails({ hidden }) : [],
        confidence: 0,
        confidenceJustification: "No answer: the model failed.",
      },
      rawContext,
    );
    body.rawContext = rawContext;
  }
  await keepThreadTurn(deps, trace, seq, { answer: body.answer, rawContext: body.rawContext, errorCode: error.code });
  return { ok: false, status: error.status, body };
}

/** No ledger entry, no answer (docs/architecture.md, step 8): the response carries only the coded error. */
function withheld(trace: Trace, error: CasegraphError): AnswerOutcome {
  const e = error.code === "CG-AUDIT-001" ? error : new CasegraphError("CG-AUDIT-001", undefined, [], { cause: error });
  console.error("casegraph: audit append failed; answer withheld", e.cause ?? e);
  const { requestId, timestamp } = trace.request;
  return {
    ok: false,
    status: e.status,
    body: {
      error: { code: e.code, message: FAILURES["CG-AUDIT-001"].message },
      requestId,
      timestamp,
      auditId: null,
      ...threadFieldsOf(trace.thread, null),
    },
  };
}

function rawField(raw: unknown, key: string, max: number): string | null {
  if (!raw || typeof raw !== "object") return null;
  return auditableText((raw as Record<string, unknown>)[key], max);
}
