// Import with Neo4j configured: the graph goes to Neo4j and everything to PostgreSQL as one unit of work. A dead or
// failing Neo4j fails the import with a coded error and leaves PostgreSQL exactly as it was (compared by export);
// Neo4j is put back to what PostgreSQL holds; running the import again succeeds and leaves the same state.
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Neo4jGraphStore, type EdgeWrite } from "@/lib/adapters/neo4j/graph-store";
import { Neo4jGraphWrites } from "@/lib/adapters/neo4j/graph-writes";
import type { Neo4jConnection } from "@/lib/adapters/neo4j/connection";
import { importBundleWithGraph } from "@/lib/adapters/neo4j/sync";
import type { Database } from "@/lib/adapters/prisma/db";
import { PrismaGraphStore } from "@/lib/adapters/prisma/graph-store";
import { exportWorkspace } from "@/lib/adapters/prisma/workspace";
import { CasegraphError } from "@/lib/domain/failure-codes";
import type { CaseScope } from "@/lib/ports";
import { runCli } from "../support/cli";
import { describeEachDatabase } from "../support/databases";
import { demoBundle } from "../support/demo";
import { DEAD_NEO4J_URI, TEST_NEO4J_URI, neo4jAvailable, testNeo4jConfig, testNeo4jStore, uniqueCaseIds } from "../support/neo4j";

/** Everything both stores hold for each case of the bundle, read through the port. */
async function graphs(
  db: Database,
  store: { nodesByIds: PrismaGraphStore["nodesByIds"]; edgesByIds: PrismaGraphStore["edgesByIds"] },
  bundle: any,
) {
  const out: Record<string, unknown> = {};
  for (const c of bundle.cases) {
    const scope: CaseScope = { tenantId: c.tenant, caseId: c.id };
    const nodeIds = (await db.prisma.graphNode.findMany({ where: { caseId: c.id }, select: { id: true } })).map((n) => n.id);
    const edgeIds = (await db.prisma.graphEdge.findMany({ where: { caseId: c.id }, select: { id: true } })).map((e) => e.id);
    out[c.id] = { nodes: await store.nodesByIds(scope, nodeIds), edges: await store.edgesByIds(scope, edgeIds) };
  }
  return out;
}

/** A changed bundle: a node re-marked, an edge re-pointed, a node and edge added, and a whole new case. */
function changed(bundle: any) {
  const next = structuredClone(bundle);
  const [harbor] = next.cases;
  harbor.nodes[0].classification = "TOP_SECRET";
  harbor.nodes.push({ id: "n-added", label: "Person", properties: { name: "Added Person" } });
  harbor.edges.push({ id: "e-added", source: "n-added", target: harbor.nodes[1].id, type: "KNOWS" });
  const moved = harbor.edges.find((e: any) => e.id) ?? harbor.edges[0];
  moved.id ??= `${moved.source}:${moved.type}:${moved.target}`;
  moved.target = "n-added";
  next.cases.push({
    id: `${harbor.id}-new`,
    tenant: harbor.tenant,
    title: "New",
    description: "",
    classification: "CUI",
    members: [],
    nodes: [
      { id: "a", label: "Thing", properties: { name: "Alpha" } },
      { id: "b", label: "Thing", properties: { name: "Beta" } },
    ],
    edges: [{ id: "ab", source: "a", target: "b", type: "LINK" }],
    evidence: [],
  });
  return next;
}

/** Writes that fail on the n-th writeEdges call (Neo4j fails mid-import); with `dead`, every write after that fails too. */
class FailingWrites extends Neo4jGraphWrites {
  calls = 0;
  failing = false;
  constructor(
    conn: Neo4jConnection,
    ready: () => Promise<void>,
    private readonly failAt: number,
    private readonly dead: boolean,
    leaseMs: number,
  ) {
    super(conn, ready, leaseMs);
  }
  private check() {
    if (this.failing && this.dead) throw new CasegraphError("CG-GRAPH-001");
  }
  override async writeEdges(scope: CaseScope, rows: readonly EdgeWrite[], stamp: string, options?: { fresh?: boolean }) {
    this.check();
    if (++this.calls === this.failAt) {
      this.failing = true;
      throw new CasegraphError("CG-GRAPH-001");
    }
    return super.writeEdges(scope, rows, stamp, options);
  }
  override async writeNodes(...args: Parameters<Neo4jGraphWrites["writeNodes"]>) {
    this.check();
    return super.writeNodes(...args);
  }
  override async beginWrite(scope: CaseScope) {
    this.check();
    return super.beginWrite(scope);
  }
  override async deleteCase(caseId: string) {
    this.check();
    return super.deleteCase(caseId);
  }
}

