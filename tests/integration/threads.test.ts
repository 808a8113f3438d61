// Issue 18 — conversations, on PGlite and PostgreSQL with the demo workspace and the offline answerer: a three-turn
// thread whose follow-ups are read against what the earlier turns cited; the policy evaluated afresh at every turn (a
// clearance lowered, an item revoked, a membership removed); threads that are only their owner's on their case; each
// turn its own ledger entry, grouped by the audit explorer; and reuse keyed on the thread.
import { afterAll, beforeAll, expect, it } from "vitest";
import { revokeEvidence } from "@/lib/admin/evidence";
import { loadActor, type Actor } from "@/lib/auth/actor";
import { askQuestion } from "@/lib/server/answers/graphrag";
import { auditEntryDetail, explorerFiltersSchema, listAuditEntries } from "@/lib/server/audit/explorer";
import { reviewerStores } from "@/lib/server/audit/visibility";
import { runRetention } from "@/lib/server/ledger/maintenance";
import { listReviews } from "@/lib/server/answers/reviews";
import { PrismaQuestionCopies } from "@/lib/adapters/prisma/question-copies";
import { closeThread, listThreads, renameThread, threadView } from "@/lib/server/workbench/threads";
import { openCase } from "@/lib/server/workbench/scope";
import { runtime } from "@/lib/server/runtime";
import { CasegraphError } from "@/lib/domain/failure-codes";
import type { AnswerOutcome, GraphRagResponse } from "@/lib/graphrag/types";
import { clearTestRuntime, importDemo, useTestRuntime } from "../support/auth-fixture";
import { describeEachDatabase } from "../support/databases";

const CASE = "case-harbor";

function ok(o: AnswerOutcome): GraphRagResponse {
  if (!o.ok) throw new Error(`expected an answer, got ${JSON.stringify(o.body)}`);
  return o.body;
}
const cited = (b: GraphRagResponse) => [...new Set(b.answer.citations.map((c) => c.evidenceId))].sort();
const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
    return null;
  } catch (err) {
    return err instanceof CasegraphError ? err.code : String(err);
  }
};
/** A failure body without what differs per request. */
const shape = (o: AnswerOutcome) => {
  const { requestId: _r, timestamp: _t, auditId: _a, ...rest } = o.body as unknown as Record<string, unknown>;
  return { status: o.status, ...rest };
};

