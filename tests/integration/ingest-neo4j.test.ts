// Issue 17 with Neo4j configured: the nodes and edges a document adds (call records: phone nodes, CALLED edges) go
// to Neo4j in the same unit of work as its evidence and ledger entry in PostgreSQL; when Neo4j fails the document is
// refused (CG-GRAPH-004), PostgreSQL keeps nothing of it, and Neo4j is put back to what PostgreSQL holds.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Neo4jGraphStore } from "@/lib/adapters/neo4j/graph-store";
import { Neo4jGraphWrites } from "@/lib/adapters/neo4j/graph-writes";
import { importBundleWithGraph } from "@/lib/adapters/neo4j/sync";
import { FileOriginalStore } from "@/lib/adapters/documents/originals";
import { PrismaGraphStore } from "@/lib/adapters/prisma/graph-store";
import { PrismaLedger } from "@/lib/adapters/prisma/ledger";
import { loadActor } from "@/lib/auth/actor";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { DEFAULT_CHUNK_BOUNDS } from "@/lib/ingest/chunk";
import { ingestDocuments, type IngestDeps, type IngestedFile } from "@/lib/server/ingest/ingest";
import type { CaseScope } from "@/lib/ports";
import { describeEachDatabase } from "../support/databases";
import { OfflineExtractiveModel } from "@/lib/adapters/model/offline";
import { readEnv } from "@/lib/env";
import { answerQuestion } from "@/lib/graphrag/answer";
import { pipelineDeps } from "@/lib/server/answers/graphrag";
import { demoBundle } from "../support/demo";
import { makeCsv } from "../support/documents";
import { neo4jAvailable, testNeo4jStore, uniqueCaseIds } from "../support/neo4j";

/** Neo4j failing once, in the middle of the document's write (its nodes went, its edges do not). */
class FailingWrites extends Neo4jGraphWrites {
  failed = false;
  override async writeEdges(...args: Parameters<Neo4jGraphWrites["writeEdges"]>): Promise<number> {
    if (!this.failed) {
      this.failed = true;
      throw new CasegraphError("CG-GRAPH-001");
    }
    return super.writeEdges(...args);
  }
}

