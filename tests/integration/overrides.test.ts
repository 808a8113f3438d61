// Issue 15 — signed operator overrides: a valid token releases the one held answer it names (by request or review id),
// with its ledger entry written first; expired, replayed, mis-scoped and badly signed tokens are refused with their own
// codes and release nothing. The holds are real: an investigator asks questions only expired evidence answers.
import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { revokeEvidence } from "@/lib/admin/evidence";
import { loadActor, type Actor } from "@/lib/auth/actor";
import { keyIdOf, issueOverride } from "@/lib/grounding/override";
import type { GraphRagResponse } from "@/lib/graphrag/types";
import { askQuestion } from "@/lib/server/answers/graphrag";
import { applyOverride } from "@/lib/server/answers/overrides";
import { decideReview, myHeldAnswers } from "@/lib/server/answers/reviews";
import { clearTestRuntime, importDemo, useTestRuntime } from "../support/auth-fixture";
import { describeEachDatabase } from "../support/databases";
import { EXPIRED_BY_AGE, EXPIRED_BY_DATE, EXPIRY_CASE, importExpiryCase } from "../support/expired";
import { codeOf } from "../support/codes";

const operator = generateKeyPairSync("ed25519");
const stranger = generateKeyPairSync("ed25519");
const KEYS = operator.publicKey.export({ format: "der", type: "spki" }).toString("base64");
const inAnHour = () => new Date(Date.now() + 3_600_000);

