// One contract suite for CaseGraphStore, run against every store on real servers: the PostgreSQL store on PGlite and on
// the real PostgreSQL, and the Neo4j store on the real Neo4j (fed by the same import). Each store is checked against
// the contract written out over the bundle in memory (tests/support/graph-reference.ts), and the stores against each
// other — same seeds in the same order, same subgraphs, same caps and `truncated`, same tenant/case isolation.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Neo4jGraphStore } from "@/lib/adapters/neo4j/graph-store";
import { importBundleWithGraph } from "@/lib/adapters/neo4j/sync";
import { PrismaGraphStore } from "@/lib/adapters/prisma/graph-store";
import { importBundle, nodeName } from "@/lib/adapters/prisma/workspace";
import type { CaseGraphStore, CaseScope, SeedQuery, SubgraphLimits } from "@/lib/ports";
import { prng } from "@/lib/workspace/generate";
import { describeEachDatabase } from "../support/databases";
import { demoBundle } from "../support/demo";
import { compareIds } from "@/lib/domain/graph-contract";
import { bfsDistances, referenceCases, referenceExpand, referenceSeeds, type RefCase } from "../support/graph-reference";
import { neo4jAvailable, testNeo4jStore, uniqueCaseIds } from "../support/neo4j";

/** The demo, a twin of case-harbor in the other tenant with the SAME node and edge ids, and a case of awkward text. */
function contractBundle() {
  const bundle = demoBundle();
  const harbor = bundle.cases.find((c: any) => c.id === "case-harbor");
  bundle.cases.push({
    id: "case-twin",
    tenant: "cyber-jcu",
    title: "Twin",
    description: "",
    classification: "CUI",
    members: [],
    nodes: harbor.nodes.map((n: any) => ({
      ...n,
      properties: { ...n.properties, name: `Twin ${nodeName(n.id, n.properties ?? {})}`, twin: true },
    })),
    edges: harbor.edges.map((e: any) => ({ ...e, properties: { ...(e.properties ?? {}), twin: true } })),
    evidence: [],
  });
  const node = (id: string, name: string, label = "Thing") => ({ id, label, properties: { name } });
  bundle.cases.push({
    id: "case-text",
    tenant: "metro-pd",
    title: "Text rules",
    description: "",
    classification: "PUBLIC",
    members: [],
    nodes: [
      node("x\u{1F600}", "Alpha beta"), // code point order: "x\uE000" < "x\u{1F600}" (UTF-16 order says the opposite)
      node("x\uE000", "Alpha gamma"),
      node("ist-1", "İSTANBUL Port"),
      node("n-ws", "did:ws-fin-0231 workstation"),
      node("n-mail", "contact a.b@x.com"),
      node("n-quote", "“Bayline” Freight"),
      node("n-greek", "ΟΔΟΣ"),
      node("n-long", `${"k".repeat(101)} keep`),
      node("n-inject", '\') DETACH DELETE n // title:* \\ "q"'),
      node("A", "Hub"),
      node("B", "Leaf one"),
      node("C", "Leaf two"),
    ],
    edges: [
      { id: "e\u{1F600}", source: "A", target: "C", type: "LINK" },
      { id: "e\uE000", source: "A", target: "B", type: "LINK" },
    ],
    evidence: [],
  });
  const suffix = uniqueCaseIds(bundle, "contract");
  return { bundle, suffix };
}

