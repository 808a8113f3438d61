// Which case-graph store this process uses: Neo4j when NEO4J_URI is set, otherwise the PostgreSQL tables. The Neo4j
// store (its driver and connection pool) is one per process and configuration; closeGraphStores() ends it.
// With Neo4j configured, every import goes through importWorkspace(): PostgreSQL and Neo4j as one unit of work.
import "server-only";
import type { Env } from "../../env";
import { connectNeo4j, type Neo4jConfig } from "../../adapters/neo4j/connection";
import { Neo4jGraphStore } from "../../adapters/neo4j/graph-store";
import { importBundleWithGraph } from "../../adapters/neo4j/sync";
import type { Database } from "../../adapters/prisma/db";
import { importBundle, type ImportOptions, type ImportSummary } from "../../adapters/prisma/workspace";
import { PrismaEvidenceStore } from "../../adapters/prisma/evidence-store";
import { PrismaGraphStore } from "../../adapters/prisma/graph-store";
import type { UnreadableMarkings } from "../../ports";

export type GraphEnv = Partial<Pick<Env, "NEO4J_URI" | "NEO4J_USER" | "NEO4J_PASSWORD" | "NEO4J_DATABASE" | "NEO4J_TIMEOUT_MS">>;

export function neo4jConfigOf(e: GraphEnv): Neo4jConfig | undefined {
  if (!e.NEO4J_URI) return undefined;
  return {
    uri: e.NEO4J_URI,
    user: e.NEO4J_USER,
    password: e.NEO4J_PASSWORD,
    database: e.NEO4J_DATABASE,
    readTimeoutMs: e.NEO4J_TIMEOUT_MS,
  };
}

const storesKey = Symbol.for("casegraph.neo4jStores");
type Holder = { [storesKey]?: Map<string, Neo4jGraphStore> };

/** The process's Neo4j store for this configuration, or undefined when NEO4J_URI is not set. */
export function configuredNeo4jStore(e: GraphEnv): Neo4jGraphStore | undefined {
  const config = neo4jConfigOf(e);
  if (!config) return undefined;
  const holder = globalThis as Holder;
  const stores = (holder[storesKey] ??= new Map());
  const key = JSON.stringify([config.uri, config.user ?? "", config.password ?? "", config.database ?? "", config.readTimeoutMs ?? 0]);
  let store = stores.get(key);
  if (!store) {
    store = new Neo4jGraphStore(connectNeo4j(config));
    stores.set(key, store);
  }
  return store;
}

/** Closes every Neo4j driver this process opened (the CLI calls it before exiting, through closeRuntime). */
export async function closeGraphStores(): Promise<void> {
  const holder = globalThis as Holder;
  const stores = holder[storesKey];
  delete holder[storesKey];
  if (stores) await Promise.all([...stores.values()].map((s) => s.close().catch(() => {})));
}

export type WorkspaceImport = ImportSummary & { graph?: { neo4jSeconds: number; rebuilt: string[] } };

/** importBundle, mirrored into Neo4j when it is configured (lib/adapters/neo4j/sync.ts: one unit of work). */
export async function importWorkspace(
  db: Database,
  raw: unknown,
  e: GraphEnv,
  options: Omit<ImportOptions, "mirrorGraph"> = {},
): Promise<WorkspaceImport> {
  const store = configuredNeo4jStore(e);
  return store ? importBundleWithGraph(db, raw, store, options) : importBundle(db, raw, options);
}

/**
 * Items whose markings the policy cannot read, in the stores this process reads: the graph from Neo4j when it is
 * configured (else the PostgreSQL tables), evidence from PostgreSQL. They are denied to everyone; operators see how
 * many there are (health, `graph status`) and fix them at the source.
 */
export async function unreadableMarkings(db: Database, e: GraphEnv, timeoutMs?: number): Promise<Required<UnreadableMarkings>> {
  const neo4j = configuredNeo4jStore(e);
  const [graph, evidence] = await Promise.all([
    neo4j ? neo4j.unreadableMarkings(timeoutMs) : new PrismaGraphStore(db.prisma).unreadableMarkings(),
    new PrismaEvidenceStore(db.prisma).unreadableMarkings(),
  ]);
  return { nodes: graph.nodes ?? 0, edges: graph.edges ?? 0, evidence: evidence.evidence ?? 0 };
}

export interface GraphHealth {
  ok: boolean;
  kind: "postgresql" | "neo4j";
  latencyMs?: number;
  error?: string;
}

/** Health of the graph store: Neo4j is pinged (bounded); the PostgreSQL graph is as healthy as the database. */
export async function checkGraphStore(e: GraphEnv, databaseOk: boolean, timeoutMs = 1_500): Promise<GraphHealth> {
  let store: Neo4jGraphStore | undefined;
  try {
    store = configuredNeo4jStore(e);
  } catch {
    return { ok: false, kind: "neo4j", error: "CG-GRAPH-002" };
  }
  if (!store) return databaseOk ? { ok: true, kind: "postgresql" } : { ok: false, kind: "postgresql", error: "CG-SYS-001" };
  return { kind: "neo4j", ...(await store.ping(timeoutMs)) };
}
