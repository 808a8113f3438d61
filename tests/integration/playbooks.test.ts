// Issue 16 end to end on the demo workspace (PGlite, and the real PostgreSQL when reachable): the catalogue in
// bundles (round trip, validation with JSON paths, every change a ledger entry), next steps for each demo user (only
// what the filter allows, counts by label in the ledger), a request for next steps asked as a question, and the
// approval flow (propose → a supervisor approves or rejects with a note; the case lists approved steps).
import { afterAll, beforeAll, expect, it } from "vitest";
import { exportWorkspace, importBundle } from "@/lib/adapters/prisma/workspace";
import { loadActor, type Actor } from "@/lib/auth/actor";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { SUGGEST_KIND } from "@/lib/playbooks/suggest";
import { askWithSuggestions, nextSteps } from "@/lib/server/playbooks/next-steps";
import { listPlaybooks, savePlaybook, setCaseLabels, setLegalAuthority, setPlaybookActive, setRiskTolerance } from "@/lib/admin/playbooks";
import { setTenantSwitch } from "@/lib/server/runtime/kill-switches";
import type { AnswerModel } from "@/lib/ports";
import { caseNextSteps, decideNextStep, listNextStepProposals, proposeNextStep } from "@/lib/server/playbooks/proposals";
import { clearTestRuntime, importDemo, useTestRuntime } from "../support/auth-fixture";
import { describeEachDatabase } from "../support/databases";
import { demoBundle } from "../support/demo";
import type { Database } from "@/lib/adapters/prisma/db";

/** What each demo member may be offered on their case (README "Suggested next steps"), whatever the question. */
const ALLOWED: Record<string, { caseId: string; ids: string[] }> = {
  "det.reyes@metro.example": {
    caseId: "case-harbor",
    ids: ["canvass-location", "interview-witness", "preserve-cctv", "request-subscriber-records"],
  },
  "analyst.kim@metro.example": { caseId: "case-harbor", ids: ["canvass-location", "interview-witness", "preserve-cctv"] },
  "lead.park@metro.example": {
    caseId: "case-harbor",
    ids: [
      "canvass-location",
      "cell-site-history",
      "ci-debrief",
      "interview-witness",
      "obtain-bank-records",
      "preserve-cctv",
      "request-subscriber-records",
    ],
  },
  "analyst.ng@cyber.example": {
    caseId: "case-nightjar",
    ids: ["canvass-location", "isolate-host", "preserve-cctv", "pull-edr-telemetry", "rotate-service-account"],
  },
  "junior.ali@cyber.example": { caseId: "case-nightjar", ids: ["canvass-location", "isolate-host", "preserve-cctv", "pull-edr-telemetry"] },
};

async function entriesSince(db: Database, seq: bigint) {
  return db.prisma.$queryRaw<Array<{ seq: bigint; kind: string; payload: any; case_id: string | null }>>`
    SELECT seq, kind, payload, case_id FROM "ledger" WHERE seq > ${seq} ORDER BY seq`;
}
const head = async (db: Database) =>
  (await db.prisma.$queryRaw<Array<{ s: bigint }>>`SELECT coalesce(max(seq), 0) AS s FROM "ledger"`)[0].s;

