// Holding a draft for a supervisor (issues 14 and 15): an answer the answer policies escalated, or one drafted from
// evidence that has expired, waits in the review queue until a supervisor approves it or an operator override token
// releases it. The asker gets a fixed reply saying why, with nothing of the draft. The queue is written before the
// request's ledger entry, which names the hold; when that entry cannot be written the draft is taken out again, so an
// unaudited draft is never reviewed or released.
import { CasegraphError, FAILURES } from "../domain/failure-codes";
import type { HeldAnswer, HoldReason, ReviewQueue } from "../ports";
import { answerDigest } from "./audit";
import type { Answer, AnswerCompliance, AnswerOutcome, RawContext } from "./types";

export const ESCALATED_TEXT =
  "This answer is being held for a supervisor's review under your agency's answer policies. You will see the outcome in your question history.";

export const EXPIRED_HELD_TEXT = `${FAILURES["CG-GROUND-013"].message} You will see the outcome in your question history.`;

/** What the request's ledger entry records of the hold. */
export interface HoldFacts {
  reason: HoldReason;
  reviewId: string;
  /** SHA-256 of the held draft ({ answer, rawContext }), binding it to the entry without its text. */
  draftSha256: string;
  /** reason expired_evidence: the expired items the draft cites. */
  expiredEvidenceIds: string[];
}

export interface HeldDraft {
  facts: HoldFacts;
  /** After delivery: when the request's ledger entry could not be written, the draft leaves the queue again. */
  settle(delivered: AnswerOutcome): Promise<AnswerOutcome>;
}

/** Puts the draft in the queue (CG-REVIEW-005 when there is none or it cannot be written: nothing is delivered). */
export async function holdDraft(queue: ReviewQueue | undefined, held: HeldAnswer & { draft: { answer: Answer; rawContext: RawContext } }) {
  if (!queue) throw new CasegraphError("CG-REVIEW-005");
  try {
    await queue.hold(held);
  } catch (err) {
    throw new CasegraphError("CG-REVIEW-005", undefined, [], { cause: err });
  }
  const facts: HoldFacts = {
    reason: held.reason,
    reviewId: held.id,
    draftSha256: answerDigest({ answer: held.draft.answer, rawContext: held.draft.rawContext }),
    expiredEvidenceIds: (held.expiredEvidence ?? []).map((e) => e.id).sort(),
  };
  return {
    facts,
    async settle(delivered: AnswerOutcome) {
      if (!delivered.ok)
        await queue.discard(held.id).catch((err) => console.error("casegraph: could not discard an unaudited held answer", err));
      return delivered;
    },
  } satisfies HeldDraft;
}

/**
 * The asker's reply while the draft is held: no citations, claims, steps or unknowns of it. `shown` is the context
 * the asker receives with it (for an expired-evidence hold, the active one: nothing of the expired items).
 */
export function heldReply(reason: HoldReason, reviewId: string, shown: RawContext, compliance?: AnswerCompliance): Answer {
  const expired = reason === "expired_evidence";
  return {
    answerText: expired ? EXPIRED_HELD_TEXT : ESCALATED_TEXT,
    citations: [],
    unknowns: [],
    usedContextSummary: {
      numNodes: shown.nodes.length,
      numEdges: shown.edges.length,
      numEvidenceSnippets: shown.evidenceSnippets.length,
    },
    explanationSteps: [],
    confidence: 0,
    confidenceJustification: expired
      ? "Held: the evidence that would answer has expired, and only a supervisor may release an answer resting on it (CG-GROUND-013)."
      : "Held for review under the answer policies.",
    responseType: "escalated",
    needsReview: true,
    unknownDetails: [],
    claims: [],
    ...(compliance ? { compliance } : {}),
    reviewId,
    heldFor: reason,
  };
}
