// The small ports the pipeline and the pages talk to. lib/domain and lib/graphrag depend on these, never on Prisma,
// neo4j-driver, Next.js or the AI SDK, so tests pass in-memory fakes and every entry point shares one pipeline.
import type { ZodType } from "zod";
import type { KeyObject } from "node:crypto";
import type { KeptCheckpoint, SignedCheckpoint } from "./domain/checkpoint";
import type { ChainBreak, ChainEntry } from "./domain/ledger-chain";
import type { LicenseUse, StoredClassification } from "./domain/markings";
import type { Viewer } from "./domain/policy";
import type { Answer } from "./graphrag/types";

export interface LedgerAppend {
  kind: string;
  /** Hashed into the chain; never erased. */
  payload: Record<string, unknown>;
  /** Copied into indexed columns for the audit explorer; must equal the payload's fields of the same meaning. */
  tenantId?: string | null;
  actorId?: string | null;
  caseId?: string | null;
  /**
   * Kept next to the entry but OUTSIDE the hash, so retention can erase it without touching the chain. The question
   * text is bound to the entry by its digest: the payload must carry `query_sha256` = sha256_hex(questionText), or the
   * append is refused (CG-AUDIT-001).
   */
  redactable?: { questionText?: string | null };
}

export interface VerifyReport {
  ok: boolean;
  size: number;
  headHash: string;
  firstBad?: ChainBreak;
  /** Merkle root over all entries (a full walk computes it). */
  rootHash?: string;
  /** Signed checkpoints checked against the recomputed tree (signature and root); `external`: those from outside the tables. */
  checkpoints?: { checked: number; external?: number; latest: { treeSize: number; rootHash: string; keyId: string } | null };
  /** The checkpoint the first fault was found against (truncation, bad signature, other root), and where it was kept. */
  badCheckpoint?: { treeSize: number; rootHash: string; time: string; keyId: string; source: string };
  /** Database protections found missing or disabled (append-only triggers, generated payload). Empty when all hold. */
  protectionProblems?: string[];
  /** The role this connection uses, and whether it could switch the protections off (superuser or table owner). */
  connectedAs?: { role: string; superuser: boolean; ownsLedger: boolean; canBypass: boolean };
  durationMs?: number;
}

export interface Ledger {
  append(entry: LedgerAppend): Promise<ChainEntry>;
  verify(): Promise<VerifyReport>;
}

/** An entry as stored: the chained part, the columns the explorer filters on, and the redactable question text. */
export interface StoredEntry extends ChainEntry {
  body: string;
  tenantId: string | null;
  actorId: string | null;
  caseId: string | null;
  questionText: string | null;
  questionErasedAt: string | null;
}

export interface StoredCheckpoint extends SignedCheckpoint {
  publicKeyPem: string;
}

export interface InclusionProof {
  seq: number;
  leafIndex: number;
  treeSize: number;
  entryHash: string;
  leafHash: string;
  path: string[];
  rootHash: string;
}

export interface ConsistencyProof {
  fromSize: number;
  toSize: number;
  fromRoot: string;
  toRoot: string;
  path: string[];
}

/** Copies of question text outside the ledger (thread titles, decided reviews), erased with the ledger's by retention. */
export interface QuestionCopies {
  eraseBefore(cutoff: Date): Promise<{ threadTitles: number; reviewQuestions: number }>;
}

/**
 * The ledger as the audit views, proofs, exports and maintenance use it (lib/server/audit-*, ledger-maintenance):
 * reads, Merkle proofs, signed checkpoints and retention. Implemented by lib/adapters/prisma/ledger.
 */
