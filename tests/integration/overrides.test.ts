// Issue 15 — signed operator overrides: a valid token releases the one held request it names, with its ledger entry
// written first; expired, replayed, mis-scoped and badly signed tokens are refused with their own codes and release
// nothing.
import { generateKeyPairSync } from "node:crypto";
import { beforeAll, expect, it } from "vitest";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { issueOverride } from "@/lib/grounding/override";
import { applyOverride, heldRequest, holdRequest, releaseAsSupervisor } from "@/lib/server/answers/overrides";
import { loadActor } from "@/lib/auth/actor";
import { importDemo } from "../support/auth-fixture";
import { describeEachDatabase } from "../support/databases";

const operator = generateKeyPairSync("ed25519");
const stranger = generateKeyPairSync("ed25519");
const KEYS = operator.publicKey.export({ format: "der", type: "spki" }).toString("base64");
const inAnHour = () => new Date(Date.now() + 3_600_000);

async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    if (err instanceof CasegraphError) return err.code;
    throw err;
  }
  return "no error";
}

describeEachDatabase("operator overrides", (fixture) => {
  beforeAll(async () => {
    const { db } = fixture();
    await importDemo(db);
    for (const id of ["req-valid", "req-expired", "req-replay", "req-scope-a", "req-scope-b", "req-badsig", "req-sup"]) {
      await holdRequest(db.prisma, { id, kind: "expired_evidence", tenantId: "metro-pd", caseId: "case-harbor" });
    }
  });

  const overrideEntries = async () =>
    (await fixture().db.prisma.ledgerEntry.findMany({ where: { kind: "override.apply" }, select: { payload: true } })).map(
      (r) => r.payload as any,
    );

  it("a valid token releases the held request, after its ledger entry, which never holds the token", async () => {
    const { db } = fixture();
    const token = issueOverride(operator.privateKey, { request: "req-valid", action: "release", expiresAt: inAnHour() });
    const r = await applyOverride(db.prisma, token, { keys: KEYS });
    expect(r).toMatchObject({ request: "req-valid", kind: "expired_evidence" });
    expect((await heldRequest(db.prisma, "req-valid"))?.state).toBe("released");
    const entries = (await overrideEntries()).filter((p) => p.request_id === "req-valid");
    expect(entries).toHaveLength(1);
    expect(JSON.stringify(entries[0])).not.toContain(token);
    expect(entries[0].token_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses an expired token (CG-GROUND-022) and releases nothing", async () => {
    const { db } = fixture();
    const token = issueOverride(operator.privateKey, { request: "req-expired", action: "release", expiresAt: new Date(Date.now() - 1000) });
    expect(await codeOf(applyOverride(db.prisma, token, { keys: KEYS }))).toBe("CG-GROUND-022");
    expect((await heldRequest(db.prisma, "req-expired"))?.state).toBe("held");
  });

  it("refuses a replayed token (CG-GROUND-023)", async () => {
    const { db } = fixture();
    const token = issueOverride(operator.privateKey, { request: "req-replay", action: "release", expiresAt: inAnHour() });
    await applyOverride(db.prisma, token, { keys: KEYS });
    expect(await codeOf(applyOverride(db.prisma, token, { keys: KEYS }))).toBe("CG-GROUND-023");
    expect((await overrideEntries()).filter((p) => p.request_id === "req-replay")).toHaveLength(1);
  });

  it("refuses a token applied to another request (CG-GROUND-024)", async () => {
    const { db } = fixture();
    const token = issueOverride(operator.privateKey, { request: "req-scope-a", action: "release", expiresAt: inAnHour() });
    expect(await codeOf(applyOverride(db.prisma, token, { keys: KEYS, request: "req-scope-b" }))).toBe("CG-GROUND-024");
    expect((await heldRequest(db.prisma, "req-scope-a"))?.state).toBe("held");
    expect((await heldRequest(db.prisma, "req-scope-b"))?.state).toBe("held");
  });

  it("refuses a token signed by another key or altered after signing (CG-GROUND-021), and a malformed one (CG-GROUND-020)", async () => {
    const { db } = fixture();
    const foreign = issueOverride(stranger.privateKey, { request: "req-badsig", action: "release", expiresAt: inAnHour() });
    expect(await codeOf(applyOverride(db.prisma, foreign, { keys: KEYS }))).toBe("CG-GROUND-021");
    const good = issueOverride(operator.privateKey, { request: "req-scope-a", action: "release", expiresAt: inAnHour() });
    const [body, sig] = good.split(".");
    const claims = JSON.parse(Buffer.from(body, "base64url").toString());
    const altered = Buffer.from(JSON.stringify({ ...claims, request: "req-badsig" })).toString("base64url") + "." + sig;
    expect(await codeOf(applyOverride(db.prisma, altered, { keys: KEYS }))).toBe("CG-GROUND-021");
    expect(await codeOf(applyOverride(db.prisma, "not-a-token", { keys: KEYS }))).toBe("CG-GROUND-020");
    expect(await codeOf(applyOverride(db.prisma, good, { keys: "" }))).toBe("CG-GROUND-025");
    expect((await heldRequest(db.prisma, "req-badsig"))?.state).toBe("held");
  });

  it("a request that is not held cannot be released (CG-GROUND-026), and the token is not spent", async () => {
    const { db } = fixture();
    const token = issueOverride(operator.privateKey, { request: "req-unknown", action: "release", expiresAt: inAnHour() });
    expect(await codeOf(applyOverride(db.prisma, token, { keys: KEYS }))).toBe("CG-GROUND-026");
    expect(await db.prisma.overrideUse.count({ where: { requestId: "req-unknown" } })).toBe(0);
  });

  it("a supervisor of the tenant releases from the review queue; another tenant's cannot", async () => {
    const { db } = fixture();
    const other = await loadActor(db.prisma, { email: "sup.haddad@cyber.example" }, "session");
    expect(await codeOf(releaseAsSupervisor(db.prisma, other, "req-sup"))).toBe("CG-GROUND-026");
    const sup = await loadActor(db.prisma, { email: "sup.okafor@metro.example" }, "session");
    expect((await releaseAsSupervisor(db.prisma, sup, "req-sup")).by).toBe("sup.okafor@metro.example");
    expect(await db.prisma.ledgerEntry.count({ where: { kind: "review.release" } })).toBe(1);
  });

  it("a token naming an answer the answer policies escalated releases it as the review's approval, once, ledger first", async () => {
    const { db } = fixture();
    const reyes = await loadActor(db.prisma, { email: "det.reyes@metro.example" }, "session");
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
    expect(r.kind).toBe("answer_review");
    const row = await db.prisma.answerReview.findUniqueOrThrow({ where: { id: "rev-held-1" } });
    expect(row).toMatchObject({ status: "approved" });
    expect(row.decidedBy).toMatch(/^override:[0-9a-f]{16}$/);
    expect((await overrideEntries()).filter((p) => p.request_id === "req-escalated-1")).toHaveLength(1);
    // Released once: another valid token for it finds nothing held.
    const again = issueOverride(operator.privateKey, { request: "req-escalated-1", action: "release", expiresAt: inAnHour() });
    expect(await codeOf(applyOverride(db.prisma, again, { keys: KEYS }))).toBe("CG-GROUND-026");
  });
});