describeEachDatabase("playbooks and next steps", (fixture) => {
  const actors = new Map<string, Actor>();
  const as = (email: string) => actors.get(email)!;

  beforeAll(async () => {
    const { db } = fixture();
    useTestRuntime(db);
    await importDemo(db);
    for (const u of demoBundle().users) actors.set(u.email, await loadActor(db.prisma, { email: u.email }, "cli"));
  });
  afterAll(() => clearTestRuntime());

  it("imports the demo catalogue and case labels; export → import → export is byte-identical, re-import writes nothing", async () => {
    const { db } = fixture();
    expect(await db.prisma.playbook.count()).toBe(17);
    expect(await db.prisma.case.findUnique({ where: { id: "case-harbor" }, select: { caseType: true, jurisdiction: true } })).toEqual({
      caseType: "narcotics",
      jurisdiction: "metro-city",
    });
    const first = await exportWorkspace(db.prisma);
    const exported = JSON.parse(first);
    expect(exported.playbooks).toHaveLength(17);
    expect(exported.tenants[0]).toMatchObject({ riskTolerance: "medium" });
    expect(exported.users.find((u: { email: string }) => u.email === "det.reyes@metro.example").legalAuthority).toEqual(["subpoena"]);
    const mark = await head(db);
    await importBundle(db, exported);
    expect(await exportWorkspace(db.prisma)).toBe(first);
    await importBundle(db, demoBundle());
    expect(await entriesSince(db, mark)).toEqual([]);
    // One case's export carries its tenant's playbooks and the shared ones.
    const one = JSON.parse(await exportWorkspace(db.prisma, { caseId: "case-nightjar" }));
    expect(new Set(one.playbooks.map((p: { tenant?: string }) => p.tenant ?? "*"))).toEqual(new Set(["cyber-jcu", "*"]));
  });

  it("every catalogue change an import makes is a ledger entry; the catalogue version moves with it", async () => {
    const { db } = fixture();
    const before = await nextSteps(as("det.reyes@metro.example"), { caseId: "case-harbor", question: "next?" });
    const bundle = demoBundle();
    bundle.playbooks.find((p: { id: string }) => p.id === "preserve-cctv").version = "1.2";
    bundle.playbooks.push({
      id: "tow-vehicle",
      version: "1.0",
      tenant: "metro-pd",
      description: "Tow a vehicle linked to the case to the police garage.",
      requiredAuthority: "supervisor approval",
      minClearance: "cui",
      riskLevel: "Low",
      caseTypes: ["Narcotics"],
    });
    const mark = await head(db);
    await importBundle(db, bundle, { actor: { userId: null, email: "cli:operator", tenantId: null, via: "import" } });
    const got = await entriesSince(db, mark);
    expect(got.map((e) => e.kind).sort()).toEqual(["admin.playbook.create", "admin.playbook.update"]);
    expect(got.find((e) => e.kind === "admin.playbook.update")!.payload).toMatchObject({
      actor: { email: "cli:operator" },
      target: { type: "playbook", id: "*/preserve-cctv" },
      before: { version: "1.1" },
      after: { version: "1.2" },
    });
    expect(got.find((e) => e.kind === "admin.playbook.create")!.payload.after).toMatchObject({
      requiredAuthority: "supervisor_approval",
      minClearance: "CUI",
      riskLevel: "low",
      caseTypes: ["narcotics"],
      tenant: "metro-pd",
    });
    const after = await nextSteps(as("det.reyes@metro.example"), { caseId: "case-harbor", question: "next?" });
    expect(before.ok && after.ok && before.body.catalogueVersion !== after.body.catalogueVersion).toBe(true);
    await importBundle(db, { ...demoBundle(), playbooks: [...demoBundle().playbooks, { ...bundle.playbooks.at(-1), active: false }] });
  });

  it("refuses bad playbooks with their JSON paths and changes nothing", async () => {
    const { db } = fixture();
    const count = await db.prisma.playbook.count();
    const bad = (p: Record<string, unknown>) => ({ ...demoBundle(), playbooks: [p] });
    const base = { id: "x-1", version: "1", description: "A step.", requiredAuthority: "none", minClearance: "CUI", riskLevel: "low" };
    for (const [p, code, path] of [
      [{ ...base, requiredAuthority: "a hunch" }, "CG-PLAYBOOK-001", "$.playbooks[0].requiredAuthority"],
      [{ ...base, minClearance: "SECRET//NOFORN" }, "CG-PLAYBOOK-001", "$.playbooks[0].minClearance"],
      [{ ...base, riskLevel: "extreme" }, "CG-PLAYBOOK-001", "$.playbooks[0].riskLevel"],
      [{ ...base, description: "" }, "CG-PLAYBOOK-001", "$.playbooks[0].description"],
      [{ ...base, labels: ["x"] }, "CG-PLAYBOOK-001", "$.playbooks[0]"],
      [{ ...base, tenant: "nowhere" }, "CG-IMPORT-008", "$.playbooks[0].tenant"],
      [{ ...base, id: "pull-edr-telemetry" }, "CG-PLAYBOOK-003", "$.playbooks[0].id"], // cyber-jcu's id, as a shared one
    ] as const) {
      const err = await importBundle(db, bad(p)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CasegraphError);
      expect((err as CasegraphError).issues, JSON.stringify(p)).toContainEqual(expect.objectContaining({ code, path }));
    }
    expect(await db.prisma.playbook.count()).toBe(count);
  });

  it("suggests to each demo member only what the filter allows them on their case, and audits the counts by label", async () => {
    const { db } = fixture();
    for (const [email, { caseId, ids }] of Object.entries(ALLOWED)) {
      const mark = await head(db);
      const out = await nextSteps(as(email), { caseId, question: "What should we do next?", maxResults: 20 });
      if (!out.ok) throw new Error(JSON.stringify(out.body));
      const suggested = out.body.suggestions.map((s) => s.playbookId);
      expect(suggested.length, email).toBe(Math.min(3, ids.length));
      for (const id of suggested) expect(ids, email).toContain(id);
      const [entry] = await entriesSince(db, mark);
      expect(entry.kind).toBe(SUGGEST_KIND);
      expect(entry.case_id).toBe(caseId);
      const offered = entry.payload.offered.map((o: { playbook_id: string }) => o.playbook_id).sort();
      expect(offered, email).toEqual(ids);
      expect(entry.payload.filter.allowed).toBe(ids.length);
      expect(entry.payload.filter.catalogue).toBe(entry.payload.filter.allowed + entry.payload.filter.filtered);
    }
    // det.reyes: by label, why the other metro-pd and shared playbooks were filtered.
    const mark = await head(db);
    await nextSteps(as("det.reyes@metro.example"), { caseId: "case-harbor", question: "next?" });
    expect((await entriesSince(db, mark))[0].payload.filter.by_reason).toEqual({
      inactive: 2, // search-warrant-premises and the retired tow-vehicle
      unreadable_label: 0,
      case_type: 1, // procurement-file-review
      jurisdiction: 1, // dmv-registration (state)
      clearance: 1, // wiretap-application (TOP_SECRET)
      need_to_know: 2, // obtain-bank-records (financial), ci-debrief (informants)
      authority: 1, // cell-site-history (warrant)
      risk: 0,
    });
  });

  it("with the tenant's DISABLE_MODEL switch on, a generative model is never called: the deterministic picker stands in", async () => {
    const { db } = fixture();
    // A configured generative model that counts its calls and cannot be reached.
    let calls = 0;
    const unreachable: AnswerModel = {
      provider: "openai-compatible",
      modelId: "counting-test-model",
      async generate() {
        calls++;
        throw new CasegraphError("CG-MODEL-001");
      },
      async probe() {
        return { provider: "openai-compatible", id: "counting-test-model", ok: false };
      },
    };
    const key = Symbol.for("casegraph.answerModel");
    const holder = globalThis as Record<symbol, unknown>;
    const before = holder[key];
    holder[key] = unreachable;
    const reyes = as("det.reyes@metro.example");
    const ask = () => nextSteps(reyes, { caseId: "case-harbor", question: "What should we do next about the phone?" });
    try {
      await setTenantSwitch(db.prisma, as("admin@metro.example"), "DISABLE_MODEL", true);
      const mark = await head(db);
      const off = await ask();
      if (!off.ok) throw new Error(JSON.stringify(off.body));
      expect(calls).toBe(0);
      expect(off.body.suggestions.length).toBeGreaterThan(0);
      for (const s of off.body.suggestions) expect(ALLOWED["det.reyes@metro.example"].ids).toContain(s.playbookId);
      const [entry] = await entriesSince(db, mark);
      expect(entry.kind).toBe(SUGGEST_KIND);
      expect(entry.payload.model).not.toContain("counting-test-model");

      // The switch off again: the same request goes to the model (which fails here, as a coded outcome).
      await setTenantSwitch(db.prisma, as("admin@metro.example"), "DISABLE_MODEL", false);
      await ask();
      expect(calls).toBeGreaterThan(0);
    } finally {
      holder[key] = before;
      await setTenantSwitch(db.prisma, as("admin@metro.example"), "DISABLE_MODEL", false);
    }
  });

  it("the same request through a supervisor who is no member is 'not found', and other tenants' playbooks never appear", async () => {
    const out = await nextSteps(as("sup.okafor@metro.example"), { caseId: "case-harbor", question: "next?" });
    expect(out).toMatchObject({ ok: false, status: 404, body: { error: { code: "CG-ACCESS-001" } } });
    const ng = await nextSteps(as("analyst.ng@cyber.example"), { caseId: "case-harbor", question: "next?" });
    expect(ng.ok).toBe(false);
  });

  it("a request for next steps asked as a question is refused as free text and answered from the catalogue", async () => {
    const { db } = fixture();
    const mark = await head(db);
    const out = await askWithSuggestions(as("det.reyes@metro.example"), {
      caseId: "case-harbor",
      question: "What should we do next about the phone +1-555-0178?",
    });
    if (!out.ok) throw new Error(JSON.stringify(out.body));
    expect(out.body.answer.responseType).toBe("refused");
    expect(out.body.answer.suggestions?.[0]?.playbookId).toBe("request-subscriber-records");
    const entries = await entriesSince(db, mark);
    expect(entries.map((e) => e.kind)).toEqual(["graphrag.answer", SUGGEST_KIND]);
    expect(entries[1].payload.answer_request_id).toBe(out.body.requestId);
    expect(out.body.answer.suggestionRequestId).toBe(entries[1].payload.request_id);
    // An ordinary question gets no suggestions.
    const plain = await askWithSuggestions(as("det.reyes@metro.example"), { caseId: "case-harbor", question: "Who killed Raymond Dunn?" });
    expect(plain.ok && plain.body.answer.suggestions).toBeUndefined();
  });

  it("propose → approve with a note; the case lists it; every step is a ledger entry; nothing else can decide it", async () => {
    const { db } = fixture();
    const reyes = as("det.reyes@metro.example");
    const mark = await head(db);
    const proposal = await proposeNextStep(db.prisma, reyes, {
      caseId: "case-harbor",
      playbookId: "request-subscriber-records",
      version: "2.0",
      reason: "The burner +1-555-0178 called Dunn [EV-C-001].",
      citations: ["EV-C-001", "EV-C-011"], // EV-C-011 is SECRET informants: not his to cite
    });
    expect(proposal).toMatchObject({ status: "pending", citations: ["EV-C-001"], proposerEmail: "det.reyes@metro.example" });
    // One open proposal per step and case; a filtered step is the same "no such playbook" as an unknown one.
    await expect(
      proposeNextStep(db.prisma, reyes, { caseId: "case-harbor", playbookId: "request-subscriber-records", version: "2.0" }),
    ).rejects.toMatchObject({
      code: "CG-PLAYBOOK-004",
    });
    for (const [playbookId, version] of [
      ["wiretap-application", "1.0"],
      ["cell-site-history", "1.0"],
      ["no-such-step", "1.0"],
      ["pull-edr-telemetry", "2.1"],
      ["preserve-cctv", "0.1"],
    ])
      await expect(proposeNextStep(db.prisma, reyes, { caseId: "case-harbor", playbookId, version })).rejects.toMatchObject({
        code: "CG-PLAYBOOK-002",
      });
    // Deciding: a note is required; another tenant's supervisor does not find it; an investigator may not.
    await expect(decideNextStep(db.prisma, as("sup.okafor@metro.example"), proposal.id, "approve", " ")).rejects.toMatchObject({
      code: "CG-PLAYBOOK-008",
    });
    await expect(decideNextStep(db.prisma, as("sup.haddad@cyber.example"), proposal.id, "approve", "ok")).rejects.toMatchObject({
      code: "CG-PLAYBOOK-005",
    });
    await expect(decideNextStep(db.prisma, as("analyst.kim@metro.example"), proposal.id, "approve", "ok")).rejects.toMatchObject({
      code: "CG-ACCESS-002",
    });
    const approved = await decideNextStep(db.prisma, as("sup.okafor@metro.example"), proposal.id, "approve", "Subpoena on file, go ahead.");
    expect(approved).toMatchObject({ status: "approved", deciderEmail: "sup.okafor@metro.example", note: "Subpoena on file, go ahead." });
    await expect(decideNextStep(db.prisma, as("sup.okafor@metro.example"), proposal.id, "reject", "changed my mind")).rejects.toMatchObject(
      {
        code: "CG-PLAYBOOK-007",
      },
    );
    const kinds = (await entriesSince(db, mark)).map((e) => e.kind);
    expect(kinds).toEqual(["playbook.propose", "playbook.approve"]);
    const approval = (await entriesSince(db, mark))[1].payload;
    expect(approval).toMatchObject({ caseId: "case-harbor", after: { status: "approved", executed: false } });
    expect(JSON.stringify(approval)).not.toContain("Subpoena on file"); // the note's digest only
    // The case page lists it, approved, for its members.
    const listed = await caseNextSteps(db.prisma, as("analyst.kim@metro.example"), "case-harbor");
    expect(listed.steps.find((s) => s.id === proposal.id)).toMatchObject({ status: "approved", playbookId: "request-subscriber-records" });
    await expect(caseNextSteps(db.prisma, as("analyst.ng@cyber.example"), "case-harbor")).rejects.toMatchObject({ code: "CG-ACCESS-001" });
    expect((await listNextStepProposals(db.prisma, as("sup.haddad@cyber.example"))).steps).toEqual([]);
  });

  it("a supervisor cannot decide a step they proposed; a step outside a reader's markings is only counted", async () => {
    const { db } = fixture();
    const park = as("lead.park@metro.example");
    const p = await proposeNextStep(db.prisma, park, { caseId: "case-harbor", playbookId: "obtain-bank-records", version: "1.0" });
    await expect(decideNextStep(db.prisma, park, p.id, "approve", "mine")).rejects.toMatchObject({ code: "CG-PLAYBOOK-006" });
    // analyst.kim (CUI, no "financial") does not read a CONFIDENTIAL financial step; sup.okafor lacks "financial" too.
    const kim = await caseNextSteps(db.prisma, as("analyst.kim@metro.example"), "case-harbor");
    expect(kim.steps.map((s) => s.id)).not.toContain(p.id);
    expect(kim.hidden).toBeGreaterThanOrEqual(1);
    await expect(decideNextStep(db.prisma, as("sup.okafor@metro.example"), p.id, "reject", "no")).rejects.toMatchObject({
      code: "CG-PLAYBOOK-005",
    });
    const rejected = await decideNextStep(
      db.prisma,
      as("sup.okafor@metro.example"),
      (
        await proposeNextStep(db.prisma, park, {
          caseId: "case-harbor",
          playbookId: "canvass-location",
          version: "1.0",
        })
      ).id,
      "reject",
      "Already canvassed on 14 April.",
    );
    expect(rejected.status).toBe("rejected");
  });

  it("approving authorises: the approver must hold the legal process the step requires, and its playbook must be in force", async () => {
    const { db } = fixture();
    const park = as("lead.park@metro.example"); // holds a warrant: cell-site-history is his to propose
    const okafor = as("sup.okafor@metro.example");
    const admin = as("admin@metro.example");
    const p = await proposeNextStep(db.prisma, park, { caseId: "case-harbor", playbookId: "cell-site-history", version: "1.0" });
    await setLegalAuthority(db.prisma, admin, { userId: okafor.userId, legalAuthority: ["subpoena"] });
    try {
      const mark = await head(db);
      await expect(decideNextStep(db.prisma, okafor, p.id, "approve", "Go ahead.")).rejects.toMatchObject({ code: "CG-PLAYBOOK-009" });
      expect((await entriesSince(db, mark)).map((e) => e.kind)).toEqual([]); // nothing decided, nothing recorded
      await setLegalAuthority(db.prisma, admin, { userId: okafor.userId, legalAuthority: ["court_order", "subpoena", "warrant"] });
      // Retired after it was proposed: it can no longer be approved, only rejected.
      await setPlaybookActive(db.prisma, admin, { id: "cell-site-history", active: false });
      await expect(decideNextStep(db.prisma, okafor, p.id, "approve", "Go ahead.")).rejects.toMatchObject({ code: "CG-PLAYBOOK-010" });
      await setPlaybookActive(db.prisma, admin, { id: "cell-site-history", active: true });
      expect(await decideNextStep(db.prisma, okafor, p.id, "approve", "Warrant signed 2 May.")).toMatchObject({ status: "approved" });
    } finally {
      await setLegalAuthority(db.prisma, admin, { userId: okafor.userId, legalAuthority: ["court_order", "subpoena", "warrant"] });
    }
  });

  it("tenant admins manage their own catalogue, risk tolerance and case labels; each change is a ledger entry", async () => {
    const { db } = fixture();
    const admin = as("admin@metro.example"); // SECRET, no need-to-know tags
    const listed = await listPlaybooks(db.prisma, admin);
    expect(listed.own.map((p) => p.id)).toContain("interview-witness");
    expect(listed.own.map((p) => p.id)).not.toContain("ci-debrief"); // informants: not the admin's to read
    expect(listed.own.map((p) => p.id)).not.toContain("pull-edr-telemetry"); // cyber-jcu's
    expect(listed.shared.map((p) => p.id)).toEqual(["canvass-location", "preserve-cctv", "request-subscriber-records"]);
    expect(listed.hidden).toBeGreaterThanOrEqual(3); // ci-debrief, obtain-bank-records, wiretap-application (TOP_SECRET)
    const mark = await head(db);
    const step = {
      id: "check-pawn-shops",
      version: "1.0",
      description: "Check the pawn shop database for items taken from the scene.",
      requiredAuthority: "none",
      minClearance: "CUI",
      riskLevel: "low",
      caseTypes: ["narcotics"],
    };
    await savePlaybook(db.prisma, admin, step);
    await savePlaybook(db.prisma, admin, step); // unchanged: no entry
    await savePlaybook(db.prisma, admin, { ...step, version: "1.1" });
    await setPlaybookActive(db.prisma, admin, { id: "check-pawn-shops", active: false });
    await setRiskTolerance(db.prisma, admin, { riskTolerance: "high" });
    await setRiskTolerance(db.prisma, admin, { riskTolerance: "medium" });
    await setCaseLabels(db.prisma, admin, { caseId: "case-ledgerline", caseType: "Procurement Fraud ", jurisdiction: "metro-city" });
    await setLegalAuthority(db.prisma, admin, { userId: as("analyst.kim@metro.example").userId, legalAuthority: ["subpoena"] });
    const got = await entriesSince(db, mark);
    expect(got.map((e) => e.kind)).toEqual([
      "admin.playbook.create",
      "admin.playbook.update",
      "admin.playbook.retire",
      "admin.tenant.risk_tolerance",
      "admin.tenant.risk_tolerance",
      "admin.case.labels",
      "admin.user.legal_authority",
    ]);
    expect(got[5].payload).toMatchObject({ after: { caseType: "procurement fraud", jurisdiction: "metro-city" } });
    expect(got.every((e) => e.payload.actor.email === "admin@metro.example")).toBe(true);
    await setCaseLabels(db.prisma, admin, { caseId: "case-ledgerline", caseType: "procurement-fraud", jurisdiction: "metro-city" });
    // kim now holds a subpoena: the subscriber records are offered to her too.
    const kim = await nextSteps(await loadActor(db.prisma, { email: "analyst.kim@metro.example" }, "cli"), {
      caseId: "case-harbor",
      question: "subscriber records for the phone",
    });
    expect(kim.ok && kim.body.suggestions.map((x) => x.playbookId)).toContain("request-subscriber-records");
    await expect(setLegalAuthority(db.prisma, admin, { userId: admin.userId, legalAuthority: ["warrant"] })).rejects.toMatchObject({
      code: "CG-ACCESS-005",
    });
    await expect(
      setLegalAuthority(db.prisma, admin, { userId: as("analyst.ng@cyber.example").userId, legalAuthority: ["warrant"] }),
    ).rejects.toMatchObject({ code: "CG-ACCESS-003" });
    // Refusals: a shared id, another tenant's playbook or case, a clearance above the admin's, a bad label.
    await expect(savePlaybook(db.prisma, admin, { ...step, id: "preserve-cctv" })).rejects.toMatchObject({ code: "CG-PLAYBOOK-003" });
    await expect(setPlaybookActive(db.prisma, admin, { id: "pull-edr-telemetry", active: false })).rejects.toMatchObject({
      code: "CG-PLAYBOOK-002",
    });
    await expect(setPlaybookActive(db.prisma, admin, { id: "ci-debrief", active: false })).rejects.toMatchObject({
      code: "CG-PLAYBOOK-002",
    });
    await expect(savePlaybook(db.prisma, admin, { ...step, id: "x-ts", minClearance: "TOP_SECRET" })).rejects.toMatchObject({
      code: "CG-ACCESS-006",
    });
    await expect(savePlaybook(db.prisma, admin, { ...step, id: "x-bad", riskLevel: "extreme" })).rejects.toMatchObject({
      code: "CG-PLAYBOOK-001",
    });
    await expect(setCaseLabels(db.prisma, admin, { caseId: "case-nightjar", caseType: "x", jurisdiction: "" })).rejects.toMatchObject({
      code: "CG-ACCESS-003",
    });
  });
});
