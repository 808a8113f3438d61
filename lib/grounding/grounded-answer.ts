// The grounding controls around the answer pipeline (issue 15, seed 004 §6, §8, §10). Every entry point asks through
// here: the kill switches are read ONCE for the request, an earlier answer is reused only when every check passes (a
// reused answer is a new request with its own id, timestamp and ledger entry), a switched-off model is never called,
// and every answer carries its provenance, whose SHA-256 is in the answer's ledger entry. The pipeline itself
// (lib/graphrag/answer.ts) is unchanged apart from reporting a switched-off model as `unable`.
import { randomUUID } from "node:crypto";
import { asCasegraphError, CasegraphError } from "../domain/failure-codes";
import type { AnswerModel, Ledger, LedgerAppend } from "../ports";
import { answerQuestion, refuseRequest, type AnswerDeps, type AnswerOptions } from "../graphrag/answer";
import { answerDigest, AUDIT_KIND, recordAudit, type AuditFacts } from "../graphrag/audit";
import { parseInput } from "../graphrag/input";
import { PolicyGate } from "../graphrag/policy-filter";
import { defaultEdgeId } from "../workspace/bundle";
import { PROMPT_VERSION, renderConversation } from "../graphrag/prompt";
import { sha256Hex } from "../domain/ledger-chain";
import { keepTurn, openThreadTurn, threadFactsOf, threadFieldsOf, threadTitle, turnRecordOf, type ThreadTurn } from "../graphrag/thread";
import type { Answer, AnswerOutcome, Asker, RawContext } from "../graphrag/types";
import { contentSha256 } from "./lifecycle";
import type { AnswerCache, KillSwitchReader } from "./ports";
import { GROUNDING_CONTRACT_VERSION, provenanceOf, provenanceSha256, type Provenance } from "./provenance";
import { decideGraphReuse, decideReuse, modelKey, reuseKey, type ReuseDecision } from "./reuse";
import { ALL_OFF, type KillSwitchState } from "./switches";

export const REUSE_DECISION_KIND = "graphrag.reuse_decision";

export interface GroundingDeps {
  switches: KillSwitchReader;
  cache: AnswerCache;
  /** ANSWER_REUSE_MAX_AGE in milliseconds. */
  reuseMaxAgeMs: number;
  /** Answer without looking for an earlier answer to reuse (`casegraph eval` measures the answerer, not the cache). */
  afresh?: boolean;
  /** The active answer-policy bundle's hash (issue 14), when there is one. */
  policyBundle?: string | null;
}

/** What the provenance of this request's answer is built from, fixed when the request starts. */
interface RequestFrame {
  switches: KillSwitchState;
  key: string | null;
  mode: Provenance["mode"];
  reusedFrom?: string;
  policyBundle: string | null;
  provenance?: Provenance;
  /** A denied reuse decision, written just before this request's answer entry, under the request's own id. */
  pendingDecision?: (requestId: string) => LedgerAppend;
}

export async function groundedAnswer(
  deps: AnswerDeps,
  g: GroundingDeps,
  asker: Asker,
  raw: unknown,
  options: AnswerOptions = {},
): Promise<AnswerOutcome> {
  let switches: KillSwitchState;
  try {
    // Read once: a flip while this request runs has no effect on it.
    switches = asker.tenantId ? await g.switches.read(asker.tenantId) : ALL_OFF;
  } catch (err) {
    return refuseRequest(deps, asker, raw, asCasegraphError(err, "CG-SYS-001"));
  }
  // The answer policies in force are part of the reuse key and the provenance: an answer given before a bundle was
  // activated (or under another one) is never reused after, since it was never checked against it.
  let policyBundle: string | null = g.policyBundle ?? null;
  try {
    if (asker.tenantId && deps.answerPolicies)
      policyBundle = (await deps.answerPolicies.store.activeBundle(asker.tenantId))?.bundle_metadata.sha256 ?? policyBundle;
  } catch (err) {
    return refuseRequest(deps, asker, raw, asCasegraphError(err, "CG-SYS-001"));
  }
  const frame: RequestFrame = { switches, key: null, mode: "normal", policyBundle };
  const model = modelKey(deps.model);
  const ledger = provenanceLedger(deps.ledger, frame);

  // The key needs a well-formed question the asker may put to this case, in a thread that is theirs; anything else
  // goes to the pipeline, which refuses it with its usual code and ledger entry. The turn is opened once, here, so
  // the key covers the thread's context (issue 18) and the pipeline continues the same turn.
  const access = await keyFor(deps, asker, raw, model, frame.policyBundle);
  const turn = access?.turn;
  if (access?.key) frame.key = access.key;
  if (access?.key && !g.afresh) {
    try {
      const reused = await tryReuse(deps, g, asker, access as KeyedRequest, frame, ledger);
      if (reused) return reused;
    } catch (err) {
      // A reuse check that cannot complete is a denial, never a reason to fail the question.
      console.error("casegraph: answer reuse check failed; answering afresh", (err as Error).message);
    }
  }

  const outcome = await answerQuestion(
    { ...deps, ledger, model: switches.DISABLE_MODEL ? switchedOff(deps.model) : deps.model },
    asker,
    raw,
    turn === undefined ? options : { ...options, turn },
  );
  withProvenance(outcome, frame);
  if (access?.key && outcome.ok && outcome.body.answer.responseType === "answer" && !switches.DISABLE_ANSWER_REUSE) {
    await remember(deps, g, access as KeyedRequest, outcome).catch((err) =>
      console.error("casegraph: answer not kept for reuse", (err as Error).message),
    );
  }
  return outcome;
}

