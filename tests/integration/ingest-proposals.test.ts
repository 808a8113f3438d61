// Issue 17, graph proposals: with a generative model configured (here the AI SDK's mock model through the real
// adapter), the model proposes nodes and edges from an ingested document; they are checked (endpoints exist, names
// are new, citations are the document's own items), stored pending and never added silently; an investigator who may
// add evidence accepts (the node or edge is written, marked like the document, and the evidence linked) or rejects
// each, every step a ledger entry. Unusable model output proposes nothing and the document stays ingested.
import { createHash } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { FileOriginalStore } from "@/lib/adapters/documents/originals";
import { PrismaLedger } from "@/lib/adapters/prisma/ledger";
import { loadActor, type Actor } from "@/lib/auth/actor";
import { DEFAULT_CHUNK_BOUNDS } from "@/lib/ingest/chunk";
import { ingestDocuments, type IngestDeps, type IngestedFile } from "@/lib/server/ingest/ingest";
import { decideProposal, pendingProposals } from "@/lib/server/ingest/proposals";
import { importDemo } from "../support/auth-fixture";
import { describeEachDatabase } from "../support/databases";
import { mockLlm } from "../unit/graphrag/fakes";

const CASE = "case-harbor";
const TEXT = "# Debrief\n\nMarco Bellini met Victor Marchetti at the Anchor Tavern on 15 March 2025 and handed him an envelope.";
const DOC = `DOC-${createHash("sha256").update(TEXT).digest("hex").slice(0, 16)}`;
const EV = `${DOC}-00001`;

