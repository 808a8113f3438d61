// Issue 15 — an expired-evidence hold end to end on PGlite and PostgreSQL: a question only expired evidence answers
// (past its validUntil, or older than the tenant's maximum age for its type) is drafted, held in the review queue and
// the asker told the evidence has expired — nothing of it through the HTTP route, the thread, question history, the
// reuse cache or the CLI. A supervisor sees why it is held and the expired items, and approves (the asker then gets it
// flagged as citing expired evidence, released by whom) or rejects. Revoked items and items above the asker's
// clearance never cause a hold; a draft citing an item revoked since cannot be released.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { revokeEvidence } from "@/lib/admin/evidence";
import { userIdFor } from "@/lib/adapters/prisma/workspace";
import { loadActor, type Actor } from "@/lib/auth/actor";
import { EXPIRED_HELD_TEXT } from "@/lib/graphrag/hold";
import type { Answer, AnswerOutcome, GraphRagResponse } from "@/lib/graphrag/types";
import { askQuestion } from "@/lib/server/answers/graphrag";
import { decideReview, getReview, listReviews, myHeldAnswers } from "@/lib/server/answers/reviews";
import { questionHistory } from "@/lib/server/workbench/history";
import { openCase } from "@/lib/server/workbench/scope";
import { clearTestRuntime, importDemo, nextHeadersMock, useTestRuntime } from "../support/auth-fixture";
import { runCli } from "../support/cli";
import { describeEachDatabase } from "../support/databases";
import {
  ABOVE_CLEARANCE,
  EXPIRED_BY_AGE,
  EXPIRED_BY_DATE,
  EXPIRES_LATER,
  EXPIRY_CASE,
  NOTHING_ANSWERS,
  REVOKED,
  expiryBundle,
  importExpiryCase,
} from "../support/expired";
import { codeOf } from "../support/codes";

vi.mock("next/headers", () => nextHeadersMock);
const { POST } = await import("@/app/api/graphrag/answer/route");
const { issueToken } = await import("@/lib/auth/tokens");

const bodyOf = (out: AnswerOutcome) => {
  if (!out.ok) throw new Error(JSON.stringify(out.body));
  return out.body as GraphRagResponse;
};

/** What an asker reads of a no_evidence reply (its ids, time and provenance aside). */
const readable = (a: Answer) => ({
  responseType: a.responseType,
  answerText: a.answerText,
  citations: a.citations,
  unknowns: a.unknowns,
  confidence: a.confidence,
  confidenceJustification: a.confidenceJustification,
  usedContextSummary: a.usedContextSummary,
});

