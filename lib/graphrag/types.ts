// The answer pipeline's data shapes: the seed-002 response (plus explanation steps, confidence, response type and
// review flag from seed 000), the context the model is shown, and the limits.
import type { Viewer } from "../domain/policy";

/** The person asking. `Actor` (lib/auth/actor.ts) satisfies it. */
export interface Asker extends Viewer {
  email?: string;
  via?: string;
  /** The API token the request came with and its issuer (recorded in the ledger). */
  token?: { id: string; issuer: string | null };
  /** The asker's roles (answer policies bind asker_role from them); absent → treated as an investigator. */
  roles?: readonly string[];
}

export interface Limits {
  /** k-hop expansion depth from the matched entities. */
  hops: number;
  maxNodes: number;
  maxEdges: number;
  maxSnippets: number;
  /** Estimated tokens of the serialised context (nodes, edges, evidence snippets). */
  tokenBudget: number;
}

/** Seed 002's hard limits. Configuration sets the defaults; neither it nor a request can exceed these. */
export const HARD_LIMITS = {
  hops: 3,
  maxNodes: 100,
  maxEdges: 200,
  maxSnippets: 50,
  maxQuestionChars: 2_000,
  maxAnswerChars: 10_000,
} as const;

export const DEFAULT_LIMITS: Limits = { hops: 2, maxNodes: 50, maxEdges: 200, maxSnippets: 20, tokenBudget: 16_000 };

export type ResponseType = "answer" | "no_evidence" | "refused" | "unable" | "error" | "escalated";

export type ContextValue = string | number | boolean | Array<string | number | boolean>;

export interface ContextNode {
  id: string;
  label: string;
  name: string;
  properties: Record<string, ContextValue>;
}

export interface ContextEdge {
  id: string;
  source: string;
  type: string;
  target: string;
  properties: Record<string, ContextValue>;
}

export interface ContextSnippet {
  id: string;
  type: string;
  sourceSystem: string;
  collectedAt: string;
  /** The item's linked nodes that are also in this context. */
  nodeIds: string[];
  /** The evidence text as the model saw it: neutralised, fenced in the prompt; the stored original is unchanged. */
  text: string;
  /** Present when the item was too long and only its most relevant sentences were included. */
  excerpt?: true;
  /** What neutralisation changed, e.g. ["citation_token", "injection_phrase"]; absent when nothing. */
  neutralised?: string[];
}

/** Exactly what the model was shown (seed 002 `rawContext`). */
export interface RawContext {
  nodes: ContextNode[];
  edges: ContextEdge[];
  evidenceSnippets: ContextSnippet[];
}

export interface Citation {
  evidenceId: string;
  claimId: string;
}

export interface ExplanationStep {
  stepNumber: number;
  claim: string;
  /** Evidence ids, node ids and edges as `source:TYPE:target`, all from rawContext. */
  citations: string[];
}

/** A claim's support by what it cites (lib/graphrag/ground.ts; README "How answers are checked"). */
export type ClaimSupport = "supported" | "partial" | "unsupported";

/** One claim of the answer text: a clause and the evidence its markers cite, with its support verdict. */
export interface AnswerClaim {
  /** The claim id of its markers in answerText ("CLM-001"). */
  claimId: string;
  /** The clause as answerText shows it, markers aside. */
  text: string;
  evidenceIds: string[];
  /** Kept claims are supported or partial; unsupported ones are removed and counted in the unknowns. */
  support: ClaimSupport;
  /** Why a claim is only partly supported, e.g. 'name "Maria Santos" only partly in EV-3'; empty when supported. */
  reasons: string[];
}

/** How an unknown arose, for UIs that group them (seed 002's three kinds of gap, plus validation's removals). */
export type UnknownKind = "not_in_evidence" | "hidden_by_policy" | "left_out_of_context" | "removed_by_validation";

export interface UnknownDetail {
  kind: UnknownKind;
  /** The same sentence as in `unknowns`. */
  text: string;
  /** hidden_by_policy only: how many items were hidden, by kind (counts, never ids or labels). */
  counts?: { evidence?: number; nodes?: number; edges?: number };
}

import type { HoldReason } from "../ports";
import type { Suggestion } from "../playbooks/suggest";
import type { Provenance } from "../grounding/provenance";

export interface Answer {
  answerText: string;
  citations: Citation[];
  unknowns: string[];
  usedContextSummary: { numNodes: number; numEdges: number; numEvidenceSnippets: number };
  explanationSteps: ExplanationStep[];
  confidence: number;
  confidenceJustification: string;
  responseType: ResponseType;
  needsReview: boolean;
  /** `unknowns` again, same order, each with its kind (an addition to the seed-002 shape; clients may ignore it). */
  unknownDetails: UnknownDetail[];
  /** The answer's claims in marker order, with their support verdicts (an addition; empty unless responseType is answer). */
  claims: AnswerClaim[];
  /** How the tenant's answer policies judged it (issue 14); absent when no policy bundle is active. */
  compliance?: AnswerCompliance;
  /** responseType "escalated": the held draft's review (GET /api/reviews, the asker's question history). */
  reviewId?: string;
  /** responseType "escalated": why — the answer policies, or evidence that has expired (CG-GROUND-013). */
  heldFor?: HoldReason;
  /** How the answer came about (issue 15, seed 004 §10), added by lib/grounding/grounded-answer.ts; hashed into the ledger entry. */
  provenance?: Provenance;
  /**
   * A request for next steps (refused as free text): playbooks from the agency's catalogue instead, each needing a
   * supervisor's approval (issue 16, lib/server/playbooks/next-steps.ts); their own ledger entry is suggestionRequestId's.
   */
  suggestions?: Suggestion[];
  suggestionRequestId?: string;
}

/** answer.compliance (issue 14, seed 001's ComplianceDecision). */
export interface AnswerCompliance {
  bundleSha256: string;
  score: number;
  action: "PASS" | "AUTO_CORRECT" | "REGENERATE" | "ESCALATE";
  checks: { smt: number; judge: number; regex: number; coverage: number };
  violations: Array<{ policyId: string; kind: string; detail: string }>;
  attempts: number;
}

/** How a follow-up was read (issue 18): the question with its references replaced, and what each one was read as. */
export interface FollowUpReading {
  resolvedQuestion: string;
  references: Array<{ phrase: string; nodeId: string; name: string; turn: number }>;
}

/** The thread a request belongs to (issue 18); absent only where the deployment keeps no threads. */
export interface ThreadFields {
  threadId?: string;
  turn?: number;
  followUp?: FollowUpReading;
}

export interface GraphRagResponse extends ThreadFields {
  answer: Answer;
  rawContext: RawContext;
  requestId: string;
  timestamp: string;
  auditId: string;
}

export interface GraphRagFailure extends ThreadFields {
  error: { code: string; message: string; issues?: Array<{ path?: string; message: string }> };
  /** For failures after the model was asked (CG-MODEL-…): the answer shape with responseType "error". */
  answer?: Answer;
  rawContext?: RawContext;
  requestId: string;
  timestamp: string;
  /** Null only when the audit entry itself could not be written (CG-AUDIT-001). */
  auditId: string | null;
}

export type AnswerOutcome = { ok: true; status: 200; body: GraphRagResponse } | { ok: false; status: number; body: GraphRagFailure };

export type Stage = "retrieving" | "filtering" | "asking_model" | "validating";

export interface ProgressEvent {
  stage: Stage;
  /** Counts only, never content: e.g. { candidates: 12 } or { outputChars: 512 }. */
  detail?: Record<string, number>;
}
