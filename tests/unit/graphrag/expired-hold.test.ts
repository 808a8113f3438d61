// Issue 15 — expired evidence triggers a hold, not a silent "nothing answers this" (seed 004 §5, "explicit failure
// over silent degradation"). The pipeline with in-memory stores: when no active evidence answers but expired evidence
// the asker may see does, the model drafts from it, the draft is checked like any answer and held in the review queue,
// the asker is told the evidence has expired and a supervisor must release it, and nothing of the expired text
// reaches them. Revoked items and items outside the asker's permissions never cause a hold.
import { describe, expect, it } from "vitest";
import { OfflineExtractiveModel } from "@/lib/adapters/model/offline";
import { answerQuestion } from "@/lib/graphrag/answer";
import { EXPIRED_HELD_TEXT } from "@/lib/graphrag/hold";
import type { AnswerOutcome, GraphRagResponse } from "@/lib/graphrag/types";
import type { HeldAnswer, ReviewQueue } from "@/lib/ports";
import {
  FakeEvidenceStore,
  MemoryThreadStore,
  VIEWER,
  answerJson,
  harness,
  mockLlm,
  smallCase,
  type FakeCase,
  type FakeEvidence,
} from "./fakes";

const SECRET_TEXT = "Helena Strand rented storage unit 14 at the Northgate depot on 9 March 2025";
const Q = { caseId: "case-t", question: "What happened at the Northgate depot?" };
const NOW = new Date("2026-06-01T00:00:00.000Z");

/** The small case plus one item that alone answers Q, with the lifecycle facts and markings given. */
function caseWith(extra: Partial<FakeEvidence>, mutate: (c: FakeCase) => void = () => {}): FakeCase {
  const c = smallCase();
  c.evidence.push({ ...c.evidence[0]!, id: "EV-X", content: `${SECRET_TEXT}.`, nodeIds: [], ...extra });
  mutate(c);
  return c;
}

function queue(): ReviewQueue & { held: HeldAnswer[] } {
  const held: HeldAnswer[] = [];
  return {
    held,
    hold: async (h) => void held.push(structuredClone(h)),
    discard: async (id) =>
      void held.splice(
        held.findIndex((h) => h.id === id),
        1,
      ),
  };
}

function run(c: FakeCase, options: { reviews?: ReviewQueue | null; model?: ReturnType<typeof mockLlm>["model"] } = {}) {
  const reviews = options.reviews === undefined ? queue() : options.reviews;
  const h = harness(options.model ?? new OfflineExtractiveModel(), [c], {
    evidence: new FakeEvidenceStore([c], () => NOW),
    ...(reviews ? { reviews } : {}),
  });
  return { h, reviews: reviews as ReturnType<typeof queue> | null, ask: () => answerQuestion(h.deps, VIEWER, Q) };
}

const bodyOf = (out: AnswerOutcome) => {
  if (!out.ok) throw new Error(JSON.stringify(out.body));
  return out.body as GraphRagResponse;
};

