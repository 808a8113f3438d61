// PostgreSQL → Neo4j: the import as one unit of work across both, and `casegraph graph sync` (rebuild a case graph in
// Neo4j from PostgreSQL, the source of truth, for disaster recovery).
//
// Import: importBundle() calls mirrorGraph inside its PostgreSQL transaction for every batch of nodes or edges, and
// the batch goes to Neo4j there and then (MERGE on caseId + id, so writing a batch twice changes nothing). If Neo4j
// fails, the mirror throws CG-GRAPH-004, PostgreSQL rolls back, and each case the import had touched in Neo4j is
// rebuilt from PostgreSQL (as it was) — so Neo4j ends as it was too. If that rebuild cannot run (Neo4j is down), the
// case keeps its "writing" mark in Neo4j; once its lease lapses the store refuses to read it (CG-GRAPH-005) until a
// later import or `graph sync` rewrites it. Running the import again after a failure therefore succeeds and leaves the
// same state as a first successful run.
import "server-only";
import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../../generated/prisma/client";
import { Prisma } from "../../generated/prisma/client";
import { CasegraphError, FAILURES } from "../../domain/failure-codes";
import { propertiesObject } from "../../domain/graph-contract";
import type { CaseScope } from "../../ports";
import type { Database } from "../prisma/db";
import { importBundle, type GraphRows, type ImportOptions, type ImportSummary } from "../prisma/workspace";
import type { EdgeWrite, Neo4jGraphStore, NodeWrite } from "./graph-store";

export const SYNC_PAGE = 5_000;

/**
 * Write transactions run side by side for one batch. Measured on the 2-core machine (20k nodes, 100k edges, fresh
 * case): one at a time ~9.5k rows/s, three ~16k rows/s, four no better — Neo4j's commit work is what they overlap.
 */
export const WRITE_LANES = 3;
const MIN_LANE_ROWS = 250;
const DEADLOCK = "Neo.TransientError.Transaction.DeadlockDetected";

/**
 * Writes `rows` as up to WRITE_LANES concurrent transactions and returns the rows written. Returns only when every
 * lane has settled (a caller that cleans up after a failure must not race a lane still writing). A lane Neo4j
 * aborted as a deadlock victim is rolled back whole, so it is written again, alone.
 */
export async function writeInLanes<T>(rows: readonly T[], write: (part: T[]) => Promise<number>): Promise<number> {
  if (!rows.length) return 0;
  const size = Math.max(MIN_LANE_ROWS, Math.ceil(rows.length / WRITE_LANES));
  const parts: T[][] = [];
  for (let i = 0; i < rows.length; i += size) parts.push(rows.slice(i, i + size));
  const settled = await Promise.allSettled(parts.map(write));
  let written = 0;
  for (let i = 0; i < parts.length; i++) {
    const r = settled[i];
    if (r.status === "fulfilled") written += r.value;
    else if (isDeadlock(r.reason)) written += await retryAlone(() => write(parts[i]));
    else throw r.reason;
  }
  return written;
}

async function retryAlone(write: () => Promise<number>, attempts = 3): Promise<number> {
  for (let k = 1; ; k++) {
    try {
      return await write();
    } catch (err) {
      if (k >= attempts || !isDeadlock(err)) throw err;
    }
  }
}

function isDeadlock(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.code === DEADLOCK) return true;
  }
  return false;
}

export interface SyncResult {
  caseId: string;
  tenantId: string | null;
  /** The case no longer exists in PostgreSQL: its Neo4j graph was deleted. */
  deleted: boolean;
  nodes: number;
  edges: number;
  removed: { nodes: number; edges: number };
  seconds: number;
}