export interface AuditLedger extends Ledger {
  head(): Promise<{ size: number; hash: string; createdAt: string | null }>;
  /** Entries with seq in [from, to], in order, with their redactable part. */
  entries(from: number, to: number): Promise<StoredEntry[]>;
  /** The seq range of entries written in [from, to] (ISO dates, either open). */
  seqRange(from?: string, to?: string): Promise<{ fromSeq: number; toSeq: number }>;
  root(size?: number): Promise<{ treeSize: number; rootHash: string }>;
  inclusionProof(seq: number, size?: number): Promise<InclusionProof>;
  inclusionProofs(seqs: readonly number[], size: number): Promise<Map<number, string[]>>;
  consistencyProof(from: number, to?: number): Promise<ConsistencyProof>;
  /** The signed checkpoint at `size` (default: the head), signed now when there is none (CG-AUDIT-003 without a key). */
  checkpoint(size?: number): Promise<StoredCheckpoint>;
  checkpointAt(size: number): Promise<StoredCheckpoint | null>;
  latestCheckpoint(): Promise<StoredCheckpoint | null>;
  checkpointCovering(seq: number): Promise<StoredCheckpoint | null>;
  listCheckpoints(limit?: number): Promise<StoredCheckpoint[]>;
  publicKey(): Promise<{ keyId: string; publicKeyPem: string } | null>;
  eraseQuestionTextBefore(cutoff: Date): Promise<number>;
  verify(options?: {
    trustedKeys?: KeyObject[];
    onProgress?: (checked: number) => void;
    external?: readonly KeptCheckpoint[];
  }): Promise<VerifyReport>;
}

// ---------------------------------------------------------------------------------------------------------------
// The answer pipeline's ports (docs/architecture.md "Ports and adapters"). Every call is scoped to one case of one tenant; stores
// return items WITH their markings and never decide visibility themselves: lib/graphrag/policy-filter.ts is the one
// place that does, so a PostgreSQL store, a Neo4j store and an in-memory fake all get the same policy.
export interface CaseScope {
  tenantId: string;
  caseId: string;
}

/**
 * How an answer reports what the policy hid (issue 11 §4). `case`, the default: the case-level totals of what the
 * asker cannot see, the same whatever the question, so the count cannot be used to test whether a word appears in
 * hidden evidence. `exact`: per-question counts, for a tenant that accepts that risk.
 */
export type HiddenCountMode = "case" | "exact";

export interface CaseRef {
  id: string;
  tenantId: string;
  title: string;
  classification: StoredClassification;
  /** The case's tenant's setting. */
  hiddenCounts: HiddenCountMode;
}

export interface HiddenTotals {
  evidence: number;
  nodes: number;
  edges: number;
}

/** What of a whole case a viewer may not see, as counts that depend on no question (the case page shows the same). */
export interface CaseDisclosure {
  hiddenTotals(viewer: Viewer, scope: CaseScope): Promise<HiddenTotals>;
}

/** Step 2: deny by default. Throws CasegraphError CG-ACCESS-001 unless the user is a member of the case in its tenant. */
export interface CaseAccess {
  assertCaseAccess(user: { userId: string; tenantId: string }, caseId: string): Promise<CaseRef>;
}

/** Markings as read back (lib/domain/markings.ts readMarking): an unreadable one is UNREADABLE, which the policy denies. */
interface Marked {
  tenantId: string;
  classification: StoredClassification;
  needToKnow: string[];
}

export interface GraphNodeRecord extends Marked {
  id: string;
  label: string;
  name: string;
  properties: Record<string, unknown>;
}

export interface GraphEdgeRecord extends Marked {
  id: string;
  source: string;
  target: string;
  type: string;
  properties: Record<string, unknown>;
}

export type OutlineNode = Omit<GraphNodeRecord, "properties">;
export type OutlineEdge = Omit<GraphEdgeRecord, "properties">;

export interface CaseOutline {
  nodes: OutlineNode[];
  edges: OutlineEdge[];
  truncated: boolean;
}

export interface SeedQuery {
  /** Tokens of the question that may be node ids, compared exactly (case-sensitive). */
  ids: string[];
  /**
   * Lower-cased word sequences of the question (1–4 words) compared with whole node names, the name lower-cased by
   * the Unicode simple case mapping (PostgreSQL lower() in a UTF-8 locale; graph-contract.ts simpleLower()).
   */
  phrases: string[];
  /**
   * Search terms, OR-ed. Each term stands for its search tokens (graph-contract.ts searchTokens(): lower-cased pieces
   * between separator characters, ≤ 100 code points), AND-ed: "ws-fin-0231" is ws ∧ fin ∧ 0231.
   */
  terms: string[];
  /** At most this many text matches (id and name matches are not limited). */
  limit: number;
}

