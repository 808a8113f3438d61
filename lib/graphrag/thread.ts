// Threads in the pipeline (issue 18): opening a turn, and keeping it once its ledger entry is written. The policy is
// evaluated afresh at every turn: the ids earlier turns left (what they named and cited) are read back from the
// stores — active evidence only — and pass the same policy gate as everything retrieval reads, before the rewriting,
// the retrieval seeds or the conversation use any of them. What the asker can no longer see leaves only a count.
import { CasegraphError } from "../domain/failure-codes";
import type {
  CaseGraphStore,
  CaseScope,
  EvidenceRecord,
  EvidenceStore,
  GraphNodeRecord,
  StoredThreadTurn,
  ThreadOwner,
  ThreadStore,
  ThreadTurnRecord,
} from "../ports";
import type { ThreadFacts } from "./audit";
import { toContextNode } from "./context";
import {
  boundConversation,
  conversationTurnOf,
  DEFAULT_CONVERSATION_LIMITS,
  refilterAnswer,
  resolveFollowUp,
  turnMentions,
  type ConversationLimits,
  type ConversationTurn,
  type FollowUpReference,
  type PriorTurn,
  type RefilteredAnswer,
  type ResolvedFollowUp,
  type Visibility,
} from "./follow-up";
import { PolicyGate } from "./policy-filter";
import type { Answer, Asker, RawContext } from "./types";

/** Earlier turns' nodes and evidence that may seed a follow-up's retrieval (referenced ones first). */
export const MAX_THREAD_SEEDS = 6;
const TITLE_CHARS = 80;

export interface ThreadTurn {
  threadId: string;
  turn: number;
  /** The question as the pipeline reads it (references replaced) and what was replaced. */
  resolved: ResolvedFollowUp;
  /** Earlier turns' nodes and evidence that pass the policy now: retrieval seeds. */
  seeds: { nodes: GraphNodeRecord[]; evidence: EvidenceRecord[] };
  /** For generative models: the earlier turns, re-filtered and bounded. */
  conversation: ConversationTurn[];
  notes: ThreadNotes;
}

export interface ThreadNotes {
  limits: ConversationLimits;
  /** Earlier turns left out by the turn bound, and by the token budget. */
  leftOutByTurns: number;
  leftOutByBudget: number;
  /** Distinct items cited or named by earlier turns that the asker can no longer see. */
  noLongerVisible: number;
  /** References read as one entity where others of the same turn fitted too. */
  ambiguous: FollowUpReference[];
}

export interface ThreadDeps {
  threads?: ThreadStore;
  graph: CaseGraphStore;
  evidence: EvidenceStore;
  conversationLimits?: Partial<ConversationLimits>;
}

/** A new thread's title: its first question (as the ledger would keep it), or a neutral one when only hashes are kept. */
export function threadTitle(question: string, queryMode: "text" | "hash", now: string): string {
  if (queryMode === "hash") return `Thread of ${now.slice(0, 16).replace("T", " ")} UTC`;
  const flat = question.replace(/\s+/g, " ").trim();
  return flat.length <= TITLE_CHARS ? flat : `${flat.slice(0, TITLE_CHARS - 1).trimEnd()}…`;
}

/**
 * Opens this request's turn: a new thread (no id given) or the next turn of the asker's open thread on this case.
 * Null when the deployment keeps no threads (and none was asked for).
 */
