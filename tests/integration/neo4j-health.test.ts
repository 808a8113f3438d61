// /api/graphrag/health names the graph store (postgresql | neo4j) and whether it answers, bounded.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { healthWith } from "../support/health";
import { DEAD_NEO4J_URI, TEST_NEO4J_URI, neo4jAvailable } from "../support/neo4j";
import { ADMIN_URL } from "../support/postgres";

describe("health: the graph store", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  // The real PostgreSQL when there is one (health only pings it, and it opens at once); else the embedded database,
  // whose first open (migrations) is slow on a busy machine.
  const embedded = async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-health-graph-"));
    const url = process.env.CASEGRAPH_TEST_PG === "1" ? ADMIN_URL : undefined;
    return { DATABASE_URL: url, CASEGRAPH_DATA_DIR: dir, CASEGRAPH_SEED_DEMO: "never" };
  };

  it("is the PostgreSQL graph when NEO4J_URI is unset", async () => {
    const { status, body } = await healthWith({ ...(await embedded()), NEO4J_URI: undefined });
    expect(body.graph, JSON.stringify(body)).toEqual({ ok: true, kind: "postgresql" });
    expect(status, JSON.stringify(body)).toBe(200);
  });

  it("is degraded (503) when the configured Neo4j does not answer, fast and without driver text", async () => {
    const started = Date.now();
    const { status, body } = await healthWith({ ...(await embedded()), NEO4J_URI: DEAD_NEO4J_URI });
    expect(status).toBe(503);
    expect(body, JSON.stringify(body)).toMatchObject({
      status: "degraded",
      database: { ok: true },
      graph: { ok: false, kind: "neo4j", error: "CG-GRAPH-001" },
    });
    expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|bolt:/);
    expect(Date.now() - started).toBeLessThan(30_000); // most of it is the embedded database's first open
  });

  it.runIf(neo4jAvailable())("is healthy with a live Neo4j and reports its latency", async () => {
    const { status, body } = await healthWith({
      ...(await embedded()),
      NEO4J_URI: TEST_NEO4J_URI,
      NEO4J_USER: process.env.TEST_NEO4J_USER,
      NEO4J_PASSWORD: process.env.TEST_NEO4J_PASSWORD,
    });
    expect(status).toBe(200);
    expect(body.graph).toMatchObject({ ok: true, kind: "neo4j" });
    expect(body.graph.latencyMs).toBeGreaterThanOrEqual(0);
  });
});
