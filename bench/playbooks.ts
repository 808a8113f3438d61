// Issue 16, "Measure it" (seed 003's success criteria), printed, never asserted:
//  1. Tokens per playbook in what the model is sent: the minimal four-field view vs the rich one with every label
//     (seed 003 "Alternative 1"), over the demo catalogue — counted with a real BPE tokenizer (gpt-tokenizer,
//     o200k_base) and with Casegraph's own estimate (characters / 4, lib/graphrag/context.ts).
//  2. Selection time on a catalogue of 10,000 playbooks: the filter and ranking in the database (one statement,
//     lib/adapters/prisma/playbook-store.ts), against loading the tenant's whole catalogue and filtering in memory.
//
//   npm run bench -- playbooks [--playbooks 10000] [--iterations 200] [--db pglite|postgresql|both]
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { encode } from "gpt-tokenizer";
import { openDatabase, type Database } from "../lib/adapters/prisma/db";
import { PrismaPlaybookCatalogue } from "../lib/adapters/prisma/playbook-store";
import { driverRunner } from "../lib/adapters/prisma/evidence-store";
import { estimateTokens } from "../lib/graphrag/context";
import { CLASSIFICATIONS, ROLES } from "../lib/domain/markings";
import {
  AUTHORITIES,
  descriptionTerms,
  heldAuthorities,
  playbookInputSchema,
  RISK_LEVELS,
  SHARED_OWNER,
  toPlaybook,
  type Playbook,
} from "../lib/playbooks/catalogue";
import { selectFromRows, type SelectionQuery, type StoredPlaybook } from "../lib/playbooks/filter";
import { modelView, richView } from "../lib/playbooks/view";
import { percentile, printTable, scratchDatabase } from "./support";

