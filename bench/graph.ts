// The case graph on Neo4j and on PostgreSQL, in the same run: a generated case (default 20k nodes, 100k edges) is
// imported once through the importer with the Neo4j mirror (PostgreSQL and Neo4j as one unit of work), then the same
// k-hop expansions and seed searches run against both stores — timed, and checked to give identical results.
//   npm run bench -- graph [--nodes N] [--edges N] [--queries N] [--hops N]
// Neo4j: BENCH_NEO4J_URI, else TEST_NEO4J_URI, else NEO4J_URI, else bolt://127.0.0.1:7687 (`npm run neo4j:local`).
import { randomBytes } from "node:crypto";
import { isDeepStrictEqual, parseArgs } from "node:util";
import { Neo4jGraphStore } from "../lib/adapters/neo4j/graph-store";
import { WRITE_LANES, importBundleWithGraph, syncCase } from "../lib/adapters/neo4j/sync";
import { openDatabase } from "../lib/adapters/prisma/db";
import { IMPORT_BATCH } from "../lib/adapters/prisma/workspace";
import { driverRunner } from "../lib/adapters/prisma/evidence-store";
import { PrismaGraphStore } from "../lib/adapters/prisma/graph-store";
import { generateBundleChunks } from "../lib/workspace/generate";
import type { CaseGraphStore, CaseScope, SeedQuery, SubgraphLimits } from "../lib/ports";
import { percentile, printTable, scratchDatabase } from "./support";

export default async function run(args: string[]) {
  const { values } = parseArgs({
    args,
    options: { nodes: { type: "string" }, edges: { type: "string" }, queries: { type: "string" }, hops: { type: "string" } },
  });
  const nodes = Number(values.nodes ?? 20_000),
    edges = Number(values.edges ?? 100_000),
    queries = Number(values.queries ?? 200);
  const hops = Number(values.hops ?? 2);
  const uri = process.env.BENCH_NEO4J_URI || process.env.TEST_NEO4J_URI || process.env.NEO4J_URI || "bolt://127.0.0.1:7687";
  const caseId = `case-bench-graph-${randomBytes(3).toString("hex")}`;
  console.log(`generating ${nodes} nodes, ${edges} edges (case ${caseId}); Neo4j at ${uri}…`);
  const bundle = JSON.parse([...generateBundleChunks({ nodes, edges, evidence: 200, seed: 42, caseId })].join(""));

  const neo4j = Neo4jGraphStore.connect({
    uri,
    user: process.env.NEO4J_USER,
    password: process.env.NEO4J_PASSWORD,
    database: process.env.NEO4J_DATABASE,
    readTimeoutMs: 30_000,
  });
  const scratch = await scratchDatabase("cg_bench_graph");
  const db = await openDatabase({ url: scratch.url, migrate: true });
  try {
    await neo4j.ensureSchema();
    let t = performance.now();
    const imported = await importBundleWithGraph(db, bundle, neo4j);
    const importSeconds = (performance.now() - t) / 1000;
    const graphRows = nodes + edges;
    t = performance.now();
    const rebuilt = await syncCase(db.prisma, neo4j, caseId);
    const syncSeconds = (performance.now() - t) / 1000;
    printTable(`import: ${nodes} nodes + ${edges} edges (+${imported.evidence} evidence), PostgreSQL and Neo4j as one unit`, [
      {
        step: "whole import (validation, PostgreSQL, Neo4j, commit)",
        seconds: +importSeconds.toFixed(2),
        "graph rows/s": Math.round(graphRows / importSeconds),
      },
      {
        step: `  of which Neo4j writes (batches of ${IMPORT_BATCH.toLocaleString("en")}, ${WRITE_LANES} concurrent transactions each)`,
        seconds: imported.graph.neo4jSeconds,
        "graph rows/s": Math.round(graphRows / imported.graph.neo4jSeconds),
      },
      {
        step: "graph sync: rebuild the case in Neo4j from PostgreSQL",
        seconds: +syncSeconds.toFixed(2),
        "graph rows/s": Math.round((rebuilt.nodes + rebuilt.edges) / syncSeconds),
      },
    ]);

    const scope: CaseScope = { tenantId: bundle.cases[0].tenant, caseId };
    const stores: Array<[string, CaseGraphStore]> = [
      ["PostgreSQL", new PrismaGraphStore(driverRunner(db))],
      ["Neo4j", neo4j],
    ];
    const ids: string[] = bundle.cases[0].nodes.map((n: { id: string }) => n.id);
    const names: string[] = bundle.cases[0].nodes.map((n: { properties: { name?: string } }) => n.properties.name ?? "");
    let seed = 7;
    const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
    // What the pipeline asks for with its defaults (50 nodes, 200 edges): twice each, to over-fetch before the policy gate.
    const limits: SubgraphLimits = { hops, maxNodes: 100, maxEdges: 400 };
    const expansions = Array.from({ length: queries }, () => Array.from({ length: 1 + Math.floor(rand() * 3) }, () => pick(ids)));
    const searches: SeedQuery[] = Array.from({ length: queries }, () => {
      const words = pick(names).toLowerCase().split(/\s+/).filter(Boolean);
      return {
        ids: [pick(ids)],
        phrases: [words.join(" ")],
        terms: [...words, pick(["meeting", "phone", "harbor", "person"])],
        limit: 200,
      };
    });

    const rows: Array<Record<string, string | number>> = [];
    const results = new Map<string, unknown[]>();
    for (const [kind, work] of [
      ["k-hop expand", expansions],
      ["seed search", searches],
    ] as const) {
      for (const [name, store] of stores) {
        const run = (i: number) =>
          kind === "k-hop expand" ? store.expand(scope, expansions[i], limits) : store.findSeedNodes(scope, searches[i]);
        for (let i = 0; i < Math.min(20, work.length); i++) await run(i); // warm-up
        const times: number[] = [];
        const out: unknown[] = [];
        for (let i = 0; i < work.length; i++) {
          const s = performance.now();
          out.push(await run(i));
          times.push(performance.now() - s);
        }
        results.set(`${kind}/${name}`, out);
        times.sort((a, b) => a - b);
        const sizes = out.map((r) => ("nodes" in (r as object) ? (r as { nodes: unknown[] }).nodes.length : (r as unknown[]).length));
        rows.push({
          query: kind,
          store: name,
          n: work.length,
          "p50 ms": +percentile(times, 50).toFixed(2),
          "p95 ms": +percentile(times, 95).toFixed(2),
          "max ms": +times[times.length - 1].toFixed(2),
          "avg result": Math.round(sizes.reduce((a, b) => a + b, 0) / sizes.length),
        });
      }
    }
    printTable(`retrieval on ${nodes} nodes / ${edges} edges (${hops} hops, ≤ ${limits.maxNodes} nodes, ≤ ${limits.maxEdges} edges)`, rows);
    for (const kind of ["k-hop expand", "seed search"]) {
      const a = results.get(`${kind}/PostgreSQL`)!,
        b = results.get(`${kind}/Neo4j`)!;
      const same = a.filter((x, i) => isDeepStrictEqual(x, b[i])).length;
      console.log(`${kind}: identical results on both stores for ${same}/${a.length} queries`);
    }
  } finally {
    await neo4j.writes.deleteCase(caseId).catch(() => {});
    await neo4j.close();
    await db.close();
    await scratch.drop();
  }
}
