// Issue 15 — answer reuse, kill switches and provenance, on PGlite and PostgreSQL: an answer is reused for the same
// asker only while every check holds (denied for another clearance, after a revocation, an edit of the cited evidence,
// expiry, the switch), each decision is a ledger entry, and every answer's provenance is hashed into its entry.
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { revokeEvidence } from "@/lib/admin/evidence";
import { loadActor, type Actor } from "@/lib/auth/actor";
import { canonicalJson } from "@/lib/domain/canonical-json";
import { sha256Hex } from "@/lib/domain/ledger-chain";
import { askQuestion } from "@/lib/server/answers/graphrag";
import { complianceArtifact } from "@/lib/server/audit/artifact";
import { artifactCsv, buildArtifact, evidenceRevocations } from "@/lib/server/audit/export";
import { runtime } from "@/lib/server/runtime";
import { assertExportsAllowed, setTenantSwitch, listSwitches } from "@/lib/server/runtime/kill-switches";
import { clearTestRuntime, importDemo, useTestRuntime } from "../support/auth-fixture";
import { describeEachDatabase } from "../support/databases";

const CASE = "case-harbor";
const cited = (body: any): string[] => [...new Set<string>((body.answer?.citations ?? []).map((c: any) => c.evidenceId))].sort();

describeEachDatabase("answer reuse, kill switches and provenance", (fixture) => {
  let reyes: Actor;
  let kim: Actor;
  let admin: Actor;

  beforeAll(async () => {
    const { db } = fixture();
    useTestRuntime(db);
    await importDemo(db);
    reyes = await loadActor(db.prisma, { email: "det.reyes@metro.example" }, "session");
    kim = await loadActor(db.prisma, { email: "analyst.kim@metro.example" }, "session");
    admin = await loadActor(db.prisma, { email: "admin@metro.example" }, "session");
  });
  afterAll(() => clearTestRuntime());
  afterEach(() => {
    delete process.env.ANSWER_REUSE_MAX_AGE;
  });

  const decisions = async (requestId: string) => {
    const rows = await fixture().db.prisma.ledgerEntry.findMany({ where: { kind: "graphrag.reuse_decision" }, select: { payload: true } });
    return rows.map((r) => r.payload as any).filter((p) => p.request_id === requestId);
  };
  const answerEntry = async (requestId: string) => {
    const rows = await fixture().db.prisma.ledgerEntry.findMany({ where: { kind: "graphrag.answer" }, select: { payload: true } });
    return rows.map((r) => r.payload as any).find((p) => p.request_id === requestId);
  };

  it("every answer carries its provenance, and its ledger entry holds the provenance's SHA-256", async () => {
    const r = await askQuestion(reyes, { caseId: CASE, question: "Who was seen at Pier 9?" });
    expect(r.ok).toBe(true);
    const p = (r.body as any).answer.provenance;
    expect(p).toMatchObject({
      mode: "normal",
      evidenceCount: cited(r.body).length,
      sources: cited(r.body),
      timestamp: r.body.timestamp,
      killSwitches: { DISABLE_ANSWER_REUSE: false, DISABLE_MODEL: false, DISABLE_EXPORTS: false },
    });
    expect(p.queryHash).toMatch(/^[0-9a-f]{16}$/);
    const entry = await answerEntry(r.body.requestId);
    expect(entry.provenance_sha256).toBe(sha256Hex(canonicalJson(p)));
    expect(entry.provenance).toEqual(p);
  });

  it("reuses for the same asker (a new request naming the one it came from), never for another clearance", async () => {
    const first = await askQuestion(reyes, { caseId: CASE, question: "What happened at Pier 9?" });
    const again = await askQuestion(reyes, { caseId: CASE, question: "  what happened at  PIER 9? " });
    expect(again.ok).toBe(true);
    const p = (again.body as any).answer.provenance;
    expect(p).toMatchObject({
      mode: "reused",
      reusedFrom: first.body.requestId,
      queryHash: (first.body as any).answer.provenance.queryHash,
    });
    expect(again.body.requestId).not.toBe(first.body.requestId);
    expect((again.body as any).answer.answerText).toBe((first.body as any).answer.answerText);
    expect(await decisions(again.body.requestId)).toEqual([
      expect.objectContaining({ decision: "granted", candidate_request_id: first.body.requestId }),
    ]);
    const entry = await answerEntry(again.body.requestId);
    expect(entry.reused_from).toBe(first.body.requestId);
    expect(entry.answer_sha256).toBe((await answerEntry(first.body.requestId)).answer_sha256);

    const other = await askQuestion(kim, { caseId: CASE, question: "What happened at Pier 9?" });
    expect((other.body as any).answer.provenance.mode).toBe("normal");
    expect((other.body as any).answer.provenance.queryHash).not.toBe(p.queryHash);
  });

  it("answers afresh when asked to (casegraph eval): no earlier answer is looked up, none reused", async () => {
    const q = { caseId: CASE, question: "Who was seen at the Pier 9 warehouse?" };
    const first = await askQuestion(reyes, q);
    expect((first.body as any).answer.responseType).toBe("answer");
    const fresh = await askQuestion(reyes, q, { afresh: true });
    expect((fresh.body as any).answer.provenance.mode).toBe("normal");
    expect((fresh.body as any).answer.answerText).toBe((first.body as any).answer.answerText);
    expect(await decisions(fresh.body.requestId)).toEqual([]);
    // Without it the same question is reused, as before.
    expect(((await askQuestion(reyes, q)).body as any).answer.provenance.mode).toBe("reused");
  });

  it("denies reuse after the answer's window, naming the reason", async () => {
    const q = { caseId: CASE, question: "Tell me what happened at Pier 9" };
    expect(((await askQuestion(reyes, q)).body as any).answer.responseType).toBe("answer");
    process.env.ANSWER_REUSE_MAX_AGE = "0";
    const later = await askQuestion(reyes, q);
    expect((later.body as any).answer.provenance.mode).toBe("normal");
    expect(await decisions(later.body.requestId)).toEqual([expect.objectContaining({ decision: "denied", reason: "answer_too_old" })]);
  });

  it("denies reuse when a node the answer's steps cite was re-marked above the asker's clearance", async () => {
    const { db } = fixture();
    const q = { caseId: CASE, question: "Who is the Tahoe HBR-4471 registered to?" };
    const first = await askQuestion(reyes, q);
    const answer = (first.body as any).answer;
    const stepIds = new Set<string>(answer.explanationSteps.flatMap((s: any) => s.citations));
    const node = await db.prisma.graphNode.findFirst({ where: { caseId: CASE, id: { in: [...stepIds] } }, orderBy: { id: "asc" } });
    expect(node, "the answer's steps cite a node").not.toBeNull();
    expect((await askQuestion(reyes, q)).body).toMatchObject({ answer: { provenance: { mode: "reused" } } });

    const where = { caseId_id: { caseId: CASE, id: node!.id } };
    await db.prisma.graphNode.update({ where, data: { classification: "TOP_SECRET" } });
    try {
      const after = await askQuestion(reyes, q);
      expect((after.body as any).answer.provenance.mode).toBe("normal");
      expect(await decisions(after.body.requestId)).toEqual([
        expect.objectContaining({ decision: "denied", reason: "graph_item_not_visible", evidence_id: null }),
      ]);
      const fresh = (after.body as any).answer.explanationSteps.flatMap((s: any) => s.citations);
      expect(fresh).not.toContain(node!.id);
    } finally {
      await db.prisma.graphNode.update({ where, data: { classification: node!.classification } });
    }
  });

  it("denies reuse when a cited item was edited, and when one was revoked", async () => {
    const { db } = fixture();
    const q = { caseId: CASE, question: "What was found in the lab report?" };
    const first = await askQuestion(reyes, q);
    const ids = cited(first.body);
    expect(ids.length).toBeGreaterThan(0);
    await db.prisma.evidence.update({
      where: { caseId_id: { caseId: CASE, id: ids[0] } },
      data: {
        content: {
          set: (await db.prisma.evidence.findUniqueOrThrow({ where: { caseId_id: { caseId: CASE, id: ids[0] } } })).content + " (amended)",
        },
      },
    });
    const edited = await askQuestion(reyes, q);
    expect((edited.body as any).answer.provenance.mode).toBe("normal");
    expect(await decisions(edited.body.requestId)).toEqual([
      expect.objectContaining({ decision: "denied", reason: "evidence_changed", evidence_id: ids[0] }),
    ]);

    const fresh = cited(edited.body);
    await revokeEvidence(db.prisma, admin, { caseId: CASE, evidenceId: fresh[0], reason: "court order" });
    const afterRevoke = await askQuestion(reyes, q);
    expect((afterRevoke.body as any).answer.provenance.mode).toBe("normal");
    expect(await decisions(afterRevoke.body.requestId)).toEqual([
      expect.objectContaining({ decision: "denied", reason: "evidence_inactive_or_missing", evidence_id: fresh[0] }),
    ]);
    expect(cited(afterRevoke.body)).not.toContain(fresh[0]);

    // Exports flag the earlier answer that cites the revoked item, and only that one.
    const { ledger } = await runtime();
    const head = await ledger.head();
    const artifact = await buildArtifact(ledger, {
      fromSeq: 1,
      toSeq: head.size,
      tenantId: "metro-pd",
      includeQuestionText: false,
      revocations: evidenceRevocations(db.prisma),
    });
    const flagged = artifact.entries.filter((e) => "revokedSince" in e);
    const idOf = (e: (typeof artifact.entries)[number]) => (e.payload as any).request_id;
    expect(flagged.map(idOf)).toContain(edited.body.requestId);
    expect(flagged.map(idOf)).not.toContain(afterRevoke.body.requestId);
    for (const e of flagged)
      expect((e as any).revokedSince).toEqual([expect.stringMatching(new RegExp(`revoked on .* \\(court order\\): ${fresh[0]}$`))]);
    // The CSV export carries the same flags in its revoked_since column, on the same rows only.
    const rows = artifactCsv(artifact).trimEnd().split("\r\n");
    const column = rows[0]!.split(",").indexOf("revoked_since");
    expect(column).toBeGreaterThan(0);
    const flaggedSeqs = new Set(flagged.map((e) => String(e.seq)));
    for (const row of rows.slice(1)) {
      const seq = row.split(",")[0]!;
      if (flaggedSeqs.has(seq))
        expect(row).toMatch(new RegExp(`,cites evidence revoked on \\d{4}-\\d{2}-\\d{2} \\(court order\\): ${fresh[0]},`));
      else expect(row).not.toContain("cites evidence revoked");
    }
  });

  it("DISABLE_ANSWER_REUSE denies reuse; every flip is one ledger entry and the state is in the provenance", async () => {
    const { db } = fixture();
    const q = { caseId: CASE, question: "What happened at Pier 9 in April?" };
    expect(((await askQuestion(reyes, q)).body as any).answer.responseType).toBe("answer");
    const before = await db.prisma.ledgerEntry.count({ where: { kind: "admin.kill_switch" } });
    await setTenantSwitch(db.prisma, admin, "DISABLE_ANSWER_REUSE", true);
    await setTenantSwitch(db.prisma, admin, "DISABLE_ANSWER_REUSE", true); // no change, no entry
    expect(await db.prisma.ledgerEntry.count({ where: { kind: "admin.kill_switch" } })).toBe(before + 1);
    const r = await askQuestion(reyes, q);
    expect((r.body as any).answer.provenance).toMatchObject({ mode: "normal", killSwitches: { DISABLE_ANSWER_REUSE: true } });
    expect(await decisions(r.body.requestId)).toEqual([expect.objectContaining({ decision: "denied", reason: "kill_switch" })]);
    await setTenantSwitch(db.prisma, admin, "DISABLE_ANSWER_REUSE", false);
    expect(await db.prisma.ledgerEntry.count({ where: { kind: "admin.kill_switch" } })).toBe(before + 2);
    expect((await listSwitches(db.prisma, "metro-pd")).filter((s) => s.enabled)).toEqual([]);
    // Only admins flip switches.
    await expect(setTenantSwitch(db.prisma, reyes, "DISABLE_MODEL", true)).rejects.toMatchObject({ code: "CG-ACCESS-002" });
  });

  it("DISABLE_MODEL answers unable with CG-GROUND-011 without calling the model; retrieval and audit still work", async () => {
    const { db } = fixture();
    await setTenantSwitch(db.prisma, admin, "DISABLE_MODEL", true);
    try {
      const r = await askQuestion(reyes, { caseId: CASE, question: "Who met at the warehouse?" });
      expect(r.ok).toBe(false);
      expect(r.status).toBe(503);
      const body = r.body as any;
      expect(body.error.code).toBe("CG-GROUND-011");
      expect(body.answer.responseType).toBe("unable");
      expect(body.rawContext.evidenceSnippets.length).toBeGreaterThan(0);
      expect(body.answer.provenance.killSwitches.DISABLE_MODEL).toBe(true);
      const entry = await answerEntry(body.requestId);
      expect(entry).toMatchObject({ error_code: "CG-GROUND-011", response_type: "error" });
      // Another tenant is not affected.
      const ng = await loadActor(db.prisma, { email: "analyst.ng@cyber.example" }, "session");
      const other = await askQuestion(ng, { caseId: "case-nightjar", question: "Why is device did:ws-fin-0231 high risk?" });
      expect(other.ok).toBe(true);
    } finally {
      await setTenantSwitch(db.prisma, admin, "DISABLE_MODEL", false);
    }
  });

  it("DISABLE_EXPORTS refuses compliance artifacts and exports for the tenant (CG-GROUND-012), and whole-deployment exports while any tenant has it on", async () => {
    const { db } = fixture();
    const { ledger } = await runtime();
    const r = await askQuestion(reyes, { caseId: CASE, question: "Who was seen at the cold store?" });
    await setTenantSwitch(db.prisma, admin, "DISABLE_EXPORTS", true);
    try {
      await expect(complianceArtifact(db.prisma, ledger, r.body.requestId, "metro-pd", "read")).rejects.toMatchObject({
        code: "CG-GROUND-012",
      });
      // The operator's shell path (no tenant scope) is refused too: the entry belongs to a tenant that switched exports off.
      await expect(complianceArtifact(db.prisma, ledger, r.body.requestId, null, "read")).rejects.toMatchObject({ code: "CG-GROUND-012" });
      await expect(assertExportsAllowed(db.prisma, "metro-pd")).rejects.toMatchObject({ code: "CG-GROUND-012" });
      await expect(assertExportsAllowed(db.prisma, "any tenant")).rejects.toMatchObject({ code: "CG-GROUND-012" });
      // Another tenant's exports go on.
      await expect(assertExportsAllowed(db.prisma, "cyber-jcu")).resolves.toBeUndefined();
    } finally {
      await setTenantSwitch(db.prisma, admin, "DISABLE_EXPORTS", false);
    }
    await expect(assertExportsAllowed(db.prisma, "any tenant")).resolves.toBeUndefined();
  });
});
