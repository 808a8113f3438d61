// Answer policies end to end on PGlite and PostgreSQL (issue 14): the demo tenant's policies compiled with Z3 and
// activated (a ledger entry with the bundle hash), an investigator's answer naming a protected juvenile escalated and
// held, the asker told nothing of the draft, a supervisor approving it with a note (a ledger entry), the asker then
// receiving it marked as reviewed; deactivation turns the step off again.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { activateAsOperator, deactivateAsOperator, listBundlesOf } from "@/lib/admin/answer-policies";
import { closeZ3, Z3PolicySolver } from "@/lib/adapters/solver/z3";
import { loadActor, type Actor } from "@/lib/auth/actor";
import { ESCALATED_TEXT } from "@/lib/graphrag/hold";
import type { GraphRagResponse } from "@/lib/graphrag/types";
import type { CompiledBundle } from "@/lib/policy/bundle";
import { compilePolicies } from "@/lib/policy/compile";
import { parsePoliciesJsonl } from "@/lib/policy/schema";
import { askQuestion } from "@/lib/server/answers/graphrag";
import { decideReview, getReview, listReviews, myHeldAnswers } from "@/lib/server/answers/reviews";
import { clearTestRuntime, importDemo, useTestRuntime } from "../support/auth-fixture";
import { describeEachDatabase } from "../support/databases";
import { codeOf } from "../support/codes";

const CASE = "case-harbor";
const QUESTION = { caseId: CASE, question: "Who is Raymond Dunn's sister?" };