describeEachDatabase("threads: follow-up questions, the policy re-applied at every turn", (fixture) => {
  let reyes: Actor;
  let kim: Actor;
  let park: Actor;
  let admin: Actor;
  const reload = async (email: string) => loadActor(fixture().db.prisma, { email }, "session");
  const answerEntries = async () => {
    const rows = await fixture().db.prisma.ledgerEntry.findMany({ where: { kind: "graphrag.answer" }, orderBy: { seq: "asc" } });
    return rows.map((r) => ({ seq: Number(r.seq), payload: r.payload as Record<string, any> }));
  };

  beforeAll(async () => {
    const { db } = fixture();
    useTestRuntime(db);
    await importDemo(db);
    reyes = await reload("det.reyes@metro.example");
    kim = await reload("analyst.kim@metro.example");
    park = await reload("lead.park@metro.example");
    admin = await reload("admin@metro.example");
  });
  afterAll(() => clearTestRuntime());

  it("a three-turn thread on the demo data: each reference is read as what the turn before cited, with the right evidence", async () => {
    const t1 = ok(await askQuestion(reyes, { caseId: CASE, question: "Who drives the black Tahoe HBR-4471?" }));
    expect(t1.turn).toBe(1);
    expect(t1.threadId).toMatch(/^[0-9a-f-]{36}$/);
    expect(t1.answer.answerText).toContain("Dmitri Kovac");
    expect(cited(t1)).toEqual(["EV-C-013"]);

    const t2 = ok(
      await askQuestion(reyes, { caseId: CASE, question: "Which prepaid number is attributed to him?", threadId: t1.threadId }),
    );
    expect(t2).toMatchObject({ threadId: t1.threadId, turn: 2 });
    expect(t2.followUp).toEqual({
      resolvedQuestion: "Which prepaid number is attributed to Dmitri Kovac?",
      references: [{ phrase: "him", nodeId: "p-kovac", name: "Dmitri Kovac", turn: 1 }],
    });
    expect(cited(t2)).toEqual(["EV-C-005"]);
    expect(t2.answer.answerText).toContain("+1-555-0178");

    const t3 = ok(await askQuestion(reyes, { caseId: CASE, question: "Who did that number call on 12 April?", threadId: t1.threadId }));
    expect(t3.turn).toBe(3);
    expect(t3.followUp?.resolvedQuestion).toBe("Who did +1-555-0178 call on 12 April?");
    expect(t3.followUp?.references).toEqual([{ phrase: "that number", nodeId: "ph-0178", name: "+1-555-0178", turn: 2 }]);
    expect(cited(t3)).toEqual(["EV-C-006"]);
    expect(t3.answer.answerText).toContain("12 Apr 01:22 incoming from +1-555-0178");

    // Each turn is its own ledger entry, with the thread id and the turn number.
    const entries = (await answerEntries()).filter((e) => e.payload.thread_id === t1.threadId);
    expect(entries.map((e) => [e.payload.thread_turn, e.payload.request_id])).toEqual([
      [1, t1.requestId],
      [2, t2.requestId],
      [3, t3.requestId],
    ]);
    expect(entries[1].payload.thread_seed_ids).toEqual(expect.arrayContaining(["p-kovac", "EV-C-013"]));

    // The thread view, after the fact (a reload reads it back from the store and the ledger).
    const open = await openCase(reyes, CASE);
    const view = await threadView(open, reyes, t1.threadId!);
    expect(view.thread).toMatchObject({ id: t1.threadId, title: "Who drives the black Tahoe HBR-4471?", closed: false, turns: 3 });
    expect(view.turns.map((t) => [t.turn, t.question, t.citedEvidence])).toEqual([
      [1, "Who drives the black Tahoe HBR-4471?", ["EV-C-013"]],
      [2, "Which prepaid number is attributed to him?", ["EV-C-005"]],
      [3, "Who did that number call on 12 April?", ["EV-C-006"]],
    ]);
    expect(view.turns[1].references).toEqual([{ phrase: "him", name: "Dmitri Kovac", turn: 1 }]);
    expect(view.turns.every((t) => t.noLongerVisible === 0)).toBe(true);
    expect((await listThreads(open, reyes)).map((t) => t.id)).toContain(t1.threadId);

    // The audit explorer shows the thread's turns together, and each entry names its thread's other turns.
    const { ledger } = await runtime();
    const sup = await reload("sup.okafor@metro.example");
    const listed = await listAuditEntries(fixture().db.prisma, sup, explorerFiltersSchema.parse({ thread: t1.threadId }));
    expect(listed.rows.map((r) => [r.seq, r.threadTurn])).toEqual(entries.map((e) => [e.seq, e.payload.thread_turn]).reverse());
    const detail = await auditEntryDetail(fixture().db.prisma, ledger, reviewerStores(fixture().db), sup, entries[1].seq);
    expect(detail.thread).toMatchObject({ id: t1.threadId, turn: 2 });
    expect(detail.thread!.turns.map((t) => t.seq)).toEqual(entries.map((e) => e.seq));
  });

  it("a clearance lowered between turns 1 and 2 hides turn 1's restricted evidence from turn 2 and from the thread view", async () => {
    const prisma = fixture().db.prisma;
    const t1 = ok(await askQuestion(reyes, { caseId: CASE, question: "What was the cause of death of Raymond Dunn?" }));
    expect(cited(t1)).toEqual(["EV-C-003"]); // CONFIDENTIAL: reyes (SECRET) sees it
    await prisma.user.update({ where: { id: reyes.userId }, data: { clearance: "CUI" } });
    try {
      const lowered = await reload("det.reyes@metro.example");
      const t2 = ok(await askQuestion(lowered, { caseId: CASE, question: "Who called him on 12 April?", threadId: t1.threadId }));
      expect(t2.followUp?.resolvedQuestion).toBe("Who called Raymond Dunn on 12 April?");
      expect(cited(t2)).toEqual(["EV-C-006"]);
      const body = JSON.stringify(t2);
      expect(body).not.toContain("EV-C-003");
      expect(body).not.toContain("ME-25-0412"); // the autopsy report's number, only in EV-C-003
      expect(t2.rawContext.evidenceSnippets.map((s) => s.id)).not.toContain("EV-C-003");
      expect(t2.answer.unknowns).toContain(
        "1 item cited in earlier turns of this thread is no longer visible to you; nothing of it was used.",
      );
      const entry = (await answerEntries()).find((e) => e.payload.request_id === t2.requestId)!;
      expect(entry.payload.thread_no_longer_visible).toBe(1);
      expect(entry.payload.context_evidence_ids).not.toContain("EV-C-003");

      const view = await threadView(await openCase(lowered, CASE), lowered, t1.threadId!);
      expect(view.turns[0].claims.map((c) => c.text)).toEqual(["no longer visible to you"]);
      expect(view.turns[0].citedEvidence).toEqual([]);
      expect(view.turns[0].noLongerVisible).toBeGreaterThan(0);
      expect(JSON.stringify(view)).not.toMatch(/EV-C-003|ME-25-0412|Autopsy/);
    } finally {
      await prisma.user.update({ where: { id: reyes.userId }, data: { clearance: "SECRET" } });
    }
    // With the clearance back, turn 1 shows again.
    const view = await threadView(await openCase(reyes, CASE), reyes, t1.threadId!);
    expect(view.turns[0].citedEvidence).toEqual(["EV-C-003"]);
  });

  it("another user's or another case's thread id is refused exactly like one that does not exist", async () => {
    const mine = ok(await askQuestion(reyes, { caseId: CASE, question: "Who drives the black Tahoe HBR-4471?" })).threadId!;
    const parks = ok(await askQuestion(park, { caseId: CASE, question: "Who owns Bayline Seafood Co.?" })).threadId!;
    const follow = "Where does he live?";
    const none = await askQuestion(reyes, { caseId: CASE, question: follow, threadId: "00000000-0000-4000-8000-000000000000" });
    const otherUser = await askQuestion(kim, { caseId: CASE, question: follow, threadId: mine });
    const otherCase = await askQuestion(park, { caseId: "case-ledgerline", question: follow, threadId: parks });
    expect(shape(none)).toEqual({ status: 404, error: { code: "CG-THREAD-001", message: "Thread not found." } });
    expect(shape(otherUser)).toEqual(shape(none));
    expect(shape(otherCase)).toEqual(shape(none));
    // Each refusal is audited; nothing was added to the threads it named.
    const entries = await answerEntries();
    for (const r of [none, otherUser, otherCase])
      expect(entries.find((e) => e.payload.request_id === r.body.requestId)?.payload.error_code).toBe("CG-THREAD-001");
    const open = await openCase(reyes, CASE);
    expect((await threadView(open, reyes, mine)).turns).toHaveLength(1);
    // The thread reads, rename and close say the same.
    const kimOpen = await openCase(kim, CASE);
    expect(await codeOf(threadView(kimOpen, kim, mine))).toBe("CG-THREAD-001");
    expect(await codeOf(renameThread(kimOpen, kim, mine, "mine now"))).toBe("CG-THREAD-001");
    expect(await codeOf(closeThread(kimOpen, kim, mine))).toBe("CG-THREAD-001");
    expect(await codeOf(threadView(await openCase(park, "case-ledgerline"), park, parks))).toBe("CG-THREAD-001");
    expect((await threadView(open, reyes, mine)).thread).toMatchObject({ title: "Who drives the black Tahoe HBR-4471?", closed: false });
  });

  it("follow-ups sent at once in one thread get distinct turns, each its own ledger entry", async () => {
    const t1 = ok(await askQuestion(reyes, { caseId: CASE, question: "Who drives the black Tahoe HBR-4471?" }));
    const both = await Promise.all(
      ["Where does he live?", "Which prepaid number is attributed to him?"].map((question) =>
        askQuestion(reyes, { caseId: CASE, question, threadId: t1.threadId }),
      ),
    );
    expect(both.map((o) => ok(o).turn).sort()).toEqual([2, 3]);
    const view = await threadView(await openCase(reyes, CASE), reyes, t1.threadId!);
    expect(view.turns.map((t) => t.turn)).toEqual([1, 2, 3]);
    const entries = (await answerEntries()).filter((e) => e.payload.thread_id === t1.threadId);
    expect(entries.map((e) => e.payload.thread_turn).sort()).toEqual([1, 2, 3]);
  });

  it("a thread can be renamed and closed by its owner; a closed thread is not continued", async () => {
    const id = ok(await askQuestion(reyes, { caseId: CASE, question: "Who drives the black Tahoe HBR-4471?" })).threadId!;
    const open = await openCase(reyes, CASE);
    expect(await renameThread(open, reyes, id, "  Kovac and the Tahoe  ")).toMatchObject({ title: "Kovac and the Tahoe" });
    expect(await closeThread(open, reyes, id)).toMatchObject({ closed: true });
    const r = await askQuestion(reyes, { caseId: CASE, question: "Where does he live?", threadId: id });
    expect(shape(r)).toEqual({ status: 409, error: { code: "CG-THREAD-002", message: "This thread is closed." } });
  });

  it("a follow-up never reuses an answer given to the same words on their own; the same thread context may", async () => {
    const words = "Which prepaid number is attributed to him?";
    const alone = ok(await askQuestion(reyes, { caseId: CASE, question: words }));
    expect(cited(alone)).toEqual(["EV-C-036"]); // "him" means nobody on its own: Marchetti's phone record ranks first
    const t1 = ok(await askQuestion(reyes, { caseId: CASE, question: "Who drives the black Tahoe HBR-4471?" }));
    const followUp = ok(await askQuestion(reyes, { caseId: CASE, question: words, threadId: t1.threadId }));
    expect(followUp.answer.provenance?.reusedFrom).not.toBe(alone.requestId);
    expect(followUp.answer.provenance?.queryHash).not.toBe(alone.answer.provenance?.queryHash);
    expect(cited(followUp)).toEqual(["EV-C-005"]);
    // Another thread with the same context (the first test's thread asked the same two questions): the follow-up's key
    // is the same, so an answer given in that context may be reused — never the standalone one.
    const u1 = ok(await askQuestion(reyes, { caseId: CASE, question: "Who drives the black Tahoe HBR-4471?" }));
    const again = ok(await askQuestion(reyes, { caseId: CASE, question: words, threadId: u1.threadId }));
    expect(again.answer.provenance).toMatchObject({ mode: "reused", queryHash: followUp.answer.provenance?.queryHash });
    expect(again.answer.provenance?.reusedFrom).not.toBe(alone.requestId);
    expect(again).toMatchObject({ threadId: u1.threadId, turn: 2 });
    const view = await threadView(await openCase(reyes, CASE), reyes, u1.threadId!);
    expect(view.turns.map((t) => t.citedEvidence)).toEqual([["EV-C-013"], ["EV-C-005"]]);
  });

  it("an item revoked and a membership removed since an earlier turn: nothing of it is used, the thread is no longer reachable", async () => {
    const t1 = ok(await askQuestion(reyes, { caseId: CASE, question: "Which prepaid number is attributed to Dmitri Kovac?" }));
    expect(cited(t1)).toEqual(["EV-C-005"]);
    await revokeEvidence(fixture().db.prisma, admin, { caseId: CASE, evidenceId: "EV-C-005", reason: "warrant quashed" });
    const t2 = ok(await askQuestion(reyes, { caseId: CASE, question: "Who did that number call on 12 April?", threadId: t1.threadId }));
    expect(JSON.stringify(t2)).not.toContain("EV-C-005");
    expect(t2.answer.unknowns.join(" ")).toContain("no longer visible to you");
    const view = await threadView(await openCase(reyes, CASE), reyes, t1.threadId!);
    expect(view.turns[0].claims.every((c) => c.text === "no longer visible to you")).toBe(true);

    const prisma = fixture().db.prisma;
    await prisma.caseMember.delete({ where: { caseId_userId: { caseId: CASE, userId: reyes.userId } } });
    try {
      const r = await askQuestion(reyes, { caseId: CASE, question: "Where does he live?", threadId: t1.threadId });
      expect(shape(r)).toEqual({ status: 404, error: { code: "CG-ACCESS-001", message: "Case not found or not accessible." } });
      expect(await codeOf(openCase(reyes, CASE))).toBe("CG-ACCESS-001");
    } finally {
      await prisma.caseMember.create({ data: { caseId: CASE, userId: reyes.userId } });
    }
  });

  it("retention erases the question's copies with the ledger's text: thread titles and decided reviews' questions", async () => {
    const { db } = fixture();
    const { ledger } = await runtime();
    const t = ok(await askQuestion(reyes, { caseId: CASE, question: "Who owns Bayline Seafood Co.?" }));
    const review = (id: string, status: string) =>
      db.prisma.answerReview.create({
        data: {
          id,
          tenantId: "metro-pd",
          caseId: CASE,
          askerId: reyes.userId,
          requestId: id,
          auditId: id,
          question: `secret ${id}`,
          bundleSha256: "0".repeat(64),
          draft: {},
          compliance: {},
          status,
          ...(status === "pending" ? {} : { decidedAt: new Date(), decidedBy: admin.userId, note: "ok" }),
        },
      });
    await review("rv-decided", "approved");
    await review("rv-pending", "pending");
    const title = async () => (await db.prisma.thread.findUniqueOrThrow({ where: { id: t.threadId! } })).title;
    expect(await title()).toBe("Who owns Bayline Seafood Co.?");

    const copies = new PrismaQuestionCopies(db.prisma);
    expect((await runRetention(ledger, 30, new Date(), copies)).erasedCopies).toEqual({ threadTitles: 0, reviewQuestions: 0 });
    const r = await runRetention(ledger, 30, new Date(Date.now() + 31 * 86_400_000), copies);
    expect(r.erasedCopies.threadTitles).toBeGreaterThanOrEqual(1);
    expect(r.erasedCopies.reviewQuestions).toBeGreaterThanOrEqual(1);
    expect(await title()).toMatch(/^Thread of \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    const questions = await db.prisma.answerReview.findMany({
      where: { id: { in: ["rv-decided", "rv-pending"] } },
      orderBy: { id: "asc" },
    });
    expect(questions.map((q) => q.question)).toEqual(["", "secret rv-pending"]); // pending: the supervisor still needs it
    const okafor = await reload("sup.okafor@metro.example");
    expect((await listReviews(db.prisma, okafor)).find((r) => r.id === "rv-decided")?.question).toBe("(question erased by retention)");
    const [entry] = await ledger.entries(r.recordedSeq!, r.recordedSeq!);
    expect(entry.payload).toMatchObject({
      erased_thread_titles: r.erasedCopies.threadTitles,
      erased_review_questions: r.erasedCopies.reviewQuestions,
    });
    // Nothing of the question is left in what the owner's thread list shows.
    const list = await listThreads(await openCase(reyes, CASE), reyes);
    expect(JSON.stringify(list)).not.toContain("Bayline");
    expect((await runRetention(ledger, 30, new Date(Date.now() + 31 * 86_400_000), copies)).erasedCopies.threadTitles).toBe(0);
  });
});
