// CaseGraphStore on Neo4j (neo4j-driver 6). Same contract as the PostgreSQL store (lib/ports.ts), built from the same
// store-independent rules (lib/domain/graph-contract.ts): seed matching and ranking, id order, and the bounded
// breadth-first expansion with its caps.
//
// Data model (every name below is a fixed string in this file; data only ever travels as query parameters):
//   (:CaseNode {tenantId, caseId, id, label, name, nameLower, properties, classification, needToKnow,
//               tokens, searchText, scope, idKey, stamp})
//   (source:CaseNode)-[:EDGE {tenantId, caseId, id, type, properties, classification, needToKnow, idKey, stamp}]->(target)
//   (:CaseGraph {caseId, tenantId, state: "ready" | "writing", leaseUntil, updatedAt})   one per case held here
// The bundle's node label and edge type are properties, not Neo4j labels/types, so no Cypher is ever built from data.
// `properties` is the JSON text of the item's properties; `tokens` its search tokens (name, id, label), `searchText`
// the same tokens space-joined for the full-text index, `scope` a digest of tenant+case for that index, `idKey` the
// hex of the id's UTF-8 bytes so ORDER BY idKey is code point order (Cypher compares strings by UTF-16 unit).
//
// Schema (applied idempotently before first use): uniqueness of (caseId, id) for nodes and for relationships (a
// composite uniqueness constraint: NODE KEY needs Enterprise), uniqueness of CaseGraph.caseId, a range index on
// CaseNode(caseId, nameLower), and a full-text index (whitespace analyzer) on searchText + scope. A whole case is
// found through the (caseId, id) constraint's index: `caseId = $c AND id IS NOT NULL` is a prefix seek on it.
import { createHash } from "node:crypto";
import neo4j, { type ManagedTransaction, type Record as Neo4jRecord } from "neo4j-driver";
import { CasegraphError } from "../../domain/failure-codes";
import {
  assembleSubgraph, expandFrontier, idSortKey, outlineOf, nodeSearchTokens, propertiesObject, rankSeedCandidates, simpleLower,
  textQueryGroups,
} from "../../domain/graph-contract";
import { CLASSIFICATIONS, readMarking } from "../../domain/markings";
import type {
  CaseGraphStore, CaseOutline, CaseScope, GraphEdgeRecord, GraphNodeRecord, MarkingAudit, SeedCandidate, SeedQuery, Subgraph,
  SubgraphLimits, UnreadableMarkings,
} from "../../ports";
import { connectNeo4j, toGraphError, type Neo4jConfig, type Neo4jConnection } from "./connection";

/** A node or edge as the importer and `graph sync` write it (lib/adapters/prisma/workspace.ts NodeRow/EdgeRow). */
export interface NodeWrite {
  id: string;
  label: string;
  name: string;
  properties: Record<string, unknown>;
  classification: string;
  needToKnow: string[];
}

export interface EdgeWrite {
  id: string;
  source: string;
  target: string;
  type: string;
  properties: Record<string, unknown>;
  classification: string;
  needToKnow: string[];
}

export interface CaseGraphInfo {
  caseId: string;
  tenantId: string;
  state: "ready" | "writing" | "missing";
  /** A "writing" state whose lease ran out: the writer died or failed to clean up. */
  stale: boolean;
}

export interface Neo4jGraphStoreOptions {
  /**
   * Refuse (CG-GRAPH-005) to read a case whose graph Neo4j does not hold in full: never loaded, or an interrupted
   * write. Default true. A scope whose case Neo4j holds under another tenant reads as empty, like PostgreSQL.
   */
  requireLoaded?: boolean;
  /** How long a writer's claim on a case lasts without renewal (each batch renews it). */
  leaseMs?: number;
}