describeEachDatabase("operator overrides", (fixture) => {
  let reyes: Actor;
  /** Held requests by name: the request id of a real hold each (an ask only expired evidence answers). */
  const req: Record<string, string> = {};
  const review: Record<string, string> = {};

  beforeAll(async () => {
    const { db } = fixture();
    useTestRuntime(db);
    await importDemo(db);
    await importExpiryCase(db);
    reyes = await loadActor(db.prisma, { email: "det.reyes@metro.example" }, "session");
    for (const name of ["valid", "byReview", "expired", "replay", "scopeA", "scopeB", "badsig", "sup", "revoked"]) {
      const question = name === "revoked" ? EXPIRED_BY_AGE.question : EXPIRED_BY_DATE.question;
      const out = await askQuestion(reyes, { caseId: EXPIRY_CASE, question });
      const body = out.body as GraphRagResponse;
      expect(body.answer).toMatchObject({ responseType: "escalated", heldFor: "expired_evidence" });
      req[name] = body.requestId;
      review[name] = body.answer.reviewId!;
    }
  });
  afterAll(() => clearTestRuntime());

  const overrideEntries = async () =>
    (await fixture().db.prisma.ledgerEntry.findMany({ where: { kind: "override.apply" }, select: { payload: true } })).map(
      (r) => r.payload as any,
    );
  const statusOf = async (name: string) =>
    (await fixture().db.prisma.answerReview.findUniqueOrThrow({ where: { id: review[name] } })).status;

  it("a valid token releases the held answer, after its ledger entry, which never holds the token", async () => {
    const { db } = fixture();
    const token = issueOverride(operator.privateKey, { request: req.valid!, action: "release", expiresAt: inAnHour() });
    const r = await applyOverride(db.prisma, token, { keys: KEYS });
    const by = `override:${keyIdOf(operator.publicKey)}`;
    expect(r).toMatchObject({ request: req.valid, review: review.valid, reason: "expired_evidence", by });
    expect(await statusOf("valid")).toBe("approved");
    const entries = (await overrideEntries()).filter((p) => p.request_id === req.valid);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ review_id: review.valid, held_reason: "expired_evidence", action: "release" });
    expect(JSON.stringify(entries[0])).not.toContain(token);
    expect(entries[0].token_sha256).toMatch(/^[0-9a-f]{64}$/);
    // The asker now gets the answer, flagged as citing expired evidence released by the override.
    const released = (await myHeldAnswers(db.prisma, reyes, EXPIRY_CASE)).find((m) => m.id === review.valid)!;
    expect(released.answer?.answerText).toContain(EXPIRED_BY_DATE.secret);
    expect(released.answer?.expiredCitations.map((c) => c.flag)).toEqual([
      `cites evidence expired on 2025-06-30, released by ${by}: ${EXPIRED_BY_DATE.id}`,
    ]);
  });

  it("a token may name the review id instead of the request id", async () => {
    const { db } = fixture();
    const token = issueOverride(operator.privateKey, { request: review.byReview!, action: "release", expiresAt: inAnHour() });
    expect((await applyOverride(db.prisma, token, { keys: KEYS })).review).toBe(review.byReview);
    expect(await statusOf("byReview")).toBe("approved");
  });

  it("refuses an expired token (CG-GROUND-022) and releases nothing", async () => {
    const { db } = fixture();
    const token = issueOverride(operator.privateKey, { request: req.expired!, action: "release", expiresAt: new Date(Date.now() - 1000) });
    expect(await codeOf(applyOverride(db.prisma, token, { keys: KEYS }))).toBe("CG-GROUND-022");
    expect(await statusOf("expired")).toBe("pending");
  });

  it("refuses a replayed token (CG-GROUND-023)", async () => {
    const { db } = fixture();
    const token = issueOverride(operator.privateKey, { request: req.replay!, action: "release", expiresAt: inAnHour() });
    await applyOverride(db.prisma, token, { keys: KEYS });
    expect(await codeOf(applyOverride(db.prisma, token, { keys: KEYS }))).toBe("CG-GROUND-023");
    expect((await overrideEntries()).filter((p) => p.request_id === req.replay)).toHaveLength(1);
  });

  it("refuses a token applied to another request (CG-GROUND-024)", async () => {
    const { db } = fixture();
    const token = issueOverride(operator.privateKey, { request: req.scopeA!, action: "release", expiresAt: inAnHour() });
    expect(await codeOf(applyOverride(db.prisma, token, { keys: KEYS, request: req.scopeB }))).toBe("CG-GROUND-024");
    expect(await statusOf("scopeA")).toBe("pending");
    expect(await statusOf("scopeB")).toBe("pending");
  });

  it("refuses a token signed by another key or altered after signing (CG-GROUND-021), and a malformed one (CG-GROUND-020)", async () => {
    const { db } = fixture();
    const foreign = issueOverride(stranger.privateKey, { request: req.badsig!, action: "release", expiresAt: inAnHour() });
    expect(await codeOf(applyOverride(db.prisma, foreign, { keys: KEYS }))).toBe("CG-GROUND-021");
    const good = issueOverride(operator.privateKey, { request: req.scopeA!, action: "release", expiresAt: inAnHour() });
    const [body, sig] = good.split(".");
    const claims = JSON.parse(Buffer.from(body, "base64url").toString());
    const altered = Buffer.from(JSON.stringify({ ...claims, request: req.badsig })).toString("base64url") + "." + sig;
    expect(await codeOf(applyOverride(db.prisma, altered, { keys: KEYS }))).toBe("CG-GROUND-021");
    expect(await codeOf(applyOverride(db.prisma, "not-a-token", { keys: KEYS }))).toBe("CG-GROUND-020");
    expect(await codeOf(applyOverride(db.prisma, good, { keys: "" }))).toBe("CG-GROUND-025");
    expect(await statusOf("badsig")).toBe("pending");
  });

  it("a request that is not held cannot be released (CG-GROUND-026), and the token is not spent", async () => {
    const { db } = fixture();
    const token = issueOverride(operator.privateKey, { request: "req-unknown", action: "release", expiresAt: inAnHour() });
    expect(await codeOf(applyOverride(db.prisma, token, { keys: KEYS }))).toBe("CG-GROUND-026");
    expect(await db.prisma.overrideUse.count({ where: { requestId: "req-unknown" } })).toBe(0);
    // Released already: nothing held any more.
    const again = issueOverride(operator.privateKey, { request: req.valid!, action: "release", expiresAt: inAnHour() });
    expect(await codeOf(applyOverride(db.prisma, again, { keys: KEYS }))).toBe("CG-GROUND-026");
  });

  it("a supervisor of the tenant releases it from the review queue; another tenant's cannot see it", async () => {
    const { db } = fixture();
    const other = await loadActor(db.prisma, { email: "sup.haddad@cyber.example" }, "session");
    expect(await codeOf(decideReview(db.prisma, other, review.sup!, "approve", "ok"))).toBe("CG-REVIEW-001");
    const sup = await loadActor(db.prisma, { email: "sup.okafor@metro.example" }, "session");
    await decideReview(db.prisma, sup, review.sup!, "approve", "Released for the interview.");
    expect(await statusOf("sup")).toBe("approved");
    // Decided once: a token for it now finds nothing held.
    const token = issueOverride(operator.privateKey, { request: req.sup!, action: "release", expiresAt: inAnHour() });
    expect(await codeOf(applyOverride(db.prisma, token, { keys: KEYS }))).toBe("CG-GROUND-026");
  });

  it("a held draft citing evidence revoked since is never released by a token (CG-REVIEW-006); the token is not spent", async () => {
    const { db } = fixture();
    const admin = await loadActor(db.prisma, { email: "admin@metro.example" }, "session");
    await revokeEvidence(db.prisma, admin, { caseId: EXPIRY_CASE, evidenceId: EXPIRED_BY_AGE.id, reason: "lab error" });
    const token = issueOverride(operator.privateKey, { request: req.revoked!, action: "release", expiresAt: inAnHour() });
    expect(await codeOf(applyOverride(db.prisma, token, { keys: KEYS }))).toBe("CG-REVIEW-006");
    expect(await statusOf("revoked")).toBe("pending");
    expect(await db.prisma.overrideUse.count({ where: { requestId: req.revoked } })).toBe(0);
    expect((await overrideEntries()).filter((p) => p.request_id === req.revoked)).toHaveLength(0);
  });

  it("a token naming an answer the answer policies escalated releases it as the review's approval, once, ledger first", async () => {
    const { db } = fixture();
    const answer = { responseType: "answer", answerText: "Held text [evidence: EV-C-001].", citations: [] };
    await db.prisma.answerReview.create({
      data: {
        id: "rev-held-1",
        tenantId: "metro-pd",
        caseId: "case-harbor",
        askerId: reyes.userId,
        requestId: "req-escalated-1",
        auditId: "audit-1",
        question: "q",
        bundleSha256: "0".repeat(64),
        draft: { answer } as any,
        compliance: {},
      },
    });
    // Named by its request id, as `override issue --request` does.
    const token = issueOverride(operator.privateKey, { request: "req-escalated-1", action: "release", expiresAt: inAnHour() });
    const r = await applyOverride(db.prisma, token, { keys: KEYS });
    expect(r).toMatchObject({ review: "rev-held-1", reason: "policy" });
    const row = await db.prisma.answerReview.findUniqueOrThrow({ where: { id: "rev-held-1" } });
    expect(row).toMatchObject({ status: "approved" });
    expect(row.decidedBy).toMatch(/^override:[0-9a-f]{16}$/);
    expect((await overrideEntries()).filter((p) => p.request_id === "req-escalated-1")).toHaveLength(1);
    // Released once: another valid token for it finds nothing held.
    const again = issueOverride(operator.privateKey, { request: "req-escalated-1", action: "release", expiresAt: inAnHour() });
    expect(await codeOf(applyOverride(db.prisma, again, { keys: KEYS }))).toBe("CG-GROUND-026");
  });
});