interface KeyedRequest {
  key: string;
  caseId: string;
  tenantId: string;
  question: string;
  /** This request's turn (null: no threads kept). */
  turn: ThreadTurn | null;
}

/**
 * The reuse key, and the turn opened for it. `key` is null when answers are not comparable (other limits); the whole
 * result is null when the pipeline must refuse the request itself (bad input, no access, not the asker's thread).
 */
async function keyFor(
  deps: AnswerDeps,
  asker: Asker,
  raw: unknown,
  model: string | null,
  policyBundle: string | null,
): Promise<(Omit<KeyedRequest, "key"> & { key: string | null }) | null> {
  let input: ReturnType<typeof parseInput>;
  let caseRef: Awaited<ReturnType<AnswerDeps["access"]["assertCaseAccess"]>>;
  let turn: ThreadTurn | null;
  try {
    input = parseInput(raw);
    caseRef = await deps.access.assertCaseAccess(asker, input.caseId);
    const now = (deps.clock ?? (() => new Date()))().toISOString();
    turn = await openThreadTurn(
      deps,
      asker,
      { tenantId: caseRef.tenantId, caseId: caseRef.id },
      {
        threadId: input.threadId,
        question: input.question,
        title: threadTitle(input.question, deps.auditQueryMode ?? "text", now),
      },
    );
  } catch {
    return null;
  }
  const base = { caseId: caseRef.id, tenantId: caseRef.tenantId, question: input.question, turn };
  if (input.limits && Object.keys(input.limits).length) return { ...base, key: null }; // Answers under other limits are not comparable.
  const key = reuseKey({
    caseId: caseRef.id,
    question: input.question,
    asker,
    model,
    promptVersion: PROMPT_VERSION,
    groundingContractVersion: GROUNDING_CONTRACT_VERSION,
    policyBundle,
    thread:
      turn && turn.turn > 1
        ? {
            resolvedQuestion: turn.resolved.question,
            seedIds: [...turn.seeds.nodes.map((n) => n.id), ...turn.seeds.evidence.map((e) => e.id)],
            conversationSha256: sha256Hex(renderConversation(turn.conversation, turn.resolved.question)),
          }
        : null,
  });
  return { ...base, key };
}

