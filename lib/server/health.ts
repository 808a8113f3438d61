// Health of the service's dependencies. Each probe is bounded so a hung dependency reports "down", never hangs.
import { runtime } from "./runtime";
import type { DatabaseKind } from "../adapters/prisma/db";

export interface Health {
  status: "healthy" | "degraded";
  service: "graphrag";
  timestamp: string;
  database: { ok: boolean; kind: DatabaseKind | "unknown"; latencyMs?: number; error?: string };
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
    const { db } = await withTimeout(runtime(), 5_000, "database open");
    await withTimeout(db.prisma.$queryRaw`SELECT 1`, 2_000, "database ping");
    database = { ok: true, kind: db.kind, latencyMs: Math.round(performance.now() - started) };
  } catch {
    database = { ok: false, kind: process.env.DATABASE_URL ? "postgresql" : "unknown", error: "CG-SYS-001" };
  }
  return {
    status: database.ok ? "healthy" : "degraded",
    service: "graphrag",
    timestamp: new Date().toISOString(),
    database,
  };
}
