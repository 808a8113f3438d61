// CaseGraphStore on PostgreSQL/PGlite tables (the default graph store; Neo4j implements the same port, and both follow
// the store-independent rules of lib/domain/graph-contract.ts). Seed search uses exact ids (primary key), whole names
// (the (case_id, lower(name)) index) and the stored tsvector of the node's search tokens (GIN). The k-hop expansion is
// iterative frontier queries over the (case_id, source) and (case_id, target) indexes with caps per hop, then one query
// for the edges among the nodes reached. Ids are ordered by code point (COLLATE "C"). Every query is scoped by case and
// tenant; items come back with their markings for the pipeline's policy gate.
import "server-only";
import type { PrismaClient } from "../../generated/prisma/client";
import { Prisma } from "../../generated/prisma/client";
import { failingAs } from "../../domain/failure-codes";
import { readRowMarking } from "../../domain/markings";
import type {
  CaseGraphStore,
  CaseOutline,
  CaseScope,
  GraphEdgeRecord,
  GraphNodeRecord,
  MarkingAudit,
  SeedCandidate,
  SeedQuery,
  Subgraph,
  SubgraphLimits,
  UnreadableMarkings,
} from "../../ports";
import {
  assembleSubgraph,
  expandFrontier,
  outlineOf,
  propertiesObject,
  rankSeedCandidates,
  textQueryGroups,
} from "../../domain/graph-contract";
import { asRunner, unreadableMarkingSql, type SqlRunner } from "./evidence-store";

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

/**
 * Text seeds (lib/domain/graph-contract.ts): each term's search tokens AND-ed, the terms OR-ed, over the stored tsvector
 * of the node's tokens through its GIN index; rank = how many terms' token groups the node holds; the top `limit` by
 * rank, then id. The tsquery text is built only from tokens, which never contain a quote, backslash, space or
 * operator character (all separators). Exported so a test can EXPLAIN it.
 */
export function seedTextSql(scope: CaseScope, terms: readonly string[], limit: number): Prisma.Sql {
  const groups = textQueryGroups(terms).map((g) => g.map((t) => `'${t}'`).join(" & "));
  if (!groups.length || limit <= 0)
    return Prisma.sql`SELECT ${NODE_COLUMNS}, 'text' AS match, 0::float8 AS rank FROM "graph_node" n WHERE false`;
  const any = groups.map((g) => `(${g})`).join(" | ");
  return Prisma.sql`
    SELECT ${NODE_COLUMNS}, 'text' AS match, m.rank::float8 AS rank
    FROM "graph_node" n
    CROSS JOIN LATERAL (SELECT count(*) AS rank FROM unnest(${groups}::text[]) AS g(q) WHERE n.search @@ g.q::tsquery) m
    WHERE n.case_id = ${scope.caseId} AND n.tenant_id = ${scope.tenantId} AND n.search @@ ${any}::tsquery
    ORDER BY m.rank DESC, n.id COLLATE "C"
    LIMIT ${limit}`;
}

export class PrismaGraphStore implements CaseGraphStore, MarkingAudit {
  private readonly db: SqlRunner;

  constructor(source: PrismaClient | SqlRunner) {
    this.db = asRunner(source);
  }

  async unreadableMarkings(): Promise<UnreadableMarkings> {
    const [nodes, edges] = await failingAs("CG-GRAPH-001", () =>
      Promise.all([
        this.db.rows<{ n: number }>(unreadableMarkingSql("graph_node")),
        this.db.rows<{ n: number }>(unreadableMarkingSql("graph_edge")),
      ]),
    );
    return { nodes: Number(nodes[0]?.n ?? 0), edges: Number(edges[0]?.n ?? 0) };
  }

  async outline(scope: CaseScope, limits: { maxNodes: number; maxEdges: number }): Promise<CaseOutline> {
    const [nodes, edges] = await failingAs("CG-GRAPH-001", () =>
      Promise.all([
        this.db.rows<NodeRow>(Prisma.sql`
        SELECT n.id, n.tenant_id, n.label, n.name, NULL AS properties, n.classification::text AS classification, n.need_to_know
        FROM "graph_node" n WHERE n.case_id = ${scope.caseId} AND n.tenant_id = ${scope.tenantId}
        ORDER BY n.id COLLATE "C" LIMIT ${limits.maxNodes + 1}`),
        this.db.rows<EdgeRow>(Prisma.sql`
        SELECT g.id, g.tenant_id, g.source, g.target, g.type, NULL AS properties, g.classification::text AS classification, g.need_to_know
        FROM "graph_edge" g WHERE g.case_id = ${scope.caseId} AND g.tenant_id = ${scope.tenantId}
        ORDER BY g.id COLLATE "C" LIMIT ${limits.maxEdges + 1}`),
      ]),
    );
    return outlineOf(nodes.map(toNode), edges.map(toEdge), limits);
  }

