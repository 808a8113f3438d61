// Offline migrations: the SQL files in prisma/migrations, applied in name order, each in its own transaction and
// recorded in _casegraph_migrations with a checksum. Prisma's CLI would download a schema engine; this needs nothing.
import "server-only";
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/** The two calls a migration needs; PGlite and node-postgres both provide them. */
export interface SqlSession {
  exec(sql: string): Promise<unknown>;
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /** `COPY … TO STDOUT` as a stream of raw chunks (PostgreSQL only; PGlite sessions leave it out). */
  copyOut?(sql: string): AsyncIterable<Buffer>;
}

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export const MIGRATIONS_DIR = path.resolve(process.cwd(), "prisma/migrations");

export async function loadMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  entries.sort();
  const out: Migration[] = [];
  for (const name of entries) {
    const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
    out.push({ name, sql, checksum: createHash("sha256").update(sql).digest("hex") });
  }
  return out;
}

// One lock id for "migrating Casegraph", so two starting processes never apply the same migration twice.
const MIGRATION_LOCK = 72_001;

export async function applyMigrations(db: SqlSession, migrations?: Migration[]): Promise<string[]> {
  const all = migrations ?? (await loadMigrations());
  await db.exec(`CREATE TABLE IF NOT EXISTS "_casegraph_migrations" (
    "name" TEXT PRIMARY KEY, "checksum" TEXT NOT NULL, "applied_at" TIMESTAMPTZ NOT NULL DEFAULT now())`);
  await db.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
  try {
    const done = new Map(
      (await db.query<{ name: string; checksum: string }>(`SELECT name, checksum FROM "_casegraph_migrations"`)).rows.map((r) => [
        r.name,
        r.checksum,
      ]),
    );
    const applied: string[] = [];
    for (const m of all) {
      const prior = done.get(m.name);
      if (prior) {
        if (prior !== m.checksum) throw new Error(`Migration ${m.name} was changed after it was applied`);
        continue;
      }
      await db.exec("BEGIN");
      try {
        await db.exec(m.sql);
        await db.query(`INSERT INTO "_casegraph_migrations" (name, checksum) VALUES ($1, $2)`, [m.name, m.checksum]);
        await db.exec("COMMIT");
      } catch (err) {
        await db.exec("ROLLBACK");
        throw err;
      }
      applied.push(m.name);
    }
    return applied;
  } finally {
    await db.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]);
  }
}