describeEachDatabase("answer policies", (fixture) => {
  let bundle: CompiledBundle;
  let reyes: Actor, okafor: Actor, park: Actor;

  beforeAll(async () => {
    const { db } = fixture();
    useTestRuntime(db);
    await importDemo(db);
    bundle = await compilePolicies(parsePoliciesJsonl(readFileSync("prisma/demo/policies/metro-pd.jsonl", "utf8")), new Z3PolicySolver());
    [reyes, okafor, park] = await Promise.all(
      ["det.reyes@metro.example", "sup.okafor@metro.example", "lead.park@metro.example"].map((email) =>
        loadActor(db.prisma, { email }, "session"),
      ),
    );
  });
  afterAll(async () => {
    clearTestRuntime();
    await closeZ3();
  });

  const entries = async (kind: string) =>
    (await fixture().db.prisma.ledgerEntry.findMany({ where: { kind }, orderBy: { seq: "asc" } })).map(
      (e) => (typeof e.payload === "string" ? JSON.parse(e.payload) : e.payload) as any,
    );

  it("without an active bundle the answer carries no compliance and its entry no bundle", async () => {
    const out = await askQuestion(reyes, QUESTION);
    expect(out.ok).toBe(true);
    expect((out.body as GraphRagResponse).answer.compliance).toBeUndefined();
    expect((await entries("graphrag.answer")).at(-1)!.answer_policy).toBeUndefined();
  });

  it("activation stores the bundle and is a ledger entry with its hash", async () => {
    const { db } = fixture();
    const admin = { userId: null, email: "admin@metro.example", tenantId: "metro-pd", via: "cli" as const };
    await activateAsOperator(db.prisma, "metro-pd", bundle, admin);
    const listing = await listBundlesOf(db.prisma, "metro-pd");
    expect(listing.active).toBe(bundle.bundle_metadata.sha256);
    expect(listing.bundles).toEqual([
      expect.objectContaining({ sha256: bundle.bundle_metadata.sha256, policyCount: 9, conflictCount: 2, active: true }),
    ]);
    const [entry] = await entries("admin.policy.activate");
    expect(entry).toMatchObject({
      before: { bundleSha256: null },
      after: { bundleSha256: bundle.bundle_metadata.sha256 },
      target: { type: "answer_policy", id: "metro-pd" },
    });
    // Activating it again changes nothing and writes nothing.
    await activateAsOperator(db.prisma, "metro-pd", bundle, admin);
    expect(await entries("admin.policy.activate")).toHaveLength(1);
    // The other tenant is untouched.
    expect((await listBundlesOf(db.prisma, "cyber-jcu")).active).toBeNull();
  });

  let reviewId = "";

  it("an investigator's answer that names a protected juvenile is escalated and held; nothing of it reaches the asker", async () => {
    const out = await askQuestion(reyes, QUESTION);
    expect(out.ok).toBe(true);
    const a = (out.body as GraphRagResponse).answer;
    expect(a.responseType).toBe("escalated");
    expect(a.answerText).toBe(ESCALATED_TEXT);
    expect(a.citations).toEqual([]);
    expect(a.compliance).toMatchObject({ bundleSha256: bundle.bundle_metadata.sha256, action: "ESCALATE" });
    expect(a.compliance!.violations.map((v) => v.policyId)).toContain("MPD-JUV-001");
    expect(JSON.stringify(a)).not.toContain("Lydia");
    reviewId = a.reviewId!;
    const entry = (await entries("graphrag.answer")).at(-1)!;
    expect(entry.response_type).toBe("escalated");
    expect(entry.answer_policy).toMatchObject({ bundle_sha256: bundle.bundle_metadata.sha256, action: "ESCALATE", review_id: reviewId });
    expect(await myHeldAnswers(fixture().db.prisma, reyes, CASE)).toEqual([
      expect.objectContaining({ id: reviewId, status: "pending", answer: null, note: null }),
    ]);
  });

  it("a supervisor (also one who is an investigator) gets the answer: the juvenile rule is for non-supervisors", async () => {
    const out = await askQuestion(park, QUESTION);
    const a = (out.body as GraphRagResponse).answer;
    expect(a.compliance?.violations.map((v) => v.policyId) ?? []).not.toContain("MPD-JUV-001");
  });

  it("supervisors of the tenant see the held draft with its violations, and decide it once, with a note, in the ledger", async () => {
    const { db } = fixture();
    const list = await listReviews(db.prisma, okafor, { status: "pending" });
    expect(list.map((r) => r.id)).toContain(reviewId);
    expect(await codeOf(listReviews(db.prisma, reyes))).toBe("CG-ACCESS-002");
    const detail = await getReview(db.prisma, okafor, reviewId);
    expect(detail.question).toBe(QUESTION.question);
    expect(detail.askerEmail).toBe("det.reyes@metro.example");
    expect(detail.policies.map((p) => p.policyId)).toContain("MPD-JUV-001");
    expect(detail.claims.some((c) => c.violating && c.text?.includes("Lydia"))).toBe(true);
    expect(detail.highlighted?.some((s) => s.hit && s.text === "Lydia Dunn")).toBe(true);

    // A supervisor whose own permissions do not cover the cited evidence reads none of it, nor the claims citing it.
    await db.prisma.user.create({
      data: {
        id: "u-sup-public",
        email: "sup.public@metro.example",
        name: "Sup Public",
        tenantId: "metro-pd",
        roles: ["supervisor"],
        clearance: "PUBLIC",
        needToKnow: [],
      },
    });
    const low = await getReview(db.prisma, await loadActor(db.prisma, { email: "sup.public@metro.example" }, "session"), reviewId);
    expect(low.hiddenEvidence).toBeGreaterThan(0);
    expect(low.evidence.map((e) => e.id)).toEqual([]); // the answer cites only the interview, which is CUI
    expect(low.highlighted).toBeNull();
    expect(low.claims.length).toBeGreaterThan(0);
    expect(low.claims.every((c) => c.text === null)).toBe(true); // every claim rests on evidence this supervisor may not see
    expect(JSON.stringify({ ...low, question: "" })).not.toContain("Lydia Dunn");

    expect(await codeOf(decideReview(db.prisma, okafor, reviewId, "approve", "  "))).toBe("CG-REVIEW-003");
    expect(await codeOf(decideReview(db.prisma, okafor, "no-such-review", "approve", "ok"))).toBe("CG-REVIEW-001");
    await decideReview(db.prisma, okafor, reviewId, "approve", "Lydia Dunn is 26 now; the juvenile record rule does not apply.");
    expect(await codeOf(decideReview(db.prisma, okafor, reviewId, "reject", null))).toBe("CG-REVIEW-002");
    const [entry] = await entries("review.approve");
    expect(entry).toMatchObject({
      target: { type: "answer_review", id: reviewId },
      before: { status: "pending", bundleSha256: bundle.bundle_metadata.sha256 },
      after: { status: "approved" },
    });
    expect(entry.after.noteSha256).toMatch(/^[0-9a-f]{64}$/);

    const mine = await myHeldAnswers(db.prisma, reyes, CASE);
    expect(mine[0]).toMatchObject({ id: reviewId, status: "approved", note: expect.stringContaining("26 now") });
    expect(mine[0]!.answer?.reviewed).toBe(true);
    expect(mine[0]!.answer?.answerText).toContain("Lydia");
  });

  it("rejection tells the asker it was withheld; a supervisor cannot decide their own question", async () => {
    const { db } = fixture();
    const again = (await askQuestion(reyes, QUESTION)).body as GraphRagResponse;
    await decideReview(db.prisma, okafor, again.answer.reviewId!, "reject", null);
    const mine = await myHeldAnswers(db.prisma, reyes, CASE);
    expect(mine.find((m) => m.id === again.answer.reviewId)).toMatchObject({ status: "rejected", answer: null });
    expect(await entries("review.reject")).toHaveLength(1);
    // Separation of duties: a held answer a supervisor asked is decided by another supervisor.
    const own = { ...mine[0]!, id: "review-own" };
    await db.prisma.answerReview.create({
      data: {
        id: own.id,
        tenantId: "metro-pd",
        caseId: CASE,
        askerId: okafor.userId,
        askerEmail: okafor.email,
        requestId: "r",
        auditId: "a",
        question: "q",
        bundleSha256: bundle.bundle_metadata.sha256,
        draft: {},
        compliance: {},
      },
    });
    expect(await codeOf(decideReview(db.prisma, okafor, own.id, "reject", null))).toBe("CG-REVIEW-004");
  });

  it("deactivation is a ledger entry and turns the step off", async () => {
    const { db } = fixture();
    await deactivateAsOperator(db.prisma, "metro-pd", { userId: null, email: "admin@metro.example", tenantId: "metro-pd", via: "cli" });
    const [entry] = await entries("admin.policy.deactivate");
    expect(entry).toMatchObject({ before: { bundleSha256: bundle.bundle_metadata.sha256 }, after: { bundleSha256: null } });
    const out = (await askQuestion(reyes, QUESTION)).body as GraphRagResponse;
    expect(out.answer.responseType).not.toBe("escalated");
    expect(out.answer.compliance).toBeUndefined();
  });
});