export interface SeedCandidate {
  node: GraphNodeRecord;
  /**
   * How the node was found: exact id; exact name; or text — every token of at least one term is among the search
   * tokens of the node's name, id and label.
   */
  match: "id" | "name" | "text";
  /** 0 for id and name matches; for text matches the number of terms whose tokens the node holds (≥ 1). */
  rank: number;
}

export interface SubgraphLimits {
  /** ≥ 0. */
  hops: number;
  /** ≥ 1; seeds count towards it and are never dropped. */
  maxNodes: number;
  /** ≥ 1: the most edges one hop reads, and the most edges returned. */
  maxEdges: number;
}

export interface Subgraph {
  /** Seeds first (hop 0), then by hop, then id; `hop` is the hop at which the expansion reached the node. */
  nodes: Array<GraphNodeRecord & { hop: number }>;
  /** Edges whose two endpoints are both in `nodes`, in id order, at most maxEdges. */
  edges: GraphEdgeRecord[];
  /** True exactly when a cap cut something: a read returned maxEdges edges, or a reached node was left out. */
  truncated: boolean;
}

/**
 * The case graph: PostgreSQL tables by default, Neo4j behind the same contract (docs/architecture.md "Ports and adapters"). Both
 * stores are built from lib/domain/graph-contract.ts, and tests/integration/graph-store-contract.test.ts runs one suite
 * against each on real servers, checking them against the contract written out in memory and against each other.
 *
 * - Scope: every call reads only the nodes and edges of `scope.caseId` held under `scope.tenantId`; a case asked for
 *   under another tenant reads as empty. Items come back with their markings; stores never decide visibility.
 * - Order: ids are compared by Unicode code point (= UTF-8 bytes = PostgreSQL's "C" collation).
 * - findSeedNodes: one candidate per node, its strongest match kept (id, then name, then text); the text matches are
 *   the top `limit` by rank, then id, taken before that merge. Sorted by match kind, rank (highest first), id.
 * - expand: breadth-first from the distinct seeds (graph-contract.ts expandFrontier): each hop reads the frontier's
 *   edges in id order, at most maxEdges, and reaches each edge's source then target while fewer than maxNodes ids
 *   are reached. Unknown seed ids count towards maxNodes but are not returned. Then the edges among the reached nodes.
 *   Results are identical across stores for identical data — same nodes, hops, edges and `truncated`.
 * - nodesByIds / edgesByIds: the items of the case with those ids (unknown ids ignored), in id order.
 * - Failures are CasegraphError: CG-GRAPH-001 unavailable (fast: < 2 s for a dead Neo4j), -002 query failed, -003
 *   credentials refused; the Neo4j store also refuses with CG-GRAPH-005 a case whose graph it does not hold in full
 *   (never loaded, or an interrupted write) rather than answer from part of it.
 */
export interface CaseGraphStore {
  /**
   * The whole case graph without properties (the workbench's view and counts): every node and every edge of the case,
   * each in id order, at most maxNodes nodes and maxEdges edges; `truncated` when a cap cut something.
   */
  outline(scope: CaseScope, limits: { maxNodes: number; maxEdges: number }): Promise<CaseOutline>;
  findSeedNodes(scope: CaseScope, query: SeedQuery): Promise<SeedCandidate[]>;
  /** Bounded k-hop expansion from the seeds over every node and edge of the case (markings included). */
  expand(scope: CaseScope, seedIds: readonly string[], limits: SubgraphLimits): Promise<Subgraph>;
  nodesByIds(scope: CaseScope, ids: readonly string[]): Promise<GraphNodeRecord[]>;
  edgesByIds(scope: CaseScope, ids: readonly string[]): Promise<GraphEdgeRecord[]>;
}

