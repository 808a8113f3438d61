// CaseGraphStore on Neo4j (neo4j-driver 6): the reads. Same contract as the PostgreSQL store (lib/ports.ts), built from
// the same store-independent rules (lib/domain/graph-contract.ts): seed matching and ranking, id order, and the bounded
// breadth-first expansion with its caps. The data model and every query text are in cypher.ts, the schema in
// schema.ts, the row mappers in records.ts, and the write side (import mirror, `graph sync`) in graph-writes.ts.
import "server-only";
import neo4j, { type ManagedTransaction } from "neo4j-driver";
import { CasegraphError } from "../../domain/failure-codes";
import { assembleSubgraph, expandFrontier, outlineOf, rankSeedCandidates, textQueryGroups } from "../../domain/graph-contract";
import { CLASSIFICATIONS } from "../../domain/markings";
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
import { connectNeo4j, toGraphError, type Neo4jConfig, type Neo4jConnection } from "./connection";
import { FULLTEXT_INDEX, Q, UNREADABLE_MARKINGS, luceneQuery, scopeKey } from "./cypher";
import { Neo4jGraphWrites } from "./graph-writes";
import { toEdgeRecord, toNode } from "./records";
import { Neo4jSchema } from "./schema";

export type { CaseGraphInfo, EdgeWrite, NodeWrite } from "./graph-writes";
export { SCHEMA_STATEMENTS, luceneQuery, scopeKey } from "./cypher";

export interface Neo4jGraphStoreOptions {
  /**
   * Refuse (CG-GRAPH-005) to read a case whose graph Neo4j does not hold in full: never loaded, or an interrupted
   * write. Default true. A scope whose case Neo4j holds under another tenant reads as empty, like PostgreSQL.
   */
  requireLoaded?: boolean;
  /** How long a writer's claim on a case lasts without renewal (each batch renews it). */
  leaseMs?: number;
}

export class Neo4jGraphStore implements CaseGraphStore, MarkingAudit {
  readonly kind = "neo4j" as const;
  private readonly requireLoaded: boolean;
  private readonly schema: Neo4jSchema;
  /** The write side (import mirror, `graph sync`). */
  readonly writes: Neo4jGraphWrites;

  constructor(
    readonly conn: Neo4jConnection,
    options: Neo4jGraphStoreOptions = {},
  ) {
    this.requireLoaded = options.requireLoaded ?? true;
    this.schema = new Neo4jSchema(conn);
    this.writes = new Neo4jGraphWrites(conn, () => this.schema.ensure(), options.leaseMs ?? 120_000);
  }

  static connect(config: Neo4jConfig, options?: Neo4jGraphStoreOptions): Neo4jGraphStore {
    return new Neo4jGraphStore(connectNeo4j(config), options);
  }

  close(): Promise<void> {
    return this.conn.close();
  }

  /** Creates the constraints and indexes (idempotent); reads wait for it, bounded. */
  ensureSchema(): Promise<void> {
    return this.schema.ensure();
  }

  private readyForReads(): Promise<void> {
    return this.schema.readyForReads();
  }

  /**
   * Nodes and edges whose marking the policy cannot read (lib/domain/markings.ts readMarking): a graph written by
   * another tool may hold any value there. Counted for operators (health, `graph status`); bounded by `timeoutMs`.
   */
  async unreadableMarkings(timeoutMs = this.conn.config.writeTimeoutMs): Promise<UnreadableMarkings> {
    const res = await this.conn.read((tx) => tx.run(UNREADABLE_MARKINGS, { canon: [...CLASSIFICATIONS] }), timeoutMs);
    const record = res.records[0];
    return { nodes: Number(record?.get("nodes") ?? 0), edges: Number(record?.get("edges") ?? 0) };
  }

  /** Bounded reachability check for /health: a round trip to the configured database. */
  async ping(timeoutMs = 1_500): Promise<{ ok: boolean; latencyMs?: number; error?: string }> {
    const started = performance.now();
    try {
      await this.conn.read((tx) => tx.run("RETURN 1 AS one"), timeoutMs);
      return { ok: true, latencyMs: Math.round(performance.now() - started) };
    } catch (err) {
      return { ok: false, error: toGraphError(err).code };
    }
  }

  // -------------------------------------------------------------------------------------------------------------
  // Reads (the CaseGraphStore port)