export async function openThreadTurn(
  deps: ThreadDeps,
  asker: Asker,
  scope: CaseScope,
  request: { threadId: string | null; question: string; title: string },
): Promise<ThreadTurn | null> {
  if (!deps.threads) {
    if (request.threadId !== null) throw new CasegraphError("CG-THREAD-001");
    return null;
  }
  const limits = { ...DEFAULT_CONVERSATION_LIMITS, ...deps.conversationLimits };
  const owner: ThreadOwner = { tenantId: scope.tenantId, caseId: scope.caseId, userId: asker.userId };
  const begun = await deps.threads.beginTurn(owner, request.threadId, { title: request.title, lastTurns: limits.maxTurns });
  const empty = { nodes: [], evidence: [] };
  if (!begun.prior.length) {
    return {
      threadId: begun.threadId,
      turn: begun.turn,
      resolved: { question: request.question, references: [] },
      seeds: empty,
      conversation: [],
      notes: { limits, leftOutByTurns: begun.olderTurns, leftOutByBudget: 0, noLongerVisible: 0, ambiguous: [] },
    };
  }

  const seen = await seeNow(deps, asker, scope, begun.prior);
  const priorTurns: PriorTurn[] = begun.prior.map((t) => ({
    turn: t.turn,
    subjects: t.subjectNodeIds.flatMap((id) => seen.contextNode(id) ?? []),
    answers: t.answerNodeIds.flatMap((id) => seen.contextNode(id) ?? []),
    topics: t.references.flatMap((r) => seen.contextNode(r.nodeId) ?? []),
    cited: t.citedNodeIds.flatMap((id) => seen.contextNode(id) ?? []),
    question: t.question,
    answered: t.answer ? t.answer.responseType === "answer" : undefined,
  }));
  const resolved = resolveFollowUp(request.question, priorTurns);
  const bounded = boundConversation(
    begun.prior.map((t) => conversationTurnOf(t.turn, t.question, seen.refilter(t.answer))),
    limits,
    begun.olderTurns,
  );

  // Seeds: the entities the rewrite resolved to, then the newest turns' entities and evidence.
  const newestFirst = [...begun.prior].sort((a, b) => b.turn - a.turn);
  const nodeIds = unique([
    ...resolved.references.map((r) => r.nodeId),
    ...newestFirst.flatMap((t) => [...t.answerNodeIds, ...t.subjectNodeIds, ...t.citedNodeIds]),
  ]);
  const evidenceIds = unique(newestFirst.flatMap((t) => t.citedEvidenceIds));
  return {
    threadId: begun.threadId,
    turn: begun.turn,
    resolved,
    seeds: {
      nodes: nodeIds.flatMap((id) => seen.node(id) ?? []).slice(0, MAX_THREAD_SEEDS),
      evidence: evidenceIds.flatMap((id) => seen.evidenceRecord(id) ?? []).slice(0, MAX_THREAD_SEEDS),
    },
    conversation: bounded.turns,
    notes: {
      limits,
      leftOutByTurns: bounded.leftOut.byTurns,
      leftOutByBudget: bounded.leftOut.byBudget,
      noLongerVisible: seen.hiddenCount,
      ambiguous: resolved.references.filter((r) => r.alternatives.length > 0),
    },
  };
}

/** What of earlier turns the asker may see now, through the stores and the policy gate (the pipeline's own). */
export interface SeenNow {
  node(id: string): GraphNodeRecord | undefined;
  contextNode(id: string): ReturnType<typeof toContextNode> | undefined;
  evidenceRecord(id: string): EvidenceRecord | undefined;
  visibility: Visibility;
  /** Names of nodes the turns name that the asker can no longer see (used only to find what to hide). */
  hiddenNames: string[];
  /** Distinct ids the turns cite or name that the asker can no longer see. */
  hiddenCount: number;
  refilter(answer: Answer | null): RefilteredAnswer | null;
}