/** Rebuilds one case's graph in Neo4j from PostgreSQL: upsert every node and edge, then sweep what PostgreSQL lacks. */
export async function syncCase(prisma: PrismaClient, store: Neo4jGraphStore, caseId: string): Promise<SyncResult> {
  const started = performance.now();
  const found = await prisma.case.findUnique({ where: { id: caseId }, select: { id: true, tenantId: true } });
  if (!found) {
    const removed = await store.writes.deleteCase(caseId);
    return {
      caseId,
      tenantId: null,
      deleted: true,
      nodes: 0,
      edges: 0,
      removed: { nodes: removed, edges: 0 },
      seconds: secondsSince(started),
    };
  }
  const scope: CaseScope = { caseId, tenantId: found.tenantId };
  const stamp = randomUUID();
  await store.writes.beginWrite(scope);
  let nodes = 0,
    edges = 0;
  for await (const page of pages<NodeWrite>(
    prisma,
    (after) => Prisma.sql`
      SELECT id, label, name, properties, classification::text AS classification, need_to_know AS "needToKnow"
      FROM "graph_node" WHERE case_id = ${caseId} AND id > ${after} ORDER BY id LIMIT ${SYNC_PAGE}`,
  )) {
    nodes += await writeInLanes(page.map(asNode), (part) => store.writes.writeNodes(scope, part, stamp));
  }
  for await (const page of pages<EdgeWrite>(
    prisma,
    (after) => Prisma.sql`
      SELECT id, source, target, type, properties, classification::text AS classification, need_to_know AS "needToKnow"
      FROM "graph_edge" WHERE case_id = ${caseId} AND id > ${after} ORDER BY id LIMIT ${SYNC_PAGE}`,
  )) {
    edges += await writeInLanes(page.map(asEdge), (part) => store.writes.writeEdges(scope, part, stamp));
  }
  const removed = await store.writes.sweep(scope, stamp);
  await store.writes.markReady([scope]);
  return { caseId, tenantId: scope.tenantId, deleted: false, nodes, edges, removed, seconds: secondsSince(started) };
}

/** Every case of PostgreSQL, plus removal of the cases Neo4j holds that PostgreSQL no longer has. */
export async function syncAll(prisma: PrismaClient, store: Neo4jGraphStore, onCase?: (r: SyncResult) => void): Promise<SyncResult[]> {
  const cases = (await prisma.case.findMany({ select: { id: true }, orderBy: { id: "asc" } })).map((c) => c.id);
  const known = new Set(cases);
  const orphans = (await store.writes.listCases())
    .map((c) => c.caseId)
    .filter((id) => !known.has(id))
    .sort();
  const out: SyncResult[] = [];
  for (const id of [...cases, ...orphans]) {
    const r = await syncCase(prisma, store, id);
    onCase?.(r);
    out.push(r);
  }
  return out;
}

async function* pages<T extends { id: string }>(prisma: PrismaClient, query: (after: string) => Prisma.Sql): AsyncGenerator<T[]> {
  let after = "";
  for (;;) {
    const rows = await prisma.$queryRaw<T[]>(query(after));
    if (rows.length) yield rows;
    if (rows.length < SYNC_PAGE) return;
    after = rows[rows.length - 1].id;
  }
}

const asNode = (r: NodeWrite): NodeWrite => ({ ...r, properties: propertiesObject(r.properties), needToKnow: r.needToKnow ?? [] });
const asEdge = (r: EdgeWrite): EdgeWrite => ({ ...r, properties: propertiesObject(r.properties), needToKnow: r.needToKnow ?? [] });

const secondsSince = (t: number) => Number(((performance.now() - t) / 1000).toFixed(3));

// ---------------------------------------------------------------------------------------------------------------
// Import into PostgreSQL and Neo4j as one unit

export interface GraphImportReport {
  /** Seconds spent writing to Neo4j inside the import (the rest is PostgreSQL, validation and hashing). */
  neo4jSeconds: number;
  /** Cases rebuilt from PostgreSQL after the import because Neo4j did not hold them fully before it. */
  rebuilt: string[];
}

export async function importBundleWithGraph(
  db: Database,
  raw: unknown,
  store: Neo4jGraphStore,
  options: Omit<ImportOptions, "mirrorGraph"> = {},
): Promise<ImportSummary & { graph: GraphImportReport }> {
  const { result, graph } = await mirroredGraphWrite(db, store, caseIdsOf(raw), (mirrorGraph) =>
    importBundle(db, raw, { ...options, mirrorGraph }),
  );
  return { ...result, graph };
}

/**
 * Runs a PostgreSQL write (`run`, one transaction) that calls `mirrorGraph` inside that transaction for each batch of
 * graph rows of the cases `caseIds`: the rows go to Neo4j there and then, so the two are one unit of work. The import
 * and document ingest (issue 17) both write through this. On failure PostgreSQL has rolled back and every case touched
 * in Neo4j is rebuilt from PostgreSQL; on success a case Neo4j held in full before (or new) is marked ready, any other
 * rebuilt from PostgreSQL.
 */
