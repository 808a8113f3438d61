// CaseGraphStore on PostgreSQL/PGlite tables (the default graph store; Neo4j implements the same port). Seed search
// uses exact ids (primary key), whole names (the (case_id, lower(name)) index) and the stored 'simple' tsvector over
// name/id/label (GIN). The k-hop expansion is iterative frontier queries over the (case_id, source) and
// (case_id, target) indexes with caps per hop, then one query for the edges among the nodes reached. Every query is
// scoped by case and tenant; items come back with their markings for the pipeline's policy gate.
import type { PrismaClient } from "../../generated/prisma/client";
import { Prisma } from "../../generated/prisma/client";
import { CasegraphError } from "../../domain/failure-codes";
import type { Classification } from "../../domain/markings";
import type {
  CaseGraphStore, CaseScope, GraphEdgeRecord, GraphNodeRecord, SeedCandidate, SeedQuery, Subgraph, SubgraphLimits,
} from "../../ports";
import { asRunner, cleanTerms, planSearch, rankedMatchesSql, tieredMatchesSql, type SqlRunner } from "./evidence-store";

interface NodeRow {
  id: string;
  tenant_id: string;
  label: string;
  name: string;
  properties: unknown;
  classification: string;
  need_to_know: string[];
  match?: "id" | "name" | "text";
  rank?: number | string;
}

interface EdgeRow {
  id: string;
  tenant_id: string;
  source: string;
  target: string;
  type: string;
  properties: unknown;
  classification: string;
  need_to_know: string[];
}

const NODE_COLUMNS = Prisma.sql`n.id, n.tenant_id, n.label, n.name, n.properties, n.classification::text AS classification, n.need_to_know`;
const EDGE_COLUMNS = Prisma.sql`g.id, g.tenant_id, g.source, g.target, g.type, g.properties, g.classification::text AS classification, g.need_to_know`;
const MATCH_ORDER = { id: 0, name: 1, text: 2 } as const;

/**
 * Name/id/label words through the stored 'simple' tsvector and its GIN index, as one statement (the store plans the
 * same search in the process; see findSeedNodes). Exported so a test can EXPLAIN it.
 */
export function seedTextSql(scope: CaseScope, terms: readonly string[], limit: number): Prisma.Sql {
  const where = Prisma.sql`t.case_id = ${scope.caseId} AND t.tenant_id = ${scope.tenantId}`;
  return Prisma.sql`
    SELECT ${NODE_COLUMNS}, 'text' AS match, hits.rank
    FROM (${rankedMatchesSql({ table: "graph_node", config: "simple", scope: where, terms, limit })}) hits
    JOIN "graph_node" n ON n.case_id = ${scope.caseId} AND n.id = hits.id
    ORDER BY hits.rank DESC, n.id`;
}

export class PrismaGraphStore implements CaseGraphStore {
  private readonly db: SqlRunner;

  constructor(source: PrismaClient | SqlRunner) {
    this.db = asRunner(source);
  }

  async findSeedNodes(scope: CaseScope, query: SeedQuery): Promise<SeedCandidate[]> {
    const terms = cleanTerms(query.terms);
    // Name/id/label words planned like the evidence search (constant tsqueries, rare words first, capped tiers).
    const plan = terms.length && query.limit > 0 ? await this.run(() => planSearch(this.db, "graph_node", "simple", terms), "CG-GRAPH-001") : null;
    const where = Prisma.sql`t.case_id = ${scope.caseId} AND t.tenant_id = ${scope.tenantId}`;
    const text = plan?.anyQ
      ? Prisma.sql`SELECT ${NODE_COLUMNS}, 'text' AS match, hits.rank
          FROM (${tieredMatchesSql("graph_node", where, plan, query.limit)}) hits
          CROSS JOIN LATERAL (SELECT * FROM "graph_node" x WHERE x.case_id = ${scope.caseId} AND x.id = hits.id LIMIT 1) n`
      : Prisma.sql`SELECT ${NODE_COLUMNS}, 'text' AS match, 0::float8 AS rank FROM "graph_node" n WHERE false`;
    const rows = await this.run(() => this.db.rows<NodeRow>(Prisma.sql`
      (SELECT ${NODE_COLUMNS}, 'id' AS match, 0::float8 AS rank
        FROM "graph_node" n
        WHERE n.case_id = ${scope.caseId} AND n.tenant_id = ${scope.tenantId} AND n.id = ANY(${query.ids}::text[]))
      UNION ALL
      (SELECT ${NODE_COLUMNS}, 'name' AS match, 0::float8 AS rank
        FROM "graph_node" n
        WHERE n.case_id = ${scope.caseId} AND n.tenant_id = ${scope.tenantId} AND lower(n.name) = ANY(${query.phrases}::text[]))
      UNION ALL
      (${text})`), "CG-GRAPH-001");
    // One candidate per node, keeping its strongest match.
    const best = new Map<string, SeedCandidate>();
    for (const r of rows) {
      const c: SeedCandidate = { node: toNode(r), match: r.match ?? "text", rank: Number(r.rank ?? 0) };
      const prev = best.get(c.node.id);
      if (!prev || MATCH_ORDER[c.match] < MATCH_ORDER[prev.match]) best.set(c.node.id, c);
    }
    return [...best.values()].sort((a, b) => MATCH_ORDER[a.match] - MATCH_ORDER[b.match] || b.rank - a.rank || cmp(a.node.id, b.node.id));
  }

