// The playbook catalogue on PostgreSQL/PGlite (issue 16). The filter runs IN THE DATABASE, in one statement: the
// tenant's view of the catalogue (its own playbooks and the shared ones) gets each row's first failing label, the
// counts by label are aggregated, and only the allowed rows above min_confidence are ranked and limited — the process
// never loads the catalogue. lib/playbooks/filter.ts is the reference this SQL must equal (the integration property
// test compares them on random catalogues); every label that cannot be read denies.
import "server-only";
import { Prisma } from "../../generated/prisma/client";
import { failingAs } from "../../domain/failure-codes";
import { CLASSIFICATIONS, classificationRank, normaliseTag } from "../../domain/markings";
import { AUTHORITIES, RISK_LEVELS, SHARED_OWNER, parseRiskLevel } from "../../playbooks/catalogue";
import { emptyCounts, FILTER_REASONS, type Candidate, type Selection, type SelectionQuery } from "../../playbooks/filter";
import type { NextStepFacts, PlaybookCatalogue } from "../../playbooks/ports";
import type { CaseScope } from "../../ports";
import { asRunner, type SqlRunner } from "./evidence-store";
import type { PrismaClient } from "../../generated/prisma/client";

const TEXT_ARRAY = (list: readonly string[]) => Prisma.sql`${[...list]}::text[]`;

/** Each row of the tenant's view of the catalogue with the first label it fails (NULL: allowed) and its confidence. */
function scoredScope(q: SelectionQuery): Prisma.Sql {
  const terms = TEXT_ARRAY(q.terms);
  const tolerance = q.riskTolerance === null ? null : RISK_LEVELS.indexOf(q.riskTolerance);
  // array_position is a C function over the array: much cheaper per row than unnesting it.
  const badList = (col: string) =>
    Prisma.raw(`(p.${col} IS NULL OR array_position(p.${col}, NULL) IS NOT NULL OR array_position(p.${col}, '') IS NOT NULL)`);
  return Prisma.sql`
    SELECT p.owner, p.id, p.version, p.description, p.revision, r.reason,
      -- Relevance only for allowed rows sharing a term (the overlap operator first: no unnest for the others).
      CASE WHEN r.reason IS NOT NULL OR cardinality(${terms}) = 0 OR coalesce(cardinality(p.terms), 0) = 0 OR NOT (p.terms && ${terms})
        THEN 0::float8
        ELSE LEAST(1::float8, (SELECT count(*) FROM unnest(p.terms) t WHERE t = ANY(${terms}))::float8
          / LEAST(cardinality(${terms}), cardinality(p.terms))::float8) END AS relevance,
      ((CASE WHEN cardinality(p.case_types) > 0 THEN 1 ELSE 0.5 END)
        + (CASE WHEN cardinality(p.jurisdictions) > 0 THEN 1 ELSE 0.5 END))::float8 / 2 AS label_match
    FROM "playbook" p
    CROSS JOIN LATERAL (SELECT CASE
      WHEN p.active IS NOT TRUE THEN 'inactive'
      WHEN ${badList("case_types")} OR ${badList("jurisdictions")} OR ${badList("need_to_know")}
        OR p.required_authority IS NULL OR NOT (p.required_authority = ANY(${TEXT_ARRAY(AUTHORITIES)}))
        OR array_position(${TEXT_ARRAY(CLASSIFICATIONS)}, p.min_clearance::text) IS NULL
        OR p.risk_level IS NULL OR array_position(${TEXT_ARRAY(RISK_LEVELS)}, p.risk_level) IS NULL THEN 'unreadable_label'
      WHEN cardinality(p.case_types) > 0 AND (${q.caseType}::text IS NULL OR NOT (${q.caseType}::text = ANY(p.case_types))) THEN 'case_type'
      WHEN cardinality(p.jurisdictions) > 0 AND (${q.jurisdiction}::text IS NULL OR NOT (${q.jurisdiction}::text = ANY(p.jurisdictions)))
        THEN 'jurisdiction'
      WHEN array_position(${TEXT_ARRAY(CLASSIFICATIONS)}, p.min_clearance::text) - 1 > ${classificationRank(q.clearance)}::int THEN 'clearance'
      WHEN cardinality(p.need_to_know) > 0 AND NOT (p.need_to_know && ${TEXT_ARRAY(q.needToKnow.map(normaliseTag))})
        THEN 'need_to_know'
      WHEN NOT (p.required_authority = ANY(${TEXT_ARRAY(q.authorities)})) THEN 'authority'
      WHEN ${tolerance}::int IS NULL OR array_position(${TEXT_ARRAY(RISK_LEVELS)}, p.risk_level) - 1 > ${tolerance}::int THEN 'risk'
    END AS reason) r
    WHERE ${q.tenantId} <> '' AND (p.owner = ${q.tenantId} OR p.owner = ${SHARED_OWNER})`;
}

interface SelectRow {
  catalogue: number;
  revision: string;
  allowed: number;
  below: number;
  passing: number;
  by_reason: Record<string, number>;
  owner: string | null;
  id: string | null;
  version: string | null;
  description: string | null;
  relevance: number | null;
  label_match: number | null;
  confidence: number | null;
}