export async function mirroredGraphWrite<T>(
  db: Database,
  store: Neo4jGraphStore,
  caseIds: readonly string[],
  run: (mirrorGraph: (rows: GraphRows) => Promise<void>) => Promise<T>,
): Promise<{ result: T; graph: GraphImportReport }> {
  // Which cases PostgreSQL holds already (read before the write's transaction opens), and — on the first batch, after
  // the input validated — which of them Neo4j holds in full. A dead Neo4j fails that first batch: nothing is written.
  const existing = new Set((await db.prisma.case.findMany({ where: { id: { in: [...caseIds] } }, select: { id: true } })).map((c) => c.id));
  let priorStates: ReturnType<Neo4jGraphStore["writes"]["caseStates"]> | undefined;
  const priorOf = () => (priorStates ??= store.writes.caseStates(caseIds));
  const stamp = randomUUID();
  const touched = new Map<string, CaseScope>();
  let neo4jMs = 0;

  const mirrorGraph = async (rows: GraphRows) => {
    const t = performance.now();
    const scope: CaseScope = { caseId: rows.caseId, tenantId: rows.tenantId };
    try {
      await priorOf();
      if (!touched.has(scope.caseId)) {
        touched.set(scope.caseId, scope);
        // A case new to PostgreSQL must not inherit leftovers of an earlier life in Neo4j.
        if (!existing.has(scope.caseId)) await store.writes.deleteCase(scope.caseId);
        await store.writes.beginWrite(scope);
      }
      // A case new to PostgreSQL holds nothing in Neo4j now (leftovers were just deleted): plain CREATEs.
      const fresh = !existing.has(scope.caseId);
      await writeInLanes(rows.nodes, (part) => store.writes.writeNodes(scope, part, stamp, { fresh }));
      await writeInLanes(rows.edges, (part) => store.writes.writeEdges(scope, part, stamp, { fresh }));
    } catch (err) {
      throw graphWriteError(err);
    } finally {
      neo4jMs += performance.now() - t;
    }
  };

  let result: T;
  try {
    result = await run(mirrorGraph);
  } catch (err) {
    // PostgreSQL rolled back; put every touched case back to what PostgreSQL holds (deleted if it is not there).
    for (const caseId of touched.keys()) {
      await syncCase(db.prisma, store, caseId).catch(() => {
        // Neo4j is unreachable: the case stays marked "writing" and is refused once its lease lapses (CG-GRAPH-005).
      });
    }
    throw err;
  }

  // PostgreSQL committed. A case Neo4j held in full before (or that is new) now holds exactly what PostgreSQL does;
  // any other (never loaded, or left half-written by an earlier failure) is rebuilt from PostgreSQL.
  const ready: CaseScope[] = [];
  const rebuilt: string[] = [];
  try {
    const prior = await priorOf();
    const tenants = new Map(
      (await db.prisma.case.findMany({ where: { id: { in: [...caseIds] } }, select: { id: true, tenantId: true } })).map((c) => [
        c.id,
        c.tenantId,
      ]),
    );
    for (const caseId of caseIds) {
      const tenantId = tenants.get(caseId);
      if (tenantId === undefined) continue; // not written (a document that was a duplicate, a case the write did not create)
      const before = prior.get(caseId);
      const isNew = !existing.has(caseId);
      if (isNew && !touched.has(caseId)) await store.writes.deleteCase(caseId); // a new case without nodes: an empty graph
      if (isNew || (before?.state === "ready" && before.tenantId === tenantId)) ready.push({ caseId, tenantId });
      else {
        await syncCase(db.prisma, store, caseId);
        rebuilt.push(caseId);
      }
    }
    await store.writes.markReady(ready);
  } catch (err) {
    throw new CasegraphError(
      "CG-GRAPH-004",
      "The write was saved in PostgreSQL, but Neo4j failed before it confirmed the case graphs; run `casegraph graph sync --all`.",
      [],
      { cause: err },
    );
  }
  return { result, graph: { neo4jSeconds: Number((neo4jMs / 1000).toFixed(3)), rebuilt } };
}

function graphWriteError(err: unknown): CasegraphError {
  if (err instanceof CasegraphError && err.code === "CG-GRAPH-004") return err;
  const code = err instanceof CasegraphError ? err.code : "CG-GRAPH-002";
  return new CasegraphError("CG-GRAPH-004", undefined, [{ code, message: FAILURES[code].message }], { cause: err });
}

/** Case ids named by a bundle (validated by importBundle itself; unknown shapes give none). */
function caseIdsOf(raw: unknown): string[] {
  const cases = (raw as { cases?: unknown })?.cases;
  if (!Array.isArray(cases)) return [];
  return [
    ...new Set(
      cases
        .map((c) => (c as { id?: unknown })?.id)
        .filter((id): id is string => typeof id === "string")
        .map((id) => id.trim()),
    ),
  ];
}
