// Issue 17, the HTTP API and the viewer: POST /api/cases/{caseId}/documents (multipart, Bearer token or session) runs
// the same ingest; a citation opens the document at the cited page with the passage (PDF: page and text; text
// documents: offsets into the regular text; call records: the line); the original is served only to members whose
// permissions cover the document, never as a page of this site.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { clearTestRuntime, importDemo, nextHeadersMock, useTestRuntime } from "../support/auth-fixture";
import { describeEachDatabase } from "../support/databases";
import { LAB_PAGES, makeCsv, makePdf } from "../support/documents";

vi.mock("next/headers", () => nextHeadersMock);
const dir = await mkdtemp(path.join(tmpdir(), "cg-ingest-viewer-"));
process.env.CASEGRAPH_ORIGINALS_DIR = path.join(dir, "originals");
process.env.CASEGRAPH_INGEST_MAX_MB = "2"; // a request may then carry 4 × 2 MB (+ 1 MB of framing)

const { POST } = await import("@/app/api/cases/[caseId]/documents/route");
const { GET } = await import("@/app/api/cases/[caseId]/documents/[documentId]/original/route");
const { issueToken } = await import("@/lib/auth/tokens");
const { loadActor } = await import("@/lib/auth/actor");
const { userIdFor } = await import("@/lib/adapters/prisma/workspace");
const { documentViewer } = await import("@/lib/server/ingest/documents");
const { askQuestion } = await import("@/lib/server/answers/graphrag");

const CASE = "case-harbor";

