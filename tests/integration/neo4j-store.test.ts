// The Neo4j store's own duties, on the real Neo4j: schema applied idempotently, constraints that hold, failing fast
// and coded when Neo4j is dead, refusing a case it does not hold in full, and `graph sync` rebuilding a case from
// PostgreSQL. (What it shares with the PostgreSQL store is in graph-store-contract.test.ts.)
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Neo4jGraphStore } from "@/lib/adapters/neo4j/graph-store";
import { importBundleWithGraph, syncCase } from "@/lib/adapters/neo4j/sync";
import { openDatabase, type Database } from "@/lib/adapters/prisma/db";
import { PrismaGraphStore } from "@/lib/adapters/prisma/graph-store";
import { importBundle } from "@/lib/adapters/prisma/workspace";
import { CasegraphError } from "@/lib/domain/failure-codes";
import type { CaseScope } from "@/lib/ports";
import { demoBundle } from "../support/demo";
import { DEAD_NEO4J_URI, describeNeo4j, testNeo4jStore, uniqueCaseIds } from "../support/neo4j";

const node = (id: string, name = id) => ({ id, label: "Thing", name, properties: { name }, classification: "PUBLIC", needToKnow: [] });

async function codeOf(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => null,
    (e) => e,
  );
  expect(err).toBeInstanceOf(CasegraphError);
  return (err as CasegraphError).code;
}

/** Everything a store holds for a case, read through the port (ids taken from PostgreSQL). */
async function snapshot(
  db: Database,
  store: { nodesByIds: PrismaGraphStore["nodesByIds"]; edgesByIds: PrismaGraphStore["edgesByIds"] },
  scope: CaseScope,
) {
  const nodeIds = (await db.prisma.graphNode.findMany({ where: { caseId: scope.caseId }, select: { id: true } })).map((n) => n.id);
  const edgeIds = (await db.prisma.graphEdge.findMany({ where: { caseId: scope.caseId }, select: { id: true } })).map((e) => e.id);
  return { nodes: await store.nodesByIds(scope, nodeIds), edges: await store.edgesByIds(scope, edgeIds) };
}

describe("Neo4j store on a dead Neo4j (nothing listens)", () => {
  it("fails every read with CG-GRAPH-001 in under 2 s, with no driver text, and reports it to health", async () => {
    const store = Neo4jGraphStore.connect({ uri: DEAD_NEO4J_URI }); // production timeouts
    const scope = { tenantId: "t", caseId: "c" };
    try {
      const calls: Array<[string, () => Promise<unknown>]> = [
        ["findSeedNodes", () => store.findSeedNodes(scope, { ids: ["a"], phrases: [], terms: ["x"], limit: 5 })],
        ["expand", () => store.expand(scope, ["a"], { hops: 2, maxNodes: 10, maxEdges: 10 })],
        ["nodesByIds", () => store.nodesByIds(scope, ["a"])],
        ["edgesByIds", () => store.edgesByIds(scope, ["a"])],
      ];
      for (const [name, call] of calls) {
        const started = performance.now();
        const err = await call().then(
          () => null,
          (e) => e,
        );
        const ms = performance.now() - started;
        expect(err, name).toBeInstanceOf(CasegraphError);
        expect((err as CasegraphError).code, name).toBe("CG-GRAPH-001");
        expect(JSON.stringify((err as CasegraphError).toJSON()), name).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|bolt|ServiceUnavailable/i);
        expect(ms, name).toBeLessThan(2_000);
      }
      expect(await store.ping(1_500)).toEqual({ ok: false, error: "CG-GRAPH-001" });
    } finally {
      await store.close();
    }
  });

  it("an unusable NEO4J_URI is a coded error, not a crash", () => {
    expect(() => Neo4jGraphStore.connect({ uri: "http://not-bolt" })).toThrow(CasegraphError);
  });
});