/**
 * How many stored items carry a marking the policy cannot read (a classification outside the catalogue, a malformed
 * or blank need-to-know tag, no tenant): they are denied to everyone and counted here for operators (health, `graph
 * status`). Counts only, over the whole store; never ids.
 */
export interface UnreadableMarkings {
  nodes?: number;
  edges?: number;
  evidence?: number;
}

export interface MarkingAudit {
  unreadableMarkings(): Promise<UnreadableMarkings>;
}

export interface EvidenceRecord extends Marked {
  id: string;
  type: string;
  content: string;
  sourceSystem: string;
  /** ISO-8601. */
  collectedAt: string;
  /** Uses the item's license allows; null when the license is unknown (a denial). */
  licenseUses: LicenseUse[] | null;
  nodeIds: string[];
  /** The item's metadata object as imported (source fields; shown in the evidence panel). */
  metadata?: Record<string, unknown>;
  /**
   * ISO-8601, only on an item read as expired (EvidenceReadOptions.lifecycle): when it stopped being active — the
   * earlier of its validUntil and its collection time plus its tenant's maximum age for its type.
   */
  expiredAt?: string;
}

export interface EvidenceSearch {
  /** OR-ed terms; ranked by relevance over the stored full-text vector. */
  terms: string[];
  limit: number;
}

/**
 * Which lifecycle states a read admits (issue 15, lib/grounding/lifecycle.ts). `active`, the default, is what every
 * answer, page and reuse check reads. `expired` and `active_or_expired` serve what a supervisor must release (a draft
 * from expired evidence, held for review). Revoked items are never read: a revocation is final.
 */
export type EvidenceLifecycle = "active" | "expired" | "active_or_expired";

export interface EvidenceReadOptions {
  lifecycle?: EvidenceLifecycle;
}

export interface EvidenceStore {
  /** Full-text search over the stored tsvector (GIN), best first; rank > 0. */
  search(scope: CaseScope, query: EvidenceSearch, options?: EvidenceReadOptions): Promise<Array<EvidenceRecord & { rank: number }>>;
  /** Evidence linked to any of the nodes, those linked to the most of them first. */
  linkedTo(scope: CaseScope, nodeIds: readonly string[], limit: number, options?: EvidenceReadOptions): Promise<EvidenceRecord[]>;
  byIds(scope: CaseScope, ids: readonly string[], options?: EvidenceReadOptions): Promise<EvidenceRecord[]>;
}

// ---------------------------------------------------------------------------------------------------------------
// The supervisors' review queue (issues 14 and 15): drafts held back from their askers until a supervisor approves
// them or an operator override token releases them. Adapter: lib/adapters/prisma/review-queue.ts.

/** Why a draft is held: the answer policies escalated it, or it rests on evidence that has expired. */
export type HoldReason = "policy" | "expired_evidence";

export interface HeldAnswer {
  id: string;
  reason: HoldReason;
  tenantId: string;
  caseId: string;
  askerId: string;
  askerEmail: string | null;
  requestId: string;
  auditId: string;
  question: string;
  /** The answer-policy bundle in force; null when none was active (only an expired-evidence hold can have none). */
  bundleSha256: string | null;
  /** { answer, rawContext, checkedText? } as it would have been delivered. */
  draft: unknown;
  /** The answer policies' full findings; null when no bundle was active. */
  compliance: unknown;
  /** reason expired_evidence: the expired items the draft cites and when each expired. */
  expiredEvidence: Array<{ id: string; expiredAt: string }> | null;
}

export interface ReviewQueue {
  hold(held: HeldAnswer): Promise<void>;
  /** Takes a held draft back out (its answer's ledger entry could not be written: an unaudited draft is never reviewed). */
  discard(id: string): Promise<void>;
}

