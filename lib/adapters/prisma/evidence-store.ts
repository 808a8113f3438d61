// EvidenceStore on PostgreSQL/PGlite. Full-text search reads the stored `search` tsvector through its GIN index
// (websearch_to_tsquery over OR-ed terms, ts_rank on the stored column): nothing calls to_tsvector per row at query
// time and nothing scans with ILIKE. Ranking runs over the matching rows only; the wide columns are fetched for the
// top rows afterwards. Items come back with their markings; visibility is decided by the pipeline's policy gate.
import type { PrismaClient } from "../../generated/prisma/client";
import { Prisma } from "../../generated/prisma/client";
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

/** "a or b or c" for websearch_to_tsquery, which never raises a syntax error; terms are reduced to safe characters. */
export function orQuery(terms: readonly string[]): string {
  const safe = terms
    .map((t) => t.replace(/[^\p{L}\p{N}_.:/@-]+/gu, " ").replace(/(^|\s)-+/g, "$1").trim())
    .filter((t) => t && !/^or$/i.test(t));
  return [...new Set(safe)].join(" or ");
}

export class PrismaEvidenceStore implements EvidenceStore {
  constructor(private readonly prisma: PrismaClient) {}

  async search(scope: CaseScope, query: EvidenceSearch): Promise<Array<EvidenceRecord & { rank: number }>> {
    const q = orQuery(query.terms);
    if (!q || query.limit <= 0) return [];
    const rows = await this.run(() => this.prisma.$queryRaw<Row[]>`
      WITH q AS (SELECT websearch_to_tsquery('english', ${q}) AS q),
      hits AS (
        SELECT e.id, ts_rank(e.search, q.q) AS rank
        FROM "evidence" e, q
        WHERE e.case_id = ${scope.caseId} AND e.search @@ q.q
        ORDER BY rank DESC, e.id
        LIMIT ${query.limit}
      )
      SELECT ${COLUMNS}, hits.rank
      FROM hits
      JOIN "evidence" e ON e.case_id = ${scope.caseId} AND e.id = hits.id
      LEFT JOIN "license" l ON l.id = e.license_id
      ORDER BY hits.rank DESC, e.id`);
    return rows.map((r) => ({ ...toRecord(r), rank: Number(r.rank) }));
  }

  async linkedTo(scope: CaseScope, nodeIds: readonly string[], limit: number): Promise<EvidenceRecord[]> {
    if (!nodeIds.length || limit <= 0) return [];
    // Nodes come in priority order (seeds first): an item linked to earlier and to more of them ranks higher.
    const rows = await this.run(() => this.prisma.$queryRaw<Row[]>`
      SELECT ${COLUMNS},
        (SELECT sum(1.0 / p.ord) FROM unnest(${[...nodeIds]}::text[]) WITH ORDINALITY AS p(id, ord) WHERE p.id = ANY(e.node_ids)) AS rank
      FROM "evidence" e
      LEFT JOIN "license" l ON l.id = e.license_id
      WHERE e.case_id = ${scope.caseId} AND e.node_ids && ${[...nodeIds]}::text[]
      ORDER BY rank DESC, e.id
      LIMIT ${limit}`);
    return rows.map(toRecord);
  }

  async byIds(scope: CaseScope, ids: readonly string[]): Promise<EvidenceRecord[]> {
    if (!ids.length) return [];
    const rows = await this.run(() => this.prisma.$queryRaw<Row[]>`
      SELECT ${COLUMNS}
      FROM "evidence" e
      LEFT JOIN "license" l ON l.id = e.license_id
      WHERE e.case_id = ${scope.caseId} AND e.id = ANY(${[...ids]}::text[])
      ORDER BY e.id`);
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
