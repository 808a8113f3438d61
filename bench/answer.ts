// The answer pipeline's own time (access + retrieval + policy filter + context + validation + audit) on a generated
// case in PostgreSQL, with a zero-latency model, at 1 and at 20 concurrent askers — and, in the same run, the same
// retrieval written the naive way (to_tsvector per row + ILIKE). Figures are printed, never asserted.
//
//   npm run bench -- answer [--asks 200] [--concurrent-asks 400] [--naive-asks 10] [--naive-concurrent-asks 40]
//                           [--nodes 20000] [--evidence 100000]
//
// Database: DATABASE_URL when set (e.g. postgresql://postgres@127.0.0.1:5432/cg_bench_answer), else the database
// `cg_bench_answer` on BENCH_DATABASE_URL/TEST_DATABASE_URL's server, created if missing and kept between runs (the
// generated case is imported once: 20k nodes, 30k edges, 100k evidence).
import { loadavg, cpus } from "node:os";
import { parseArgs } from "node:util";
import pg from "pg";
import { Prisma } from "../lib/generated/prisma/client";
import { migratePostgres, openDatabase, type Database } from "../lib/adapters/prisma/db";
import {
  PrismaEvidenceStore,
  evidenceFromRow,
  evidenceSearchSql,
  planSearch,
  poolRunner,
  type EvidenceRow,
  type SqlRunner,
} from "../lib/adapters/prisma/evidence-store";
import { PrismaGraphStore } from "../lib/adapters/prisma/graph-store";
import { PrismaLedger } from "../lib/adapters/prisma/ledger";
import { importBundle } from "../lib/adapters/prisma/workspace";
import { loadActor } from "../lib/auth/actor";
import { answerQuestion, type AnswerDeps } from "../lib/graphrag/answer";
import { splitSentences } from "../lib/graphrag/text";
import type { RawContext } from "../lib/graphrag/types";
import type {
  AnswerModel,
  AnswerModelRequest,
  CaseGraphStore,
  CaseScope,
  EvidenceReadOptions,
  EvidenceStore,
  Ledger,
  SeedCandidate,
  SeedQuery,
} from "../lib/ports";
import { prismaCaseAccess } from "../lib/server/answers/graphrag";
import { caseDisclosure } from "../lib/server/access/disclosure";
import { generateBundleChunks } from "../lib/workspace/generate";
import { BENCH_ADMIN_URL, percentile, printTable } from "./support";

const CASE_ID = "case-gen-1";
const USER = "gen.analyst@gen.example";