/** What the pipeline sends a model: the versioned system prompt, the user prompt, and the structured context. */
export interface AnswerModelRequest {
  promptVersion: string;
  system: string;
  prompt: string;
  /** The same context serialised into `prompt` (rawContext), for models that read it structurally (offline). */
  context: unknown;
  question: string;
  /** The question follows earlier turns of a thread (the prompt holds them; the context, what they were about). */
  followUp?: boolean;
  /** 1, or 2 for the stricter retry after unusable output. */
  attempt: number;
  /** zod schema of the expected JSON (structured output). */
  schema: ZodType;
  signal?: AbortSignal;
  /** Called with the number of characters received so far, when the model streams. */
  onOutputProgress?: (chars: number) => void;
}

export interface AnswerModelResult {
  /** The model's raw output text; the pipeline parses and validates it. */
  text: string;
  usage?: { inputTokens?: number; outputTokens?: number };
}

export interface ModelProbe {
  provider: string;
  id: string;
  ok: boolean;
  latencyMs?: number;
  error?: string;
}

export interface AnswerModel {
  readonly provider: string;
  readonly modelId: string;
  /**
   * Changes whenever the model's behaviour does under the same id (the offline answerer: a digest of its sources). Part
   * of the answer-reuse key, so an answer given by an earlier build of the same model is never served by a later one.
   */
  readonly revision?: string;
  /** Throws CasegraphError CG-MODEL-001 when the model cannot be reached; unusable text is returned as is. */
  generate(request: AnswerModelRequest): Promise<AnswerModelResult>;
  /** Bounded reachability check for /health. */
  probe(timeoutMs: number): Promise<ModelProbe>;
}

// ---------------------------------------------------------------------------------------------------------------
// Threads (issue 18): follow-up questions. A thread belongs to one user on one case of one tenant; anything else —
// another user's, another case's, no such thread — is the same CG-THREAD-001. A turn keeps ids (what its question
// named, what its answer named and cited) and the delivered answer; every later turn re-checks the ids through the
// policy gate before anything of them is used, and the thread view re-filters the answers when shown.

export interface ThreadOwner {
  tenantId: string;
  caseId: string;
  userId: string;
}

export interface ThreadTurnRecord {
  turn: number;
  requestId: string;
  auditId: string | null;
  /** The turn's ledger entry (null when it could not be written: the answer was withheld). */
  ledgerSeq: number | null;
  createdAt: string;
  responseType: string;
  errorCode: string | null;
  /** Nodes the (resolved) question named, in its order. */
  subjectNodeIds: string[];
  /** Nodes the answer's claims named, in the answer's order; none of the subjects. */
  answerNodeIds: string[];
  /** Further nodes its explanation steps cited. */
  citedNodeIds: string[];
  citedEvidenceIds: string[];
  citedEdgeIds: string[];
  /** How the follow-up's references were read (ids and the phrases replaced). */
  references: Array<{ phrase: string; nodeId: string; turn: number }>;
  /** The answer as delivered; null for a failure. Shown re-filtered, never given to a model as it is. */
  answer: Answer | null;
}

/** A turn as read back: its question text comes from the ledger (null when hash-only or erased by retention). */
export interface StoredThreadTurn extends ThreadTurnRecord {
  question: string | null;
}

export interface BegunTurn {
  threadId: string;
  /** This turn's number (1 for a new thread). */
  turn: number;
  /** The last `lastTurns` recorded turns, oldest first. */
  prior: StoredThreadTurn[];
  /** Recorded turns older than `prior` (not returned). */
  olderTurns: number;
}

export interface ThreadStore {
  /**
   * Starts a turn: a new thread titled `title` when `threadId` is null, else the next turn of the owner's open thread
   * (the number is reserved atomically). CG-THREAD-001 when the thread is not the owner's on this case (or does not
   * exist), CG-THREAD-002 when it is closed.
   */
  beginTurn(owner: ThreadOwner, threadId: string | null, options: { title: string; lastTurns: number }): Promise<BegunTurn>;
  /** Keeps a finished turn (after its ledger entry). */
  recordTurn(owner: ThreadOwner, threadId: string, record: ThreadTurnRecord): Promise<void>;
}