  async expand(scope: CaseScope, seedIds: readonly string[], limits: SubgraphLimits): Promise<Subgraph> {
    const hopOf = new Map<string, number>();
    for (const id of seedIds) if (!hopOf.has(id)) hopOf.set(id, 0);
    let frontier = [...hopOf.keys()];
    let truncated = false;
    for (let hop = 1; hop <= limits.hops && frontier.length && hopOf.size < limits.maxNodes; hop++) {
      const rows = await this.run(() => this.db.rows<{ source: string; target: string }>(Prisma.sql`
        SELECT g.source, g.target FROM "graph_edge" g
        WHERE g.case_id = ${scope.caseId} AND g.tenant_id = ${scope.tenantId}
          AND (g.source = ANY(${frontier}::text[]) OR g.target = ANY(${frontier}::text[]))
        ORDER BY g.id
        LIMIT ${limits.maxEdges}`), "CG-GRAPH-001");
      if (rows.length >= limits.maxEdges) truncated = true;
      const next: string[] = [];
      for (const r of rows) {
        for (const id of [r.source, r.target]) {
          if (hopOf.has(id)) continue;
          if (hopOf.size >= limits.maxNodes) {
            truncated = true;
            continue;
          }
          hopOf.set(id, hop);
          next.push(id);
        }
      }
      frontier = next;
    }
    const ids = [...hopOf.keys()];
    const [nodeRows, edgeRows] = await Promise.all([
      this.run(() => this.db.rows<NodeRow>(Prisma.sql`
        SELECT ${NODE_COLUMNS} FROM "graph_node" n
        WHERE n.case_id = ${scope.caseId} AND n.tenant_id = ${scope.tenantId} AND n.id = ANY(${ids}::text[])`), "CG-GRAPH-001"),
      this.run(() => this.db.rows<EdgeRow>(Prisma.sql`
        SELECT ${EDGE_COLUMNS} FROM "graph_edge" g
        WHERE g.case_id = ${scope.caseId} AND g.tenant_id = ${scope.tenantId}
          AND g.source = ANY(${ids}::text[]) AND g.target = ANY(${ids}::text[])
        ORDER BY g.id
        LIMIT ${limits.maxEdges}`), "CG-GRAPH-001"),
    ]);
    if (edgeRows.length >= limits.maxEdges) truncated = true;
    const nodes = nodeRows
      .map((r) => ({ ...toNode(r), hop: hopOf.get(r.id)! }))
      .sort((a, b) => a.hop - b.hop || cmp(a.id, b.id));
    return { nodes, edges: edgeRows.map(toEdge), truncated };
  }

  async nodesByIds(scope: CaseScope, ids: readonly string[]): Promise<GraphNodeRecord[]> {
    if (!ids.length) return [];
    const rows = await this.run(() => this.db.rows<NodeRow>(Prisma.sql`
      SELECT ${NODE_COLUMNS} FROM "graph_node" n
      WHERE n.case_id = ${scope.caseId} AND n.tenant_id = ${scope.tenantId} AND n.id = ANY(${[...ids]}::text[])
      ORDER BY n.id`), "CG-GRAPH-001");
    return rows.map(toNode);
  }

  async edgesByIds(scope: CaseScope, ids: readonly string[]): Promise<GraphEdgeRecord[]> {
    if (!ids.length) return [];
    const rows = await this.run(() => this.db.rows<EdgeRow>(Prisma.sql`
      SELECT ${EDGE_COLUMNS} FROM "graph_edge" g
      WHERE g.case_id = ${scope.caseId} AND g.tenant_id = ${scope.tenantId} AND g.id = ANY(${[...ids]}::text[])
      ORDER BY g.id`), "CG-GRAPH-001");
    return rows.map(toEdge);
  }

  private async run<T>(fn: () => Promise<T>, code: "CG-GRAPH-001" | "CG-GRAPH-002"): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      throw new CasegraphError(code, undefined, [], { cause: err });
    }
  }
}

function toNode(r: NodeRow): GraphNodeRecord {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    label: r.label,
    name: r.name,
    properties: asObject(r.properties),
    classification: r.classification as Classification,
    needToKnow: r.need_to_know ?? [],
  };
}

function toEdge(r: EdgeRow): GraphEdgeRecord {
  return {
    id: r.id,
    tenantId: r.tenant_id,
    source: r.source,
    target: r.target,
    type: r.type,
    properties: asObject(r.properties),
    classification: r.classification as Classification,
    needToKnow: r.need_to_know ?? [],
  };
}

function asObject(v: unknown): Record<string, unknown> {
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      return {};
    }
  }
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
