import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { healthWith } from "../support/health";

describe("GET /api/graphrag/health", () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("is healthy on the embedded database and names its kind", async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-health-"));
    const { status, body } = await healthWith({ DATABASE_URL: undefined, CASEGRAPH_DATA_DIR: dir });
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: "healthy", service: "graphrag", database: { ok: true, kind: "pglite" } });
    expect(new Date(body.timestamp).toString()).not.toBe("Invalid Date");
  });

  it("is degraded with a 503 when PostgreSQL does not answer, and leaks no driver text", async () => {
    const started = Date.now();
    const { status, body } = await healthWith({ DATABASE_URL: "postgresql://nobody@127.0.0.1:1/none" });
    expect(status).toBe(503);
    expect(body).toMatchObject({ status: "degraded", database: { ok: false, kind: "postgresql", error: "CG-SYS-001" } });
    expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1:1/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