/** Answers instantly with a valid, cited answer built from what it was shown: the model costs nothing. */
class ZeroLatencyModel implements AnswerModel {
  readonly provider = "bench";
  readonly modelId = "zero-latency";
  async generate(req: AnswerModelRequest) {
    const ctx = req.context as RawContext;
    const s = ctx.evidenceSnippets.slice(0, 3);
    return {
      text: JSON.stringify({
        responseType: s.length ? "answer" : "no_evidence",
        // Each snippet's first sentence, quoted: claims its evidence supports, as a real answer's would be.
        answerText: s.map((x) => `${splitSentences(x.text)[0].replace(/[.!?]+$/, "")} [evidence: ${x.id}].`).join(" "),
        citations: s.map((x, i) => ({ evidenceId: x.id, claimId: `CLM-${i + 1}` })),
        explanationSteps: s.map((x, i) => ({
          stepNumber: i + 1,
          claim: `${x.id} states: ${splitSentences(x.text)[0]}`,
          citations: [x.id, ...x.nodeIds.slice(0, 2)],
        })),
        unknowns: [],
        confidence: 0.7,
        confidenceJustification: "bench",
      }),
    };
  }
  async probe() {
    return { provider: this.provider, id: this.modelId, ok: true };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The naive retrieval shape: tsvector computed per row at query time, node names matched with ILIKE '%term%'.

class NaiveEvidenceStore implements EvidenceStore {
  constructor(
    private readonly db: SqlRunner,
    private readonly real: EvidenceStore,
  ) {}
  async search(scope: CaseScope, q: { terms: string[]; limit: number }) {
    const text = q.terms.join(" or ");
    const rows = await this.db.rows<EvidenceRow>(Prisma.sql`
      SELECT e.id, e.tenant_id, e.type, e.content, e.source_system, e.classification::text AS classification, e.need_to_know,
             l.allows::text[] AS license_uses, e.collected_at, e.node_ids, e.metadata,
             ts_rank(to_tsvector('english', e.content), websearch_to_tsquery('english', ${text}))::float8 AS rank
      FROM "evidence" e LEFT JOIN "license" l ON l.id = e.license_id
      WHERE e.case_id = ${scope.caseId} AND to_tsvector('english', e.content) @@ websearch_to_tsquery('english', ${text})
      ORDER BY rank DESC, e.id LIMIT ${q.limit}`);
    return rows.map((r) => ({ ...evidenceFromRow(r), rank: Number(r.rank) }));
  }
  linkedTo(scope: CaseScope, ids: readonly string[], limit: number, options?: EvidenceReadOptions) {
    return this.real.linkedTo(scope, ids, limit, options);
  }
  byIds(scope: CaseScope, ids: readonly string[], options?: EvidenceReadOptions) {
    return this.real.byIds(scope, ids, options);
  }
}

class NaiveGraphStore implements CaseGraphStore {
  constructor(
    private readonly db: SqlRunner,
    private readonly real: CaseGraphStore,
  ) {}
  async findSeedNodes(scope: CaseScope, q: SeedQuery): Promise<SeedCandidate[]> {
    const exact = await this.real.findSeedNodes(scope, { ...q, terms: [] });
    if (!q.terms.length) return exact;
    const likes = Prisma.join(
      q.terms.map((t) => Prisma.sql`n.name ILIKE ${"%" + t + "%"} OR n.id ILIKE ${"%" + t + "%"}`),
      " OR ",
    );
    const rows = await this.db.rows<{ id: string }>(Prisma.sql`
      SELECT n.id FROM "graph_node" n WHERE n.case_id = ${scope.caseId} AND n.tenant_id = ${scope.tenantId} AND (${likes})
      ORDER BY n.id LIMIT ${q.limit}`);
    const nodes = await this.real.nodesByIds(
      scope,
      rows.map((r) => r.id),
    );
    return [
      ...exact,
      ...nodes.filter((n) => !exact.some((e) => e.node.id === n.id)).map((node) => ({ node, match: "text" as const, rank: 0.1 })),
    ];
  }
  outline(...a: Parameters<CaseGraphStore["outline"]>) {
    return this.real.outline(...a);
  }
  expand(...a: Parameters<CaseGraphStore["expand"]>) {
    return this.real.expand(...a);
  }
  nodesByIds(...a: Parameters<CaseGraphStore["nodesByIds"]>) {
    return this.real.nodesByIds(...a);
  }
  edgesByIds(...a: Parameters<CaseGraphStore["edgesByIds"]>) {
    return this.real.edgesByIds(...a);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Timing: where an ask's time goes, from the pipeline's own progress events (one asker, so nothing overlaps).

const PHASES = ["input + access", "retrieval + policy filter", "context", "model", "validation + audit"] as const;

class PhaseClock {
  totals = new Map<string, number>(PHASES.map((p) => [p, 0]));
  private marks: number[] = [];
  start() {
    this.marks = [performance.now()];
  }
  mark() {
    this.marks.push(performance.now());
  }
  end() {
    this.marks.push(performance.now());
    // marks: start, retrieving, filtering, asking_model, validating, end
    if (this.marks.length !== 6) return;
    PHASES.forEach((p, i) => this.totals.set(p, this.totals.get(p)! + this.marks[i + 1] - this.marks[i]));
  }
}

async function benchDatabaseUrl(): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  const admin = new pg.Client({ connectionString: BENCH_ADMIN_URL });
  await admin.connect();
  const { rows } = await admin.query("SELECT 1 FROM pg_database WHERE datname = 'cg_bench_answer'");
  if (!rows.length) await admin.query('CREATE DATABASE "cg_bench_answer"');
  await admin.end();
  const u = new URL(BENCH_ADMIN_URL);
  u.pathname = "/cg_bench_answer";
  return u.toString();
}

async function ensureCase(db: Database, nodes: number, evidence: number) {
  const [{ n }] = await db.prisma.$queryRaw<Array<{ n: bigint }>>`SELECT count(*) AS n FROM "evidence" WHERE case_id = ${CASE_ID}`;
  if (Number(n) >= evidence) return;
  console.log(`importing a generated case: ${nodes} nodes, ${evidence} evidence…`);
  const t = performance.now();
  await importBundle(db, JSON.parse([...generateBundleChunks({ nodes, evidence, seed: 1, caseId: CASE_ID })].join("")));
  console.log(`  imported in ${((performance.now() - t) / 1000).toFixed(1)} s; VACUUM ANALYZE…`);
  await db.prisma.$executeRawUnsafe(`VACUUM ANALYZE "evidence", "graph_node", "graph_edge"`);
}

/** Investigator-style questions built from the case's own entities (deterministic). */
async function questions(db: Database): Promise<string[]> {
  const pick = async (label: string) =>
    (
      await db.prisma.$queryRaw<
        Array<{ name: string }>
      >`SELECT name FROM "graph_node" WHERE case_id = ${CASE_ID} AND label = ${label} ORDER BY id LIMIT 400`
    ).map((r) => r.name);
  const [people, places, vehicles] = await Promise.all([pick("Person"), pick("Location"), pick("Vehicle")]);
  const out: string[] = [];
  for (let i = 0; i < 40; i++) {
    const p = people[(i * 37) % people.length],
      p2 = people[(i * 53 + 11) % people.length];
    const l = places[(i * 29) % places.length],
      v = vehicles[(i * 31) % vehicles.length];
    out.push(
      [
        `What do we know about ${p}?`,
        `Who met ${p} near ${l}?`,
        `Where was the ${v} seen?`,
        `Did ${p} call ${p2}, and when?`,
        `How much money did ${p} transfer to ${p2}?`,
        `What did the lab find in connection with ${p}?`,
        `Who was present at ${l} when the unit stopped there?`,
        `Was a package exchanged between ${p} and ${p2}?`,
      ][i % 8],
    );
  }
  return out;
}

interface RunResult {
  latencies: number[];
  wallMs: number;
  errors: number;
}

async function run(
  deps: AnswerDeps,
  asker: Awaited<ReturnType<typeof loadActor>>,
  qs: string[],
  concurrency: number,
  asks: number,
  clock?: PhaseClock,
): Promise<RunResult> {
  const latencies: number[] = [];
  let next = 0,
    errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const i = next++;
        if (i >= asks) return;
        const t = performance.now();
        clock?.start();
        const seen = new Set<string>();
        const out = await answerQuestion(
          deps,
          asker,
          { caseId: CASE_ID, question: qs[i % qs.length] },
          {
            onProgress: clock
              ? (e) => {
                  if (seen.has(e.stage)) return; // output-progress repeats "asking_model"
                  seen.add(e.stage);
                  clock.mark();
                }
              : undefined,
          },
        );
        latencies.push(performance.now() - t);
        clock?.end();
        if (!out.ok) errors++;
      }
    }),
  );
  return { latencies, wallMs: performance.now() - started, errors };
}

