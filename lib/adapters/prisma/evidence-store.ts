// EvidenceStore on PostgreSQL/PGlite. Full-text search reads the stored `search` tsvector through its GIN index
// (plainto_tsquery per question word, OR-ed, ts_rank on the stored column): nothing calls to_tsvector per row at query
// time and nothing scans with ILIKE. Ranking runs over a bounded candidate set; the wide columns are fetched for the
// top rows afterwards. Items come back with their markings; visibility is decided by the pipeline's policy gate.
import type { PrismaClient } from "../../generated/prisma/client";
import { Prisma } from "../../generated/prisma/client";
import type { Database } from "./db";
import { CasegraphError } from "../../domain/failure-codes";
import type { Classification, LicenseUse } from "../../domain/markings";
import type { CaseScope, EvidenceRecord, EvidenceSearch, EvidenceStore } from "../../ports";

interface Row {
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
  rank?: number | string;
}

const COLUMNS = Prisma.sql`e.id, e.tenant_id, e.type, e.content, e.source_system, e.classification::text AS classification,
  e.need_to_know, l.allows::text[] AS license_uses, e.collected_at, e.node_ids`;

// Ranked full-text search with bounded work. ts_rank has to read every candidate row, so ranking "every row that
// shares a word with the question" costs as much as the commonest word in it (a fifth of the table for "call" or
// "meeting"). Candidates therefore come from the question's rarer words — rarity read from PostgreSQL's own
// statistics on the stored tsvector (pg_stats.most_common_elems; no statistics → every word counts as rare) — and are
// then ranked by all of the words. When every word is common, candidates are the rows holding the two rarest together,
// topped up from any word if that finds too few. Each stage is capped. Every stage is a `@@` match on the stored column
// (its GIN index); nothing computes a tsvector per row.

/** A word found in more rows than this (table-wide estimate) does not generate candidates on its own. */
export const RARE_DOCS = 2_000;
const CANDIDATE_CAP = 3_000;
const FILL_CAP = 1_000;

/** Search terms: printable, bounded, deduplicated (plainto_tsquery never raises on any text). */
export function cleanTerms(terms: readonly string[]): string[] {
  return [...new Set(terms.map((t) => t.replace(/[\u0000-\u001f\u007f]/g, " ").trim().slice(0, 100)).filter(Boolean))].slice(0, 32);
}

export function rankedMatchesSql(opts: {
  table: "evidence" | "graph_node";
  config: "english" | "simple";
  scope: Prisma.Sql;
  terms: readonly string[];
  limit: number;
}): Prisma.Sql {
  const table = Prisma.raw(`"${opts.table}"`);
  const config = Prisma.raw(`'${opts.config}'::regconfig`);
  const relname = opts.table;
  return Prisma.sql`
    WITH words AS (
      SELECT DISTINCT plainto_tsquery(${config}, w) AS q FROM unnest(${[...opts.terms]}::text[]) AS w
    ),
    mce AS (
      SELECT m.elem, m.freq
      FROM pg_stats s
      CROSS JOIN LATERAL unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS m(elem, freq)
      WHERE s.schemaname = current_schema() AND s.tablename = ${relname} AND s.attname = 'search'
    ),
    est AS (
      SELECT w.q, coalesce(m.freq, 0) * coalesce((SELECT greatest(c.reltuples, 0) FROM pg_class c WHERE c.oid = ${relname}::regclass), 0) AS docs
      FROM words w LEFT JOIN mce m ON m.elem = btrim(w.q::text, '''')
      WHERE numnode(w.q) > 0
    ),
    qs AS (
      SELECT
        (SELECT string_agg('(' || q::text || ')', ' | ')::tsquery FROM est) AS any_q,
        (SELECT string_agg('(' || q::text || ')', ' | ')::tsquery FROM est WHERE docs < ${RARE_DOCS}) AS rare_q,
        (SELECT string_agg('(' || q::text || ')', ' & ')::tsquery FROM (SELECT q FROM est ORDER BY docs, q::text LIMIT 2) r) AS rarest_q
    ),
    cand AS (
      SELECT t.id, t.search FROM ${table} t
      WHERE ${opts.scope} AND t.search @@ (SELECT coalesce(rare_q, rarest_q) FROM qs)
      LIMIT ${CANDIDATE_CAP}
    ),
    fill AS (
      SELECT t.id, t.search FROM ${table} t
      WHERE (SELECT rare_q IS NULL FROM qs) AND (SELECT count(*) FROM cand) < ${opts.limit}
        AND ${opts.scope} AND t.search @@ (SELECT any_q FROM qs)
      LIMIT ${FILL_CAP}
    ),
    pool AS (
      SELECT id, search FROM cand
      UNION ALL
      SELECT f.id, f.search FROM fill f WHERE NOT EXISTS (SELECT 1 FROM cand c WHERE c.id = f.id)
    )
    SELECT id, ts_rank(search, (SELECT any_q FROM qs))::float8 AS rank
    FROM pool
    ORDER BY rank DESC, id
    LIMIT ${opts.limit}`;
}