export const SCHEMA_STATEMENTS = [
  "CREATE CONSTRAINT cg_case_node_key IF NOT EXISTS FOR (n:CaseNode) REQUIRE (n.caseId, n.id) IS UNIQUE",
  "CREATE CONSTRAINT cg_case_edge_key IF NOT EXISTS FOR ()-[r:EDGE]-() REQUIRE (r.caseId, r.id) IS UNIQUE",
  "CREATE CONSTRAINT cg_case_graph_key IF NOT EXISTS FOR (g:CaseGraph) REQUIRE g.caseId IS UNIQUE",
  "CREATE INDEX cg_case_node_name IF NOT EXISTS FOR (n:CaseNode) ON (n.caseId, n.nameLower)",
  "CREATE FULLTEXT INDEX cg_case_node_text IF NOT EXISTS FOR (n:CaseNode) ON EACH [n.searchText, n.scope] " +
    "OPTIONS { indexConfig: { `fulltext.analyzer`: 'whitespace', `fulltext.eventually_consistent`: false } }",
];
const FULLTEXT_INDEX = "cg_case_node_text";

const NODE_MAP = "n {.id, .tenantId, .label, .name, .properties, .classification, .needToKnow}";
const EDGE_MAP = "r {.id, .tenantId, .type, .properties, .classification, .needToKnow}";
const DELETE_BATCH = 2_000;
const SCHEMA_WAIT_MS = 15_000;

// The read queries, as constants: the server caches plans by query text, and ensureSchema() compiles each once.
const Q = {
  state: `OPTIONAL MATCH (g:CaseGraph {caseId: $caseId})
    RETURN g.tenantId AS tenantId, g.state AS state, coalesce(g.leaseUntil, 0) < timestamp() AS expired`,
  seedIds: `MATCH (n:CaseNode) WHERE n.caseId = $caseId AND n.id IN $ids AND n.tenantId = $tenantId RETURN ${NODE_MAP} AS node`,
  seedNames: `MATCH (n:CaseNode) WHERE n.caseId = $caseId AND n.nameLower IN $phrases AND n.tenantId = $tenantId
    RETURN ${NODE_MAP} AS node`,
  // The full-text index narrows to nodes of this case holding a whole group; the exact rule (every token of a group
  // among the node's tokens) and the rank are then computed from the stored token list.
  seedText: `CALL db.index.fulltext.queryNodes($index, $lucene) YIELD node AS n
    WHERE n.caseId = $caseId AND n.tenantId = $tenantId
    WITH n, size([g IN $groups WHERE all(t IN g WHERE t IN n.tokens)]) AS rank
    WHERE rank > 0
    RETURN ${NODE_MAP} AS node, rank
    ORDER BY rank DESC, n.idKey
    LIMIT $limit`,
  frontier: `MATCH (n:CaseNode) WHERE n.caseId = $caseId AND n.id IN $frontier AND n.tenantId = $tenantId
    MATCH (n)-[r:EDGE]-()
    WHERE r.caseId = $caseId AND r.tenantId = $tenantId
    WITH DISTINCT r
    RETURN startNode(r).id AS source, endNode(r).id AS target
    ORDER BY r.idKey
    LIMIT $limit`,
  nodesIn: `MATCH (n:CaseNode) WHERE n.caseId = $caseId AND n.id IN $ids AND n.tenantId = $tenantId
    RETURN ${NODE_MAP} AS node ORDER BY n.idKey`,
  edgesAmong: `MATCH (s:CaseNode) WHERE s.caseId = $caseId AND s.id IN $ids AND s.tenantId = $tenantId
    MATCH (s)-[r:EDGE]->(t:CaseNode)
    WHERE t.id IN $ids AND t.caseId = $caseId AND r.caseId = $caseId AND r.tenantId = $tenantId
    RETURN ${EDGE_MAP} AS edge, s.id AS source, t.id AS target
    ORDER BY r.idKey
    LIMIT $limit`,
  outlineNodes: `MATCH (n:CaseNode) WHERE n.caseId = $caseId AND n.id IS NOT NULL AND n.tenantId = $tenantId
    RETURN n {.id, .tenantId, .label, .name, .classification, .needToKnow} AS node ORDER BY n.idKey LIMIT $limit`,
  outlineEdges: `MATCH (s:CaseNode)-[r:EDGE]->(t:CaseNode)
    WHERE r.caseId = $caseId AND r.tenantId = $tenantId
    RETURN r {.id, .tenantId, .type, .classification, .needToKnow} AS edge, s.id AS source, t.id AS target
    ORDER BY r.idKey LIMIT $limit`,
  edgesByIds: `MATCH (s:CaseNode)-[r:EDGE]->(t:CaseNode)
    WHERE r.caseId = $caseId AND r.id IN $ids AND r.tenantId = $tenantId
    RETURN ${EDGE_MAP} AS edge, s.id AS source, t.id AS target
    ORDER BY r.idKey`,
} as const;