describeEachDatabase("CaseGraphStore contract", (fixture, kind) => {
  let bundle: any;
  let suffix: string;
  let cases: RefCase[];
  let neo4j: Neo4jGraphStore | undefined;
  const stores: Array<[string, CaseGraphStore]> = [];
  const caseOf = (name: string) => cases.find((c) => c.id === name + suffix)!;
  const scopeOf = (c: RefCase): CaseScope => ({ tenantId: c.tenantId, caseId: c.id });

  beforeAll(async () => {
    const { db } = fixture();
    ({ bundle, suffix } = contractBundle());
    cases = referenceCases(bundle);
    if (neo4jAvailable()) {
      neo4j = testNeo4jStore();
      await importBundleWithGraph(db, bundle, neo4j);
    } else {
      await importBundle(db, bundle);
    }
    stores.push([kind, new PrismaGraphStore(db.prisma)]);
    if (neo4j) stores.push(["neo4j", neo4j]);
  });

  afterAll(async () => {
    if (neo4j) {
      for (const c of bundle.cases) await neo4j.writes.deleteCase(c.id);
      await neo4j.close();
    }
  });

  it(`every store under test (${neo4jAvailable() ? "PostgreSQL and Neo4j" : "PostgreSQL only: no Neo4j reachable"}) holds each case exactly as imported, and nothing of a case under another tenant`, async () => {
    for (const [name, store] of stores) {
      for (const c of cases) {
        const outline = await store.outline(scopeOf(c), { maxNodes: 10_000, maxEdges: 10_000 });
        expect(
          outline.nodes.map((n) => n.id),
          `${name}: ${c.id}`,
        ).toEqual(c.nodes.map((n) => n.id).sort(compareIds));
        expect(
          outline.edges.map((e) => e.id),
          `${name}: ${c.id}`,
        ).toEqual(c.edges.map((e) => e.id).sort(compareIds));
        const foreign = await store.outline({ tenantId: `${c.tenantId}-other`, caseId: c.id }, { maxNodes: 10, maxEdges: 10 });
        expect([...foreign.nodes, ...foreign.edges], `${name}: ${c.id} under another tenant`).toEqual([]);
      }
    }
  });

  describe("seed nodes", () => {
    const queries = (): Array<[string, string, SeedQuery]> => [
      [
        "case-harbor",
        "ids, names and words together",
        {
          ids: ["p-dunn", "veh-tahoe", "nope"],
          phrases: ["raymond dunn", "bayline seafood co."],
          terms: ["dunn", "tahoe", "pier", "kings"],
          limit: 200,
        },
      ],
      [
        "case-harbor",
        "a node found by id and by words keeps its id match",
        { ids: ["p-dunn"], phrases: [], terms: ["dunn", "raymond"], limit: 200 },
      ],
      [
        "case-harbor",
        "the text cut keeps the highest ranks, then the lowest ids",
        { ids: [], phrases: [], terms: ["dunn", "harbor", "kings", "person"], limit: 3 },
      ],
      [
        "case-harbor",
        "limit 0 leaves only id and name matches",
        { ids: ["p-dunn"], phrases: ["victor marchetti"], terms: ["dunn"], limit: 0 },
      ],
      ["case-harbor", "nothing", { ids: [], phrases: [], terms: [], limit: 10 }],
      ["case-nightjar", "a compound identifier term", { ids: [], phrases: [], terms: ["ws-fin-0231", "phishing"], limit: 50 }],
      ["case-text", "code point order at the cut", { ids: [], phrases: [], terms: ["alpha"], limit: 1 }],
      [
        "case-text",
        "simple lower-casing, compound words, punctuation",
        {
          ids: [],
          phrases: ["i̇stanbul port", "istanbul port", "οδοσ", "οδος"],
          terms: ["istanbul", "ws-fin-0231", "x", "bayline", "com"],
          limit: 50,
        },
      ],
      ["case-text", "tokens over 100 characters are not searchable", { ids: [], phrases: [], terms: ["k".repeat(101), "keep"], limit: 50 }],
      [
        "case-text",
        "query syntax of either store is plain text",
        { ids: ["') DETACH DELETE n //"], phrases: ['"'], terms: ["detach", "title:*", "\\", '"q"', "scope:*", "OR", "*:*"], limit: 50 },
      ],
    ];

    it("match the contract: kind, rank and order, per store", async () => {
      for (const [caseName, what, q] of queries()) {
        const c = caseOf(caseName);
        const expected = referenceSeeds(c, q).map((s) => [s.node.id, s.match, s.rank]);
        for (const [name, store] of stores) {
          const got = (await store.findSeedNodes(scopeOf(c), q)).map((s) => [s.node.id, s.match, s.rank]);
          expect(got, `${name}: ${caseName}: ${what}`).toEqual(expected);
        }
      }
    });

    it("spell out the text rules on awkward names", async () => {
      const c = caseOf("case-text");
      const [, , q] = queries().find(([, what]) => what === "simple lower-casing, compound words, punctuation")!;
      for (const [name, store] of stores) {
        const got = Object.fromEntries((await store.findSeedNodes(scopeOf(c), q)).map((s) => [s.node.id, `${s.match}:${s.rank}`]));
        expect(got, name).toEqual({ "ist-1": "name:0", "n-greek": "name:0", "n-ws": "text:1", "n-mail": "text:2", "n-quote": "text:1" });
        const cut = await store.findSeedNodes(scopeOf(c), { ids: [], phrases: [], terms: ["alpha"], limit: 1 });
        expect(
          cut.map((s) => s.node.id),
          name,
        ).toEqual(["x\uE000"]);
        const injected = await store.findSeedNodes(scopeOf(c), { ids: [], phrases: [], terms: ["detach", "delete"], limit: 5 });
        expect(
          injected.map((s) => [s.node.id, s.rank]),
          name,
        ).toEqual([["n-inject", 2]]);
      }
    });

    it("come with their markings and properties", async () => {
      const c = caseOf("case-harbor");
      for (const [name, store] of stores) {
        const [seed] = await store.findSeedNodes(scopeOf(c), { ids: ["p-marchetti"], phrases: [], terms: [], limit: 1 });
        expect(seed.node, name).toEqual(c.nodes.find((n) => n.id === "p-marchetti"));
      }
    });
  });

  describe("case outline", () => {
    const strip = <T extends { properties: unknown }>({ properties: _p, ...rest }: T) => rest;
    const byId = <T extends { id: string }>(xs: readonly T[]) => [...xs].sort((a, b) => compareIds(a.id, b.id));

    it("is every node and edge of the case, without properties, in id order", async () => {
      for (const caseName of ["case-harbor", "case-nightjar", "case-ledgerline", "case-text", "case-twin"]) {
        const c = caseOf(caseName);
        const expected = { nodes: byId(c.nodes).map(strip), edges: byId(c.edges).map(strip), truncated: false };
        expect(expected.nodes.length).toBeGreaterThan(0);
        for (const [name, store] of stores) {
          expect(await store.outline(scopeOf(c), { maxNodes: 10_000, maxEdges: 10_000 }), `${name}: ${caseName}`).toEqual(expected);
        }
      }
    });

    it("stops at its caps and says so", async () => {
      const c = caseOf("case-harbor");
      for (const [name, store] of stores) {
        const cut = await store.outline(scopeOf(c), { maxNodes: 5, maxEdges: 7 });
        expect(
          cut.nodes.map((n) => n.id),
          name,
        ).toEqual(
          byId(c.nodes)
            .slice(0, 5)
            .map((n) => n.id),
        );
        expect(
          cut.edges.map((e) => e.id),
          name,
        ).toEqual(
          byId(c.edges)
            .slice(0, 7)
            .map((e) => e.id),
        );
        expect(cut.truncated, name).toBe(true);
        const exact = await store.outline(scopeOf(c), { maxNodes: c.nodes.length, maxEdges: c.edges.length });
        expect(exact.truncated, name).toBe(false);
      }
    });

    it("reads only the case under its own tenant", async () => {
      const harbor = caseOf("case-harbor");
      for (const [name, store] of stores) {
        // The twin holds the same ids in another tenant; asked under the wrong tenant a case reads as empty.
        expect(await store.outline({ tenantId: "cyber-jcu", caseId: harbor.id }, { maxNodes: 10, maxEdges: 10 }), name).toEqual({
          nodes: [],
          edges: [],
          truncated: false,
        });
        const twin = await store.outline(scopeOf(caseOf("case-twin")), { maxNodes: 10_000, maxEdges: 10_000 });
        expect(
          twin.nodes.every((n) => n.tenantId === "cyber-jcu" && n.name.startsWith("Twin ")),
          name,
        ).toBe(true);
      }
    });
  });

  describe("k-hop expansion", () => {
    function samples(): Array<{ caseName: string; seeds: string[]; limits: SubgraphLimits }> {
      const rand = prng(7);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
      const out: Array<{ caseName: string; seeds: string[]; limits: SubgraphLimits }> = [];
      for (const caseName of ["case-harbor", "case-nightjar", "case-ledgerline"]) {
        const ids = caseOf(caseName).nodes.map((n) => n.id);
        for (let i = 0; i < 14; i++) {
          const seeds = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(ids));
          out.push({
            caseName,
            seeds,
            limits: { hops: pick([0, 1, 2, 2, 3]), maxNodes: pick([1, 2, 5, 20, 50, 100, 200]), maxEdges: pick([1, 3, 10, 40, 200, 400]) },
          });
        }
      }
      out.push({ caseName: "case-harbor", seeds: ["nope", "p-dunn", "p-dunn"], limits: { hops: 2, maxNodes: 30, maxEdges: 60 } });
      out.push({ caseName: "case-harbor", seeds: [], limits: { hops: 2, maxNodes: 30, maxEdges: 60 } });
      out.push({ caseName: "case-text", seeds: ["A"], limits: { hops: 1, maxNodes: 10, maxEdges: 1 } });
      return out;
    }

    it("matches the contract for sampled seeds and limits, on every store, edge for edge", async () => {
      for (const { caseName, seeds, limits } of samples()) {
        const c = caseOf(caseName);
        const expected = referenceExpand(c, seeds, limits);
        for (const [name, store] of stores) {
          const got = await store.expand(scopeOf(c), seeds, limits);
          expect(got, `${name}: ${caseName} ${JSON.stringify(seeds)} ${JSON.stringify(limits)}`).toEqual(expected);
        }
      }
    });

    it("respects the caps and reports truncation; hops are breadth-first distances when nothing was cut", async () => {
      let truncatedSeen = 0,
        wholeSeen = 0;
      for (const { caseName, seeds, limits } of samples()) {
        const c = caseOf(caseName);
        const known = new Set(c.nodes.map((n) => n.id));
        const seedCount = new Set(seeds).size;
        for (const [name, store] of stores) {
          const g = await store.expand(scopeOf(c), seeds, limits);
          const ids = new Set(g.nodes.map((n) => n.id));
          expect(g.nodes.length, name).toBeLessThanOrEqual(Math.max(limits.maxNodes, seedCount));
          expect(g.edges.length, name).toBeLessThanOrEqual(limits.maxEdges);
          for (const n of g.nodes) expect(n.hop, name).toBeLessThanOrEqual(limits.hops);
          for (const e of g.edges) expect(ids.has(e.source) && ids.has(e.target), name).toBe(true);
          for (const s of seeds) if (known.has(s)) expect(g.nodes.find((n) => n.id === s)?.hop, name).toBe(0);
          if (!g.truncated) {
            wholeSeen++;
            // Nothing was cut: exactly the nodes within `hops` of a seed, at their BFS distance, and every edge among them.
            const dist = bfsDistances(
              c,
              seeds.filter((s) => known.has(s)),
            );
            const within = [...dist]
              .filter(([, d]) => d <= limits.hops)
              .map(([id]) => id)
              .sort();
            expect([...ids].sort(), name).toEqual(within);
            for (const n of g.nodes) expect(n.hop, name).toBe(dist.get(n.id));
            const among = c.edges
              .filter((e) => ids.has(e.source) && ids.has(e.target))
              .map((e) => e.id)
              .sort();
            expect(g.edges.map((e) => e.id).sort(), name).toEqual(among);
          } else truncatedSeen++;
        }
      }
      expect(truncatedSeen).toBeGreaterThan(0);
      expect(wholeSeen).toBeGreaterThan(0);
    });

    it("reads frontier edges in code point order of their ids", async () => {
      const c = caseOf("case-text");
      for (const [name, store] of stores) {
        const g = await store.expand(scopeOf(c), ["A"], { hops: 1, maxNodes: 10, maxEdges: 1 });
        // e\uE000 (A→B) comes before e\u{1F600} (A→C) in code point order, so the one edge read leads to B.
        expect(
          g.nodes.map((n) => `${n.id}@${n.hop}`),
          name,
        ).toEqual(["A@0", "B@1"]);
        expect(g.truncated, name).toBe(true);
      }
    });
  });

  describe("lookups by id", () => {
    it("return the case's nodes and edges with markings, in id order, ignoring unknown ids", async () => {
      for (const caseName of ["case-harbor", "case-nightjar", "case-text"]) {
        const c = caseOf(caseName);
        const nodeIds = [...c.nodes.map((n) => n.id).reverse(), "nope"];
        const edgeIds = [...c.edges.map((e) => e.id).reverse(), "nope"];
        const byId = (a: { id: string }, b: { id: string }) => Buffer.compare(Buffer.from(a.id), Buffer.from(b.id));
        for (const [name, store] of stores) {
          expect(await store.nodesByIds(scopeOf(c), nodeIds), name).toEqual([...c.nodes].sort(byId));
          expect(await store.edgesByIds(scopeOf(c), edgeIds), name).toEqual([...c.edges].sort(byId));
          expect(await store.nodesByIds(scopeOf(c), []), name).toEqual([]);
        }
      }
    });
  });

  describe("tenant and case isolation", () => {
    it("a query for a case never returns another case's node or edge, even with the same ids", async () => {
      const harbor = caseOf("case-harbor"),
        twin = caseOf("case-twin");
      const ids = harbor.nodes.map((n) => n.id);
      const everything: SeedQuery = {
        ids,
        phrases: harbor.nodes.map((n) => n.name.toLowerCase()),
        terms: ["twin", "dunn", "harbor"],
        limit: 500,
      };
      for (const [name, store] of stores) {
        for (const [c, isTwin] of [
          [harbor, false],
          [twin, true],
        ] as const) {
          const seeds = await store.findSeedNodes(scopeOf(c), everything);
          const sub = await store.expand(scopeOf(c), ids, { hops: 3, maxNodes: 500, maxEdges: 500 });
          const nodes = [...seeds.map((s) => s.node), ...sub.nodes, ...(await store.nodesByIds(scopeOf(c), ids))];
          const edges = [
            ...sub.edges,
            ...(await store.edgesByIds(
              scopeOf(c),
              harbor.edges.map((e) => e.id),
            )),
          ];
          expect(nodes.length, name).toBeGreaterThan(0);
          expect(edges.length, name).toBeGreaterThan(0);
          for (const n of nodes) {
            expect(n.tenantId, name).toBe(c.tenantId);
            expect(Boolean(n.properties.twin), name).toBe(isTwin);
          }
          for (const e of edges) {
            expect(e.tenantId, name).toBe(c.tenantId);
            expect(Boolean(e.properties.twin), name).toBe(isTwin);
          }
        }
      }
    });

    it("a case asked for under another tenant is empty", async () => {
      const harbor = caseOf("case-harbor"),
        twin = caseOf("case-twin");
      const ids = harbor.nodes.map((n) => n.id);
      for (const [name, store] of stores) {
        for (const scope of [
          { tenantId: twin.tenantId, caseId: harbor.id },
          { tenantId: harbor.tenantId, caseId: twin.id },
        ]) {
          expect(await store.findSeedNodes(scope, { ids, phrases: ["raymond dunn"], terms: ["dunn"], limit: 50 }), name).toEqual([]);
          expect(await store.expand(scope, ids, { hops: 2, maxNodes: 50, maxEdges: 50 }), name).toEqual({
            nodes: [],
            edges: [],
            truncated: false,
          });
          expect(await store.nodesByIds(scope, ids), name).toEqual([]);
          expect(
            await store.edgesByIds(
              scope,
              harbor.edges.map((e) => e.id),
            ),
            name,
          ).toEqual([]);
        }
      }
    });
  });
});
