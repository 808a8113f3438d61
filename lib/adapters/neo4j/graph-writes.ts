// The write side of the Neo4j case graph, used by the importer's mirror and `graph sync` (lib/adapters/neo4j/sync.ts):
// batches through UNWIND, idempotent (MERGE on caseId + id), each case claimed with a lease while it is written so
// readers refuse a half-written graph (CG-GRAPH-005), and swept of what a rewrite no longer holds.
import "server-only";
import neo4j, { type ManagedTransaction } from "neo4j-driver";
import { CasegraphError } from "../../domain/failure-codes";
import { idSortKey, nodeSearchTokens, simpleLower } from "../../domain/graph-contract";
import type { CaseScope } from "../../ports";
import type { Neo4jConnection } from "./connection";
import { DELETE_BATCH, scopeKey } from "./cypher";

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

export class Neo4jGraphWrites {
  /** `ready` applies the schema (memoised by the store) before the first write. */
  constructor(
    protected readonly conn: Neo4jConnection,
    private readonly ready: () => Promise<void>,
    private readonly leaseMs: number,
  ) {}

  /** The state of each case (missing when Neo4j holds nothing for it). */
  async caseStates(caseIds: readonly string[]): Promise<Map<string, CaseGraphInfo>> {
    await this.ready();
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
        return [
          caseId,
          { caseId, tenantId: (r.get("tenantId") as string | null) ?? "", state, stale: state === "writing" && Boolean(r.get("expired")) },
        ];
      }),
    );
  }

  /** Every case Neo4j holds a state or nodes for. */
  async listCases(): Promise<CaseGraphInfo[]> {
    await this.ready();
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
    await this.ready();
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
    await this.ready();
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
    await this.ready();
    const key = scopeKey(scope);
    const props = rows.map((n) => {
      const tokens = nodeSearchTokens(n);
      return {
        caseId: scope.caseId,
        tenantId: scope.tenantId,
        id: n.id,
        label: n.label,
        name: n.name,
        nameLower: simpleLower(n.name),
        properties: JSON.stringify(n.properties ?? {}),
        classification: n.classification,
        needToKnow: [...n.needToKnow],
        tokens,
        searchText: tokens.join(" "),
        scope: key,
        idKey: idSortKey(n.id),
        stamp,
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
    await this.ready();
    const params = {
      caseId: scope.caseId,
      tenantId: scope.tenantId,
      rows: rows.map((e) => ({
        source: e.source,
        target: e.target,
        props: {
          caseId: scope.caseId,
          tenantId: scope.tenantId,
          id: e.id,
          type: e.type,
          properties: JSON.stringify(e.properties ?? {}),
          classification: e.classification,
          needToKnow: [...e.needToKnow],
          idKey: idSortKey(e.id),
          stamp,
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
    await tx.run(`MATCH (g:CaseGraph {caseId: $caseId}) WHERE g.state = 'writing' SET g.leaseUntil = timestamp() + $leaseMs`, {
      caseId: scope.caseId,
      leaseMs: neo4j.int(this.leaseMs),
    });
  }

  /** Deletes the case's nodes and edges not written with `stamp` (and any held under another tenant), in batches. */
  async sweep(scope: CaseScope, stamp: string): Promise<{ nodes: number; edges: number }> {
    await this.ready();
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
    await this.ready();
    const nodes = await this.batched(
      `MATCH (n:CaseNode) WHERE n.caseId = $caseId AND n.id IS NOT NULL WITH n LIMIT $batch DETACH DELETE n RETURN count(*) AS deleted`,
      { caseId },
    );
    await this.conn.write((tx) => tx.run(`MATCH (g:CaseGraph {caseId: $caseId}) DELETE g`, { caseId }));
    return nodes;
  }

  /** Node and edge counts of a case as Neo4j holds it. */
  async counts(scope: CaseScope): Promise<{ nodes: number; edges: number }> {
    await this.ready();
    return this.conn.read(async (tx) => {
      const n = await tx.run(
        `MATCH (n:CaseNode) WHERE n.caseId = $caseId AND n.id IS NOT NULL AND n.tenantId = $tenantId RETURN count(n) AS c`,
        scope,
      );
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
