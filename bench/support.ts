import { readFileSync } from "node:fs";
import { neutralise } from "../lib/graphrag/context";
import type { RawContext } from "../lib/graphrag/types";
// Shared bench plumbing: a scratch PostgreSQL database per run, and percentile/table printing.
import pg from "pg";

export const BENCH_ADMIN_URL =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export async function scratchDatabase(name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = new pg.Client({ connectionString: BENCH_ADMIN_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const u = new URL(BENCH_ADMIN_URL);
  u.pathname = "/" + name;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: BENCH_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export function printTable(title: string, rows: Array<Record<string, string | number>>) {
  console.log(`\n${title}`);
  console.table(rows);
}

/** A demo workspace case as the bundle holds it. */
export interface DemoCase {
  id: string;
  nodes: Array<{ id: string; label: string; properties: Record<string, unknown> }>;
  edges: Array<{ id?: string; source: string; target: string; type: string; properties?: Record<string, unknown> }>;
  evidence: Array<{ id: string; type: string; content: string; sourceSystem: string; collectedAt: string; nodes: string[] }>;
}

/**
 * A case's first `snippets` evidence items as the model sees them (neutralised), their linked nodes and the edges among
 * those: the context the answer-side benches time their checks on.
 */
export function demoContext(caseId: string, snippets = 20): { demo: DemoCase; context: RawContext } {
  const bundle = JSON.parse(readFileSync("prisma/demo/workspace.json", "utf8")) as { cases: DemoCase[] };
  const demo = bundle.cases.find((x) => x.id === caseId)!;
  const evidence = demo.evidence.slice(0, snippets).map((e) => ({
    id: e.id,
    type: e.type,
    sourceSystem: e.sourceSystem,
    collectedAt: e.collectedAt,
    nodeIds: [...e.nodes].sort(),
    text: neutralise(e.content).text,
  }));
  const linked = new Set(evidence.flatMap((e) => e.nodeIds));
  const nodes = demo.nodes
    .filter((n) => linked.has(n.id))
    .map((n) => ({
      id: n.id,
      label: n.label,
      name: String(n.properties.name ?? n.id),
      properties: n.properties as Record<string, string>,
    }));
  const edges = demo.edges
    .filter((e) => linked.has(e.source) && linked.has(e.target))
    .map((e) => ({ id: e.id ?? `${e.source}:${e.type}:${e.target}`, source: e.source, type: e.type, target: e.target, properties: {} }));
  return { demo, context: { nodes, edges, evidenceSnippets: evidence } };
}
