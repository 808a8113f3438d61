// Issue 17 — evidence from documents, end to end on PGlite and PostgreSQL: who may ingest, PDF/DOCX/text/HTML/e-mail/
// CSV into marked, linked evidence with pages and offsets, found and cited by the answer pipeline; unlicensed evidence
// stays invisible to analysis; a user without clearance for the batch's marking never sees it; every document is a
// ledger entry; duplicates are stored once; hostile and malformed files are coded errors naming the file with nothing
// of them written, and the rest of the batch goes on. Fixtures are generated (tests/support/documents.ts).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { FileOriginalStore } from "@/lib/adapters/documents/originals";
import { loadActor, type Actor } from "@/lib/auth/actor";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { askQuestion } from "@/lib/server/answers/graphrag";
import { ingestDocuments, type IngestDeps, type IngestedFile, type IngestSource } from "@/lib/server/ingest/ingest";
import { DEFAULT_CHUNK_BOUNDS } from "@/lib/ingest/chunk";
import { openCase } from "@/lib/server/workbench/scope";
import { evidenceByIds } from "@/lib/server/workbench/evidence";
import { userIdFor } from "@/lib/adapters/prisma/workspace";
import { setMemberPermission } from "@/lib/admin/memberships";
import { licenseDocument, licenseDocumentByAdmin, unlicensedDocuments } from "@/lib/admin/documents";
import { reviewerRedactor, reviewerStores } from "@/lib/server/audit/visibility";
import { clearTestRuntime, importDemo, useTestRuntime } from "../support/auth-fixture";
import { describeEachDatabase } from "../support/databases";
import { makeCsv, makeDocx, makeEml, makeEncryptedPdf, makePdf, makeSparseFile, makeZipBomb, LAB_PAGES } from "../support/documents";

const CASE = "case-harbor";

let labPdf: Buffer;
const citedIds = (body: any): string[] => [
  ...new Set<string>((body.answer?.citations ?? []).map((c: { evidenceId: string }) => c.evidenceId)),
];
const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => null,
    (err) => (err instanceof CasegraphError ? err.code : String(err)),
  );
const contextIds = (body: any): string[] => (body.rawContext?.evidenceSnippets ?? []).map((s: { id: string }) => s.id);