describeEachDatabase("graph proposals from documents", (fixture) => {
  let dir: string;
  let okafor: Actor;
  const deps = (outputs: Array<string | Record<string, unknown>>): IngestDeps => ({
    db: fixture().db,
    ledger: new PrismaLedger(fixture().db),
    originals: new FileOriginalStore(path.join(dir, "originals")),
    settings: { maxBytes: 1 << 20, maxPdfPages: 10, chunks: DEFAULT_CHUNK_BOUNDS, originalsDir: path.join(dir, "originals") },
    proposer: mockLlm(...outputs).model,
  });
  const ledgerKinds = async (kind: string) =>
    (await fixture().db.prisma.$queryRaw<Array<{ payload: any }>>`SELECT payload FROM "ledger" WHERE kind = ${kind} ORDER BY seq`).map(
      (r) => r.payload,
    );

  beforeAll(async () => {
    await importDemo(fixture().db);
    dir = await mkdtemp(path.join(tmpdir(), "cg-proposals-"));
    okafor = await loadActor(fixture().db.prisma, { email: "sup.okafor@metro.example" }, "session");
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it("proposals are checked and stored pending; nothing reaches the graph before an investigator accepts it", async () => {
    const output = {
      nodes: [
        { ref: "bellini", label: "Person", name: "Marco Bellini", properties: { role: "courier" }, evidence: [EV] },
        { ref: "dup", label: "Person", name: "Victor Marchetti", evidence: [EV] },
        { ref: "foreign", label: "Person", name: "Someone Else", evidence: ["EV-C-001"] },
      ],
      edges: [
        { source: "bellini", target: "p-marchetti", type: "MET_WITH", evidence: [EV] },
        { source: "bellini", target: "p-nobody", type: "MET_WITH", evidence: [EV] },
      ],
    };
    const nodesBefore = await fixture().db.prisma.graphNode.count({ where: { caseId: CASE } });
    const r = await ingestDocuments(deps([output]), okafor, CASE, [{ name: "debrief.md", bytes: Buffer.from(TEXT) }], {
      markings: { license: "LIC-INTERNAL", classification: "CONFIDENTIAL", needToKnow: "narcotics" },
    });
    const f = r.files[0] as IngestedFile;
    expect(f.documentId).toBe(DOC);
    expect(f.proposals).toEqual({ proposed: 2, rejected: 3 });
    expect(await fixture().db.prisma.graphNode.count({ where: { caseId: CASE } })).toBe(nodesBefore);
    const pending = await pendingProposals(fixture().db, okafor, CASE);
    expect(pending.map((p) => (p.kind === "node" ? `node ${p.label} ${p.name}` : `edge ${p.source} ${p.type} ${p.target}`))).toEqual([
      "node Person Marco Bellini",
      "edge Marco Bellini MET_WITH Victor Marchetti",
    ]);
    expect(pending[0]).toMatchObject({ classification: "CONFIDENTIAL", evidence: [EV], model: "mock-llm" });
    expect((await ledgerKinds("graph.proposals")).at(-1)).toMatchObject({ documentId: DOC, proposed: { nodes: 1, edges: 1 }, rejected: 3 });
  });

  it("accepting writes the node and edge marked like the document; an edge waits for its proposed endpoint", async () => {
    const [node, edge] = await pendingProposals(fixture().db, okafor, CASE);
    await expect(decideProposal(fixture().db, undefined, okafor, CASE, edge.id, "accept")).rejects.toMatchObject({ code: "CG-INGEST-016" });
    const n = await decideProposal(fixture().db, undefined, okafor, CASE, node.id, "accept");
    expect(n).toMatchObject({ status: "accepted", graphId: expect.stringMatching(/^prop-/) });
    const written = await fixture().db.prisma.graphNode.findUniqueOrThrow({ where: { caseId_id: { caseId: CASE, id: n.graphId! } } });
    expect(written).toMatchObject({ label: "Person", name: "Marco Bellini", classification: "CONFIDENTIAL", needToKnow: ["narcotics"] });
    expect(written.properties).toMatchObject({ role: "courier", proposedBy: "mock-llm", documentId: DOC });
    const ev = await fixture().db.prisma.evidence.findUniqueOrThrow({ where: { caseId_id: { caseId: CASE, id: EV } } });
    expect(ev.nodeIds).toContain(n.graphId);
    const e = await decideProposal(fixture().db, undefined, okafor, CASE, edge.id, "accept");
    expect(e.graphId).toBe(`${n.graphId}:MET_WITH:p-marchetti`);
    expect(await fixture().db.prisma.graphEdge.count({ where: { caseId: CASE, id: e.graphId! } })).toBe(1);
    await expect(decideProposal(fixture().db, undefined, okafor, CASE, node.id, "reject")).rejects.toMatchObject({ code: "CG-INGEST-016" });
    expect((await ledgerKinds("graph.proposal.decide")).map((p) => [p.proposal.kind, p.decision])).toEqual([
      ["node", "accepted"],
      ["edge", "accepted"],
    ]);
    expect(await pendingProposals(fixture().db, okafor, CASE)).toEqual([]);
  });

  it("a rejected proposal adds nothing; unusable model output proposes nothing and the document stays", async () => {
    const text = "Lena Fischer drove the van to Pier 9 on 2 April 2025.";
    const out = {
      nodes: [
        {
          ref: "lena",
          label: "Person",
          name: "Lena Fischer",
          evidence: [`DOC-${createHash("sha256").update(text).digest("hex").slice(0, 16)}-00001`],
        },
      ],
      edges: [],
    };
    await ingestDocuments(deps([out]), okafor, CASE, [{ name: "van.txt", bytes: Buffer.from(text) }], {
      markings: { license: "LIC-INTERNAL" },
    });
    const [p] = await pendingProposals(fixture().db, okafor, CASE);
    const nodesBefore = await fixture().db.prisma.graphNode.count({ where: { caseId: CASE } });
    expect(await decideProposal(fixture().db, undefined, okafor, CASE, p.id, "reject")).toMatchObject({
      status: "rejected",
      graphId: null,
    });
    expect(await fixture().db.prisma.graphNode.count({ where: { caseId: CASE } })).toBe(nodesBefore);

    const r = await ingestDocuments(
      deps(["not json at all"]),
      okafor,
      CASE,
      [{ name: "garbage.txt", bytes: Buffer.from("Another note about the ferry.") }],
      {
        markings: { license: "LIC-INTERNAL" },
      },
    );
    expect(r.files[0]).toMatchObject({ ok: true, proposals: { proposed: 0, rejected: 1 } });
  });

  it("only those who may add evidence to the case see and decide proposals", async () => {
    const kim = await loadActor(fixture().db.prisma, { email: "analyst.kim@metro.example" }, "session");
    await expect(pendingProposals(fixture().db, kim, CASE)).rejects.toMatchObject({ code: "CG-INGEST-009" });
    const cyber = await loadActor(fixture().db.prisma, { email: "analyst.ng@cyber.example" }, "session");
    await expect(pendingProposals(fixture().db, cyber, CASE)).rejects.toMatchObject({ code: "CG-ACCESS-001" });
  });
});
