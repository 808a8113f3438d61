// Health of the service's dependencies. Each probe is bounded so a hung dependency reports "down", never hangs.
import "server-only";
import { runtime } from ".";
import type { DatabaseKind } from "../../adapters/prisma/db";
import { env } from "../../env";
import type { ModelProbe } from "../../ports";
import { answerModel } from "../answers/graphrag";
import { checkGraphStore, unreadableMarkings, type GraphHealth } from "./graph";
import type { UnreadableMarkings } from "../../ports";
import { ALL_TENANTS, KILL_SWITCHES, effectiveSwitches, type KillSwitchName, type KillSwitchState } from "../../grounding/switches";

async function checkSwitches(databaseOk: boolean): Promise<Health["killSwitches"]> {
  if (!databaseOk) return null;
  try {
    const { db } = await runtime();
    const rows = await withTimeout(
      db.prisma.killSwitch.findMany({ where: { enabled: true }, select: { tenantId: true, name: true, enabled: true } }),
      2_000,
      "kill switches",
    );
    const counts = Object.fromEntries(
      KILL_SWITCHES.map((n) => [n, rows.filter((r) => r.name === n && r.tenantId !== ALL_TENANTS).length]),
    ) as Record<KillSwitchName, number>;
    return { deployment: effectiveSwitches(rows, ALL_TENANTS), tenantsWithSwitchOn: counts };
  } catch {
    return null;
  }
}

export interface Health {
  status: "healthy" | "degraded";
  service: "graphrag";
  timestamp: string;
  database: { ok: boolean; kind: DatabaseKind | "unknown"; latencyMs?: number; error?: string };
  /** The case-graph store: Neo4j when NEO4J_URI is set (pinged, bounded), else the PostgreSQL tables. */
  graph: GraphHealth;
  /** The answer model: the offline extractive model is always ok; a remote provider is probed (bounded, cached). */
  model: ModelProbe;
  /**
   * How many stored items carry markings the policy cannot read (denied to everyone, so not a failure of the service,
   * but data to fix). Whole-store counts, recomputed at most once a minute; null when they could not be read in time.
   */
  markings: { unreadable: Required<UnreadableMarkings> | null };
  /**
   * Kill switches (issue 15): the deployment-wide state, and how many tenants have each switch on (counts, no tenant
   * names). Null when they could not be read.
   */
  killSwitches: { deployment: KillSwitchState; tenantsWithSwitchOn: Record<KillSwitchName, number> } | null;
}

const MODEL_PROBE_MS = 3_000;
const MODEL_PROBE_CACHE_MS = 30_000;
let modelCache: { at: number; probe: ModelProbe } | undefined;

export async function checkModel(): Promise<ModelProbe> {
  if (modelCache && Date.now() - modelCache.at < MODEL_PROBE_CACHE_MS) return modelCache.probe;
  let probe: ModelProbe;
  try {
    const model = answerModel();
    probe = await withTimeout(model.probe(MODEL_PROBE_MS), MODEL_PROBE_MS + 500, "model probe").catch((): ModelProbe => ({
      provider: model.provider,
      id: model.modelId,
      ok: false,
      error: "CG-MODEL-001",
    }));
  } catch {
    let provider = "unknown";
    try {
      provider = env().LLM_PROVIDER;
    } catch {
      // The environment itself is invalid; reported as misconfiguration below.
    }
    probe = { provider, id: process.env.LLM_MODEL || "unknown", ok: false, error: "CG-SYS-003" };
  }
  modelCache = { at: Date.now(), probe };
  return probe;
}

const GRAPH_PROBE_MS = 1_500;
const MARKINGS_PROBE_MS = 2_000;
const MARKINGS_CACHE_MS = 60_000;
let markingsCache: { at: number; unreadable: Required<UnreadableMarkings> | null } | undefined;

async function checkMarkings(databaseOk: boolean): Promise<Health["markings"]> {
  if (!databaseOk) return { unreadable: null };
  if (markingsCache && Date.now() - markingsCache.at < MARKINGS_CACHE_MS) return { unreadable: markingsCache.unreadable };
  let unreadable: Required<UnreadableMarkings> | null = null;
  try {
    const { db } = await runtime();
    unreadable = await withTimeout(unreadableMarkings(db, env(), MARKINGS_PROBE_MS), MARKINGS_PROBE_MS + 500, "markings count");
  } catch {
    // Reported as unknown; the graph and database probes say why.
  }
  markingsCache = { at: Date.now(), unreadable };
  return { unreadable };
}

async function checkGraph(databaseOk: boolean): Promise<GraphHealth> {
  let e: ReturnType<typeof env>;
  try {
    e = env();
  } catch {
    return { ok: false, kind: process.env.NEO4J_URI ? "neo4j" : "postgresql", error: "CG-SYS-003" };
  }
  const kind = e.NEO4J_URI ? "neo4j" : "postgresql";
  return withTimeout(checkGraphStore(e, databaseOk, GRAPH_PROBE_MS), GRAPH_PROBE_MS + 500, "graph probe").catch((): GraphHealth => ({
    ok: false,
    kind,
    error: "CG-GRAPH-001",
  }));
}

export function withTimeout<T>(promise: Promise<T>, ms: number, label: string): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label} timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function checkHealth(): Promise<Health> {
  const started = performance.now();
  let database: Health["database"];
  try {
    // A first start of the embedded database migrates it, which can take seconds on a busy machine; a dead PostgreSQL
    // fails at the ping below, bounded by the pool's connect timeout.
    const { db } = await withTimeout(runtime(), 30_000, "database open");
    await withTimeout(db.prisma.$queryRaw`SELECT 1`, 2_000, "database ping");
    database = { ok: true, kind: db.kind, latencyMs: Math.round(performance.now() - started) };
  } catch {
    database = { ok: false, kind: process.env.DATABASE_URL ? "postgresql" : "pglite", error: "CG-SYS-001" };
  }
  const [graph, model, markings, killSwitches] = await Promise.all([
    checkGraph(database.ok),
    checkModel(),
    checkMarkings(database.ok),
    checkSwitches(database.ok),
  ]);
  return {
    status: database.ok && graph.ok && model.ok ? "healthy" : "degraded",
    service: "graphrag",
    timestamp: new Date().toISOString(),
    database,
    graph,
    model,
    markings,
    killSwitches,
  };
}
