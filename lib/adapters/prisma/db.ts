// The database: PostgreSQL when DATABASE_URL is set, otherwise PGlite in-process (the embedded default).
// Both run the same migrations and the same Prisma client; nothing above this file knows which it got.
import "server-only";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { parse as parseConnectionString } from "pg-connection-string";
import { to as copyTo } from "pg-copy-streams";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "../../generated/prisma/client";
import { CasegraphError } from "../../domain/failure-codes";
import { applyMigrations, type SqlSession } from "./migrate";

export type DatabaseKind = "pglite" | "postgresql";

export interface Database {
  prisma: PrismaClient;
  kind: DatabaseKind;
  /** One transaction on the driver itself, for bulk writes where Prisma's per-parameter overhead would double the cost. */
  transaction<T>(fn: (sql: SqlSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; absent → PGlite. */
  url?: string;
  /** PGlite data folder; "memory://" for an in-memory database (tests). */
  dataDir?: string;
  /** Apply pending migrations on open (the embedded default always does). */
  migrate?: boolean;
  poolSize?: number;
}

export function defaultDataDir(): string {
  return path.resolve(process.env.CASEGRAPH_DATA_DIR || ".data");
}

/**
 * Which database a connection string names, without credentials or options: "embedded" (the data folder's PGlite) or
 * postgresql://host:port/name, read as pg itself reads it. Files kept about one database (the ledger's checkpoint
 * witness) are keyed by it.
 */
export function databaseLabel(url: string | undefined): string {
  if (!url) return "embedded";
  const c = parseConnectionString(url);
  // libpq's defaults: localhost, 5432, and a database named after the user when none is given.
  const host = (c.host || "localhost").toLowerCase();
  return `postgresql://${host}:${c.port || "5432"}/${c.database || c.user || "postgres"}`;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  return options.url ? openPostgres(options.url, options) : openPGlite(options);
}

async function openPGlite(options: DatabaseOptions): Promise<Database> {
  const dir = options.dataDir ?? path.join(defaultDataDir(), "pglite");
  if (!dir.startsWith("memory://")) await mkdir(dir, { recursive: true }); // PGlite does not create parents.
  const lite = await PGlite.create(dir);
  if (options.migrate !== false) await applyMigrations(lite);
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(lite) });
  return {
    prisma,
    kind: "pglite",
    transaction: (fn) => lite.transaction((tx) => fn(tx)),
    async close() {
      await prisma.$disconnect();
      await lite.close(); // Otherwise the process lingers ~10 s.
    },
  };
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<Database> {
  if (options.migrate) await migratePostgres(url);
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, connectionTimeoutMillis: 5_000 });
  pool.on("error", () => {}); // An idle client dropped by the server must not crash the process; queries report it.
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    prisma,
    kind: "postgresql",
    async transaction(fn) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await fn(sessionOf(client));
        await client.query("COMMIT");
        return result;
      } catch (err) {
        await client.query("ROLLBACK").catch(() => {});
        throw err;
      } finally {
        client.release();
      }
    },
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

export async function migratePostgres(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (err) {
    throw new CasegraphError("CG-SYS-001", undefined, [], { cause: err });
  }
  try {
    return await applyMigrations(sessionOf(client));
  } finally {
    await client.end();
  }
}

function sessionOf(client: pg.ClientBase): SqlSession {
  return {
    exec: (sql) => client.query(sql),
    query: async <T>(sql: string, params?: unknown[]) => ({ rows: (await client.query(sql, params)).rows as T[] }),
    copyOut: (sql) => client.query(copyTo(sql)),
  };
}