// A whole-graph scan: not in Q, so ensureSchema() does not run it at start.
// Readable = what readMarking accepts: a catalogue classification, a list of non-blank strings, a non-blank tenant.
// CASE keeps trim() away from values that are not strings (another tool may have written numbers or maps); coalesce
// makes a null anywhere (a missing property) count as unreadable.
const UNREADABLE_MARKINGS = `CALL () {
      MATCH (n:CaseNode) WHERE n.id IS NOT NULL AND NOT coalesce(
        n.classification IN $canon AND n.tenantId IS :: STRING NOT NULL AND
        CASE WHEN n.tenantId IS :: STRING THEN trim(n.tenantId) <> '' ELSE false END AND
        CASE WHEN n.needToKnow IS :: LIST<STRING NOT NULL> NOT NULL THEN none(t IN n.needToKnow WHERE trim(t) = '') ELSE false END, false)
      RETURN count(n) AS nodes
    }
    CALL () {
      MATCH ()-[r:EDGE]->() WHERE r.id IS NOT NULL AND NOT coalesce(
        r.classification IN $canon AND r.tenantId IS :: STRING NOT NULL AND
        CASE WHEN r.tenantId IS :: STRING THEN trim(r.tenantId) <> '' ELSE false END AND
        CASE WHEN r.needToKnow IS :: LIST<STRING NOT NULL> NOT NULL THEN none(t IN r.needToKnow WHERE trim(t) = '') ELSE false END, false)
      RETURN count(r) AS edges
    }
    RETURN nodes, edges`;

export class Neo4jGraphStore implements CaseGraphStore, MarkingAudit {
  readonly kind = "neo4j" as const;
  private schema: Promise<void> | undefined;
  private readonly requireLoaded: boolean;
  private readonly leaseMs: number;

  constructor(readonly conn: Neo4jConnection, options: Neo4jGraphStoreOptions = {}) {
    this.requireLoaded = options.requireLoaded ?? true;
    this.leaseMs = options.leaseMs ?? 120_000;
  }

  static connect(config: Neo4jConfig, options?: Neo4jGraphStoreOptions): Neo4jGraphStore {
    return new Neo4jGraphStore(connectNeo4j(config), options);
  }

  close(): Promise<void> {
    return this.conn.close();
  }

  /**
   * Before a read: the schema, waited for at most SCHEMA_WAIT_MS (a cold start compiles the plans for a few seconds; a
   * Neo4j that accepts connections but never answers must not hold an answer for minutes). Setup keeps going either way.
   */
  private async readyForReads(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.ensureSchema(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new CasegraphError("CG-GRAPH-001", "Neo4j is still being prepared.")), SCHEMA_WAIT_MS);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Creates the constraints and indexes (idempotent; concurrent starts are fine). Memoised until it fails. */
  ensureSchema(): Promise<void> {
    this.schema ??= this.applySchema().catch((err) => {
      this.schema = undefined;
      throw err;
    });
    return this.schema;
  }

  private async applySchema(): Promise<void> {
    for (const statement of SCHEMA_STATEMENTS) {
      try {
        await this.conn.autoCommit(statement);
      } catch (err) {
        // Another process created the same rule between our IF NOT EXISTS check and the create.
        const cause = (err as { cause?: { code?: string } }).cause;
        if (!/AlreadyExists|EquivalentSchemaRule/.test(cause?.code ?? "")) throw err;
      }
    }
    await this.conn.autoCommit("CALL db.awaitIndexes(300)");
    // Compile every read plan now (a few hundred ms each on a cold server), so no answer pays for it under the read
    // deadline. A case id no bundle can hold (ids are trimmed text) matches nothing.
    const none = { caseId: "\u0000", tenantId: "\u0000", ids: [], phrases: [], frontier: [], groups: [["x"]], limit: neo4j.int(1) };
    await this.conn.read(async (tx) => {
      for (const cypher of Object.values(Q)) {
        await tx.run(cypher, { ...none, index: FULLTEXT_INDEX, lucene: luceneQuery("s0", [["x"]]) });
      }
    }, this.conn.config.writeTimeoutMs);
  }