describeEachDatabase("document API and viewer", (fixture) => {
  let token: string;
  const upload = (form: FormData, headers: Record<string, string> = {}) =>
    POST(
      new Request(`http://casegraph.test/api/cases/${CASE}/documents`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, ...headers },
        body: form,
      }),
      { params: Promise.resolve({ caseId: CASE }) },
    );
  const original = (documentId: string, bearer = token) =>
    GET(
      new Request(`http://casegraph.test/api/cases/${CASE}/documents/${documentId}/original`, {
        headers: { authorization: `Bearer ${bearer}` },
      }),
      {
        params: Promise.resolve({ caseId: CASE, documentId }),
      },
    );
  const actor = (email: string) => loadActor(fixture().db.prisma, { email }, "session");

  beforeAll(async () => {
    const { db } = fixture();
    useTestRuntime(db);
    await importDemo(db);
    await db.prisma.caseMember.update({
      where: { caseId_userId: { caseId: CASE, userId: userIdFor("det.reyes@metro.example") } },
      data: { permissions: ["ingest"] },
    });
    token = (
      await issueToken(db.prisma, {
        userId: userIdFor("det.reyes@metro.example"),
        name: "t",
        expiresAt: new Date(Date.now() + 3_600_000),
        createdBy: null,
      })
    ).token;
  });
  afterAll(() => clearTestRuntime());
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  let pdfDoc: string;
  it("uploads several files with batch markings through the API (Bearer token)", async () => {
    const form = new FormData();
    form.append("file", new File([new Uint8Array(await makePdf(LAB_PAGES))], "lab.pdf"));
    form.append("file", new File(["# Surveillance\n\nAt 22:10 the Tahoe HBR-4471 left Pier 9 with two men."], "surveillance.md"));
    form.append("file", new File([new Uint8Array(makeCsv([["+1-555-0143", "+1-555-0178", "2025-03-14T21:05:00Z", 95]]))], "calls.csv"));
    form.append("license", "LIC-INTERNAL");
    form.append("sourceSystem", "Harbor RMS");
    const res = await upload(form);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ ok: true, ingested: 3, refused: 0 });
    pdfDoc = body.files[0].documentId;
    const e = await fixture().db.prisma.evidence.findFirstOrThrow({ where: { caseId: CASE, id: { startsWith: pdfDoc } } });
    expect(e).toMatchObject({ sourceSystem: "Harbor RMS", licenseId: "LIC-INTERNAL" });
  });

  it("markings per file override the batch's", async () => {
    const form = new FormData();
    form.append("file", new File(["The deckhand saw the crates at dawn."], "deckhand.txt"));
    form.append("file", new File(["The informant named the buyer."], "informant.txt"));
    form.append("license", "LIC-INTERNAL");
    form.append("fileMarkings", JSON.stringify({ "informant.txt": { classification: "SECRET", needToKnow: "homicide" } }));
    const body = await (await upload(form)).json();
    expect(body).toMatchObject({ ok: true, ingested: 2 });
    const marks = await fixture().db.prisma.document.findMany({
      where: { caseId: CASE, name: { in: ["deckhand.txt", "informant.txt"] } },
      orderBy: { name: "asc" },
      select: { name: true, classification: true, needToKnow: true, licenseId: true },
    });
    expect(marks).toEqual([
      { name: "deckhand.txt", classification: "CUI", needToKnow: [], licenseId: "LIC-INTERNAL" },
      { name: "informant.txt", classification: "SECRET", needToKnow: ["homicide"], licenseId: "LIC-INTERNAL" },
    ]);
    const bad = new FormData();
    bad.append("file", new File(["x"], "x.txt"));
    bad.append("fileMarkings", "{not json");
    expect((await (await upload(bad)).json()).error.code).toBe("CG-INGEST-010");
  });

  it("refuses what is not an upload, and an oversized body from its Content-Length before reading it", async () => {
    const json = await POST(
      new Request(`http://casegraph.test/api/cases/${CASE}/documents`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: "{}",
      }),
      { params: Promise.resolve({ caseId: CASE }) },
    );
    expect(json.status).toBe(400);
    expect((await json.json()).error.code).toBe("CG-INGEST-010");
    const big = new FormData();
    big.append("file", new File(["x"], "a.txt"));
    const res = await upload(big, { "content-length": String(50 * 1024 * 1024 * 25) });
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe("CG-INGEST-002");
    // Without a Content-Length (a chunked body), the bytes are counted as they arrive and the upload cut off.
    const chunked = new ReadableStream({
      start(c) {
        for (let i = 0; i < 5; i++) c.enqueue(new Uint8Array(3 * 1024 * 1024));
        c.close();
      },
    });
    const cut = await POST(
      new Request(`http://casegraph.test/api/cases/${CASE}/documents`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "multipart/form-data; boundary=x" },
        body: chunked,
        duplex: "half",
      } as RequestInit),
      { params: Promise.resolve({ caseId: CASE }) },
    );
    expect(cut.status).toBe(413);
    const bad = new FormData();
    bad.append("file", new File([new Uint8Array(Buffer.from("89504e470d0a1a0a0000000d4948445200", "hex"))], "photo.png"));
    const refused = await upload(bad);
    expect(refused.status).toBe(415);
    expect(await refused.json()).toMatchObject({
      ok: false,
      refused: 1,
      files: [{ file: "photo.png", ok: false, error: { code: "CG-INGEST-003" } }],
    });
  });

  it("a citation opens the PDF at the cited page with the passage", async () => {
    const reyes = await actor("det.reyes@metro.example");
    const outcome = await askQuestion(reyes, { caseId: CASE, question: "What purity of fentanyl was found in the Tahoe HBR-4471?" });
    const cited = (outcome.body as any).answer.citations
      .map((c: { evidenceId: string }) => c.evidenceId)
      .find((id: string) => id.startsWith(pdfDoc));
    expect(cited).toBeTruthy();
    const view = await documentViewer(reyes, CASE, pdfDoc, cited);
    expect(view).toMatchObject({ kind: "pdf", pages: 3, text: null, passage: { evidenceId: cited, page: 2 } });
    expect(view.passage!.text).toContain("fentanyl");
  });

  it("a text document opens with the passage at its offsets; call records at their line", async () => {
    const reyes = await actor("det.reyes@metro.example");
    const docs = await fixture().db.prisma.document.findMany({ where: { caseId: CASE }, orderBy: { name: "asc" } });
    const md = docs.find((d) => d.name === "surveillance.md")!;
    const item = await fixture().db.prisma.evidence.findFirstOrThrow({ where: { caseId: CASE, id: { startsWith: md.id } } });
    const view = await documentViewer(reyes, CASE, md.id, item.id);
    expect(view.text!.slice(view.passage!.start!, view.passage!.end!)).toBe(item.content);
    const csv = docs.find((d) => d.name === "calls.csv")!;
    const row = await fixture().db.prisma.evidence.findFirstOrThrow({ where: { caseId: CASE, id: { startsWith: csv.id } } });
    const rows = await documentViewer(reyes, CASE, csv.id, row.id);
    expect(rows.passage).toMatchObject({ line: 2 });
    expect(rows.lines).toEqual({
      first: 1,
      text: expect.arrayContaining(["caller,callee,start_time,duration_seconds", "+1-555-0143,+1-555-0178,2025-03-14T21:05:00Z,95"]),
    });
  });

  it("the original is served sandboxed, and only to members whose permissions cover the document", async () => {
    const res = await original(pdfDoc);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    expect(res.headers.get("content-security-policy")).toContain("sandbox");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");
    // A SECRET, homicide-only document: analyst.kim (CUI, narcotics) is a member of the case and still gets "not found".
    const reyes = await actor("det.reyes@metro.example");
    const { ingestForActor } = await import("@/lib/server/ingest");
    const r = await ingestForActor(reyes, CASE, [{ name: "secret.txt", bytes: Buffer.from("The witness named the driver.") }], {
      markings: { classification: "SECRET", needToKnow: "homicide", license: "LIC-INTERNAL" },
    });
    const secret = (r.files[0] as { documentId: string }).documentId;
    const kim = await actor("analyst.kim@metro.example");
    await expect(documentViewer(kim, CASE, secret, null)).rejects.toMatchObject({ code: "CG-INGEST-014" });
    const kimToken = (
      await issueToken(fixture().db.prisma, { userId: kim.userId, name: "k", expiresAt: new Date(Date.now() + 60_000), createdBy: null })
    ).token;
    const denied = await original(secret, kimToken);
    expect(denied.status).toBe(404);
    expect((await denied.json()).error.code).toBe("CG-INGEST-014");
    expect((await original(secret)).status).toBe(200);
    // Unlicensed: stored, but not shown to anyone until licensed.
    const u = await ingestForActor(reyes, CASE, [{ name: "unlicensed.txt", bytes: Buffer.from("Unlicensed vendor text about Pier 9.") }]);
    expect((await original((u.files[0] as { documentId: string }).documentId)).status).toBe(404);
  });
});
