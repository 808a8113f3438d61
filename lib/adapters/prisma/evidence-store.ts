// EvidenceStore on PostgreSQL/PGlite. Full-text search reads the stored `search` tsvector through its GIN index
// (plainto_tsquery per question word, OR-ed, ts_rank on the stored column): nothing calls to_tsvector per row at query
// time and nothing scans with ILIKE. Ranking runs over a bounded candidate set; the wide columns are fetched for the
// top rows afterwards. Items come back with their markings; visibility is decided by the pipeline's policy gate.
import "server-only";
import pg from "pg";
import type { PrismaClient } from "../../generated/prisma/client";
import { Prisma } from "../../generated/prisma/client";
import type { Database } from "./db";
import { failingAs } from "../../domain/failure-codes";
import { expiredAtColumn, lifecycleSql } from "./evidence-active";
import { propertiesObject } from "../../domain/graph-contract";
import { CLASSIFICATIONS, readLicenseUses, readRowMarking } from "../../domain/markings";
import type {
  CaseScope,
  EvidenceLifecycle,
  EvidenceReadOptions,
  EvidenceRecord,
  EvidenceSearch,
  EvidenceStore,
  MarkingAudit,
  UnreadableMarkings,
} from "../../ports";

/** An evidence row as the evidence queries select it. */
export interface EvidenceRow {
  id: string;
  tenant_id: string;
  type: string;
  content: string;
  source_system: string;
  classification: string;
  need_to_know: string[];
  license_uses: string[] | null;
  collected_at: Date | string;
  node_ids: string[];
  metadata: unknown;
  rank?: number | string;
  /** Only in reads that admit expired items. */
  expired_at?: Date | string | null;
}

const COLUMNS = Prisma.sql`e.id, e.tenant_id, e.type, e.content, e.source_system, e.classification::text AS classification,
  e.need_to_know, l.allows::text[] AS license_uses, e.collected_at, e.node_ids, e.metadata`;

// Ranked full-text search with bounded work (the one-statement form, planning inside SQL; the evidence search plans in
// the process instead — see planSearch below). ts_rank has to read every candidate row, so ranking "every row that
// shares a word with the question" costs as much as the commonest word in it (a fifth of the table for "call" or
// "meeting"). Candidates therefore come from the question's rarer words — rarity read from PostgreSQL's own
// statistics on the stored tsvector (pg_stats.most_common_elems; no statistics → every word counts as rare) — and are
// then ranked by all of the words. When every word is common, candidates are the rows holding the two rarest together,
// topped up from any word if that finds too few. Each stage is capped. Every stage is a `@@` match on the stored column
// (its GIN index); nothing computes a tsvector per row.

/** A word found in more rows than this (table-wide estimate) does not generate candidates on its own. */
export const RARE_DOCS = 2_000;
const CANDIDATE_CAP = 3_000;
/** Caps for the tiers made of common words, whose rows mostly rank low anyway. */
const COMMON_CAP = 500;
const FILL_CAP = 200;

/** Search terms: printable, bounded, deduplicated (plainto_tsquery never raises on any text). */
export function cleanTerms(terms: readonly string[]): string[] {
  return [
    ...new Set(
      terms
        .map((t) =>
          t
            .replace(/[\u0000-\u001f\u007f]/g, " ")
            .trim()
            .slice(0, 100),
        )
        .filter(Boolean),
    ),
  ].slice(0, 32);
}

/**
 * How the stores run their reads. On the hot path they go to the driver (one statement in a short transaction through
 * `Database.transaction`), which costs a fraction of a Prisma `$queryRaw` round trip; a PrismaClient also works.
 */
export interface SqlRunner {
  rows<T>(query: Prisma.Sql): Promise<T[]>;
}

const runners = new WeakMap<object, SqlRunner>();

/** One runner per database, so caches keyed by the runner (search planning) live as long as the database. */
export function driverRunner(db: Pick<Database, "transaction">): SqlRunner {
  let r = runners.get(db);
  if (!r) {
    r = { rows: async <T>(q: Prisma.Sql) => (await db.transaction((s) => s.query<T>(q.text, q.values as unknown[]))).rows };
    runners.set(db, r);
  }
  return r;
}

/**
 * Reads through a pool of their own: one round trip per statement (no BEGIN/COMMIT around it). For PostgreSQL; the
 * pool lives as long as the process and tolerates dropped idle connections.
 */
export function poolRunner(connectionString: string, max: number): SqlRunner & { end(): Promise<void> } {
  const pool = new pg.Pool({ connectionString, max, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 30_000, allowExitOnIdle: true });
  pool.on("error", () => {}); // An idle client dropped by the server must not crash the process; queries report it.
  return {
    rows: async <T>(q: Prisma.Sql) => (await pool.query(q.text, q.values as unknown[])).rows as T[],
    end: () => pool.end(),
  };
}