  /**
   * Nodes and edges whose marking the policy cannot read (lib/domain/markings.ts readMarking): a graph written by
   * another tool may hold any value there. Counted for operators (health, `graph status`); bounded by `timeoutMs`.
   */
  async unreadableMarkings(timeoutMs = this.conn.config.writeTimeoutMs): Promise<UnreadableMarkings> {
    const res = await this.conn.read(
      (tx) => tx.run(UNREADABLE_MARKINGS, { canon: [...CLASSIFICATIONS] }),
      timeoutMs,
    );
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
          ...params, index: FULLTEXT_INDEX, lucene: luceneQuery(scopeKey(scope), groups), groups, limit: neo4j.int(query.limit),
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
      return outlineOf(nodes.records.map((r) => toNode(r.get("node"))), edges.records.map(toEdgeRecord), limits);
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
      throw new CasegraphError("CG-GRAPH-005", `Neo4j holds no graph for case "${scope.caseId}"; run \`casegraph graph sync --case ${scope.caseId}\`.`);
    }
    if (r.get("state") !== "ready" && r.get("expired")) {
      throw new CasegraphError("CG-GRAPH-005", `A write to the Neo4j graph of case "${scope.caseId}" was interrupted; run \`casegraph graph sync --case ${scope.caseId}\`.`);
    }
    return true;
  }

  // -------------------------------------------------------------------------------------------------------------
  // Writes (import mirror, `graph sync`): batches through UNWIND, idempotent (MERGE on caseId + id).

  /** The state of each case (missing when Neo4j holds nothing for it). */
  async caseStates(caseIds: readonly string[]): Promise<Map<string, CaseGraphInfo>> {
    await this.ensureSchema();
    const res = await this.conn.read((tx) =>
      tx.run(
        `UNWIND $caseIds AS caseId
         OPTIONAL MATCH (g:CaseGraph {caseId: caseId})
         RETURN caseId, g.tenantId AS tenantId, g.state AS state, coalesce(g.leaseUntil, 0) < timestamp() AS expired`,
        { caseIds: [...caseIds] },
      ),
    );
    return new Map(
      res.records.map((r) => {
        const caseId = r.get("caseId") as string;
        const state = (r.get("state") as CaseGraphInfo["state"] | null) ?? "missing";
        return [caseId, { caseId, tenantId: (r.get("tenantId") as string | null) ?? "", state, stale: state === "writing" && Boolean(r.get("expired")) }];
      }),
    );
  }

  /** Every case Neo4j holds a state or nodes for. */
  async listCases(): Promise<CaseGraphInfo[]> {
    await this.ensureSchema();
    const res = await this.conn.read(
      (tx) =>
        tx.run(
          `MATCH (n:CaseNode) WITH DISTINCT n.caseId AS caseId
           RETURN caseId UNION MATCH (g:CaseGraph) RETURN g.caseId AS caseId`,
        ),
      this.conn.config.writeTimeoutMs,
    );
    const states = await this.caseStates(res.records.map((r) => r.get("caseId") as string));
    return [...states.values()];
  }

  /** Claims a case for writing: readers keep reading it while the lease is renewed, and refuse it once it lapses. */
  async beginWrite(scope: CaseScope): Promise<void> {
    await this.ensureSchema();
    await this.conn.write((tx) =>
      tx.run(
        `MERGE (g:CaseGraph {caseId: $caseId})
         SET g.tenantId = $tenantId, g.state = 'writing', g.leaseUntil = timestamp() + $leaseMs, g.updatedAt = timestamp()`,
        { ...scope, leaseMs: neo4j.int(this.leaseMs) },
      ),
    );
  }

  /** Marks cases as holding their full graph. */
  async markReady(scopes: readonly CaseScope[]): Promise<void> {
    if (!scopes.length) return;
    await this.ensureSchema();
    await this.conn.write((tx) =>
      tx.run(
        `UNWIND $scopes AS s
         MERGE (g:CaseGraph {caseId: s.caseId})
         SET g.tenantId = s.tenantId, g.state = 'ready', g.leaseUntil = null, g.updatedAt = timestamp()`,
        { scopes: scopes.map((s) => ({ caseId: s.caseId, tenantId: s.tenantId })) },
      ),
    );
  }

  /**
   * Writes nodes (one transaction per call), marked with `stamp` for a later sweep, and renews the case's lease.
   * Upserts (MERGE on caseId + id); with `fresh` — the case holds nothing in Neo4j yet — plain CREATE, which is faster
   * (the uniqueness constraint still refuses a duplicate).
   */
  async writeNodes(scope: CaseScope, rows: readonly NodeWrite[], stamp: string, options: { fresh?: boolean } = {}): Promise<number> {
    if (!rows.length) return 0;
    await this.ensureSchema();
    const key = scopeKey(scope);
    const props = rows.map((n) => {
      const tokens = nodeSearchTokens(n);
      return {
        caseId: scope.caseId, tenantId: scope.tenantId, id: n.id, label: n.label, name: n.name, nameLower: simpleLower(n.name),
        properties: JSON.stringify(n.properties ?? {}), classification: n.classification, needToKnow: [...n.needToKnow],
        tokens, searchText: tokens.join(" "), scope: key, idKey: idSortKey(n.id), stamp,
      };
    });
    return this.conn.write(async (tx) => {
      const res = await tx.run(
        options.fresh
          ? `UNWIND $rows AS row CREATE (n:CaseNode) SET n = row RETURN count(n) AS written`
          : `UNWIND $rows AS row MERGE (n:CaseNode {caseId: $caseId, id: row.id}) SET n = row RETURN count(n) AS written`,
        { caseId: scope.caseId, rows: props },
      );
      await this.renewLease(tx, scope);
      return Number(res.records[0]?.get("written") ?? 0);
    });
  }

  /**
   * Writes edges between nodes already written (one transaction per call), like writeNodes: upserts, replacing an
   * edge whose endpoints changed; with `fresh`, plain CREATE. Throws CG-GRAPH-004 when an endpoint is not in Neo4j
   * (the batch is rolled back).
   */
  async writeEdges(scope: CaseScope, rows: readonly EdgeWrite[], stamp: string, options: { fresh?: boolean } = {}): Promise<number> {
    if (!rows.length) return 0;
    await this.ensureSchema();
    const params = {
      caseId: scope.caseId, tenantId: scope.tenantId,
      rows: rows.map((e) => ({
        source: e.source, target: e.target,
        props: {
          caseId: scope.caseId, tenantId: scope.tenantId, id: e.id, type: e.type, properties: JSON.stringify(e.properties ?? {}),
          classification: e.classification, needToKnow: [...e.needToKnow], idKey: idSortKey(e.id), stamp,
        },
      })),
    };
    return this.conn.write(async (tx) => {
      if (!options.fresh) {
        await tx.run(
          `UNWIND $rows AS row
           MATCH (a:CaseNode)-[old:EDGE {caseId: $caseId, id: row.props.id}]->(b:CaseNode)
           WHERE a.id <> row.source OR b.id <> row.target
           DELETE old`,
          params,
        );
      }
      const res = await tx.run(
        `UNWIND $rows AS row
         MATCH (s:CaseNode {caseId: $caseId, id: row.source})
         MATCH (t:CaseNode {caseId: $caseId, id: row.target})
         WHERE s.tenantId = $tenantId AND t.tenantId = $tenantId
         ${options.fresh ? "CREATE (s)-[r:EDGE]->(t)" : "MERGE (s)-[r:EDGE {caseId: $caseId, id: row.props.id}]->(t)"}
         SET r = row.props
         RETURN count(r) AS written`,
        params,
      );
      const written = Number(res.records[0]?.get("written") ?? 0);
      if (written !== rows.length) {
        throw new CasegraphError("CG-GRAPH-004", `Neo4j lacks ${rows.length - written} edge endpoint(s) of case "${scope.caseId}".`);
      }
      await this.renewLease(tx, scope);
      return written;
    });
  }

  private async renewLease(tx: ManagedTransaction, scope: CaseScope) {
    await tx.run(
      `MATCH (g:CaseGraph {caseId: $caseId}) WHERE g.state = 'writing' SET g.leaseUntil = timestamp() + $leaseMs`,
      { caseId: scope.caseId, leaseMs: neo4j.int(this.leaseMs) },
    );
  }

  /** Deletes the case's nodes and edges not written with `stamp` (and any held under another tenant), in batches. */
  async sweep(scope: CaseScope, stamp: string): Promise<{ nodes: number; edges: number }> {
    await this.ensureSchema();
    const edges = await this.batched(
      `MATCH (n:CaseNode)-[r:EDGE]->() WHERE n.caseId = $caseId AND n.id IS NOT NULL
       AND (r.stamp <> $stamp OR r.tenantId <> $tenantId OR r.stamp IS NULL)
       WITH r LIMIT $batch DELETE r RETURN count(*) AS deleted`,
      { ...scope, stamp },
    );
    const nodes = await this.batched(
      `MATCH (n:CaseNode) WHERE n.caseId = $caseId AND n.id IS NOT NULL
       AND (n.stamp <> $stamp OR n.tenantId <> $tenantId OR n.stamp IS NULL)
       WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS deleted`,
      { ...scope, stamp },
    );
    return { nodes, edges };
  }

  /** Removes everything Neo4j holds for a case (any tenant), in batches. */
  async deleteCase(caseId: string): Promise<number> {
    await this.ensureSchema();
    const nodes = await this.batched(
      `MATCH (n:CaseNode) WHERE n.caseId = $caseId AND n.id IS NOT NULL WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS deleted`,
      { caseId },
    );
    await this.conn.write((tx) => tx.run(`MATCH (g:CaseGraph {caseId: $caseId}) DELETE g`, { caseId }));
    return nodes;
  }

  /** Node and edge counts of a case as Neo4j holds it. */
  async counts(scope: CaseScope): Promise<{ nodes: number; edges: number }> {
    await this.ensureSchema();
    return this.conn.read(async (tx) => {
      const n = await tx.run(`MATCH (n:CaseNode) WHERE n.caseId = $caseId AND n.id IS NOT NULL AND n.tenantId = $tenantId RETURN count(n) AS c`, scope);
      const e = await tx.run(
        `MATCH (n:CaseNode)-[r:EDGE]->() WHERE n.caseId = $caseId AND n.id IS NOT NULL AND r.tenantId = $tenantId RETURN count(r) AS c`,
        scope,
      );
      return { nodes: Number(n.records[0].get("c")), edges: Number(e.records[0].get("c")) };
    }, this.conn.config.writeTimeoutMs);
  }

  private async batched(cypher: string, params: Record<string, unknown>): Promise<number> {
    let total = 0;
    for (;;) {
      const res = await this.conn.write((tx) => tx.run(cypher, { ...params, batch: neo4j.int(DELETE_BATCH) }));
      const deleted = Number(res.records[0]?.get("deleted") ?? 0);
      total += deleted;
      if (deleted < DELETE_BATCH) return total;
    }
  }
}