async function tryReuse(
  deps: AnswerDeps,
  g: GroundingDeps,
  asker: Asker,
  req: KeyedRequest,
  frame: RequestFrame,
  ledger: Ledger,
): Promise<AnswerOutcome | null> {
  const stored = await g.cache.latest(req.key);
  if (!stored) return null; // Nothing to reuse: no decision to record.
  const now = (deps.clock ?? (() => new Date()))();
  const current = await deps.evidence.byIds(
    { tenantId: req.tenantId, caseId: req.caseId },
    stored.cited.map((c) => c.id),
  );
  const answer = stored.body.answer as unknown as Answer;
  const rawContext = stored.body.rawContext as RawContext;
  let decision = decideReuse({ stored, current, asker, now, maxAgeMs: g.reuseMaxAgeMs, switches: frame.switches });
  if (decision.granted) decision = decideGraphReuse(await citedGraphItems(deps, asker, req, answer, rawContext));
  const newId = deps.newId ?? randomUUID;
  const entryFor = (requestId: string) => reuseDecisionEntry(asker, req, stored.requestId, requestId, decision, frame.switches, now);
  if (!decision.granted) {
    // Written by the ledger wrapper right before the fresh answer's entry, naming that request.
    frame.pendingDecision = entryFor;
    return null;
  }
  const requestId = newId();
  // The decision is in the ledger before it takes effect (seed 004 §8 "Audit guarantees").
  await deps.ledger.append(entryFor(requestId));

  frame.mode = "reused";
  frame.reusedFrom = stored.requestId;
  const facts: AuditFacts = {
    auditId: newId(),
    requestId,
    timestamp: now.toISOString(),
    promptVersion: PROMPT_VERSION,
    queryMode: deps.auditQueryMode ?? "text",
    asker,
    caseId: req.caseId,
    question: req.question,
    model: deps.model ? { provider: deps.model.provider, id: deps.model.modelId } : null,
    responseType: answer.responseType,
    rawContext,
    citationIds: answer.citations.map((c) => c.evidenceId),
    stepCitationIds: answer.explanationSteps.flatMap((s) => s.citations),
    numCitations: answer.citations.length,
    numUnknowns: answer.unknowns.length,
    confidence: answer.confidence,
    needsReview: answer.needsReview,
    answerSha256: answerDigest({ answer, rawContext }),
    latencyMs: 0,
    ...(req.turn ? { thread: threadFactsOf(req.turn, req.question) } : {}),
  };
  const threadFields = threadFieldsOf(req.turn, req.question);
  let seq: number;
  try {
    seq = await recordAudit(ledger, facts);
  } catch (err) {
    const e = asCasegraphError(err, "CG-AUDIT-001");
    return {
      ok: false,
      status: e.status,
      body: { error: e.toJSON().error, requestId, timestamp: facts.timestamp, auditId: null, ...threadFields },
    };
  }
  if (req.turn) {
    const owner = { tenantId: req.tenantId, caseId: req.caseId, userId: asker.userId };
    await keepTurn(deps.threads, owner, req.turn, turnRecordOf(req.turn, facts, seq, { answer, rawContext }));
  }
  const outcome: AnswerOutcome = {
    ok: true,
    status: 200,
    body: { answer: structuredClone(answer), rawContext, requestId, timestamp: facts.timestamp, auditId: facts.auditId, ...threadFields },
  };
  withProvenance(outcome, frame);
  return outcome;
}

/**
 * The nodes and relationships a stored answer's steps cite, and which of them the case graph holds now visible to this
 * asker. Read from the graph store like a fresh answer's context: when the graph cannot be reached the check fails,
 * the question is answered afresh (and fails with the graph's coded error) — never reused on items nobody checked.
 */
async function citedGraphItems(
  deps: AnswerDeps,
  asker: Asker,
  req: KeyedRequest,
  answer: Answer,
  context: RawContext,
): Promise<{ cited: string[]; visible: Set<string> }> {
  const stepIds = new Set(answer.explanationSteps.flatMap((s) => s.citations));
  const edges = context.edges.filter((e) => stepIds.has(e.id) || stepIds.has(defaultEdgeId(e)));
  const nodeIds = context.nodes.filter((n) => stepIds.has(n.id)).map((n) => n.id);
  const cited = [...nodeIds, ...edges.map((e) => (stepIds.has(e.id) ? e.id : defaultEdgeId(e)))];
  if (!cited.length) return { cited, visible: new Set() };
  const scope = { tenantId: req.tenantId, caseId: req.caseId };
  const [nowNodes, nowEdges] = await Promise.all([
    deps.graph.nodesByIds(scope, [...new Set([...nodeIds, ...edges.flatMap((e) => [e.source, e.target])])]),
    edges.length
      ? deps.graph.edgesByIds(
          scope,
          edges.map((e) => e.id),
        )
      : Promise.resolve([]),
  ]);
  const gate = new PolicyGate(asker);
  const visible = new Set(gate.nodes(nowNodes).map((n) => n.id));
  for (const e of gate.edges(nowEdges)) visible.add(e.id).add(defaultEdgeId(e)); // cited by id or as source:TYPE:target
  return { cited, visible };
}