export default async function main(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      playbooks: { type: "string", default: "10000" },
      iterations: { type: "string", default: "200" },
      db: { type: "string", default: "both" },
    },
  });
  console.log(
    `machine: ${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  tokens();
  const n = Number(values.playbooks);
  const iterations = Number(values.iterations);
  const kinds = values.db === "both" ? ["pglite", "postgresql"] : [values.db!];
  const rows: Array<Record<string, string | number>> = [];
  for (const kind of kinds) {
    const opened = await open(kind);
    if (!opened) continue;
    try {
      rows.push(...(await selection(opened.db, kind, n, iterations)));
    } finally {
      await opened.dispose();
    }
  }
  printTable(`Selection on a catalogue of ${n.toLocaleString("en-US")} playbooks (${iterations} random askers and questions)`, rows);
}

// ------------------------------------------------------------------------------------------------------------ tokens

function tokens() {
  const ws = JSON.parse(readFileSync("prisma/demo/workspace.json", "utf8")) as { playbooks: unknown[] };
  const catalogue = ws.playbooks.map((p) => toPlaybook(playbookInputSchema.parse(p)));
  const minimal = modelView(catalogue.map((p) => ({ ...p, owner: "", confidence: 0.73, relevance: 0, labelMatch: 0 })));
  const rich = catalogue.map((p) => richView(p, 0.73));
  const per = (views: object[], count: (s: string) => number) => views.reduce((a, v) => a + count(JSON.stringify(v)), 0) / views.length;
  const bpe = (s: string) => encode(s).length;
  const row = (name: string, views: object[]) => ({
    schema: name,
    fields: Object.keys(views[0]).length,
    "tokens/playbook (o200k BPE)": per(views, bpe).toFixed(1),
    "tokens/playbook (chars/4)": per(views, estimateTokens).toFixed(1),
    "5 offered (o200k BPE)": bpe(JSON.stringify(views.slice(0, 5))),
  });
  const m = row("minimal (sent)", minimal);
  const r = row("rich (all labels)", rich);
  printTable(`Tokens per playbook, demo catalogue (${catalogue.length} playbooks; the description is most of it)`, [
    m,
    r,
    {
      schema: "rich − minimal",
      fields: r.fields - m.fields,
      "tokens/playbook (o200k BPE)": (Number(r["tokens/playbook (o200k BPE)"]) - Number(m["tokens/playbook (o200k BPE)"])).toFixed(1),
      "tokens/playbook (chars/4)": (Number(r["tokens/playbook (chars/4)"]) - Number(m["tokens/playbook (chars/4)"])).toFixed(1),
      "5 offered (o200k BPE)": r["5 offered (o200k BPE)"] - m["5 offered (o200k BPE)"],
    },
  ]);
}

// --------------------------------------------------------------------------------------------------------- selection

async function open(kind: string): Promise<{ db: Database; dispose(): Promise<void> } | null> {
  if (kind === "pglite") {
    const db = await openDatabase({ dataDir: "memory://", migrate: true });
    return { db, dispose: () => db.close() };
  }
  try {
    const scratch = await scratchDatabase("casegraph_bench_playbooks");
    const db = await openDatabase({ url: scratch.url, migrate: true, poolSize: 4 });
    return {
      db,
      async dispose() {
        await db.close();
        await scratch.drop();
      },
    };
  } catch (err) {
    console.warn(`PostgreSQL not reachable (${(err as Error).message}): left out`);
    return null;
  }
}

/** A small deterministic PRNG, so every run measures the same catalogue and the same askers. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = (
  "request subscriber records phone number carrier canvass location witnesses cameras preserve cctv footage bank account " +
  "statements transfers isolate host network memory disk forensics pull edr telemetry processes connections logons rotate " +
  "credentials service account registrar sinkhole domain vehicle registration plate interview photo array warrant premises " +
  "search seize cell site history tower dump email provider headers social media profile preservation letter court order"
).split(" ");
const CASE_TYPES = ["narcotics", "homicide", "intrusion", "procurement-fraud", "robbery", "cyber-extortion", "trafficking", "fraud"];
const JURISDICTIONS = ["metro-city", "state", "national", "county"];
const TAGS = ["narcotics", "homicide", "soc", "threat-intel", "financial", "informants"];

function catalogueOf(n: number): Playbook[] {
  const r = rng(16);
  const pick = <T>(list: readonly T[]) => list[Math.floor(r() * list.length)];
  const some = <T>(list: readonly T[], p: number, max: number) =>
    r() < p ? [...new Set(Array.from({ length: 1 + Math.floor(r() * max) }, () => pick(list)))].sort() : [];
  return Array.from({ length: n }, (_, i) => {
    const owner = r() < 0.7 ? "bench-a" : r() < 0.67 ? SHARED_OWNER : `bench-${1 + Math.floor(r() * 9)}`;
    return {
      id: `pb-${String(i).padStart(5, "0")}`,
      version: `${1 + Math.floor(r() * 3)}.${Math.floor(r() * 10)}`,
      description: Array.from({ length: 8 + Math.floor(r() * 8) }, () => pick(WORDS)).join(" "),
      caseTypes: some(CASE_TYPES, 0.6, 2),
      jurisdictions: some(JURISDICTIONS, 0.3, 2),
      requiredAuthority: pick(AUTHORITIES),
      minClearance: pick(CLASSIFICATIONS.slice(0, 5)),
      riskLevel: pick(RISK_LEVELS),
      tenant: owner === SHARED_OWNER ? null : owner,
      needToKnow: some(TAGS, 0.3, 2),
      active: r() < 0.92,
    };
  });
}

async function load(db: Database, catalogue: Playbook[]) {
  const join = (l: string[]) => l.join("\u001f");
  const LIST = (p: string) => `CASE WHEN ${p} = '' THEN '{}'::text[] ELSE string_to_array(${p}, chr(31)) END`;
  const col = <K extends keyof Playbook>(k: K) => catalogue.map((p) => p[k]);
  await db.transaction(async (sql) => {
    await sql.query(
      `INSERT INTO "playbook" (owner, id, version, description, terms, case_types, jurisdictions, required_authority, min_clearance,
        risk_level, need_to_know, active, updated_by)
      SELECT r.owner, r.id, r.version, r.description, ${LIST("r.terms")}, ${LIST("r.ct")}, ${LIST("r.j")}, r.a, r.c::"Classification",
        r.risk, ${LIST("r.ntk")}, r.active, 'bench'
      FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
        $10::text[], $11::text[], $12::boolean[]) AS r(owner, id, version, description, terms, ct, j, a, c, risk, ntk, active)`,
      [
        catalogue.map((p) => p.tenant ?? SHARED_OWNER),
        col("id"),
        col("version"),
        col("description"),
        catalogue.map((p) => join(descriptionTerms(p.description))),
        catalogue.map((p) => join(p.caseTypes)),
        catalogue.map((p) => join(p.jurisdictions)),
        col("requiredAuthority"),
        col("minClearance"),
        col("riskLevel"),
        catalogue.map((p) => join(p.needToKnow)),
        col("active"),
      ],
    );
    await sql.exec(`ANALYZE "playbook"`);
  });
}

function queries(count: number): SelectionQuery[] {
  const r = rng(7);
  const pick = <T>(list: readonly T[]) => list[Math.floor(r() * list.length)];
  return Array.from({ length: count }, () => {
    const roles = r() < 0.8 ? (["investigator"] as const) : (["investigator", "supervisor"] as const);
    return {
      tenantId: "bench-a",
      caseType: pick(CASE_TYPES),
      jurisdiction: pick(JURISDICTIONS),
      clearance: pick(CLASSIFICATIONS.slice(1, 5)),
      needToKnow: TAGS.filter(() => r() < 0.4),
      authorities: heldAuthorities(
        [...roles].filter((x) => (ROLES as readonly string[]).includes(x)),
        r() < 0.5 ? ["subpoena"] : [],
      ),
      riskTolerance: pick(RISK_LEVELS),
      terms: descriptionTerms(Array.from({ length: 6 }, () => pick(WORDS)).join(" ")),
      minConfidence: 0,
      maxResults: 5,
    };
  });
}

async function selection(db: Database, kind: string, n: number, iterations: number) {
  const catalogue = catalogueOf(n);
  const started = performance.now();
  await load(db, catalogue);
  const loadMs = performance.now() - started;
  // Through the driver, as the server's reads go (lib/server/answers/graphrag.ts readRunner).
  const store = new PrismaPlaybookCatalogue(driverRunner(db));
  const qs = queries(iterations);
  for (const q of qs.slice(0, 10)) await store.select(q); // warm the plan and caches
  const timesDb: number[] = [];
  const timesMemory: number[] = [];
  let allowed = 0;
  let view = 0;
  let mismatches = 0;
  for (const q of qs) {
    const t0 = performance.now();
    const s = await store.select(q);
    timesDb.push(performance.now() - t0);
    allowed += s.counts.allowed;
    view = s.counts.catalogue;
    // The rejected alternative: load the tenant's whole view of the catalogue, then filter in the process.
    const t1 = performance.now();
    const loaded = await db.prisma.playbook.findMany({ where: { owner: { in: [q.tenantId, SHARED_OWNER] } } });
    const inMemory = selectFromRows(
      loaded.map((p) => ({ ...p, minClearance: p.minClearance as string, revision: Number(p.revision) }) as StoredPlaybook),
      q,
    );
    timesMemory.push(performance.now() - t1);
    if (JSON.stringify(inMemory.candidates.map((c) => c.id)) !== JSON.stringify(s.candidates.map((c) => c.id))) mismatches++;
  }
  const stats = (t: number[]) => {
    const sorted = [...t].sort((a, b) => a - b);
    return { p50: percentile(sorted, 50).toFixed(1), p95: percentile(sorted, 95).toFixed(1) };
  };
  const d = stats(timesDb);
  const m = stats(timesMemory);
  return [
    {
      database: kind,
      how: "filter + rank in SQL (one statement)",
      "tenant's view": view,
      "allowed (avg)": Math.round(allowed / qs.length),
      "p50 ms": d.p50,
      "p95 ms": d.p95,
      "load ms": Math.round(loadMs),
      "same top 5": `${qs.length - mismatches}/${qs.length}`,
    },
    {
      database: kind,
      how: "load the view, filter in memory",
      "tenant's view": view,
      "allowed (avg)": Math.round(allowed / qs.length),
      "p50 ms": m.p50,
      "p95 ms": m.p95,
      "load ms": "",
      "same top 5": "",
    },
  ];
}