/** The evidence search statement (exported so a test can EXPLAIN exactly what runs). */
export function evidenceSearchSql(scope: CaseScope, terms: readonly string[], limit: number): Prisma.Sql {
  return Prisma.sql`
    WITH hits AS (${rankedMatchesSql({ table: "evidence", config: "english", scope: Prisma.sql`t.case_id = ${scope.caseId}`, terms, limit })})
    SELECT ${COLUMNS}, hits.rank
    FROM hits
    JOIN "evidence" e ON e.case_id = ${scope.caseId} AND e.id = hits.id
    LEFT JOIN "license" l ON l.id = e.license_id
    ORDER BY hits.rank DESC, e.id`;
}

/**
 * How the stores run their reads. On the hot path they go to the driver (one statement in a short transaction through
 * `Database.transaction`), which costs a fraction of a Prisma `$queryRaw` round trip; a PrismaClient also works.
 */
export interface SqlRunner {
  rows<T>(query: Prisma.Sql): Promise<T[]>;
}

export function driverRunner(db: Pick<Database, "transaction">): SqlRunner {
  return { rows: async <T>(q: Prisma.Sql) => (await db.transaction((s) => s.query<T>(q.text, q.values as unknown[]))).rows };
}

export function prismaRunner(prisma: PrismaClient): SqlRunner {
  return { rows: <T>(q: Prisma.Sql) => prisma.$queryRaw<T[]>(q) };
}

export const asRunner = (source: PrismaClient | SqlRunner): SqlRunner => ("rows" in source ? source : prismaRunner(source));

export class PrismaEvidenceStore implements EvidenceStore {
  private readonly db: SqlRunner;

  constructor(source: PrismaClient | SqlRunner) {
    this.db = asRunner(source);
  }

  async search(scope: CaseScope, query: EvidenceSearch): Promise<Array<EvidenceRecord & { rank: number }>> {
    const terms = cleanTerms(query.terms);
    if (!terms.length || query.limit <= 0) return [];
    const rows = await this.run(() => this.db.rows<Row>(evidenceSearchSql(scope, terms, query.limit)));
    return rows.map((r) => ({ ...toRecord(r), rank: Number(r.rank) }));
  }

  async linkedTo(scope: CaseScope, nodeIds: readonly string[], limit: number): Promise<EvidenceRecord[]> {
    if (!nodeIds.length || limit <= 0) return [];
    // Nodes come in priority order (seeds first): an item linked to earlier and to more of them ranks higher.
    const rows = await this.run(() => this.db.rows<Row>(Prisma.sql`
      SELECT ${COLUMNS},
        (SELECT sum(1.0 / p.ord) FROM unnest(${[...nodeIds]}::text[]) WITH ORDINALITY AS p(id, ord) WHERE p.id = ANY(e.node_ids)) AS rank
      FROM "evidence" e
      LEFT JOIN "license" l ON l.id = e.license_id
      WHERE e.case_id = ${scope.caseId} AND e.node_ids && ${[...nodeIds]}::text[]
      ORDER BY rank DESC, e.id
      LIMIT ${limit}`));
    return rows.map(toRecord);
  }

  async byIds(scope: CaseScope, ids: readonly string[]): Promise<EvidenceRecord[]> {
    if (!ids.length) return [];
    const rows = await this.run(() => this.db.rows<Row>(Prisma.sql`
      SELECT ${COLUMNS}
      FROM "evidence" e
      LEFT JOIN "license" l ON l.id = e.license_id
      WHERE e.case_id = ${scope.caseId} AND e.id = ANY(${[...ids]}::text[])
      ORDER BY e.id`));
    return rows.map(toRecord);
  }

  private async run<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw new CasegraphError("CG-EVIDENCE-001", undefined, [], { cause: err });
    }
  }
}

function toRecord(r: Row): EvidenceRecord {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    type: r.type,
    content: r.content,
    sourceSystem: r.source_system,
    classification: r.classification as Classification,
    needToKnow: r.need_to_know ?? [],
    licenseUses: r.license_uses ? (r.license_uses as LicenseUse[]) : null,
    collectedAt: new Date(r.collected_at).toISOString(),
    nodeIds: r.node_ids ?? [],
  };
}