export class PrismaPlaybookCatalogue implements PlaybookCatalogue {
  private readonly sql: SqlRunner;
  constructor(source: PrismaClient | SqlRunner) {
    this.sql = asRunner(source);
  }

  async select(q: SelectionQuery): Promise<Selection> {
    const reasons = Prisma.raw(FILTER_REASONS.map((r) => `'${r}', count(*) FILTER (WHERE reason = '${r}')::int`).join(", "));
    const rows = await failingAs("CG-SYS-001", () =>
      this.sql.rows<SelectRow>(Prisma.sql`
        WITH s AS MATERIALIZED (
          SELECT x.*, 0.5 * x.relevance + 0.5 * x.label_match AS confidence FROM (${scoredScope(q)}) x
        ),
        counts AS (
          SELECT count(*)::int AS catalogue, coalesce(max(revision), 0)::text AS revision,
            count(*) FILTER (WHERE reason IS NULL)::int AS allowed,
            count(*) FILTER (WHERE reason IS NULL AND confidence < ${q.minConfidence}::float8)::int AS below,
            count(*) FILTER (WHERE reason IS NULL AND confidence >= ${q.minConfidence}::float8)::int AS passing,
            json_build_object(${reasons}) AS by_reason
          FROM s
        ),
        top AS (
          SELECT owner, id, version, description, relevance, label_match, confidence FROM s
          WHERE reason IS NULL AND confidence >= ${q.minConfidence}::float8
          ORDER BY confidence DESC, id COLLATE "C" LIMIT ${q.maxResults}::int
        )
        SELECT counts.*, top.* FROM counts LEFT JOIN top ON true
        ORDER BY top.confidence DESC NULLS LAST, top.id COLLATE "C"`),
    );
    const head = rows[0];
    const counts = emptyCounts();
    counts.catalogue = Number(head?.catalogue ?? 0);
    counts.allowed = Number(head?.allowed ?? 0);
    counts.belowMinConfidence = Number(head?.below ?? 0);
    for (const r of FILTER_REASONS) counts.byReason[r] = Number(head?.by_reason?.[r] ?? 0);
    counts.filtered = FILTER_REASONS.reduce((n, r) => n + counts.byReason[r], 0);
    const candidates: Candidate[] = rows
      .filter((r) => r.id !== null)
      .map((r) => ({
        owner: r.owner!,
        id: r.id!,
        version: r.version!,
        description: r.description!,
        confidence: Number(r.confidence),
        relevance: Number(r.relevance),
        labelMatch: Number(r.label_match),
      }));
    counts.offered = candidates.length;
    counts.beyondMaxResults = Number(head?.passing ?? 0) - candidates.length;
    return { candidates, counts, catalogueVersion: `rev-${head?.revision ?? "0"}` };
  }

  /** The playbooks among `ids` that pass the query's labels (no ranking, no limit): a proposal re-checks its step here. */
  async allowed(
    q: SelectionQuery,
    ids: readonly string[],
  ): Promise<Array<{ owner: string; id: string; version: string; description: string }>> {
    if (!ids.length) return [];
    return failingAs("CG-SYS-001", () =>
      this.sql.rows(Prisma.sql`
        SELECT owner, id, version, description FROM (${scoredScope(q)}) s
        WHERE reason IS NULL AND id = ANY(${TEXT_ARRAY(ids)}) ORDER BY id COLLATE "C"`),
    );
  }

  async existing(tenantId: string, ids: readonly string[]): Promise<Set<string>> {
    if (!tenantId || !ids.length) return new Set();
    const rows = await failingAs("CG-SYS-001", () =>
      this.sql.rows<{ id: string }>(Prisma.sql`
        SELECT DISTINCT id FROM "playbook" WHERE (owner = ${tenantId} OR owner = ${SHARED_OWNER}) AND id = ANY(${TEXT_ARRAY(ids)})`),
    );
    return new Set(rows.map((r) => r.id));
  }

  async facts(scope: CaseScope, userId: string): Promise<NextStepFacts> {
    const [row] = await failingAs("CG-SYS-001", () =>
      this.sql.rows<{
        case_type: string | null;
        jurisdiction: string | null;
        risk_tolerance: unknown;
        legal_authority: unknown;
      }>(Prisma.sql`
        SELECT c.case_type, c.jurisdiction, t.risk_tolerance,
          (SELECT u.legal_authority FROM "user" u WHERE u.id = ${userId} AND u.tenant_id = c.tenant_id) AS legal_authority
        FROM "case" c JOIN "tenant" t ON t.id = c.tenant_id
        WHERE c.id = ${scope.caseId} AND c.tenant_id = ${scope.tenantId}`),
    );
    // Read as stored: a risk tolerance that is not exactly a canonical value lets nothing through.
    const tolerance =
      typeof row?.risk_tolerance === "string" && parseRiskLevel(row.risk_tolerance) === row.risk_tolerance
        ? parseRiskLevel(row.risk_tolerance)
        : null;
    return {
      caseType: row?.case_type ?? null,
      jurisdiction: row?.jurisdiction ?? null,
      riskTolerance: tolerance,
      legalAuthority: row?.legal_authority ?? [],
    };
  }
}
