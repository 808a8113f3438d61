// Issue 11 §6: the audit explorer, entry pages and exports show a reviewer only the case items their own clearance and
// need-to-know cover — a SECRET admin without tags no longer reads the ids of soc/threat-intel items from another
// user's entry — while verification still runs on the full stored entry.
import { beforeAll, expect, it } from "vitest";
import { OfflineExtractiveModel } from "@/lib/adapters/model/offline";
import { PrismaLedger } from "@/lib/adapters/prisma/ledger";
import { loadActor } from "@/lib/auth/actor";
import { itemIdsOf } from "@/lib/domain/audit-redaction";
import { mayViewEvidence } from "@/lib/domain/policy";
import { readEnv } from "@/lib/env";
import { answerQuestion } from "@/lib/graphrag/answer";
import { auditEntryDetail } from "@/lib/server/audit/explorer";
import { artifactJson, buildArtifact } from "@/lib/server/audit/export";
import { reviewerStores } from "@/lib/server/audit/visibility";
import { pipelineDeps } from "@/lib/server/answers/graphrag";
import { importDemo } from "../support/auth-fixture";
import { describeEachDatabase } from "../support/databases";
import { testSigner } from "../support/ledger";

describeEachDatabase("what a reviewer sees of an entry", (fixture) => {
  let ledger: PrismaLedger;
  let seq = 0;
  let hiddenFromAdmin: string[] = [];
  beforeAll(async () => {
    const { db } = fixture();
    const signer = testSigner();
    ledger = new PrismaLedger(db, { signer: async () => signer });
    await importDemo(db);
    const analyst = await loadActor(db.prisma, { email: "analyst.ng@cyber.example" }, "cli");
    const out = await answerQuestion(pipelineDeps(db, ledger, new OfflineExtractiveModel(), readEnv({})), analyst, {
      caseId: "case-nightjar",
      question: "Why is device did:ws-fin-0231 high risk, and what did the service account do?",
    });
    expect(out.ok).toBe(true);
    seq = (await ledger.head()).size;
    const [entry] = await ledger.entries(seq, seq);
    // The items of this entry the tagless SECRET admin may not see, by the policy itself.
    const admin = await loadActor(db.prisma, { email: "admin@cyber.example" }, "cli");
    const ids = itemIdsOf(entry.payload as Record<string, unknown>);
    const stores = reviewerStores(db);
    const scope = { tenantId: "cyber-jcu", caseId: "case-nightjar" };
    const evidence = await stores.evidence.byIds(scope, ids);
    hiddenFromAdmin = evidence.filter((e) => !mayViewEvidence(admin, e)).map((e) => e.id);
  });

  it("the entry page leaves out (and counts) the ids outside the reviewer's permissions; a cleared reviewer sees all", async () => {
    const { db } = fixture();
    expect(hiddenFromAdmin.length).toBeGreaterThan(0); // the question reached soc-tagged evidence
    const admin = await loadActor(db.prisma, { email: "admin@cyber.example" }, "cli");
    const forAdmin = await auditEntryDetail(db.prisma, ledger, reviewerStores(db), admin, seq);
    const text = JSON.stringify(forAdmin);
    for (const id of hiddenFromAdmin) expect(text).not.toContain(id);
    expect(forAdmin.hiddenItems).toBeGreaterThanOrEqual(hiddenFromAdmin.length);

    const sup = await loadActor(db.prisma, { email: "sup.haddad@cyber.example" }, "cli");
    const forSup = await auditEntryDetail(db.prisma, ledger, reviewerStores(db), sup, seq);
    expect(forSup.hiddenItems).toBe(0);
    for (const id of hiddenFromAdmin) expect(JSON.stringify(forSup.payload)).toContain(id);
    // Verification runs on the stored entry, untouched.
    expect((await ledger.verify()).ok).toBe(true);
  });

  it("a reviewer's export is redacted and says so; an operator's export is complete", async () => {
    const { db } = fixture();
    const admin = await loadActor(db.prisma, { email: "admin@cyber.example" }, "cli");
    const reviewer = await buildArtifact(ledger, {
      fromSeq: seq,
      toSeq: seq,
      tenantId: "cyber-jcu",
      includeQuestionText: false,
      reviewer: { viewer: admin, stores: reviewerStores(db) },
    });
    const json = artifactJson(reviewer);
    for (const id of hiddenFromAdmin) expect(json).not.toContain(id);
    expect(reviewer.hiddenItems).toBeGreaterThan(0);
    expect(reviewer.entries[0].hiddenItems).toBe(reviewer.hiddenItems);
    expect(reviewer.redaction).toMatch(/outside your permissions/);

    const operator = artifactJson(await buildArtifact(ledger, { fromSeq: seq, toSeq: seq, tenantId: null, includeQuestionText: false }));
    for (const id of hiddenFromAdmin) expect(operator).toContain(id);
  });
});