/** The value of a node's `scope` property: a digest of tenant and case, one term for the full-text index. */
export function scopeKey(scope: CaseScope): string {
  return "s" + createHash("sha256").update(`${scope.tenantId}\u0000${scope.caseId}`).digest("hex").slice(0, 32);
}

/**
 * The Lucene query for the text seeds: this case's scope term AND, for some group, every token of it. Tokens never
 * contain a quote, a backslash or whitespace (they are separators), so each is safe as a quoted term.
 */
export function luceneQuery(scope: string, groups: readonly string[][]): string {
  const any = groups.map((g) => `(${g.map((t) => `searchText:"${t}"`).join(" AND ")})`).join(" OR ");
  return `scope:${scope} AND (${any})`;
}

interface NodeMap {
  id: string;
  tenantId: string;
  label: string;
  name: string;
  properties: string | null;
  classification: unknown;
  needToKnow: unknown;
}

function toNode(m: NodeMap): GraphNodeRecord {
  return {
    id: m.id,
    label: m.label,
    name: m.name,
    properties: propertiesObject(m.properties),
    // Another tool may have written anything here; readMarking turns what it cannot read into a denial.
    ...readMarking(m),
  };
}

function toEdgeRecord(r: Neo4jRecord): GraphEdgeRecord {
  const m = r.get("edge") as Omit<NodeMap, "label" | "name"> & { type: string };
  return {
    id: m.id,
    source: r.get("source") as string,
    target: r.get("target") as string,
    type: m.type,
    properties: propertiesObject(m.properties),
    ...readMarking(m),
  };
}