describe("a question only expired evidence answers is held for a supervisor", () => {
  it("past its validUntil: the asker is told it expired and must be released; the draft waits in the queue", async () => {
    const { h, reviews, ask } = run(caseWith({ validUntil: "2026-01-15T00:00:00.000Z" }));
    const body = bodyOf(await ask());
    const a = body.answer;
    expect(a).toMatchObject({ responseType: "escalated", heldFor: "expired_evidence", answerText: EXPIRED_HELD_TEXT, citations: [] });
    expect(a.answerText).toMatch(/expired.*supervisor must release/);
    expect(a.claims).toEqual([]);
    expect(a.explanationSteps).toEqual([]);
    // Nothing of the expired item reaches the asker: not its text, not its id, not the context it was drafted from.
    expect(JSON.stringify(body)).not.toContain("Helena");
    expect(JSON.stringify(body)).not.toContain("EV-X");
    expect(body.rawContext.evidenceSnippets).toEqual([]);

    // The draft, checked like any answer, waits for a supervisor with the reason and when its evidence expired.
    const [held] = reviews!.held;
    expect(held).toMatchObject({
      id: a.reviewId,
      reason: "expired_evidence",
      bundleSha256: null,
      compliance: null,
      requestId: body.requestId,
      auditId: body.auditId,
      expiredEvidence: [{ id: "EV-X", expiredAt: "2026-01-15T00:00:00.000Z" }],
    });
    const draft = held!.draft as GraphRagResponse;
    expect(draft.answer.responseType).toBe("answer");
    expect(draft.answer.citations.map((c) => c.evidenceId)).toEqual(["EV-X"]);
    expect(draft.answer.claims.every((c) => c.support !== "unsupported")).toBe(true);
    expect(JSON.stringify(draft.answer)).toContain("Helena Strand");

    // The request's one ledger entry records the hold, its coded notice and the expired ids (never text).
    const entries = h.ledger.payloads();
    expect(entries).toHaveLength(1);
    const entry = entries[0]!;
    expect(entry).toMatchObject({
      response_type: "escalated",
      error_code: "CG-GROUND-013",
      hold: { reason: "expired_evidence", review_id: a.reviewId },
      expired_context_evidence_ids: ["EV-X"],
      expired_citation_ids: ["EV-X"],
      context_evidence_ids: [],
      citation_ids: [],
    });
    expect(entry.hold.draft_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(entry)).not.toContain("Helena");
  });

  it("older than its tenant's maximum age for its type: held the same way, expired at collection + max age", async () => {
    const c = caseWith({ type: "lab_report", collectedAt: "2026-03-01T00:00:00.000Z" }, (x) => (x.maxAgeDays = { lab_report: 30 }));
    const { reviews, ask } = run(c);
    const a = bodyOf(await ask()).answer;
    expect(a.heldFor).toBe("expired_evidence");
    expect(reviews!.held[0]!.expiredEvidence).toEqual([{ id: "EV-X", expiredAt: "2026-03-31T00:00:00.000Z" }]);
  });

  it("the same item while still active is answered as usual, with no hold", async () => {
    const { reviews, ask } = run(caseWith({ validUntil: "2026-12-31T00:00:00.000Z" }));
    const a = bodyOf(await ask()).answer;
    expect(a.responseType).toBe("answer");
    expect(a.citations.map((c) => c.evidenceId)).toContain("EV-X");
    expect(reviews!.held).toEqual([]);
  });

  it("a revoked item never triggers a hold, even past its validUntil: plain no_evidence, the model never asked", async () => {
    const { model, mock } = mockLlm(answerJson({ answerText: `${SECRET_TEXT} [evidence: EV-X].` }));
    const { h, reviews, ask } = run(caseWith({ validUntil: "2026-01-15T00:00:00.000Z", revokedAt: "2026-02-01T00:00:00.000Z" }), { model });
    const body = bodyOf(await ask());
    expect(body.answer.responseType).toBe("no_evidence");
    expect(mock.doGenerateCalls).toHaveLength(0);
    expect(reviews!.held).toEqual([]);
    expect(h.ledger.payloads()[0]!.hold).toBeUndefined();
    expect(h.ledger.payloads()[0]!.expired_context_evidence_ids).toBeUndefined();
  });

  it("an expired item above the asker's clearance: plain no_evidence, exactly as if it did not exist", async () => {
    const hidden = run(caseWith({ validUntil: "2026-01-15T00:00:00.000Z", classification: "TOP_SECRET" }));
    const absent = run(smallCase());
    const withItem = bodyOf(await hidden.ask());
    const without = bodyOf(await absent.ask());
    expect(withItem.answer.responseType).toBe("no_evidence");
    expect(withItem.answer).toEqual(without.answer);
    expect(withItem.rawContext).toEqual(without.rawContext);
    expect(hidden.reviews!.held).toEqual([]);
    const entry = hidden.h.ledger.payloads()[0]!;
    expect(entry.hold).toBeUndefined();
    expect(entry.policy).toEqual(absent.h.ledger.payloads()[0]!.policy);
    expect(JSON.stringify(entry)).not.toContain("EV-X");
  });

  it("active evidence that answers wins: expired evidence is not consulted", async () => {
    const c = caseWith({ validUntil: "2026-01-15T00:00:00.000Z", content: "Anna Berg met Boris Kade at Dock 7 on 2 March 2025." });
    const { reviews, h } = run(c);
    const out = bodyOf(await answerQuestion(h.deps, VIEWER, { caseId: "case-t", question: "When did Anna Berg meet Boris Kade?" }));
    expect(out.answer.responseType).toBe("answer");
    expect(JSON.stringify(out)).not.toContain("EV-X");
    expect(reviews!.held).toEqual([]);
    expect(h.ledger.payloads()[0]!.expired_context_evidence_ids).toBeUndefined();
  });

  it("a draft from expired evidence that cites none of it is no answer: plain no_evidence, nothing held", async () => {
    const { model, mock } = mockLlm(
      answerJson({ responseType: "no_evidence", answerText: "Nothing here says who rented it.", citations: [] }),
    );
    const { h, reviews, ask } = run(caseWith({ validUntil: "2026-01-15T00:00:00.000Z" }), { model });
    const body = bodyOf(await ask());
    expect(mock.doGenerateCalls).toHaveLength(1);
    expect(body.answer.responseType).toBe("no_evidence");
    expect(JSON.stringify(body)).not.toContain("Helena");
    expect(reviews!.held).toEqual([]);
    expect(h.ledger.payloads()[0]!.expired_context_evidence_ids).toEqual(["EV-X"]);
  });

  it("when the request's ledger entry cannot be written the answer is withheld and the draft leaves the queue", async () => {
    const { h, reviews, ask } = run(caseWith({ validUntil: "2026-01-15T00:00:00.000Z" }));
    h.ledger.failNext = 1;
    const out = await ask();
    expect(out.ok).toBe(false);
    expect(out.body).toMatchObject({ error: { code: "CG-AUDIT-001" } });
    expect(JSON.stringify(out.body)).not.toContain("Helena");
    expect(reviews!.held).toEqual([]);
  });

  it("without a review queue nothing can be held: a coded refusal, nothing of the draft", async () => {
    const { ask } = run(caseWith({ validUntil: "2026-01-15T00:00:00.000Z" }), { reviews: null });
    const out = await ask();
    expect(out.ok).toBe(false);
    expect(out.body).toMatchObject({ error: { code: "CG-REVIEW-005" } });
    expect(JSON.stringify(out.body)).not.toContain("Helena");
    expect(JSON.stringify(out.body)).not.toContain("EV-X");
  });

  it("the thread keeps the held reply, never the draft", async () => {
    const c = caseWith({ validUntil: "2026-01-15T00:00:00.000Z" });
    const threads = new MemoryThreadStore();
    const reviews = queue();
    const h = harness(new OfflineExtractiveModel(), [c], { evidence: new FakeEvidenceStore([c], () => NOW), reviews, threads });
    const body = bodyOf(await answerQuestion(h.deps, VIEWER, Q));
    const turns = threads.turnsOf(body.threadId!);
    expect(turns).toHaveLength(1);
    expect(turns[0]!.answer?.heldFor).toBe("expired_evidence");
    expect(turns[0]!.citedEvidenceIds).toEqual([]);
    expect(JSON.stringify(turns)).not.toContain("Helena");
  });
});
