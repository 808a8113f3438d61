// The audit explorer's queries and the compliance export, on PGlite and PostgreSQL: every filter returns exactly what a
// reference filter over the appended entries returns, keyset pages add up to the whole list, tenants never see each
// other, cited evidence follows the viewer's own clearance, and exports are deterministic, provable and recorded.
import { beforeAll, expect, it, vi } from "vitest";
import { appendInTx, PrismaLedger, sha256Text } from "@/lib/adapters/prisma/ledger";
import { loadActor, type Actor } from "@/lib/auth/actor";
import { verifyCheckpoint } from "@/lib/domain/checkpoint";
import { leafHashOfEntry, verifyInclusion } from "@/lib/domain/merkle";
import { entryHashOf } from "@/lib/domain/ledger-chain";
import { artifactCsv, artifactJson, buildArtifact, exportAndRecord } from "@/lib/server/audit/export";
import { reviewerStores } from "@/lib/server/audit/visibility";
import {
  auditEntryDetail,
  explorerFiltersSchema,
  explorerOptions,
  listAuditEntries,
  questionQuery,
  type ExplorerFilters,
} from "@/lib/server/audit/explorer";
import { importDemo } from "../support/auth-fixture";
import { describeEachDatabase } from "../support/databases";
import { bypassingTriggers, testSigner } from "../support/ledger";

interface Spec {
  tenant: "metro-pd" | "cyber-jcu";
  actor: string;
  caseId: string | null;
  kind: string;
  day: string;
  q?: string;
  rt?: string;
  review?: boolean;
  outside?: boolean;
  filtered?: number;
  model?: string;
  pv?: string;
  cites?: string[];
}

const METRO = ["det.reyes@metro.example", "lead.park@metro.example", "analyst.kim@metro.example"];
const DAYS = ["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04"];
const WORDS = ["warehouse", "pier", "lease", "boat", "dunn", "marchetti", "ledger", "transfer"];

function specs(): Spec[] {
  const out: Spec[] = [];
  let r = 7;
  const next = (n: number) => (r = (r * 48271) % 2147483647) % n;
  for (let i = 0; i < 90; i++) {
    const tenant = i % 5 === 4 ? "cyber-jcu" : "metro-pd";
    const day = DAYS[Math.floor((i / 90) * DAYS.length)];
    if (i % 11 === 3) {
      out.push({
        tenant,
        actor: tenant === "metro-pd" ? "admin@metro.example" : "admin@cyber.example",
        caseId: null,
        kind: "admin.user.update",
        day,
      });
      continue;
    }
    out.push({
      tenant,
      actor: tenant === "metro-pd" ? METRO[next(3)] : "analyst.ng@cyber.example",
      caseId: tenant === "metro-pd" ? (next(2) || i === 10 ? "case-harbor" : "case-ledgerline") : "case-nightjar",
      kind: "graphrag.answer",
      day,
      q: i % 4 === 0 ? undefined : `Question ${i}: ${WORDS[next(8)]} and ${WORDS[next(8)]}?`,
      rt: ["answer", "answer", "no_evidence", "refused", "unable", "error"][next(6)],
      review: next(4) === 0,
      outside: next(5) === 0,
      filtered: next(3) === 0 ? 1 + next(4) : 0,
      model: ["offline:casegraph-extractive-v1", "openai:gpt-4o"][next(2)],
      pv: ["prompt_v1", "prompt_v2"][next(2)],
      cites: i === 10 ? ["EV-C-013", "EV-C-032", "p-marchetti"] : ["EV-C-013"],
    });
  }
  return out;
}

