// Import throughput into PostgreSQL: a generated case (default 20k nodes, 100k edges, 100k evidence), timed per
// kind of row from the importer's progress callback. `npm run bench -- import [--evidence N] [--nodes N] [--edges N]`.
import { parseArgs } from "node:util";
import { openDatabase } from "../lib/adapters/prisma/db";
import { importBundle } from "../lib/adapters/prisma/workspace";
import { generateBundleChunks } from "../lib/workspace/generate";
import { printTable, scratchDatabase } from "./support";

export default async function run(args: string[]) {
  const { values } = parseArgs({ args, options: { evidence: { type: "string" }, nodes: { type: "string" }, edges: { type: "string" } } });
  const nodes = Number(values.nodes ?? 20_000),
    evidence = Number(values.evidence ?? 100_000),
    edges = Number(values.edges ?? 100_000);
  console.log(`generating ${nodes} nodes, ${edges} edges, ${evidence} evidence…`);
  const bundle = JSON.parse([...generateBundleChunks({ nodes, edges, evidence, seed: 42 })].join(""));

  const scratch = await scratchDatabase("cg_bench_import");
  const db = await openDatabase({ url: scratch.url, migrate: true });
  try {
    // Progress arrives per batch in order nodes → edges → evidence; attribute elapsed time to each phase.
    const phases = { nodes: 0, edges: 0, evidence: 0 };
    let last = performance.now(),
      done = 0;
    const started = last;
    await importBundle(db, bundle, {
      onProgress: (p) => {
        const now = performance.now();
        const phase = p.done <= nodes ? "nodes" : p.done <= nodes + edges ? "edges" : "evidence";
        phases[phase] += now - last;
        last = now;
        done = p.done;
      },
    });
    const total = (performance.now() - started) / 1000;
    const rate = (n: number, ms: number) => Math.round(n / (ms / 1000));
    printTable(`import into PostgreSQL (${db.kind}), one transaction`, [
      { rows: "evidence", count: evidence, seconds: +(phases.evidence / 1000).toFixed(2), "rows/s": rate(evidence, phases.evidence) },
      { rows: "nodes", count: nodes, seconds: +(phases.nodes / 1000).toFixed(2), "rows/s": rate(nodes, phases.nodes) },
      { rows: "edges", count: edges, seconds: +(phases.edges / 1000).toFixed(2), "rows/s": rate(edges, phases.edges) },
      { rows: "all (incl. validation, commit)", count: done, seconds: +total.toFixed(2), "rows/s": Math.round(done / total) },
    ]);
    const t = performance.now();
    await importBundle(db, bundle);
    console.log(`re-import of the same bundle (no changes written): ${((performance.now() - t) / 1000).toFixed(2)} s`);
  } finally {
    await db.close();
    await scratch.drop();
  }
}