describeNeo4j("Neo4j store on the real Neo4j", () => {
  let store: Neo4jGraphStore;
  const caseIds: string[] = [];
  const scopeOf = (tag: string): CaseScope => {
    const caseId = `case-n4j-${tag}-${randomBytes(4).toString("hex")}`;
    caseIds.push(caseId);
    return { tenantId: "tenant-n4j", caseId };
  };

  beforeAll(() => {
    store = testNeo4jStore();
  });
  afterAll(async () => {
    for (const id of caseIds) await store.writes.deleteCase(id);
    await store.close();
  });

  it("applies its schema idempotently: uniqueness per case + id for nodes and edges, name and full-text indexes", async () => {
    const again = testNeo4jStore();
    try {
      await again.ensureSchema();
      await again.ensureSchema();
      const constraints = await again.conn.read((tx) => tx.run("SHOW CONSTRAINTS YIELD name, type, labelsOrTypes, properties"));
      const byName = new Map(
        constraints.records.map((r) => [r.get("name"), { type: r.get("type"), on: r.get("labelsOrTypes"), props: r.get("properties") }]),
      );
      expect(byName.get("cg_case_node_key")).toEqual({ type: "UNIQUENESS", on: ["CaseNode"], props: ["caseId", "id"] });
      expect(byName.get("cg_case_edge_key")).toEqual({ type: "RELATIONSHIP_UNIQUENESS", on: ["EDGE"], props: ["caseId", "id"] });
      expect(byName.get("cg_case_graph_key")).toEqual({ type: "UNIQUENESS", on: ["CaseGraph"], props: ["caseId"] });
      const indexes = await again.conn.read((tx) => tx.run("SHOW INDEXES YIELD name, type, state, properties"));
      const idx = new Map(
        indexes.records.map((r) => [r.get("name"), { type: r.get("type"), state: r.get("state"), props: r.get("properties") }]),
      );
      expect(idx.get("cg_case_node_text")).toEqual({ type: "FULLTEXT", state: "ONLINE", props: ["searchText", "scope"] });
      expect(idx.get("cg_case_node_name")).toEqual({ type: "RANGE", state: "ONLINE", props: ["caseId", "nameLower"] });
    } finally {
      await again.close();
    }
  });

  it("refuses a second node or edge with the same case and id (the constraint holds, the batch rolls back)", async () => {
    const scope = scopeOf("unique");
    await store.writes.beginWrite(scope);
    await store.writes.writeNodes(scope, [node("a"), node("b")], "s1", { fresh: true });
    expect(await codeOf(store.writes.writeNodes(scope, [node("c"), node("a")], "s1", { fresh: true }))).toBe("CG-GRAPH-002");
    await store.writes.writeEdges(
      scope,
      [{ id: "e", source: "a", target: "b", type: "T", properties: {}, classification: "PUBLIC", needToKnow: [] }],
      "s1",
      { fresh: true },
    );
    expect(
      await codeOf(
        store.writes.writeEdges(
          scope,
          [{ id: "e", source: "b", target: "a", type: "T", properties: {}, classification: "PUBLIC", needToKnow: [] }],
          "s1",
          { fresh: true },
        ),
      ),
    ).toBe("CG-GRAPH-002");
    // An edge to a node Neo4j does not hold is refused too, and nothing of its batch stays.
    expect(
      await codeOf(
        store.writes.writeEdges(
          scope,
          [
            { id: "e2", source: "a", target: "b", type: "T", properties: {}, classification: "PUBLIC", needToKnow: [] },
            { id: "e3", source: "a", target: "nope", type: "T", properties: {}, classification: "PUBLIC", needToKnow: [] },
          ],
          "s1",
        ),
      ),
    ).toBe("CG-GRAPH-004");
    await store.writes.markReady([scope]);
    expect((await store.nodesByIds(scope, ["a", "b", "c"])).map((n) => n.id)).toEqual(["a", "b"]);
    expect((await store.edgesByIds(scope, ["e", "e2", "e3"])).map((e) => `${e.id}:${e.source}->${e.target}`)).toEqual(["e:a->b"]);
    expect(await store.writes.counts(scope)).toEqual({ nodes: 2, edges: 1 });
  });

  it("upserts: an edge whose endpoints changed is moved, not duplicated", async () => {
    const scope = scopeOf("upsert");
    await store.writes.beginWrite(scope);
    await store.writes.writeNodes(scope, [node("a"), node("b"), node("c")], "s1");
    await store.writes.writeEdges(
      scope,
      [{ id: "e", source: "a", target: "b", type: "T", properties: { v: 1 }, classification: "PUBLIC", needToKnow: [] }],
      "s1",
    );
    await store.writes.writeNodes(scope, [{ ...node("a"), classification: "SECRET", needToKnow: ["x"] }], "s2");
    await store.writes.writeEdges(
      scope,
      [{ id: "e", source: "c", target: "a", type: "U", properties: { v: 2 }, classification: "CUI", needToKnow: [] }],
      "s2",
    );
    await store.writes.markReady([scope]);
    expect(await store.nodesByIds(scope, ["a"])).toMatchObject([{ id: "a", classification: "SECRET", needToKnow: ["x"] }]);
    expect(await store.edgesByIds(scope, ["e"])).toEqual([
      {
        id: "e",
        tenantId: scope.tenantId,
        source: "c",
        target: "a",
        type: "U",
        properties: { v: 2 },
        classification: "CUI",
        needToKnow: [],
      },
    ]);
    expect(await store.writes.counts(scope)).toEqual({ nodes: 3, edges: 1 });
  });

  it("refuses (CG-GRAPH-005) a case it never loaded, and one whose write was interrupted; serves one being written", async () => {
    const never = scopeOf("never");
    expect(await codeOf(store.findSeedNodes(never, { ids: ["a"], phrases: [], terms: [], limit: 5 }))).toBe("CG-GRAPH-005");
    expect(await codeOf(store.expand(never, ["a"], { hops: 1, maxNodes: 5, maxEdges: 5 }))).toBe("CG-GRAPH-005");
    const lenient = testNeo4jStore({ requireLoaded: false });
    try {
      expect(await lenient.findSeedNodes(never, { ids: ["a"], phrases: [], terms: [], limit: 5 })).toEqual([]);
    } finally {
      await lenient.close();
    }

    const live = scopeOf("live");
    await store.writes.beginWrite(live);
    await store.writes.writeNodes(live, [node("a")], "s");
    expect((await store.nodesByIds(live, ["a"])).map((n) => n.id)).toEqual(["a"]); // its lease is current

    const interrupted = scopeOf("interrupted");
    const shortLease = testNeo4jStore({ leaseMs: 1 });
    try {
      await shortLease.writes.beginWrite(interrupted);
      await shortLease.writes.writeNodes(interrupted, [node("a")], "s");
    } finally {
      await shortLease.close();
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(await codeOf(store.nodesByIds(interrupted, ["a"]))).toBe("CG-GRAPH-005");
    expect((await store.writes.caseStates([interrupted.caseId])).get(interrupted.caseId)).toMatchObject({ state: "writing", stale: true });
    await store.writes.markReady([interrupted]);
    expect((await store.nodesByIds(interrupted, ["a"])).map((n) => n.id)).toEqual(["a"]);
  });

  it("deletes a case completely", async () => {
    const scope = scopeOf("delete");
    await store.writes.beginWrite(scope);
    await store.writes.writeNodes(
      scope,
      Array.from({ length: 2_500 }, (_, i) => node(`n${i}`)),
      "s",
      { fresh: true },
    );
    await store.writes.writeEdges(
      scope,
      Array.from({ length: 2_400 }, (_, i) => ({
        id: `e${i}`,
        source: `n${i}`,
        target: `n${i + 1}`,
        type: "T",
        properties: {},
        classification: "PUBLIC",
        needToKnow: [],
      })),
      "s",
      { fresh: true },
    );
    await store.writes.markReady([scope]);
    expect(await store.writes.counts(scope)).toEqual({ nodes: 2_500, edges: 2_400 });
    expect(await store.writes.deleteCase(scope.caseId)).toBe(2_500);
    expect(await store.writes.counts(scope)).toEqual({ nodes: 0, edges: 0 });
    expect((await store.writes.caseStates([scope.caseId])).get(scope.caseId)?.state).toBe("missing");
  });

  describe("graph sync from PostgreSQL", () => {
    let db: Database;
    let bundle: any;
    beforeAll(async () => {
      db = await openDatabase({ dataDir: "memory://", migrate: true });
      bundle = demoBundle();
      uniqueCaseIds(bundle, "sync");
      caseIds.push(...bundle.cases.map((c: any) => c.id));
    });
    afterAll(async () => {
      await db.close();
    });

    it("loads a case imported before Neo4j was configured (refused until then)", async () => {
      await importBundle(db, bundle); // PostgreSQL only
      const c = bundle.cases[0];
      const scope = { tenantId: c.tenant, caseId: c.id };
      expect(await codeOf(store.nodesByIds(scope, ["p-dunn"]))).toBe("CG-GRAPH-005");
      const result = await syncCase(db.prisma, store, c.id);
      expect(result).toMatchObject({
        caseId: c.id,
        deleted: false,
        nodes: c.nodes.length,
        edges: c.edges.length,
        removed: { nodes: 0, edges: 0 },
      });
      expect(await snapshot(db, store, scope)).toEqual(await snapshot(db, new PrismaGraphStore(db.prisma), scope));
    });

    it("repairs a damaged graph: missing, extra and altered items come back to what PostgreSQL holds", async () => {
      const c = bundle.cases[1];
      const scope = { tenantId: c.tenant, caseId: c.id };
      await syncCase(db.prisma, store, c.id);
      const expected = await snapshot(db, new PrismaGraphStore(db.prisma), scope);
      await store.conn.write(async (tx) => {
        await tx.run("MATCH (n:CaseNode) WHERE n.caseId = $caseId AND n.id IS NOT NULL WITH n ORDER BY n.id LIMIT 3 DETACH DELETE n", {
          caseId: c.id,
        });
        await tx.run(
          "MATCH (n:CaseNode {caseId: $caseId}) WITH n ORDER BY n.id DESC LIMIT 2 SET n.classification = 'PUBLIC', n.needToKnow = []",
          { caseId: c.id },
        );
        await tx.run("CREATE (:CaseNode {caseId: $caseId, tenantId: $tenantId, id: 'stray', name: 'stray', stamp: 'old'})", {
          caseId: c.id,
          tenantId: c.tenant,
        });
      });
      expect(await snapshot(db, store, scope)).not.toEqual(expected);
      const result = await syncCase(db.prisma, store, c.id);
      expect(result.removed.nodes).toBe(1);
      expect(await snapshot(db, store, scope)).toEqual(expected);
      expect(await store.nodesByIds(scope, ["stray"])).toEqual([]);
      expect(await store.writes.counts(scope)).toEqual({ nodes: c.nodes.length, edges: c.edges.length });
    });

    it("deletes the Neo4j graph of a case PostgreSQL does not have", async () => {
      const scope = scopeOf("gone");
      await store.writes.beginWrite(scope);
      await store.writes.writeNodes(scope, [node("a")], "s");
      await store.writes.markReady([scope]);
      expect(await syncCase(db.prisma, store, scope.caseId)).toMatchObject({ deleted: true, removed: { nodes: 1 } });
      expect((await store.writes.caseStates([scope.caseId])).get(scope.caseId)?.state).toBe("missing");
    });

    it("an import mirrored into Neo4j needs no sync (nothing to add or remove)", async () => {
      const fresh = demoBundle();
      uniqueCaseIds(fresh, "mirrored");
      caseIds.push(...fresh.cases.map((c: any) => c.id));
      await importBundleWithGraph(db, fresh, store);
      for (const c of fresh.cases) {
        expect(await syncCase(db.prisma, store, c.id)).toMatchObject({
          nodes: c.nodes.length,
          edges: c.edges.length,
          removed: { nodes: 0, edges: 0 },
        });
      }
    });
  });
});