export async function seeNow(
  stores: Pick<ThreadDeps, "graph" | "evidence">,
  asker: Asker,
  scope: CaseScope,
  turns: readonly Pick<
    StoredThreadTurn,
    "subjectNodeIds" | "answerNodeIds" | "citedNodeIds" | "citedEvidenceIds" | "citedEdgeIds" | "references" | "answer"
  >[],
): Promise<SeenNow> {
  const stepIds = turns.flatMap((t) => t.answer?.explanationSteps.flatMap((s) => s.citations) ?? []);
  const claimEvidence = turns.flatMap((t) => t.answer?.claims.flatMap((c) => c.evidenceIds) ?? []);
  const mentioned = unique(
    turns.flatMap((t) => [...t.subjectNodeIds, ...t.answerNodeIds, ...t.citedNodeIds, ...t.references.map((r) => r.nodeId)]),
  );
  const evidenceIds = unique([...turns.flatMap((t) => t.citedEvidenceIds), ...claimEvidence, ...stepIds]);
  const edgeIds = unique([...turns.flatMap((t) => t.citedEdgeIds), ...stepIds.filter((id) => id.includes(":"))]);
  const [edges, evidence] = await Promise.all([
    edgeIds.length ? stores.graph.edgesByIds(scope, edgeIds) : Promise.resolve([]),
    evidenceIds.length ? stores.evidence.byIds(scope, evidenceIds) : Promise.resolve([]),
  ]);
  const nodeIds = unique([...mentioned, ...stepIds, ...edges.flatMap((e) => [e.source, e.target])]);
  const nodes = nodeIds.length ? await stores.graph.nodesByIds(scope, nodeIds) : [];
  const gate = new PolicyGate(asker);
  const visibleNodes = new Map(gate.nodes(nodes).map((n) => [n.id, n]));
  const visibleEdges = new Set(gate.edges(edges).flatMap((e) => [e.id, `${e.source}:${e.type}:${e.target}`]));
  const visibleEvidence = new Map(gate.evidence(evidence).map((e) => [e.id, e]));
  const hiddenNames = nodes.filter((n) => !visibleNodes.has(n.id)).map((n) => n.name);
  const visibility: Visibility = {
    evidence: (id) => visibleEvidence.has(id),
    node: (id) => visibleNodes.has(id),
    edge: (id) => visibleEdges.has(id),
  };
  // An id counts as no longer visible when it names a node, relationship or evidence item that is gone or hidden.
  const knownNodeIds = new Set(nodes.map((n) => n.id));
  const cited = unique([...mentioned, ...turns.flatMap((t) => t.citedEvidenceIds), ...claimEvidence]);
  const hiddenCount = cited.filter((id) => (knownNodeIds.has(id) ? !visibleNodes.has(id) : !visibleEvidence.has(id))).length;
  return {
    node: (id) => visibleNodes.get(id),
    contextNode: (id) => {
      const n = visibleNodes.get(id);
      return n ? toContextNode(n) : undefined;
    },
    evidenceRecord: (id) => visibleEvidence.get(id),
    visibility,
    hiddenNames,
    hiddenCount,
    refilter: (answer) => (answer ? refilterAnswer(answer, visibility, hiddenNames) : null),
  };
}

/** The turn's record once delivered: the ids it leaves for the next turns, and the answer as delivered. */
export function turnRecordOf(
  t: ThreadTurn,
  ids: { requestId: string; auditId: string | null; timestamp: string },
  ledgerSeq: number | null,
  result: { answer?: Answer; rawContext?: RawContext; errorCode?: string },
): ThreadTurnRecord {
  const mentions =
    result.answer && result.rawContext
      ? turnMentions(t.resolved.question, result.answer, result.rawContext)
      : { subjectNodeIds: [], answerNodeIds: [], citedNodeIds: [], citedEvidenceIds: [], citedEdgeIds: [] };
  return {
    turn: t.turn,
    requestId: ids.requestId,
    auditId: ids.auditId,
    ledgerSeq,
    createdAt: ids.timestamp,
    responseType: result.answer?.responseType ?? "error",
    errorCode: result.errorCode ?? null,
    ...mentions,
    references: t.resolved.references.map((r) => ({ phrase: r.phrase, nodeId: r.nodeId, turn: r.turn })),
    answer: result.answer ?? null,
  };
}

/** The ledger entry's thread facts. */
export function threadFactsOf(t: ThreadTurn, question: string): ThreadFacts {
  return {
    id: t.threadId,
    turn: t.turn,
    resolvedQuestion: t.resolved.question !== question ? t.resolved.question : null,
    seedIds: [...t.seeds.nodes.map((n) => n.id), ...t.seeds.evidence.map((e) => e.id)],
    references: t.resolved.references.length,
    turnsLeftOut: t.notes.leftOutByTurns + t.notes.leftOutByBudget,
    noLongerVisible: t.notes.noLongerVisible,
  };
}

/** What the response says about the thread: its id and turn, and how a follow-up was read. */
export function threadFieldsOf(t: ThreadTurn | null | undefined, question: string | null) {
  if (!t) return {};
  return {
    threadId: t.threadId,
    turn: t.turn,
    ...(t.resolved.references.length && t.resolved.question !== question
      ? {
          followUp: {
            resolvedQuestion: t.resolved.question,
            references: t.resolved.references.map((r) => ({ phrase: r.phrase, nodeId: r.nodeId, name: r.name, turn: r.turn })),
          },
        }
      : {}),
  };
}

/** Keeps the turn; a failure here is logged, never a reason to withhold an answer whose ledger entry is written. */
export async function keepTurn(threads: ThreadStore | undefined, owner: ThreadOwner, t: ThreadTurn, record: ThreadTurnRecord) {
  if (!threads) return;
  try {
    await threads.recordTurn(owner, t.threadId, record);
  } catch (err) {
    console.error("casegraph: thread turn not recorded", (err as Error).message);
  }
}

const unique = (ids: string[]) => [...new Set(ids)];