describeEachDatabase("document ingest", (fixture) => {
  let deps: IngestDeps;
  let dir: string;
  let reyes: Actor, kim: Actor, okafor: Actor, cyberAdmin: Actor, metroAdmin: Actor;

  const ingest = (actor: Actor, sources: IngestSource[], markings: Record<string, unknown> = {}) =>
    ingestDocuments(deps, actor, CASE, sources, { markings, channel: "test" });
  const count = async (table: "document" | "evidence") =>
    table === "document"
      ? fixture().db.prisma.document.count({ where: { caseId: CASE } })
      : fixture().db.prisma.evidence.count({ where: { caseId: CASE } });

  beforeAll(async () => {
    const { db } = fixture();
    const ledger = useTestRuntime(db);
    await importDemo(db);
    dir = await mkdtemp(path.join(tmpdir(), "cg-ingest-"));
    deps = {
      db,
      ledger,
      originals: new FileOriginalStore(path.join(dir, "originals")),
      settings: { maxBytes: 20 * 1024 * 1024, maxPdfPages: 500, chunks: DEFAULT_CHUNK_BOUNDS, originalsDir: path.join(dir, "originals") },
    };
    reyes = await loadActor(db.prisma, { email: "det.reyes@metro.example" }, "session");
    kim = await loadActor(db.prisma, { email: "analyst.kim@metro.example" }, "session");
    okafor = await loadActor(db.prisma, { email: "sup.okafor@metro.example" }, "session");
    cyberAdmin = await loadActor(db.prisma, { email: "admin@cyber.example" }, "session");
    metroAdmin = await loadActor(db.prisma, { email: "admin@metro.example" }, "session");
  });
  afterAll(async () => {
    clearTestRuntime();
    await rm(dir, { recursive: true, force: true });
  });

  it("only members with the ingest permission, and the tenant's supervisors and admins, may ingest", async () => {
    const file = { name: "note.txt", bytes: Buffer.from("A short note about Pier 9.") };
    const denied = async (actor: Actor) =>
      ingest(actor, [file]).then(
        () => "allowed",
        (e) => (e as CasegraphError).code,
      );
    expect(await denied(reyes)).toBe("CG-INGEST-009");
    expect(await denied(cyberAdmin)).toBe("CG-ACCESS-001");
    expect(await denied(okafor)).toBe("allowed");
    expect(await denied(metroAdmin)).toBe("allowed");
    // An admin of the tenant grants it on the membership: a ledger entry naming both.
    const granted = await setMemberPermission(fixture().db.prisma, metroAdmin, {
      caseId: CASE,
      userId: userIdFor("det.reyes@metro.example"),
      permission: "ingest",
      granted: true,
    });
    expect(granted).toEqual({ changed: true, permissions: ["ingest"] });
    const [entry] = await fixture().db.prisma.$queryRaw<Array<{ payload: any }>>`
      SELECT payload FROM "ledger" WHERE kind = 'admin.membership.permissions' ORDER BY seq DESC LIMIT 1`;
    expect(entry.payload).toMatchObject({
      actor: { email: "admin@metro.example" },
      after: { permissions: ["ingest"], user: { email: "det.reyes@metro.example" } },
    });
    expect(await denied(reyes)).toBe("allowed"); // the same file again: a duplicate, not stored twice
  });

  it("a PDF becomes marked, linked evidence with pages and offsets, found and cited by the answer pipeline", async () => {
    labPdf = await makePdf(LAB_PAGES);
    const r = await ingest(reyes, [{ name: "lab-report.pdf", bytes: labPdf }], { license: "LIC-INTERNAL", type: "lab_report" });
    expect(r.refused).toBe(0);
    const f = r.files[0] as IngestedFile;
    expect(f).toMatchObject({ ok: true, kind: "pdf", pages: 3 });
    expect(f.evidence).toBeGreaterThan(0);
    const items = await fixture().db.prisma.evidence.findMany({
      where: { caseId: CASE, id: { startsWith: f.documentId } },
      orderBy: { id: "asc" },
    });
    const doc = await fixture().db.prisma.document.findUniqueOrThrow({ where: { caseId_id: { caseId: CASE, id: f.documentId } } });
    for (const e of items) {
      const m = e.metadata as any;
      expect(m.documentId).toBe(f.documentId);
      expect(doc.text.slice(m.start, m.end)).toBe(e.content); // offsets point into the regular text
      expect(e.classification).toBe("CUI"); // the case's classification by default
      expect(e.licenseId).toBe("LIC-INTERNAL");
      expect(e.type).toBe("lab_report");
    }
    const findings = items.find((e) => e.content.includes("fentanyl"))!;
    expect((findings.metadata as any).page).toBe(2);
    // Linked to the Tahoe (plate), Kovac (name), the prepaid phone (digits in another format); the link says what matched.
    expect(findings.nodeIds).toEqual(expect.arrayContaining(["veh-tahoe", "p-kovac", "ph-0143"]));
    const links = (findings.metadata as any).links as Array<{ node: string; kind: string; matched: string }>;
    expect(links).toEqual(expect.arrayContaining([expect.objectContaining({ node: "ph-0143", kind: "phone", matched: "+1 (555) 0143" })]));

    const outcome = await askQuestion(reyes, { caseId: CASE, question: "What purity of fentanyl was found in the Tahoe HBR-4471?" });
    expect(outcome.ok).toBe(true);
    expect(citedIds(outcome.body)).toContain(findings.id);
  });

  it("a DOCX keeps its headings as sections and its table rows as paragraphs", async () => {
    const docx = await makeDocx([
      { heading: "Interview with Dmitri Kovac" },
      { text: "Kovac said he lent the Tahoe to Victor Marchetti on 14 March 2025." },
      { heading: "Vehicles", level: 2 },
      {
        table: [
          ["Plate", "Owner"],
          ["HBR-4471", "Dmitri Kovac"],
        ],
      },
    ]);
    const r = await ingest(reyes, [{ name: "interview.docx", bytes: docx }], { license: "LIC-INTERNAL" });
    const f = r.files[0] as IngestedFile;
    expect(f.ok).toBe(true);
    const doc = await fixture().db.prisma.document.findUniqueOrThrow({ where: { caseId_id: { caseId: CASE, id: f.documentId } } });
    const sections = (doc.structure as any).sections as Array<{ title: string; paragraphs: unknown[] }>;
    expect(sections.map((s) => s.title)).toEqual(["Interview with Dmitri Kovac", "Vehicles"]);
    expect(doc.text).toContain("HBR-4471 | Dmitri Kovac");
    const items = await fixture().db.prisma.evidence.findMany({ where: { caseId: CASE, id: { startsWith: f.documentId } } });
    expect(items.flatMap((e) => e.nodeIds)).toEqual(expect.arrayContaining(["p-kovac", "p-marchetti", "veh-tahoe"]));
  });

  it("without a license the evidence is stored but invisible to analysis", async () => {
    const r = await ingest(reyes, [
      { name: "tip.txt", bytes: Buffer.from("An anonymous caller said the quinoa shipment arrives at Pier 9 on Friday.") },
    ]);
    const f = r.files[0] as IngestedFile;
    const [e] = await fixture().db.prisma.evidence.findMany({ where: { caseId: CASE, id: { startsWith: f.documentId } } });
    expect(e.licenseId).toBe("UNLICENSED");
    const outcome = await askQuestion(reyes, { caseId: CASE, question: "When does the quinoa shipment arrive?" });
    expect(contextIds(outcome.body)).not.toContain(e.id);

    // Until an admin of the tenant licenses it: then it is found and cited; the licensing is a ledger entry.
    const prisma = fixture().db.prisma;
    expect((await unlicensedDocuments(prisma, metroAdmin)).documents.map((d) => d.id)).toContain(f.documentId);
    const input = { caseId: CASE, documentId: f.documentId, license: "LIC-INTERNAL" };
    expect(await codeOf(licenseDocument(prisma, reyes, input))).toBe("CG-ACCESS-002");
    expect(await codeOf(licenseDocument(prisma, cyberAdmin, input))).toBe("CG-INGEST-014");
    expect(await codeOf(licenseDocument(prisma, metroAdmin, { ...input, license: "LIC-NO-SUCH" }))).toBe("CG-INGEST-008");
    expect(await codeOf(licenseDocumentByAdmin(prisma, "det.reyes@metro.example", input))).toBe("CG-ACCESS-002");
    const licensed = await licenseDocument(prisma, metroAdmin, input);
    expect(licensed).toMatchObject({ previous: "UNLICENSED", license: "LIC-INTERNAL", evidence: 1 });
    const [entry] = await prisma.$queryRaw<Array<{ kind: string; payload: any }>>`
      SELECT kind, payload FROM "ledger" ORDER BY seq DESC LIMIT 1`;
    expect(entry).toMatchObject({
      kind: "document.license",
      payload: { before: { license: "UNLICENSED" }, after: { license: "LIC-INTERNAL" } },
    });
    const again = await askQuestion(reyes, { caseId: CASE, question: "When does the quinoa shipment arrive?" });
    expect(citedIds(again.body)).toContain(e.id);
    expect((await unlicensedDocuments(prisma, metroAdmin)).documents.map((d) => d.id)).not.toContain(f.documentId);
    // The same license again changes nothing and records nothing; UNLICENSED withdraws it.
    expect(await licenseDocumentByAdmin(prisma, "admin@metro.example", input)).toMatchObject({ evidence: 0 });
    await licenseDocumentByAdmin(prisma, "admin@metro.example", { ...input, license: "UNLICENSED" });
    const after = await askQuestion(reyes, { caseId: CASE, question: "When does the quinoa shipment arrive?" });
    expect(contextIds(after.body)).not.toContain(e.id);
  });

  it("a user without clearance for the batch's marking never sees its evidence", async () => {
    const r = await ingest(
      reyes,
      [{ name: "informant.md", bytes: Buffer.from("# Informant debrief\n\nThe informant saw the turquoise ledger in the Pier 9 office.") }],
      { classification: "SECRET", needToKnow: "homicide", license: "LIC-INTERNAL" },
    );
    const f = r.files[0] as IngestedFile;
    const ids = (await fixture().db.prisma.evidence.findMany({ where: { caseId: CASE, id: { startsWith: f.documentId } } })).map(
      (e) => e.id,
    );
    const asked = async (actor: Actor) => askQuestion(actor, { caseId: CASE, question: "Where is the turquoise ledger?" });
    const seen = await asked(reyes);
    expect(citedIds(seen.body)).toEqual(expect.arrayContaining(ids.slice(0, 1)));
    const hidden = await asked(kim); // CUI clearance, narcotics only
    expect(JSON.stringify(hidden.body)).not.toContain("turquoise");
    expect(contextIds(hidden.body).filter((id) => ids.includes(id))).toEqual([]);
    expect(await evidenceByIds(await openCase(kim, CASE), kim, ids)).toEqual([]);
    // Nor the file's name in the audit trail: a reviewer without the clearance sees it replaced.
    const [entry] = await fixture().db.prisma.$queryRaw<Array<{ tenantId: string; caseId: string; payload: any }>>`
      SELECT tenant_id AS "tenantId", case_id AS "caseId", payload FROM "ledger"
      WHERE kind = 'evidence.ingest' AND payload->'document'->>'id' = ${f.documentId}`;
    const shown = async (viewer: Actor) => (await reviewerRedactor(reviewerStores(fixture().db), viewer, [entry]))(entry);
    expect(await shown(metroAdmin)).toMatchObject({ payload: { document: { name: "[outside your permissions]" } }, hiddenItems: 1 });
    expect(await shown(okafor)).toMatchObject({ payload: { document: { name: "informant.md" } }, hiddenItems: 0 });
  });

  it("each ingested document is one ledger entry: who, what, hash, markings, counts", async () => {
    const entries = await fixture().db.prisma.$queryRaw<Array<{ payload: any }>>`
      SELECT payload FROM "ledger" WHERE kind = 'evidence.ingest' AND payload->'document'->>'name' = 'lab-report.pdf'`;
    expect(entries).toHaveLength(1);
    expect(entries[0].payload).toMatchObject({
      actor: { email: "det.reyes@metro.example" },
      caseId: CASE,
      document: { kind: "pdf", pages: 3, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      markings: { classification: "CUI", license: "LIC-INTERNAL", needToKnow: [] },
      counts: { evidence: expect.any(Number), links: expect.any(Number) },
    });
  });

  it("the same file twice is stored once", async () => {
    const before = await count("evidence");
    const r = await ingest(reyes, [{ name: "copy-of-lab.pdf", bytes: labPdf }]);
    expect(r).toMatchObject({ ingested: 0, duplicates: 1 });
    expect((r.files[0] as IngestedFile).duplicateOf).toBe("lab-report.pdf");
    expect(await count("evidence")).toBe(before);
  });

  it("an e-mail's headers become metadata and its attachment a document of its own", async () => {
    const attachment = await makePdf([
      ["Wire transfer of $48,500 from the Bayline Seafood Co. operating account ...2207 on 2 April 2025."],
    ]);
    const eml = makeEml({
      from: "Tipster <tips@example.test>",
      to: "Harbor Team <harbor@metro.example>",
      subject: "Bayline payments",
      date: "Wed, 02 Apr 2025 09:30:00 +0000",
      body: "See the attached transfer record. Victor Marchetti approved it.",
      attachment: { name: "transfer.pdf", type: "application/pdf", bytes: attachment },
    });
    const r = await ingest(reyes, [{ name: "tip.eml", bytes: eml }], { license: "LIC-INTERNAL" });
    expect(r.refused).toBe(0);
    const [mail, att] = r.files as IngestedFile[];
    expect(mail).toMatchObject({ kind: "email" });
    expect(att).toMatchObject({ file: "transfer.pdf", kind: "pdf", parentId: mail.documentId });
    const doc = await fixture().db.prisma.document.findUniqueOrThrow({ where: { caseId_id: { caseId: CASE, id: mail.documentId } } });
    expect((doc.metadata as any).email).toMatchObject({ subject: "Bayline payments", from: expect.stringContaining("tips@example.test") });
    const items = await fixture().db.prisma.evidence.findMany({ where: { caseId: CASE, id: { startsWith: att.documentId } } });
    expect(items.flatMap((e) => e.nodeIds)).toContain("acc-bayline");
  });

  it("call records: one evidence item per row, linked to phone nodes (new numbers get one), CALLED edges, all marked", async () => {
    const csv = makeCsv([
      ["+1-555-0143", "555-0123", "2025-03-14 21:05:00", 95],
      ["+1-555-0143", "555-0123", "2025-03-15T08:00:00Z", 30],
      ["(555) 0123", "+1-555-0143", "2025-03-16T10:00:00Z", 12],
    ]);
    const r = await ingest(reyes, [{ name: "cdr.csv", bytes: csv }], { license: "LIC-INTERNAL", needToKnow: "narcotics" });
    const f = r.files[0] as IngestedFile;
    expect(f).toMatchObject({ ok: true, kind: "csv", evidence: 3, nodes: 1, edges: 2 });
    const items = await fixture().db.prisma.evidence.findMany({
      where: { caseId: CASE, id: { startsWith: f.documentId } },
      orderBy: { id: "asc" },
    });
    expect(items[0].nodeIds).toEqual(expect.arrayContaining(["ph-0143", "ph-5550123"]));
    expect(items[0].collectedAt.toISOString()).toBe("2025-03-14T21:05:00.000Z");
    expect(items[0].type).toBe("call_record");
    const node = await fixture().db.prisma.graphNode.findUniqueOrThrow({ where: { caseId_id: { caseId: CASE, id: "ph-5550123" } } });
    expect(node).toMatchObject({ label: "Phone", classification: "CUI", needToKnow: ["narcotics"] });
    const edges = await fixture().db.prisma.graphEdge.findMany({ where: { caseId: CASE, id: { startsWith: f.documentId } } });
    expect(edges.map((e) => [e.source, e.target, (e.properties as any).calls]).sort()).toEqual([
      ["ph-0143", "ph-5550123", 2],
      ["ph-5550123", "ph-0143", 1],
    ]);
  });

  it("malformed and hostile files are coded errors naming the file, nothing of them written; the batch goes on", async () => {
    const pdf = await makePdf([["Harmless page about the harbor."]]);
    const sparse = path.join(dir, "huge.pdf");
    await makeSparseFile(sparse, 1024 * 1024 * 1024);
    const png = Buffer.from(
      "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fe0def46b80000000049454e44ae426082",
      "hex",
    );
    const documentsBefore = await count("document");
    const evidenceBefore = await count("evidence");
    const r = await ingest(reyes, [
      { name: "truncated.pdf", bytes: pdf.subarray(0, Math.floor(pdf.length / 2)) },
      { name: "locked.pdf", bytes: await makeEncryptedPdf() },
      { name: "entities.docx", bytes: await makeDocx([{ text: "hello" }], { doctype: true }) },
      { name: "bomb.docx", bytes: makeZipBomb(300) },
      { name: "report.docx", bytes: pdf },
      { name: "photo.png", bytes: png },
      { name: "photo.pdf", bytes: png },
      { path: sparse, name: "huge.pdf" },
      { name: "empty.txt", bytes: Buffer.alloc(0) },
      { name: "calls.csv", bytes: Buffer.from("a,b\n1,2\n") },
      { name: "fine.txt", bytes: Buffer.from("The batch goes on after the refused files: this note about the ferry is stored.") },
    ]);
    const codes = Object.fromEntries(r.files.map((f) => [f.file, f.ok ? "ok" : f.error.code]));
    expect(codes).toEqual({
      "truncated.pdf": "CG-INGEST-001",
      "locked.pdf": "CG-INGEST-005",
      "entities.docx": "CG-INGEST-013",
      "bomb.docx": "CG-INGEST-004",
      "report.docx": "CG-INGEST-006",
      "photo.png": "CG-INGEST-003",
      "photo.pdf": "CG-INGEST-006",
      "huge.pdf": "CG-INGEST-002",
      "empty.txt": "CG-INGEST-007",
      "calls.csv": "CG-INGEST-012",
      "fine.txt": "ok",
    });
    for (const f of r.files) if (!f.ok) expect(f.error.message).toContain(f.file);
    expect(await count("document")).toBe(documentsBefore + 1);
    expect(await count("evidence")).toBe(evidenceBefore + 1);
    const refusals = await fixture().db.prisma.$queryRaw<Array<{ n: bigint }>>`
      SELECT count(*) AS n FROM "ledger" WHERE kind = 'evidence.ingest_refused' AND case_id = ${CASE}`;
    expect(Number(refusals[0].n)).toBeGreaterThanOrEqual(10);
  });

  it("a page without a text layer is reported per page; a PDF with none is refused", async () => {
    const partly = await makePdf([["Page one mentions the harbor master."], ["(scanned)"], ["Page three mentions the night shift."]], {
      blankPages: [2],
    });
    const none = await makePdf([["x"], ["y"]], { blankPages: [1, 2] });
    const r = await ingest(reyes, [
      { name: "partly-scanned.pdf", bytes: partly },
      { name: "scanned.pdf", bytes: none },
    ]);
    const [ok, refused] = r.files;
    expect(ok).toMatchObject({ ok: true, pages: 3, warnings: ["page 2 has no text layer (not read: no OCR)"] });
    expect(refused).toMatchObject({ ok: false, error: { code: "CG-INGEST-007" } });
  });

  it("scripts are never read: HTML scripts are dropped, a PDF's JavaScript is reported and never run", async () => {
    const html = `<!doctype html><html><head><title>t</title><script>document.write("INJECTED-SCRIPT-TEXT")</script><style>.x{}</style></head>
      <body><h1>Harbor patrol log</h1><p>The patrol boat passed Pier 9 at 22:10.</p><script>alert("INJECTED-SCRIPT-TEXT")</script></body></html>`;
    const jsPdf = await makePdf([["A page about the ferry schedule at Pier 4."]], { javascript: "app.alert('pwned')" });
    const r = await ingest(reyes, [
      { name: "log.html", bytes: Buffer.from(html) },
      { name: "scripted.pdf", bytes: jsPdf },
    ]);
    const [h, p] = r.files as IngestedFile[];
    expect(h.ok && p.ok).toBe(true);
    const doc = await fixture().db.prisma.document.findUniqueOrThrow({ where: { caseId_id: { caseId: CASE, id: h.documentId } } });
    expect(doc.text).not.toContain("INJECTED-SCRIPT-TEXT");
    expect(doc.text).toContain("The patrol boat passed Pier 9 at 22:10.");
    expect(p.warnings.join(" ")).toContain("JavaScript");
  });
});