  async findSeedNodes(scope: CaseScope, query: SeedQuery): Promise<SeedCandidate[]> {
    const rows = await failingAs("CG-GRAPH-001", () =>
      this.db.rows<NodeRow>(Prisma.sql`
      (SELECT ${NODE_COLUMNS}, 'id' AS match, 0::float8 AS rank
        FROM "graph_node" n
        WHERE n.case_id = ${scope.caseId} AND n.tenant_id = ${scope.tenantId} AND n.id = ANY(${query.ids}::text[]))
      UNION ALL
      (SELECT ${NODE_COLUMNS}, 'name' AS match, 0::float8 AS rank
        FROM "graph_node" n
        WHERE n.case_id = ${scope.caseId} AND n.tenant_id = ${scope.tenantId} AND lower(n.name) = ANY(${query.phrases}::text[]))
      UNION ALL
      (${seedTextSql(scope, query.terms, query.limit)})`),
    );
    // One candidate per node, keeping its strongest match; by match kind, rank, id.
    return rankSeedCandidates(rows.map((r) => ({ node: toNode(r), match: r.match ?? "text", rank: Number(r.rank ?? 0) })));
  }

  async expand(scope: CaseScope, seedIds: readonly string[], limits: SubgraphLimits): Promise<Subgraph> {
    const expansion = await expandFrontier(seedIds, limits, (frontier, limit) =>
      failingAs("CG-GRAPH-001", () =>
        this.db.rows<{ source: string; target: string }>(Prisma.sql`
        SELECT g.source, g.target FROM "graph_edge" g
        WHERE g.case_id = ${scope.caseId} AND g.tenant_id = ${scope.tenantId}
          AND (g.source = ANY(${frontier}::text[]) OR g.target = ANY(${frontier}::text[]))
        ORDER BY g.id COLLATE "C"
        LIMIT ${limit}`),
      ),
    );
    const ids = [...expansion.hopOf.keys()];
    const [nodeRows, edgeRows] = await Promise.all([
      failingAs("CG-GRAPH-001", () =>
        this.db.rows<NodeRow>(Prisma.sql`
        SELECT ${NODE_COLUMNS} FROM "graph_node" n
        WHERE n.case_id = ${scope.caseId} AND n.tenant_id = ${scope.tenantId} AND n.id = ANY(${ids}::text[])`),
      ),
      failingAs("CG-GRAPH-001", () =>
        this.db.rows<EdgeRow>(Prisma.sql`
        SELECT ${EDGE_COLUMNS} FROM "graph_edge" g
        WHERE g.case_id = ${scope.caseId} AND g.tenant_id = ${scope.tenantId}
          AND g.source = ANY(${ids}::text[]) AND g.target = ANY(${ids}::text[])
        ORDER BY g.id COLLATE "C"
        LIMIT ${limits.maxEdges}`),
      ),
    ]);
    return assembleSubgraph(expansion, nodeRows.map(toNode), edgeRows.map(toEdge), limits);
  }

  async nodesByIds(scope: CaseScope, ids: readonly string[]): Promise<GraphNodeRecord[]> {
    if (!ids.length) return [];
    const rows = await failingAs("CG-GRAPH-001", () =>
      this.db.rows<NodeRow>(Prisma.sql`
      SELECT ${NODE_COLUMNS} FROM "graph_node" n
      WHERE n.case_id = ${scope.caseId} AND n.tenant_id = ${scope.tenantId} AND n.id = ANY(${[...ids]}::text[])
      ORDER BY n.id COLLATE "C"`),
    );
    return rows.map(toNode);
  }

  async edgesByIds(scope: CaseScope, ids: readonly string[]): Promise<GraphEdgeRecord[]> {
    if (!ids.length) return [];
    const rows = await failingAs("CG-GRAPH-001", () =>
      this.db.rows<EdgeRow>(Prisma.sql`
      SELECT ${EDGE_COLUMNS} FROM "graph_edge" g
      WHERE g.case_id = ${scope.caseId} AND g.tenant_id = ${scope.tenantId} AND g.id = ANY(${[...ids]}::text[])
      ORDER BY g.id COLLATE "C"`),
    );
    return rows.map(toEdge);
  }
}

function toNode(r: NodeRow): GraphNodeRecord {
  return {
    id: r.id,
    label: r.label,
    name: r.name,
    properties: propertiesObject(r.properties),
    ...readRowMarking(r),
  };
}

function toEdge(r: EdgeRow): GraphEdgeRecord {
  return {
    id: r.id,
    source: r.source,
    target: r.target,
    type: r.type,
    properties: propertiesObject(r.properties),
    ...readRowMarking(r),
  };
}