export function prismaRunner(prisma: PrismaClient): SqlRunner {
  return { rows: <T>(q: Prisma.Sql) => prisma.$queryRaw<T[]>(q) };
}

export const asRunner = (source: PrismaClient | SqlRunner): SqlRunner => ("rows" in source ? source : prismaRunner(source));

// ---------------------------------------------------------------------------------------------------------------
// Search planning, done in the process so the statement PostgreSQL plans is simple and its tsquery a constant (good
// selectivity estimates, cheap planning): each question word's tsquery comes from PostgreSQL itself (plainto_tsquery,
// cached per word — the stemmer never changes), and each word's frequency from the planner statistics of the stored
// column (pg_stats.most_common_elems, cached for a minute per table; without statistics every word counts as rare).
// Rare words generate candidates first; all words rank them.

export interface SearchPlan {
  /** All words OR-ed: what ranks the candidates. Null when no word has a lexeme (all stop words). */
  anyQ: string | null;
  /** Tier 1 candidates: the rare words OR-ed (null when every word is common). */
  rareQ: string | null;
  /** Tier 2, when tier 1 finds too few: the two rarest common words AND-ed (null when no word is common). */
  commonQ: string | null;
}

interface Stats {
  at: number;
  rows: number;
  freq: Map<string, number>;
}

interface PlanCache {
  lexemes: Map<string, string>;
  stats: Map<string, Promise<Stats>>;
}

const STATS_TTL_MS = 60_000;
const LEXEME_CACHE_MAX = 100_000;
const planCaches = new WeakMap<SqlRunner, PlanCache>();

function cacheOf(db: SqlRunner): PlanCache {
  let c = planCaches.get(db);
  if (!c) planCaches.set(db, (c = { lexemes: new Map(), stats: new Map() }));
  return c;
}

async function lexemesOf(db: SqlRunner, config: "english" | "simple", words: readonly string[]): Promise<string[]> {
  const cache = cacheOf(db).lexemes;
  const missing = [...new Set(words.filter((w) => !cache.has(`${config}:${w}`)))];
  if (missing.length) {
    if (cache.size > LEXEME_CACHE_MAX) cache.clear();
    const rows = await db.rows<{ w: string; q: string }>(Prisma.sql`
      SELECT w, plainto_tsquery(${Prisma.raw(`'${config}'::regconfig`)}, w)::text AS q FROM unnest(${missing}::text[]) AS w`);
    for (const r of rows) cache.set(`${config}:${r.w}`, r.q ?? "");
  }
  return words.map((w) => cache.get(`${config}:${w}`) ?? "");
}

function statsOf(db: SqlRunner, table: "evidence" | "graph_node"): Promise<Stats> {
  const cache = cacheOf(db).stats;
  const hit = cache.get(table);
  const fresh = async (): Promise<Stats> => {
    const rows = await db.rows<{ elems: string[] | null; freqs: number[] | null; reltuples: number | null }>(Prisma.sql`
      SELECT s.most_common_elems::text::text[] AS elems, s.most_common_elem_freqs::float8[] AS freqs,
             (SELECT c.reltuples::float8 FROM pg_class c WHERE c.oid = ${table}::regclass) AS reltuples
      FROM pg_stats s
      WHERE s.schemaname = current_schema() AND s.tablename = ${table} AND s.attname = 'search'`);
    const freq = new Map<string, number>();
    const r = rows[0];
    if (r?.elems && r.freqs) r.elems.forEach((e, i) => freq.set(e, Number(r.freqs![i] ?? 0)));
    return { at: Date.now(), rows: Math.max(0, Number(r?.reltuples ?? 0)), freq };
  };
  if (hit) {
    return hit.then((s) => {
      if (Date.now() - s.at < STATS_TTL_MS) return s;
      const next = fresh();
      cache.set(table, next);
      next.catch(() => cache.delete(table));
      return next;
    });
  }
  const next = fresh();
  cache.set(table, next);
  next.catch(() => cache.delete(table));
  return next;
}