describeEachDatabase("document ingest with Neo4j", (fixture, kind) => {
  if (!neo4jAvailable()) {
    it("needs a real Neo4j (see the global setup's banner)", () => expect(neo4jAvailable()).toBe(false));
    return;
  }
  let store: Neo4jGraphStore;
  let dir: string;
  let scope: CaseScope;
  const deps = (neo4j: Neo4jGraphStore): IngestDeps => ({
    db: fixture().db,
    ledger: new PrismaLedger(fixture().db),
    originals: new FileOriginalStore(path.join(dir, "originals")),
    settings: { maxBytes: 10 * 1024 * 1024, maxPdfPages: 100, chunks: DEFAULT_CHUNK_BOUNDS, originalsDir: path.join(dir, "originals") },
    neo4j,
  });
  const graphOf = async (s: { nodesByIds: PrismaGraphStore["nodesByIds"]; edgesByIds: PrismaGraphStore["edgesByIds"] }) => {
    const { db } = fixture();
    const nodes = (await db.prisma.graphNode.findMany({ where: { caseId: scope.caseId }, select: { id: true } })).map((n) => n.id);
    const edges = (await db.prisma.graphEdge.findMany({ where: { caseId: scope.caseId }, select: { id: true } })).map((e) => e.id);
    return { nodes: await s.nodesByIds(scope, nodes), edges: await s.edgesByIds(scope, edges) };
  };

  beforeAll(async () => {
    store = testNeo4jStore();
    dir = await mkdtemp(path.join(tmpdir(), "cg-ingest-neo4j-"));
    const bundle = demoBundle();
    uniqueCaseIds(bundle, `ingest-${kind}`);
    await importBundleWithGraph(fixture().db, bundle, store);
    const harbor = bundle.cases.find((c: any) => c.id.startsWith("case-harbor"));
    scope = { caseId: harbor.id, tenantId: harbor.tenant };
  });
  afterAll(async () => {
    await store.writes.deleteCase(scope.caseId);
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("new phone nodes and CALLED edges reach Neo4j in the same unit of work; Neo4j then holds exactly PostgreSQL's graph", async () => {
    const admin = await loadActor(fixture().db.prisma, { email: "admin@metro.example" }, "cli");
    const before = await store.writes.counts(scope);
    const csv = makeCsv([
      ["+1-555-0143", "+1-555-0777", "2025-03-20T10:00:00Z", 60],
      ["+1-555-0777", "+1-555-0888", "2025-03-20T11:00:00Z", 45],
    ]);
    const r = await ingestDocuments(deps(store), admin, scope.caseId, [{ name: "cdr.csv", bytes: csv }], {
      markings: { license: "LIC-INTERNAL" },
    });
    const f = r.files[0] as IngestedFile;
    expect(f).toMatchObject({ ok: true, evidence: 2, nodes: 2, edges: 2 });
    expect(await store.writes.counts(scope)).toEqual({ nodes: before.nodes + 2, edges: before.edges + 2 });
    expect((await store.writes.caseStates([scope.caseId])).get(scope.caseId)).toMatchObject({ state: "ready" });
    expect(await graphOf(store)).toEqual(await graphOf(new PrismaGraphStore(fixture().db.prisma)));
    // The answer pipeline reading the graph from Neo4j finds the new phone and cites the call record.
    const reyes = await loadActor(fixture().db.prisma, { email: "det.reyes@metro.example" }, "session");
    const answerDeps = {
      ...pipelineDeps(fixture().db, new PrismaLedger(fixture().db), new OfflineExtractiveModel(), readEnv({})),
      graph: store,
    };
    const out = await answerQuestion(answerDeps, reyes, { caseId: scope.caseId, question: "Who called +1-555-0888 and when?" });
    expect(out.ok).toBe(true);
    const body = out.body as any;
    expect(body.rawContext.nodes.map((n: { id: string }) => n.id)).toContain("ph-15550888");
    expect(body.answer.citations.map((c: { evidenceId: string }) => c.evidenceId)).toContain(`${f.documentId}-00002`);
  });

  it("when Neo4j fails the document is refused, PostgreSQL keeps nothing of it and Neo4j is put back", async () => {
    const admin = await loadActor(fixture().db.prisma, { email: "admin@metro.example" }, "cli");
    const failing = testNeo4jStore();
    (failing as unknown as { writes: Neo4jGraphWrites }).writes = new FailingWrites(failing.conn, () => failing.ensureSchema(), 120_000);
    const { db } = fixture();
    const evidenceBefore = await db.prisma.evidence.count({ where: { caseId: scope.caseId } });
    const documentsBefore = await db.prisma.document.count({ where: { caseId: scope.caseId } });
    const neo4jBefore = await store.writes.counts(scope);
    const csv = makeCsv([["+1-555-0999", "+1-555-0998", "2025-03-21T10:00:00Z", 10]]);
    const r = await ingestDocuments(deps(failing), admin, scope.caseId, [{ name: "cdr2.csv", bytes: csv }], {
      markings: { license: "LIC-INTERNAL" },
    });
    await failing.close();
    expect(r.files[0]).toMatchObject({ ok: false, error: { code: "CG-GRAPH-004" } });
    expect(await db.prisma.evidence.count({ where: { caseId: scope.caseId } })).toBe(evidenceBefore);
    expect(await db.prisma.document.count({ where: { caseId: scope.caseId } })).toBe(documentsBefore);
    expect(await store.writes.counts(scope)).toEqual(neo4jBefore);
    expect((await store.writes.caseStates([scope.caseId])).get(scope.caseId)).toMatchObject({ state: "ready" });
    expect(await graphOf(store)).toEqual(await graphOf(new PrismaGraphStore(db.prisma)));
  });
});
