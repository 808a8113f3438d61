// The real PostgreSQL for integration tests. Each test file gets a fresh database (created, migrated, dropped after).
// TEST_DATABASE_URL names the server (default: the local one on 127.0.0.1:5432). With CASEGRAPH_REQUIRE_PG=1 (CI),
// an unreachable server fails the run instead of skipping the PostgreSQL suite.
import { randomBytes } from "node:crypto";
import pg from "pg";

export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
export const PG_REQUIRED = process.env.CASEGRAPH_REQUIRE_PG === "1";

export async function postgresReachable(url = ADMIN_URL): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = "/" + name;
  return u.toString();
}

export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `cg_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  return {
    url: withDatabase(ADMIN_URL, name),
    async drop() {
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}