function row(shape: string, concurrency: number, r: RunResult) {
  const s = [...r.latencies].sort((a, b) => a - b);
  return {
    retrieval: shape,
    askers: concurrency,
    asks: s.length,
    "p50 ms": +percentile(s, 50).toFixed(1),
    "p95 ms": +percentile(s, 95).toFixed(1),
    "mean ms": +(s.reduce((a, b) => a + b, 0) / s.length).toFixed(1),
    "asks/s": +((s.length / r.wallMs) * 1000).toFixed(1),
    errors: r.errors,
  };
}

export default async function bench(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      asks: { type: "string" },
      "concurrent-asks": { type: "string" },
      "naive-asks": { type: "string" },
      "naive-concurrent-asks": { type: "string" },
      nodes: { type: "string" },
      evidence: { type: "string" },
    },
  });
  const n = (v: string | undefined, d: number) => (v ? Number(v) : d);
  const url = await benchDatabaseUrl();
  await migratePostgres(url);
  const db = await openDatabase({ url, poolSize: 24 });
  try {
    await ensureCase(db, n(values.nodes, 20_000), n(values.evidence, 100_000));
    const counts = await db.prisma.$queryRaw<Array<{ nodes: bigint; edges: bigint; evidence: bigint }>>`
      SELECT (SELECT count(*) FROM graph_node WHERE case_id = ${CASE_ID}) AS nodes, (SELECT count(*) FROM graph_edge WHERE case_id = ${CASE_ID}) AS edges,
             (SELECT count(*) FROM evidence WHERE case_id = ${CASE_ID}) AS evidence`;
    const asker = await loadActor(db.prisma, { email: USER }, "cli");
    const qs = await questions(db);
    // As the server runs on PostgreSQL: retrieval reads through a pool of their own (lib/server/answers/graphrag.ts readRunner).
    const reads = poolRunner(url, 24);
    const runner: SqlRunner = reads;
    const ledger: Ledger = new PrismaLedger(db.prisma);
    const realEvidence = new PrismaEvidenceStore(runner);
    const realGraph = new PrismaGraphStore(runner);
    const base = (): AnswerDeps => ({
      access: prismaCaseAccess(db.prisma),
      disclosure: caseDisclosure(db.prisma, realGraph),
      graph: realGraph,
      evidence: realEvidence,
      model: new ZeroLatencyModel(),
      ledger,
      auditQueryMode: "text",
    });
    const naive = (): AnswerDeps => ({
      ...base(),
      graph: new NaiveGraphStore(runner, realGraph),
      evidence: new NaiveEvidenceStore(runner, realEvidence),
    });

    const [version] = await db.prisma.$queryRaw<Array<{ v: string }>>`SELECT current_setting('server_version') AS v`;
    console.log(
      `PostgreSQL ${version.v}; case ${CASE_ID}: ${counts[0].nodes} nodes, ${counts[0].edges} edges, ${counts[0].evidence} evidence; ` +
        `${qs.length} questions; Node ${process.version}; ${cpus().length} cores; load average ${loadavg()
          .map((x) => x.toFixed(2))
          .join(" ")}`,
    );
    const searchPlan = await planSearch(runner, "evidence", "english", ["amara", "brandt", "transfer"]);
    const plan = (
      await db.prisma.$queryRaw<Array<Record<string, string>>>(
        Prisma.sql`EXPLAIN ${evidenceSearchSql({ tenantId: asker.tenantId, caseId: CASE_ID }, searchPlan, 60)}`,
      )
    )
      .map((r) => Object.values(r)[0])
      .filter((l) => /Index Scan|Seq Scan on evidence/.test(l))
      .map((l) => l.trim().replace(/\s+\(cost.*$/, ""));
    console.log(`evidence search plan: ${[...new Set(plan)].join("; ")}`);

    // Warm-up: connections, catalog caches, the stemmer.
    await run(base(), asker, qs, 4, 40);

    // One asker, with the phases timed from the pipeline's progress events, and the ledger append on its own.
    const clock = new PhaseClock();
    let ledgerMs = 0;
    const timedLedger: Ledger = {
      append: async (e) => {
        const t = performance.now();
        try {
          return await ledger.append(e);
        } finally {
          ledgerMs += performance.now() - t;
        }
      },
      verify: () => ledger.verify(),
    };
    const one = await run({ ...base(), ledger: timedLedger }, asker, qs, 1, n(values.asks, 200), clock);
    const total = one.latencies.reduce((a, b) => a + b, 0);
    const perAsk = (ms: number) => +(ms / one.latencies.length).toFixed(2);
    const stageRows = [...clock.totals].map(([phase, ms]) => ({
      phase,
      "mean ms per ask": perAsk(ms),
      share: `${((ms / total) * 100).toFixed(0)}%`,
    }));
    stageRows.push({
      phase: "  of which the ledger append",
      "mean ms per ask": perAsk(ledgerMs),
      share: `${((ledgerMs / total) * 100).toFixed(0)}%`,
    });

    const twenty = await run(base(), asker, qs, 20, n(values["concurrent-asks"], 400));
    const naiveOne = await run(naive(), asker, qs, 1, n(values["naive-asks"], 10));
    const naiveTwenty = await run(naive(), asker, qs, 20, n(values["naive-concurrent-asks"], 40));

    printTable("answer pipeline without the model (zero-latency model), generated case in PostgreSQL", [
      row("stored tsvector + GIN (the product)", 1, one),
      row("stored tsvector + GIN (the product)", 20, twenty),
      row("naive: to_tsvector per row + ILIKE", 1, naiveOne),
      row("naive: to_tsvector per row + ILIKE", 20, naiveTwenty),
    ]);
    const p95 = (r: RunResult) =>
      percentile(
        [...r.latencies].sort((a, b) => a - b),
        95,
      );
    const p50 = (r: RunResult) =>
      percentile(
        [...r.latencies].sort((a, b) => a - b),
        50,
      );
    console.log(
      `naive / product: p50 ×${(p50(naiveOne) / p50(one)).toFixed(1)} at 1 asker, p95 ×${(p95(naiveTwenty) / p95(twenty)).toFixed(1)} at 20 askers`,
    );
    printTable("where one ask's time goes (1 asker, from the pipeline's progress events)", stageRows);
    const verify = await ledger.verify();
    console.log(
      `ledger after the run: ${verify.size} entries, chain ${verify.ok ? "verifies" : "BROKEN at " + JSON.stringify(verify.firstBad)}; load average now ${loadavg()
        .map((x) => x.toFixed(2))
        .join(" ")}`,
    );
    await reads.end();
  } finally {
    await db.close();
  }
}