describeEachDatabase("audit explorer and export", (fixture) => {
  const signer = testSigner();
  const all = specs();
  const seqOf = new Map<Spec, number>();
  let ledger: PrismaLedger;
  let sup: Actor;
  let lead: Actor;
  let cyberSup: Actor;
  const userId = new Map<string, string>();

  beforeAll(async () => {
    const { db } = fixture();
    // The demo import writes its own entries (tenants, users, licenses, memberships): dated before the appended ones
    // below, and part of the reference like them.
    vi.useFakeTimers({ now: Date.parse("2026-02-28T12:00:00.000Z"), toFake: ["Date"] });
    try {
      await importDemo(db);
    } finally {
      vi.useRealTimers();
    }
    const imported = await db.prisma.$queryRaw<Array<{ seq: bigint; kind: string; tenant_id: string | null; case_id: string | null }>>`
      SELECT seq, kind, tenant_id, case_id FROM "ledger" ORDER BY seq`;
    for (const e of imported) {
      const spec: Spec = { tenant: (e.tenant_id ?? "") as Spec["tenant"], actor: "", caseId: e.case_id, kind: e.kind, day: "2026-02-28" };
      all.push(spec);
      seqOf.set(spec, Number(e.seq));
    }
    for (const u of await db.prisma.user.findMany({ select: { id: true, email: true } })) userId.set(u.email, u.id);
    ledger = new PrismaLedger(db, { signer: async () => signer, checkpointEvery: 25 });
    for (const s of all) {
      if (seqOf.has(s)) continue; // written by the import
      const at = Date.parse(`${s.day}T12:00:00.000Z`);
      const payload: Record<string, unknown> =
        s.kind === "graphrag.answer"
          ? {
              tenant_id: s.tenant,
              actor_id: userId.get(s.actor),
              case_id: s.caseId,
              query_sha256: s.q ? sha256Text(s.q) : null,
              response_type: s.rt,
              needs_review: s.review,
              all_citations_in_context: !s.outside,
              policy_filtered_count: s.filtered,
              model: s.model,
              prompt_version: s.pv,
              citation_ids: s.cites,
              citation_count: s.cites?.length,
              confidence: s.review ? 0.3 : 0.8,
              latency_ms: 12,
            }
          : { actor: { id: userId.get(s.actor) }, target: { type: "user", id: "u-x", tenantId: s.tenant }, before: {}, after: {} };
      const [e] = await db.prisma.$transaction((tx) =>
        appendInTx(
          tx,
          [
            {
              kind: s.kind,
              payload,
              tenantId: s.tenant,
              actorId: userId.get(s.actor) ?? null,
              caseId: s.caseId,
              ...(s.q ? { redactable: { questionText: s.q } } : {}),
            },
          ],
          () => at,
        ),
      );
      seqOf.set(s, e.seq);
    }
    await ledger.checkpoint();
    sup = await loadActor(db.prisma, { email: "sup.okafor@metro.example" }, "session");
    lead = await loadActor(db.prisma, { email: "lead.park@metro.example" }, "session");
    cyberSup = await loadActor(db.prisma, { email: "sup.haddad@cyber.example" }, "session");
  });

  const expectedSeqs = (tenant: string, f: ExplorerFilters) =>
    all
      .filter((s) => s.tenant === tenant)
      .filter((s) => !f.user || userId.get(s.actor) === f.user)
      .filter((s) => !f.case || s.caseId === f.case)
      .filter(
        (s) =>
          f.kind === "all" ||
          (f.kind === "answers"
            ? s.kind === "graphrag.answer"
            : f.kind === "admin"
              ? s.kind.startsWith("admin.")
              : s.kind.startsWith("audit.")),
      )
      .filter((s) => !f.from || s.day >= f.from)
      .filter((s) => !f.to || s.day <= f.to)
      .filter((s) => !f.responseType || s.rt === f.responseType)
      .filter((s) => !f.model || s.model === f.model)
      .filter((s) => !f.promptVersion || s.pv === f.promptVersion)
      .filter((s) => !f.needsReview || s.review === true)
      .filter((s) => !f.citationsOutside || s.outside === true)
      .filter((s) => !f.policyFiltered || (s.filtered ?? 0) > 0)
      .filter(
        (s) =>
          !f.q ||
          (s.q !== undefined &&
            questionQuery(f.q) !== null &&
            questionQuery(f.q)!
              .split(" & ")
              .every((t) =>
                s
                  .q!.toLowerCase()
                  .match(/[\p{L}\p{N}]+/gu)!
                  .some((w) => w.startsWith(t.replace(":*", ""))),
              )),
      )
      .map((s) => seqOf.get(s)!)
      .sort((a, b) => b - a);

  async function listAll(actor: Actor, f: ExplorerFilters, limit: number) {
    const out: number[] = [];
    let cursor: number | undefined;
    for (let guard = 0; guard < 200; guard++) {
      const page = await listAuditEntries(fixture().db.prisma, actor, f, cursor, limit);
      out.push(...page.rows.map((r) => r.seq));
      if (page.nextCursor === null) return out;
      cursor = page.nextCursor;
    }
    throw new Error("pagination did not end");
  }

  it("every filter (and combinations) returns exactly the reference rows, newest first; keyset pages add up", async () => {
    const f = (raw: Record<string, unknown>) => explorerFiltersSchema.parse(raw);
    const cases: ExplorerFilters[] = [
      f({}),
      f({ kind: "answers" }),
      f({ kind: "admin" }),
      f({ user: userId.get("lead.park@metro.example") }),
      f({ case: "case-ledgerline" }),
      f({ from: "2026-03-02" }),
      f({ to: "2026-03-02" }),
      f({ from: "2026-03-02", to: "2026-03-03" }),
      f({ from: "2026-03-05" }),
      f({ responseType: "refused" }),
      f({ needsReview: "1" }),
      f({ citationsOutside: "1" }),
      f({ policyFiltered: "1" }),
      f({ model: "openai:gpt-4o" }),
      f({ promptVersion: "prompt_v2", needsReview: "1" }),
      f({ q: "warehouse" }),
      f({ q: "mar" }),
      f({ q: "pier lease" }),
      f({ q: "%%" }),
      f({ case: "case-harbor", responseType: "answer", model: "offline:casegraph-extractive-v1", from: "2026-03-02" }),
    ];
    for (const filters of cases) {
      const want = expectedSeqs("metro-pd", filters);
      expect(await listAll(sup, filters, 7), JSON.stringify(filters)).toEqual(want);
    }
    expect(expectedSeqs("metro-pd", cases[10]).length).toBeGreaterThan(3); // the flags select something
    expect(expectedSeqs("metro-pd", cases[15]).length).toBeGreaterThan(0);
  });

  it("a tenant never sees another tenant's entries, in the list, the options or the detail", async () => {
    const metro = await listAll(sup, explorerFiltersSchema.parse({}), 50);
    const cyber = await listAll(cyberSup, explorerFiltersSchema.parse({}), 50);
    expect(cyber).toEqual(expectedSeqs("cyber-jcu", explorerFiltersSchema.parse({})));
    expect(metro.filter((s) => cyber.includes(s))).toEqual([]);
    const cyberAnswer = all.find((s) => s.tenant === "cyber-jcu" && s.kind === "graphrag.answer")!;
    await expect(
      auditEntryDetail(fixture().db.prisma, ledger, reviewerStores(fixture().db), sup, seqOf.get(cyberAnswer)!),
    ).rejects.toMatchObject({ code: "CG-ACCESS-003" });
    const options = await explorerOptions(fixture().db.prisma, sup);
    expect(options.users.every((u) => u.email.endsWith("@metro.example"))).toBe(true);
    expect(options.models).toEqual(["offline:casegraph-extractive-v1", "openai:gpt-4o"]);
    expect(options.promptVersions).toEqual(["prompt_v1", "prompt_v2"]);
  });

  it("cited evidence is shown only within the viewer's own clearance and need-to-know; the question is checked against its hash", async () => {
    const s = all[10];
    const seq = seqOf.get(s)!;
    const forSup = await auditEntryDetail(fixture().db.prisma, ledger, reviewerStores(fixture().db), sup, seq);
    expect(forSup.cited.map((c) => [c.id, c.kind, c.visible])).toEqual([
      ["EV-C-013", "evidence", true],
      ["p-marchetti", "graph", false],
    ]);
    // EV-C-032 is `financial`: sup.okafor does not hold the tag, so not even its id is shown — only counted.
    expect(forSup.hiddenItems).toBe(1);
    expect(JSON.stringify(forSup)).not.toContain("EV-C-032");
    const forLead = await auditEntryDetail(fixture().db.prisma, ledger, reviewerStores(fixture().db), lead, seq);
    expect(forLead.cited[1]).toMatchObject({ id: "EV-C-032", visible: true });
    expect(forLead.cited[1].content).toBeTruthy();
    expect(forSup.question).toMatchObject({ text: s.q, matchesHash: true, source: "stored" });

    // Text swapped behind the ledger's back (superuser, triggers off) no longer matches the hashed digest.
    await bypassingTriggers(fixture().db, [
      { sql: `UPDATE "ledger_redactable" SET question_text = 'something else' WHERE seq = $1`, params: [seq] },
    ]);
    expect((await auditEntryDetail(fixture().db.prisma, ledger, reviewerStores(fixture().db), sup, seq)).question).toMatchObject({
      text: "something else",
      matchesHash: false,
    });
    await bypassingTriggers(fixture().db, [
      { sql: `UPDATE "ledger_redactable" SET question_text = $2 WHERE seq = $1`, params: [seq, s.q] },
    ]);
  });

  it("the compliance artifact is deterministic, every entry in it is provable offline, and exporting is recorded", async () => {
    const head = (await ledger.head()).size;
    const req = { fromSeq: 5, toSeq: 60, tenantId: "metro-pd", includeQuestionText: true };
    const a = artifactJson(await buildArtifact(ledger, req));
    const b = artifactJson(await buildArtifact(ledger, req));
    expect(a).toBe(b);
    const artifact = JSON.parse(a);
    expect(artifact.format).toBe("casegraph.compliance-artifact/v1");
    expect(artifact.entries.map((e: { seq: number }) => e.seq)).toEqual(
      expectedSeqs("metro-pd", explorerFiltersSchema.parse({}))
        .filter((s) => s >= 5 && s <= 60)
        .sort((x, y) => x - y),
    );
    expect(artifact.checkpoint.treeSize).toBe(60);
    expect(verifyCheckpoint(artifact.checkpoint, signer.publicKey)).toBe(true);
    for (const e of artifact.entries) {
      expect(entryHashOf(e.prevHash, e)).toBe(e.entryHash);
      expect(verifyInclusion(e.seq - 1, 60, leafHashOfEntry(e.entryHash), e.inclusionProof, artifact.checkpoint.rootHash)).toBe(true);
    }
    expect(artifact.promptVersions.map((p: { version: string }) => p.version)).toEqual(["prompt_v1", "prompt_v2"]);
    expect(artifact.promptVersions[0].systemPromptSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(artifact.evidenceIdsCited).toContain("EV-C-013");
    expect(artifact.killSwitches).toEqual({ recorded: [] });

    const recorded = await exportAndRecord(
      ledger,
      req,
      { userId: sup.userId, email: sup.email, tenantId: sup.tenantId, via: "session" },
      "json",
    );
    expect(recorded.text).toBe(a); // recording the export afterwards does not change what was exported
    const [entry] = await ledger.entries(recorded.recordedSeq, recorded.recordedSeq);
    expect(entry).toMatchObject({
      kind: "audit.export",
      tenantId: "metro-pd",
      actorId: sup.userId,
      payload: { artifact_sha256: sha256Text(a), entry_count: artifact.entries.length, from_seq: 5, to_seq: 60 },
    });
    expect(recorded.recordedSeq).toBe(head + 1);
    const exports = await listAuditEntries(fixture().db.prisma, sup, explorerFiltersSchema.parse({ kind: "audit" }));
    expect(exports.rows.map((r) => r.seq)).toContain(recorded.recordedSeq);
  });

  it("CSV has one row per entry and never hands a spreadsheet a formula", async () => {
    const { db } = fixture();
    const q = '=HYPERLINK("http://evil.example","click"), and "quotes"';
    const [e] = await db.prisma.$transaction((tx) =>
      appendInTx(tx, [
        {
          kind: "graphrag.answer",
          tenantId: "metro-pd",
          payload: { query_sha256: sha256Text(q), response_type: "answer" },
          redactable: { questionText: q },
        },
      ]),
    );
    const csv = artifactCsv(await buildArtifact(ledger, { fromSeq: e.seq, toSeq: e.seq, tenantId: "metro-pd", includeQuestionText: true }));
    const lines = csv.trimEnd().split("\r\n");
    expect(lines).toHaveLength(2);
    expect(lines[0].split(",")[0]).toBe("seq");
    expect(lines[1]).toContain(`"'=HYPERLINK(""http://evil.example"",""click""), and ""quotes"""`);
    const noText = artifactCsv(
      await buildArtifact(ledger, { fromSeq: e.seq, toSeq: e.seq, tenantId: "metro-pd", includeQuestionText: false }),
    );
    expect(noText).not.toContain("HYPERLINK");
  });

  it("an export range outside the ledger or too wide is refused", async () => {
    const head = (await ledger.head()).size;
    await expect(buildArtifact(ledger, { fromSeq: 0, toSeq: 3, tenantId: null, includeQuestionText: false })).rejects.toMatchObject({
      code: "CG-INPUT-005",
    });
    await expect(buildArtifact(ledger, { fromSeq: 1, toSeq: head + 1, tenantId: null, includeQuestionText: false })).rejects.toMatchObject({
      code: "CG-INPUT-005",
    });
    await expect(buildArtifact(ledger, { fromSeq: 5, toSeq: 4, tenantId: null, includeQuestionText: false })).rejects.toMatchObject({
      code: "CG-INPUT-005",
    });
  });
});
