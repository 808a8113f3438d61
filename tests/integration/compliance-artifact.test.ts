// Issue 15 — the per-answer compliance artifact: built from the answer's ledger entry (inclusion proof against a signed
// checkpoint), the cited evidence's digests and states, and the provenance; verifies offline, and fails after one
// changed byte anywhere in it, naming what does not hold.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { revokeEvidence } from "@/lib/admin/evidence";
import { loadActor, type Actor } from "@/lib/auth/actor";
import { renderArtifact, verifyArtifact } from "@/lib/grounding/artifact";
import { complianceArtifact } from "@/lib/server/audit/artifact";
import { askQuestion } from "@/lib/server/answers/graphrag";
import { runtime } from "@/lib/server/runtime";
import { clearTestRuntime, importDemo, useTestRuntime } from "../support/auth-fixture";
import { runCli } from "../support/cli";
import { describeEachDatabase } from "../support/databases";

describeEachDatabase("compliance artifact", (fixture, kind) => {
  let reyes: Actor;
  let requestId: string;

  beforeAll(async () => {
    const { db } = fixture();
    useTestRuntime(db);
    await importDemo(db);
    reyes = await loadActor(db.prisma, { email: "det.reyes@metro.example" }, "session");
    const r = await askQuestion(reyes, { caseId: "case-harbor", question: "What happened at Pier 9?" });
    expect(r.ok).toBe(true);
    requestId = r.body.requestId;
  });
  afterAll(() => clearTestRuntime());

  it("holds the entry, its proof, the cited evidence with digests and states, the provenance; and verifies", async () => {
    const { db } = fixture();
    const { ledger } = await runtime();
    const a = await complianceArtifact(db.prisma, ledger, requestId, "metro-pd", "sign");
    expect(a.requestId).toBe(requestId);
    expect(a.provenance?.sources.length).toBeGreaterThan(0);
    expect(a.evidence.map((e) => e.id)).toEqual(a.provenance!.sources);
    expect(a.evidence.every((e) => e.state === "active" && /^[0-9a-f]{64}$/.test(e.contentSha256 ?? ""))).toBe(true);
    const text = renderArtifact(a);
    expect(verifyArtifact(text)).toMatchObject({ ok: true });
    // Deterministic: the same request gives the same bytes.
    expect(renderArtifact(await complianceArtifact(db.prisma, ledger, requestId, "metro-pd", "read"))).toBe(text);
    // Another tenant's supervisor does not get it; an unknown id neither.
    await expect(complianceArtifact(db.prisma, ledger, requestId, "cyber-jcu", "read")).rejects.toMatchObject({ code: "CG-GROUND-030" });
    await expect(complianceArtifact(db.prisma, ledger, "no-such-request", "metro-pd", "read")).rejects.toMatchObject({
      code: "CG-GROUND-030",
    });
  });

  it("fails after one changed byte anywhere, naming the first check that does not hold", async () => {
    const { db } = fixture();
    const { ledger } = await runtime();
    const text = renderArtifact(await complianceArtifact(db.prisma, ledger, requestId, "metro-pd", "read"));
    const step = kind === "pglite" ? 1 : 13; // every byte once; a sample on the second database
    let checked = 0;
    for (let i = 0; i < text.length; i += step) {
      const c = text[i];
      const changed = text.slice(0, i) + (c === "a" ? "b" : c === "\n" ? " " : "a") + text.slice(i + 1);
      const report = verifyArtifact(changed);
      expect(report.ok, `byte ${i} (${JSON.stringify(c)})`).toBe(false);
      expect(report.firstFailure?.check).toBeTruthy();
      checked++;
    }
    expect(checked).toBeGreaterThan(300);
  });

  it("records a later revocation of a cited item in a new artifact", async () => {
    const { db } = fixture();
    const { ledger } = await runtime();
    const admin = await loadActor(db.prisma, { email: "admin@metro.example" }, "session");
    const before = await complianceArtifact(db.prisma, ledger, requestId, "metro-pd", "read");
    await revokeEvidence(db.prisma, admin, { caseId: "case-harbor", evidenceId: before.evidence[0].id, reason: "found unreliable" });
    const after = await complianceArtifact(db.prisma, ledger, requestId, "metro-pd", "sign");
    expect(after.evidence[0]).toMatchObject({ state: "revoked", revokedReason: "found unreliable" });
    expect(verifyArtifact(renderArtifact(after)).ok).toBe(true);
  });

  it("audit verify-artifact checks a file offline: exit 0, and CG-GROUND-031 naming the check after a change", async () => {
    const { db } = fixture();
    const { ledger } = await runtime();
    const text = renderArtifact(await complianceArtifact(db.prisma, ledger, requestId, "metro-pd", "read"));
    const dir = mkdtempSync(path.join(tmpdir(), "cg-artifact-"));
    const good = path.join(dir, "good.json");
    const bad = path.join(dir, "bad.json");
    writeFileSync(good, text);
    writeFileSync(
      bad,
      text.replace(/"evidenceCount": (\d+)/, (_m, n) => `"evidenceCount": ${Number(n) + 1}`),
    );
    const ok = await runCli(["audit", "verify-artifact", good]);
    expect(ok.code, ok.stderr).toBe(0);
    const no = await runCli(["audit", "verify-artifact", bad]);
    expect(no.code).not.toBe(0);
    expect(no.stdout + no.stderr).toContain("CG-GROUND-031");
    expect(no.stdout + no.stderr).toContain("artifact digest");
  });
});