class FailingStore extends Neo4jGraphStore {
  override readonly writes: FailingWrites;
  constructor(failAt: number, dead: boolean, leaseMs = 120_000) {
    const conn = testNeo4jStore().conn;
    super(conn, { leaseMs });
    this.writes = new FailingWrites(conn, () => this.ensureSchema(), failAt, dead, leaseMs);
  }
  get calls() {
    return this.writes.calls;
  }
}

describeEachDatabase("import with Neo4j configured", (fixture, kind) => {
  if (!neo4jAvailable()) {
    it("needs a real Neo4j (see the global setup's banner)", () => expect(neo4jAvailable()).toBe(false));
    return;
  }
  let store: Neo4jGraphStore;
  let bundle: any;
  const allCaseIds = new Set<string>();

  beforeAll(async () => {
    store = testNeo4jStore();
    bundle = demoBundle();
    uniqueCaseIds(bundle, `import-${kind}`);
    for (const c of changed(bundle).cases) allCaseIds.add(c.id);
  });
  afterAll(async () => {
    for (const id of allCaseIds) await store.writes.deleteCase(id);
    await store.close();
  });

  it("writes the graph to Neo4j and everything to PostgreSQL; Neo4j then holds exactly PostgreSQL's graph", async () => {
    const { db } = fixture();
    const summary = await importBundleWithGraph(db, bundle, store);
    expect(summary).toMatchObject({ cases: 3, nodes: 125, edges: 199, graph: { rebuilt: [] } });
    expect(await graphs(db, store, bundle)).toEqual(await graphs(db, new PrismaGraphStore(db.prisma), bundle));
    for (const c of bundle.cases) {
      expect((await store.writes.caseStates([c.id])).get(c.id)).toMatchObject({ state: "ready", tenantId: c.tenant });
      expect(await store.writes.counts({ tenantId: c.tenant, caseId: c.id })).toEqual({ nodes: c.nodes.length, edges: c.edges.length });
    }
    // Importing the same bundle again changes nothing on either side.
    const exported = await exportWorkspace(db.prisma);
    await importBundleWithGraph(db, bundle, store);
    expect(await exportWorkspace(db.prisma)).toBe(exported);
    expect(await graphs(db, store, bundle)).toEqual(await graphs(db, new PrismaGraphStore(db.prisma), bundle));
  });

  it("Neo4j dead: coded error, PostgreSQL unchanged, Neo4j unchanged; running it again succeeds", async () => {
    const { db } = fixture();
    const next = changed(bundle);
    const before = await exportWorkspace(db.prisma);
    const neo4jBefore = await graphs(db, store, bundle);
    const dead = Neo4jGraphStore.connect({ uri: DEAD_NEO4J_URI });
    const started = performance.now();
    const err = await importBundleWithGraph(db, next, dead).then(
      () => null,
      (e) => e,
    );
    await dead.close();
    expect(err).toBeInstanceOf(CasegraphError);
    expect((err as CasegraphError).toJSON().error).toMatchObject({ code: "CG-GRAPH-004", issues: [{ code: "CG-GRAPH-001" }] });
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(await exportWorkspace(db.prisma)).toBe(before);
    expect(await graphs(db, store, bundle)).toEqual(neo4jBefore);

    await importBundleWithGraph(db, next, store);
    const after = await exportWorkspace(db.prisma);
    expect(after).not.toBe(before);
    expect(await graphs(db, store, next)).toEqual(await graphs(db, new PrismaGraphStore(db.prisma), next));
    // …and a third run is a no-op on both sides.
    await importBundleWithGraph(db, next, store);
    expect(await exportWorkspace(db.prisma)).toBe(after);
    expect(await graphs(db, store, next)).toEqual(await graphs(db, new PrismaGraphStore(db.prisma), next));
  });

  it("Neo4j failing mid-import: PostgreSQL rolls back and the batches Neo4j already took are undone", async () => {
    const { db } = fixture();
    const before = await exportWorkspace(db.prisma);
    const neo4jBefore = await graphs(db, store, changed(bundle));
    // Revert to the original bundle's content, failing at the second edge batch (after nodes and edges were written).
    const flaky = new FailingStore(2, false);
    const err = await importBundleWithGraph(db, bundle, flaky).then(
      () => null,
      (e) => e,
    );
    expect(err).toMatchObject({ code: "CG-GRAPH-004" });
    expect(flaky.calls).toBeGreaterThanOrEqual(2);
    expect(await exportWorkspace(db.prisma)).toBe(before);
    expect(await graphs(db, store, changed(bundle))).toEqual(neo4jBefore);
    for (const c of changed(bundle).cases) expect((await store.writes.caseStates([c.id])).get(c.id)?.state).toBe("ready");
  });

  it("when Neo4j dies for good mid-import, the case is refused (CG-GRAPH-005) until an import or sync rewrites it", async () => {
    const { db } = fixture();
    const before = await exportWorkspace(db.prisma);
    const next = structuredClone(bundle);
    next.cases[0].nodes[1].classification = "PUBLIC"; // lowered in Neo4j's first batch, never in PostgreSQL
    const dying = new FailingStore(1, true, 1);
    const err = await importBundleWithGraph(db, next, dying).then(
      () => null,
      (e) => e,
    );
    expect(err).toMatchObject({ code: "CG-GRAPH-004" });
    expect(await exportWorkspace(db.prisma)).toBe(before);
    const c = next.cases[0];
    await new Promise((r) => setTimeout(r, 20)); // its 1 ms lease lapses
    const scope = { tenantId: c.tenant, caseId: c.id };
    expect(
      await store.nodesByIds(scope, [c.nodes[1].id]).then(
        () => null,
        (e) => e.code,
      ),
    ).toBe("CG-GRAPH-005");
    // Running the import again (Neo4j back) rebuilds that case from PostgreSQL and serves it again.
    const again = await importBundleWithGraph(db, next, store);
    expect(again.graph.rebuilt).toContain(c.id);
    expect(await graphs(db, store, next)).toEqual(await graphs(db, new PrismaGraphStore(db.prisma), next));
  });

  it("the CLI imports into both and rebuilds with `graph sync`, or exits 1 with CG-GRAPH-004 when Neo4j is dead", async () => {
    const { db, url } = fixture();
    if (!url) return expect(kind).toBe("pglite"); // the CLI needs a server database to share with this test
    const cli = (args: string[], neo4jUri: string) =>
      runCli(args, {
        env: {
          DATABASE_URL: url,
          NEO4J_URI: neo4jUri,
          NEO4J_USER: testNeo4jConfig().user ?? "",
          NEO4J_PASSWORD: testNeo4jConfig().password ?? "",
          CASEGRAPH_SEED_DEMO: "never",
        },
        timeout: 180_000,
      });
    const c = bundle.cases[2];
    const scope = { tenantId: c.tenant, caseId: c.id };
    await store.writes.deleteCase(c.id);
    expect(
      await store.nodesByIds(scope, [c.nodes[0].id]).then(
        () => null,
        (e) => e.code,
      ),
    ).toBe("CG-GRAPH-005");
    const sync = await cli(["graph", "sync", "--case", c.id], TEST_NEO4J_URI);
    expect(sync.code, sync.stderr).toBe(0);
    expect(JSON.parse(sync.stdout)).toMatchObject({ ok: true, cases: [{ caseId: c.id, nodes: c.nodes.length, edges: c.edges.length }] });
    expect(await graphs(db, store, { cases: [c] })).toEqual(await graphs(db, new PrismaGraphStore(db.prisma), { cases: [c] }));

    const before = await exportWorkspace(db.prisma);
    const file = path.join(process.env.TMPDIR ?? "/tmp", `cg-import-${c.id}.json`);
    const next = structuredClone(bundle);
    next.cases[2].title = "Retitled";
    await import("node:fs/promises").then((fs) => fs.writeFile(file, JSON.stringify(next)));
    const failed = await cli(["import", file], DEAD_NEO4J_URI);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stderr)).toMatchObject({ error: { code: "CG-GRAPH-004" } });
    expect(await exportWorkspace(db.prisma)).toBe(before);
    const ok = await cli(["import", file], TEST_NEO4J_URI);
    expect(ok.code, ok.stderr).toBe(0);
    expect(await exportWorkspace(db.prisma)).not.toBe(before);
  }, 600_000); // three CLI processes, each opening PostgreSQL and Neo4j sessions on a busy 2-core machine
});