  async findSeedNodes(scope: CaseScope, query: SeedQuery): Promise<SeedCandidate[]> {
    await this.readyForReads();
    const groups = textQueryGroups(query.terms);
    const candidates = await this.conn.read(async (tx) => {
      if (!(await this.servable(tx, scope))) return [];
      const out: SeedCandidate[] = [];
      const params = { caseId: scope.caseId, tenantId: scope.tenantId };
      if (query.ids.length) {
        const res = await tx.run(Q.seedIds, { ...params, ids: [...query.ids] });
        for (const r of res.records) out.push({ node: toNode(r.get("node")), match: "id", rank: 0 });
      }
      if (query.phrases.length) {
        const res = await tx.run(Q.seedNames, { ...params, phrases: [...query.phrases] });
        for (const r of res.records) out.push({ node: toNode(r.get("node")), match: "name", rank: 0 });
      }
      if (groups.length && query.limit > 0) {
        const res = await tx.run(Q.seedText, {
          ...params,
          index: FULLTEXT_INDEX,
          lucene: luceneQuery(scopeKey(scope), groups),
          groups,
          limit: neo4j.int(query.limit),
        });
        for (const r of res.records) out.push({ node: toNode(r.get("node")), match: "text", rank: Number(r.get("rank")) });
      }
      return out;
    });
    return rankSeedCandidates(candidates);
  }

  async expand(scope: CaseScope, seedIds: readonly string[], limits: SubgraphLimits): Promise<Subgraph> {
    await this.readyForReads();
    return this.conn.read(async (tx) => {
      if (!(await this.servable(tx, scope))) return { nodes: [], edges: [], truncated: false };
      const params = { caseId: scope.caseId, tenantId: scope.tenantId };
      const expansion = await expandFrontier(seedIds, limits, async (frontier, limit) => {
        const res = await tx.run(Q.frontier, { ...params, frontier, limit: neo4j.int(limit) });
        return res.records.map((r) => ({ source: r.get("source") as string, target: r.get("target") as string }));
      });
      const ids = [...expansion.hopOf.keys()];
      const nodes = await this.nodesIn(tx, scope, ids);
      const edgeRes = await tx.run(Q.edgesAmong, { ...params, ids, limit: neo4j.int(limits.maxEdges) });
      return assembleSubgraph(expansion, nodes, edgeRes.records.map(toEdgeRecord), limits);
    });
  }

  async outline(scope: CaseScope, limits: { maxNodes: number; maxEdges: number }): Promise<CaseOutline> {
    await this.readyForReads();
    return this.conn.read(async (tx) => {
      if (!(await this.servable(tx, scope))) return { nodes: [], edges: [], truncated: false };
      const params = { caseId: scope.caseId, tenantId: scope.tenantId };
      const nodes = await tx.run(Q.outlineNodes, { ...params, limit: neo4j.int(limits.maxNodes + 1) });
      const edges = await tx.run(Q.outlineEdges, { ...params, limit: neo4j.int(limits.maxEdges + 1) });
      return outlineOf(
        nodes.records.map((r) => toNode(r.get("node"))),
        edges.records.map(toEdgeRecord),
        limits,
      );
    });
  }

  async nodesByIds(scope: CaseScope, ids: readonly string[]): Promise<GraphNodeRecord[]> {
    if (!ids.length) return [];
    await this.readyForReads();
    return this.conn.read(async (tx) => ((await this.servable(tx, scope)) ? this.nodesIn(tx, scope, [...ids]) : []));
  }

  async edgesByIds(scope: CaseScope, ids: readonly string[]): Promise<GraphEdgeRecord[]> {
    if (!ids.length) return [];
    await this.readyForReads();
    return this.conn.read(async (tx) => {
      if (!(await this.servable(tx, scope))) return [];
      const res = await tx.run(Q.edgesByIds, { caseId: scope.caseId, tenantId: scope.tenantId, ids: [...ids] });
      return res.records.map(toEdgeRecord);
    });
  }

  private async nodesIn(tx: ManagedTransaction, scope: CaseScope, ids: string[]): Promise<GraphNodeRecord[]> {
    if (!ids.length) return [];
    const res = await tx.run(Q.nodesIn, { caseId: scope.caseId, tenantId: scope.tenantId, ids });
    return res.records.map((r) => toNode(r.get("node")));
  }

  /**
   * Whether this case may be read here: false (empty results) when Neo4j holds the case under another tenant;
   * CG-GRAPH-005 when it holds no graph for it or a write to it was interrupted (and requireLoaded is on).
   */
  private async servable(tx: ManagedTransaction, scope: CaseScope): Promise<boolean> {
    const res = await tx.run(Q.state, { caseId: scope.caseId });
    const r = res.records[0];
    const tenantId = r?.get("tenantId") as string | null;
    if (tenantId !== null && tenantId !== scope.tenantId) return false;
    if (!this.requireLoaded) return true;
    if (tenantId === null) {
      throw new CasegraphError(
        "CG-GRAPH-005",
        `Neo4j holds no graph for case "${scope.caseId}"; run \`casegraph graph sync --case ${scope.caseId}\`.`,
      );
    }
    if (r.get("state") !== "ready" && r.get("expired")) {
      throw new CasegraphError(
        "CG-GRAPH-005",
        `A write to the Neo4j graph of case "${scope.caseId}" was interrupted; run \`casegraph graph sync --case ${scope.caseId}\`.`,
      );
    }
    return true;
  }
}
