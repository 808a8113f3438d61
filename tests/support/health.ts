import { vi } from "vitest";

/**
 * GET /api/graphrag/health under `env` (undefined removes a variable). The runtime caches the environment, the
 * database and the Neo4j driver per process, so each call loads fresh modules and closes what they opened.
 */
export async function healthWith(env: Record<string, string | undefined>) {
  vi.resetModules();
  const saved = { ...process.env };
  Object.assign(process.env, env);
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
  try {
    const { GET } = await import("@/app/api/graphrag/health/route");
    const res = await GET();
    const { closeRuntime } = await import("@/lib/server/runtime");
    const { closeGraphStores } = await import("@/lib/server/runtime/graph");
    await closeRuntime().catch(() => {});
    await closeGraphStores();
    return { status: res.status, body: await res.json() };
  } finally {
    process.env = saved;
  }
}