export async function planSearch(
  db: SqlRunner,
  table: "evidence" | "graph_node",
  config: "english" | "simple",
  words: readonly string[],
): Promise<SearchPlan> {
  const [queries, stats] = await Promise.all([lexemesOf(db, config, words), statsOf(db, table)]);
  const distinct = [...new Set(queries.filter(Boolean))];
  if (!distinct.length) return { anyQ: null, rareQ: null, commonQ: null };
  // A one-lexeme query prints as 'word'; compound ones ('ws-fin' & 'ws' & …) are specific enough to count as rare.
  const docs = (q: string) => {
    const m = /^'((?:[^']|'')*)'$/.exec(q);
    return m ? (stats.freq.get(m[1].replace(/''/g, "'")) ?? 0) * stats.rows : 0;
  };
  const or = (qs: string[]) => qs.map((q) => `(${q})`).join(" | ");
  const rare = distinct.filter((q) => docs(q) < RARE_DOCS);
  const common = distinct.filter((q) => docs(q) >= RARE_DOCS).sort((a, b) => docs(a) - docs(b) || (a < b ? -1 : 1));
  return {
    anyQ: or(distinct),
    rareQ: rare.length ? or(rare) : null,
    commonQ: common.length
      ? common
          .slice(0, 2)
          .map((q) => `(${q})`)
          .join(" & ")
      : null,
  };
}

/**
 * Ranked matches for a plan, as (id, rank) rows: up to three candidate tiers, each capped, each run only when the tiers
 * before found fewer rows than asked for — rows with a rare word; rows with the two rarest common words together; rows
 * with any word — all ranked by all words. `scope` filters the table (alias t).
 */
export function tieredMatchesSql(table: "evidence" | "graph_node", scope: Prisma.Sql, plan: SearchPlan, limit: number): Prisma.Sql {
  const tbl = Prisma.raw(`"${table}"`);
  const tiers: Prisma.Sql[] = [];
  const names: string[] = [];
  const tier = (q: string, cap: number) => {
    const name = `t${names.length + 1}`;
    const before = names.length
      ? Prisma.sql`(SELECT ${Prisma.raw(names.map((n) => `(SELECT count(*) FROM ${n})`).join(" + "))}) < ${limit} AND `
      : Prisma.empty;
    const fresh = names.length
      ? Prisma.sql` AND ${Prisma.raw(names.map((n) => `t.id NOT IN (SELECT id FROM ${n})`).join(" AND "))}`
      : Prisma.empty;
    tiers.push(Prisma.sql`${Prisma.raw(name)} AS (
      SELECT t.id, t.search FROM ${tbl} t
      WHERE ${before}${scope} AND t.search @@ ${q}::tsquery${fresh}
      LIMIT ${cap}
    )`);
    names.push(name);
  };
  if (plan.rareQ) tier(plan.rareQ, CANDIDATE_CAP);
  if (plan.commonQ) {
    tier(plan.commonQ, COMMON_CAP);
    tier(plan.anyQ!, FILL_CAP);
  }
  const pool = Prisma.raw(names.map((n) => `SELECT id, search FROM ${n}`).join(" UNION ALL "));
  return Prisma.sql`
    WITH ${Prisma.join(tiers, ",\n    ")}
    SELECT p.id, ts_rank(p.search, ${plan.anyQ}::tsquery)::float8 AS rank
    FROM (${pool}) p
    ORDER BY rank DESC, p.id
    LIMIT ${limit}`;
}

/** The evidence search statement for a plan (exported so a test and the bench can EXPLAIN exactly what runs). */
export function evidenceSearchSql(scope: CaseScope, plan: SearchPlan, limit: number, lifecycle: EvidenceLifecycle = "active"): Prisma.Sql {
  return Prisma.sql`
    WITH hits AS (${tieredMatchesSql("evidence", Prisma.sql`t.case_id = ${scope.caseId} AND ${lifecycleSql("t", lifecycle)}`, plan, limit)})
    SELECT ${COLUMNS}${expiredAtColumn("e", lifecycle)}, hits.rank
    FROM hits
    -- LATERAL with LIMIT 1 (not flattened) keeps this a primary-key probe per hit; a hash join would scan the table.
    CROSS JOIN LATERAL (SELECT * FROM "evidence" x WHERE x.case_id = ${scope.caseId} AND x.id = hits.id LIMIT 1) e
    LEFT JOIN "license" l ON l.id = e.license_id
    ORDER BY hits.rank DESC, e.id`;
}

/**
 * Rows of `table` whose marking the policy cannot read (lib/domain/markings.ts readMarking): a classification outside
 * the catalogue (the enum can be extended by another tool), a NULL or blank tag, or no tenant. A count for operators.
 */
export function unreadableMarkingSql(table: "graph_node" | "graph_edge" | "evidence"): Prisma.Sql {
  return Prisma.sql`SELECT count(*)::int AS n FROM ${Prisma.raw(`"${table}"`)} x
    WHERE NOT (x.classification::text = ANY(${[...CLASSIFICATIONS]}::text[]))
      OR btrim(x.tenant_id) = ''
      OR EXISTS (SELECT 1 FROM unnest(x.need_to_know) AS t(tag) WHERE t.tag IS NULL OR btrim(t.tag, E' \t\n\r\f\v') = '')`;
}