describeEachDatabase("expired-evidence holds", (fixture, kind) => {
  let reyes: Actor, kim: Actor, park: Actor, okafor: Actor, admin: Actor;

  beforeAll(async () => {
    const { db } = fixture();
    useTestRuntime(db);
    await importDemo(db);
    await importExpiryCase(db);
    [reyes, kim, park, okafor, admin] = await Promise.all(
      [
        "det.reyes@metro.example",
        "analyst.kim@metro.example",
        "lead.park@metro.example",
        "sup.okafor@metro.example",
        "admin@metro.example",
      ].map((email) => loadActor(db.prisma, { email }, "session")),
    );
  });
  afterAll(() => clearTestRuntime());

  const ask = (actor: Actor, question: string) => askQuestion(actor, { caseId: EXPIRY_CASE, question });
  const entries = async (kind: string) =>
    (await fixture().db.prisma.ledgerEntry.findMany({ where: { kind }, orderBy: { seq: "asc" } })).map(
      (e) => (typeof e.payload === "string" ? JSON.parse(e.payload) : e.payload) as any,
    );
  const entryOf = async (requestId: string) => (await entries("graphrag.answer")).find((p) => p.request_id === requestId);
  const reviewsOf = (askerId: string) => fixture().db.prisma.answerReview.findMany({ where: { askerId, caseId: EXPIRY_CASE } });

  let heldByDate = "";

  it("past its validUntil: held, the asker told the evidence has expired, nothing of it through any interface", async () => {
    const { db } = fixture();
    const { token } = await issueToken(db.prisma, {
      userId: userIdFor(reyes.email),
      name: "expired",
      expiresAt: new Date(Date.now() + 600_000),
      createdBy: null,
    });
    const res = await POST(
      new Request("http://casegraph.test/api/graphrag/answer", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ caseId: EXPIRY_CASE, question: EXPIRED_BY_DATE.question }),
      }),
      { params: Promise.resolve({}) },
    );
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toContain(EXPIRED_BY_DATE.secret);
    expect(text).not.toContain(EXPIRED_BY_DATE.id);
    const body = JSON.parse(text) as GraphRagResponse;
    expect(body.answer).toMatchObject({
      responseType: "escalated",
      heldFor: "expired_evidence",
      answerText: EXPIRED_HELD_TEXT,
      citations: [],
    });
    expect(body.rawContext.evidenceSnippets).toEqual([]);
    heldByDate = body.answer.reviewId!;

    // The request's ledger entry records the hold, its coded notice and the expired ids — never the text.
    const entry = await entryOf(body.requestId);
    expect(entry).toMatchObject({
      response_type: "escalated",
      error_code: "CG-GROUND-013",
      hold: { reason: "expired_evidence", review_id: heldByDate },
      expired_citation_ids: [EXPIRED_BY_DATE.id],
      expired_context_evidence_ids: expect.arrayContaining([EXPIRED_BY_DATE.id]),
      citation_ids: [],
    });
    expect(JSON.stringify(entry)).not.toContain(EXPIRED_BY_DATE.secret);

    // The draft waits in the review queue, with why and when its evidence expired.
    const row = await db.prisma.answerReview.findUniqueOrThrow({ where: { id: heldByDate } });
    expect(row).toMatchObject({
      reason: "expired_evidence",
      status: "pending",
      requestId: body.requestId,
      auditId: body.auditId,
      bundleSha256: null,
      compliance: null,
      expiredEvidence: [{ id: EXPIRED_BY_DATE.id, expiredAt: EXPIRED_BY_DATE.expiredAt }],
    });
    expect(JSON.stringify(row.draft)).toContain(EXPIRED_BY_DATE.secret);

    // The asker's other views: held answers (pending, nothing of it), the thread, question history, the reuse cache.
    const mine = await myHeldAnswers(db.prisma, reyes, EXPIRY_CASE);
    expect(mine).toEqual([expect.objectContaining({ id: heldByDate, reason: "expired_evidence", status: "pending", answer: null })]);
    expect(JSON.stringify(mine)).not.toContain(EXPIRED_BY_DATE.secret);
    const turns = await db.prisma.threadTurn.findMany({ where: { threadId: body.threadId! } });
    expect(turns).toHaveLength(1);
    expect(turns[0]!.responseType).toBe("escalated");
    expect(JSON.stringify(turns, (_, v) => (typeof v === "bigint" ? String(v) : v))).not.toContain(EXPIRED_BY_DATE.secret);
    const history = await questionHistory(await openCase(reyes, EXPIRY_CASE), reyes);
    expect(history[0]).toMatchObject({ responseType: "escalated", errorCode: "CG-GROUND-013", citedEvidence: [] });
    expect(await db.prisma.answerCache.count({ where: { caseId: EXPIRY_CASE } })).toBe(0);
  });

  it("supervisors see why it is held and the expired items; approval delivers it flagged, released by whom", async () => {
    const { db } = fixture();
    const listed = (await listReviews(db.prisma, okafor, { status: "pending" })).find((r) => r.id === heldByDate);
    expect(listed).toMatchObject({ reason: "expired_evidence", heldNote: "held: cites evidence expired on 2025-06-30", score: null });
    const detail = await getReview(db.prisma, okafor, heldByDate);
    expect(detail).toMatchObject({ compliance: null, bundleSha256: null, hiddenEvidence: 0, revokedSince: 0 });
    expect(detail.evidence).toEqual([expect.objectContaining({ id: EXPIRED_BY_DATE.id, expiredAt: EXPIRED_BY_DATE.expiredAt })]);
    expect(detail.evidence[0]!.content).toContain(EXPIRED_BY_DATE.secret);
    expect(detail.claims.some((c) => c.text?.includes(EXPIRED_BY_DATE.secret))).toBe(true);

    await decideReview(db.prisma, okafor, heldByDate, "approve", "Still the best record of the rental; released for the interview.");
    const approval = (await entries("review.approve")).find((p) => p.target.id === heldByDate);
    expect(approval.before).toMatchObject({ status: "pending", reason: "expired_evidence", bundleSha256: null });

    const [mine] = await myHeldAnswers(db.prisma, reyes, EXPIRY_CASE);
    expect(mine).toMatchObject({ id: heldByDate, status: "approved" });
    expect(mine!.answer).toMatchObject({ reviewed: true, releasedBy: "sup.okafor@metro.example" });
    expect(mine!.answer!.answerText).toContain(EXPIRED_BY_DATE.secret);
    expect(mine!.answer!.expiredCitations).toEqual([
      {
        evidenceId: EXPIRED_BY_DATE.id,
        expiredAt: EXPIRED_BY_DATE.expiredAt,
        flag: `cites evidence expired on 2025-06-30, released by sup.okafor@metro.example: ${EXPIRED_BY_DATE.id}`,
      },
    ]);

    // Approval does not widen what the asker may see: with his clearance lowered below the item's CUI, the released
    // answer is no longer shown to him (and comes back when it is restored).
    await db.prisma.user.update({ where: { id: reyes.userId }, data: { clearance: "PUBLIC" } });
    try {
      const lowered = await loadActor(db.prisma, { email: "det.reyes@metro.example" }, "session");
      const [now] = await myHeldAnswers(db.prisma, lowered, EXPIRY_CASE);
      expect(now).toMatchObject({ id: heldByDate, status: "approved", answer: null, noLongerVisible: true });
      expect(JSON.stringify(now)).not.toContain(EXPIRED_BY_DATE.secret);
    } finally {
      await db.prisma.user.update({ where: { id: reyes.userId }, data: { clearance: "SECRET" } });
    }
    expect((await myHeldAnswers(db.prisma, reyes, EXPIRY_CASE))[0]!.answer!.answerText).toContain(EXPIRED_BY_DATE.secret);
  });

  it("older than the tenant's maximum age for its type: held the same way; a rejection tells the asker it was withheld", async () => {
    const { db } = fixture();
    const body = bodyOf(await ask(reyes, EXPIRED_BY_AGE.question));
    expect(body.answer).toMatchObject({ responseType: "escalated", heldFor: "expired_evidence" });
    expect(JSON.stringify(body)).not.toContain(EXPIRED_BY_AGE.secret);
    const id = body.answer.reviewId!;
    expect((await db.prisma.answerReview.findUniqueOrThrow({ where: { id } })).expiredEvidence).toEqual([
      { id: EXPIRED_BY_AGE.id, expiredAt: EXPIRED_BY_AGE.expiredAt },
    ]);
    await decideReview(db.prisma, okafor, id, "reject", null);
    const mine = (await myHeldAnswers(db.prisma, reyes, EXPIRY_CASE)).find((m) => m.id === id);
    expect(mine).toMatchObject({ status: "rejected", answer: null });
    expect(JSON.stringify(mine)).not.toContain(EXPIRED_BY_AGE.secret);
  });

  it("a revoked item never triggers a hold: plain no_evidence, nothing queued", async () => {
    const { db } = fixture();
    await revokeEvidence(db.prisma, admin, { caseId: EXPIRY_CASE, evidenceId: REVOKED.id, reason: "withdrawn by the source" });
    const before = (await reviewsOf(reyes.userId)).length;
    const body = bodyOf(await ask(reyes, REVOKED.question));
    expect(body.answer.responseType).toBe("no_evidence");
    expect(JSON.stringify(body)).not.toContain(REVOKED.secret);
    expect(await reviewsOf(reyes.userId)).toHaveLength(before);
    const entry = await entryOf(body.requestId);
    expect(entry.hold).toBeUndefined();
    expect(entry.expired_context_evidence_ids).toBeUndefined();
  });

  it("an expired item above the asker's clearance: plain no_evidence as if nothing matched; a cleared asker's is held", async () => {
    for (const asker of [kim, reyes]) {
      const before = (await reviewsOf(asker.userId)).length;
      const hidden = bodyOf(await ask(asker, ABOVE_CLEARANCE.question));
      const nothing = bodyOf(await ask(asker, NOTHING_ANSWERS));
      expect(hidden.answer.responseType).toBe("no_evidence");
      expect(readable(hidden.answer)).toEqual(readable(nothing.answer));
      expect(hidden.rawContext).toEqual(nothing.rawContext);
      expect(await reviewsOf(asker.userId)).toHaveLength(before);
      const entry = await entryOf(hidden.requestId);
      expect(entry.hold).toBeUndefined();
      expect(JSON.stringify(entry)).not.toContain(ABOVE_CLEARANCE.id);
    }
    const cleared = bodyOf(await ask(park, ABOVE_CLEARANCE.question));
    expect(cleared.answer).toMatchObject({ responseType: "escalated", heldFor: "expired_evidence" });
    expect(JSON.stringify(cleared)).not.toContain(ABOVE_CLEARANCE.secret);
  });

  it("a draft citing evidence revoked since it was held cannot be released (CG-REVIEW-006)", async () => {
    const { db } = fixture();
    const [held] = await db.prisma.answerReview.findMany({ where: { askerId: park.userId, status: "pending" } });
    await revokeEvidence(db.prisma, admin, { caseId: EXPIRY_CASE, evidenceId: ABOVE_CLEARANCE.id, reason: "source burned" });
    expect((await getReview(db.prisma, okafor, held!.id)).revokedSince).toBe(1);
    expect(await codeOf(decideReview(db.prisma, okafor, held!.id, "approve", "ok"))).toBe("CG-REVIEW-006");
    expect((await db.prisma.answerReview.findUniqueOrThrow({ where: { id: held!.id } })).status).toBe("pending");
    await decideReview(db.prisma, okafor, held!.id, "reject", "Its source was burned.");
  });

  it("answer reuse never returns a held draft, nor an answer whose evidence has expired since", async () => {
    const { db } = fixture();
    const first = bodyOf(await ask(reyes, EXPIRES_LATER.question));
    expect(first.answer.responseType).toBe("answer");
    expect(first.answer.citations.map((c) => c.evidenceId)).toContain(EXPIRES_LATER.id);
    expect(bodyOf(await ask(reyes, EXPIRES_LATER.question)).answer.provenance?.mode).toBe("reused");

    await db.prisma.evidence.update({
      where: { caseId_id: { caseId: EXPIRY_CASE, id: EXPIRES_LATER.id } },
      data: { validUntil: new Date("2026-01-01T00:00:00Z") },
    });
    const heldIds: string[] = [];
    for (let i = 0; i < 2; i++) {
      const again = bodyOf(await ask(reyes, EXPIRES_LATER.question));
      expect(again.answer).toMatchObject({ responseType: "escalated", heldFor: "expired_evidence" });
      expect(again.answer.provenance?.mode).toBe("normal");
      expect(JSON.stringify(again)).not.toContain(EXPIRES_LATER.secret);
      heldIds.push(again.requestId);
    }
    const decisions = (await entries("graphrag.reuse_decision")).filter((d) => heldIds.includes(d.request_id));
    expect(decisions.map((d) => [d.decision, d.reason])).toEqual([
      ["denied", "evidence_inactive_or_missing"],
      ["denied", "evidence_inactive_or_missing"],
    ]);
    // Approving a held draft does not make it reusable: the next ask is held again.
    const [pending] = await db.prisma.answerReview.findMany({ where: { requestId: heldIds[0] } });
    await decideReview(db.prisma, okafor, pending!.id, "approve", "Released.");
    expect(bodyOf(await ask(reyes, EXPIRES_LATER.question)).answer.responseType).toBe("escalated");
    const cached = await db.prisma.answerCache.findMany({ where: { caseId: EXPIRY_CASE }, select: { requestId: true, body: true } });
    expect(cached.map((c) => c.requestId)).toEqual([first.requestId]);
  });

  it("the CLI: `ask` prints the held reply only, `review list` shows why it is held", async () => {
    const { url } = fixture();
    const dataDir = await mkdtemp(path.join(tmpdir(), "cg-expired-"));
    try {
      const run = (args: string[]) =>
        runCli(args, { env: { CASEGRAPH_DATA_DIR: dataDir, DATABASE_URL: url ?? "", CASEGRAPH_SEED_DEMO: "never" } });
      if (kind === "pglite") {
        // The embedded database lives in the CLI's own data folder: import the demo and the case there first.
        const file = path.join(dataDir, "expired.json");
        await writeFile(file, JSON.stringify(expiryBundle()));
        expect((await run(["import", "prisma/demo/workspace.json"])).code).toBe(0);
        expect((await run(["import", file])).code).toBe(0);
      }
      const asked = await run(["ask", "--user", "det.reyes@metro.example", "--case", EXPIRY_CASE, EXPIRED_BY_DATE.question]);
      expect(asked.code).toBe(0);
      expect(asked.stdout + asked.stderr).not.toContain(EXPIRED_BY_DATE.secret);
      const out = JSON.parse(asked.stdout) as GraphRagResponse;
      expect(out.answer).toMatchObject({ responseType: "escalated", heldFor: "expired_evidence" });
      const listed = await run(["review", "list", "--tenant", "metro-pd", "--status", "pending"]);
      expect(listed.code).toBe(0);
      const rows = listed.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(rows.find((r) => r.id === out.answer.reviewId)).toMatchObject({
        reason: "expired_evidence",
        held: "held: cites evidence expired on 2025-06-30",
        expiredEvidence: [{ id: EXPIRED_BY_DATE.id, expiredAt: EXPIRED_BY_DATE.expiredAt }],
      });
      expect(listed.stdout).not.toContain(EXPIRED_BY_DATE.secret);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