function reuseDecisionEntry(
  asker: Asker,
  req: KeyedRequest,
  candidate: string,
  requestId: string,
  d: ReuseDecision,
  switches: KillSwitchState,
  now: Date,
): LedgerAppend {
  return {
    kind: REUSE_DECISION_KIND,
    tenantId: asker.tenantId || null,
    actorId: asker.userId || null,
    caseId: req.caseId,
    payload: {
      ts: now.toISOString(),
      request_id: requestId,
      tenant_id: asker.tenantId,
      actor_id: asker.userId,
      case_id: req.caseId,
      reuse_key: req.key,
      candidate_request_id: candidate,
      decision: d.granted ? "granted" : "denied",
      reason: d.granted ? null : d.reason,
      evidence_id: d.granted ? null : (d.evidenceId ?? null),
      kill_switches: switches,
    },
  };
}

async function remember(deps: AnswerDeps, g: GroundingDeps, req: KeyedRequest, outcome: Extract<AnswerOutcome, { ok: true }>) {
  const { answer, rawContext, requestId, timestamp } = outcome.body;
  // Evidence the answer cites, in its claims or its explanation steps (steps also cite nodes and edges: not evidence).
  const snippetIds = new Set(rawContext.evidenceSnippets.map((e) => e.id));
  const ids = [...new Set([...answer.citations.map((c) => c.evidenceId), ...answer.explanationSteps.flatMap((s) => s.citations)])]
    .filter((id) => snippetIds.has(id))
    .sort();
  const records = await deps.evidence.byIds({ tenantId: req.tenantId, caseId: req.caseId }, ids);
  const byId = new Map(records.map((r) => [r.id, r]));
  // Cited evidence that is no longer active by now makes the answer not worth keeping.
  if (ids.some((id) => !byId.has(id))) return;
  const { provenance: _p, ...bare } = answer;
  await g.cache.put({
    reuseKey: req.key,
    requestId,
    tenantId: req.tenantId,
    caseId: req.caseId,
    createdAt: timestamp,
    body: { answer: bare as unknown as Record<string, unknown>, rawContext },
    cited: ids.map((id) => ({ id, contentSha256: contentSha256(byId.get(id)!.content) })),
  });
}

function withProvenance(outcome: AnswerOutcome, frame: RequestFrame) {
  if (outcome.body.answer && frame.provenance) outcome.body.answer.provenance = frame.provenance;
}

/**
 * The ledger as this request writes to it: the answer's entry gets the provenance (and its SHA-256), built from the
 * entry's own fields, so the provenance shown with the answer is exactly the one the ledger binds.
 */
function provenanceLedger(inner: Ledger, frame: RequestFrame): Ledger {
  return {
    verify: () => inner.verify(),
    async append(entry) {
      if (entry.kind !== AUDIT_KIND) return inner.append(entry);
      const p = entry.payload;
      // Sources are evidence: the cited ids that are evidence of the context (steps also cite nodes and edges).
      const evidence = new Set(Array.isArray(p.context_evidence_ids) ? (p.context_evidence_ids as string[]) : []);
      const cited = (Array.isArray(p.citation_ids) ? (p.citation_ids as string[]) : []).filter((id) => evidence.has(id));
      const queryHash = frame.key ?? (typeof p.query_sha256 === "string" ? p.query_sha256.slice(0, 16) : "0".repeat(16));
      const provenance = provenanceOf({
        mode: frame.mode,
        reusedFrom: frame.reusedFrom,
        queryHash,
        citedIds: cited,
        timestamp: String(p.ts),
        promptVersion: String(p.prompt_version),
        model: typeof p.model === "string" ? p.model : null,
        policyBundle: frame.policyBundle,
        killSwitches: frame.switches,
      });
      frame.provenance = provenance;
      const decision = frame.pendingDecision;
      frame.pendingDecision = undefined;
      if (decision) await inner.append(decision(String(p.request_id)));
      return inner.append({
        ...entry,
        payload: {
          ...p,
          provenance,
          provenance_sha256: provenanceSha256(provenance),
          ...(frame.reusedFrom ? { reused_from: frame.reusedFrom } : {}),
        },
      });
    },
  };
}

/** DISABLE_MODEL: the same model's name, never called. */
function switchedOff(model: AnswerModel): AnswerModel {
  return {
    provider: model.provider,
    modelId: model.modelId,
    generate: async () => {
      throw new CasegraphError("CG-GROUND-011");
    },
    probe: async () => ({ provider: model.provider, id: model.modelId, ok: false, error: "CG-GROUND-011" }),
  };
}