export class PrismaEvidenceStore implements EvidenceStore, MarkingAudit {
  private readonly db: SqlRunner;

  constructor(source: PrismaClient | SqlRunner) {
    this.db = asRunner(source);
  }

  async unreadableMarkings(): Promise<UnreadableMarkings> {
    const [row] = await failingAs("CG-EVIDENCE-001", () => this.db.rows<{ n: number }>(unreadableMarkingSql("evidence")));
    return { evidence: Number(row?.n ?? 0) };
  }

  async search(
    scope: CaseScope,
    query: EvidenceSearch,
    options: EvidenceReadOptions = {},
  ): Promise<Array<EvidenceRecord & { rank: number }>> {
    const terms = cleanTerms(query.terms);
    if (!terms.length || query.limit <= 0) return [];
    const rows = await failingAs("CG-EVIDENCE-001", async () => {
      const plan = await planSearch(this.db, "evidence", "english", terms);
      return plan.anyQ ? this.db.rows<EvidenceRow>(evidenceSearchSql(scope, plan, query.limit, options.lifecycle)) : [];
    });
    return rows.map((r) => ({ ...evidenceFromRow(r), rank: Number(r.rank) }));
  }

  async linkedTo(
    scope: CaseScope,
    nodeIds: readonly string[],
    limit: number,
    options: EvidenceReadOptions = {},
  ): Promise<EvidenceRecord[]> {
    if (!nodeIds.length || limit <= 0) return [];
    // Nodes come in priority order (seeds first): an item linked to earlier and to more of them ranks higher.
    const rows = await failingAs("CG-EVIDENCE-001", () =>
      this.db.rows<EvidenceRow>(Prisma.sql`
      SELECT ${COLUMNS}${expiredAtColumn("e", options.lifecycle)},
        (SELECT sum(1.0 / array_position(${[...nodeIds]}::text[], x)) FROM unnest(e.node_ids) AS x WHERE x = ANY(${[...nodeIds]}::text[])) AS rank
      FROM "evidence" e
      LEFT JOIN "license" l ON l.id = e.license_id
      WHERE e.case_id = ${scope.caseId} AND e.node_ids && ${[...nodeIds]}::text[] AND ${lifecycleSql("e", options.lifecycle)}
      ORDER BY rank DESC, e.id
      LIMIT ${limit}`),
    );
    return rows.map(evidenceFromRow);
  }

  async byIds(scope: CaseScope, ids: readonly string[], options: EvidenceReadOptions = {}): Promise<EvidenceRecord[]> {
    return (await this.rowsByIds(scope, ids, options.lifecycle ?? "active")).map(evidenceFromRow);
  }

  /**
   * Markings of evidence items WHATEVER their lifecycle state, for the audit views' redaction only (which ids a
   * reviewer may not see): a revoked or expired item named in an old entry must still be hidden from a reviewer
   * without the clearance. Content is blanked: nothing read here can reach an answer or a page.
   */
  async markingsByIds(scope: CaseScope, ids: readonly string[]): Promise<EvidenceRecord[]> {
    return (await this.rowsByIds(scope, ids, null)).map((r) => ({ ...evidenceFromRow(r), content: "" }));
  }

  /** `lifecycle` null: every state, revoked included (markingsByIds only; its content never leaves this class). */
  private async rowsByIds(scope: CaseScope, ids: readonly string[], lifecycle: EvidenceLifecycle | null): Promise<EvidenceRow[]> {
    if (!ids.length) return [];
    const admitted = lifecycle ? Prisma.sql`AND ${lifecycleSql("e", lifecycle)}` : Prisma.empty;
    return failingAs("CG-EVIDENCE-001", () =>
      this.db.rows<EvidenceRow>(Prisma.sql`
      SELECT ${COLUMNS}${expiredAtColumn("e", lifecycle ?? "active")}
      FROM "evidence" e
      LEFT JOIN "license" l ON l.id = e.license_id
      WHERE e.case_id = ${scope.caseId} AND e.id = ANY(${[...ids]}::text[]) ${admitted}
      ORDER BY e.id`),
    );
  }
}

export function evidenceFromRow(r: EvidenceRow): EvidenceRecord {
  return {
    id: r.id,
    type: r.type,
    content: r.content,
    sourceSystem: r.source_system,
    ...readRowMarking(r),
    licenseUses: readLicenseUses(r.license_uses),
    collectedAt: new Date(r.collected_at).toISOString(),
    nodeIds: r.node_ids ?? [],
    metadata: propertiesObject(r.metadata),
    ...(r.expired_at ? { expiredAt: new Date(r.expired_at).toISOString() } : {}),
  };
}
