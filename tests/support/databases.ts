// Runs an integration suite once per database: PGlite always, the real PostgreSQL when reachable.
import { afterAll, beforeAll, describe } from "vitest";
import { openDatabase, type Database } from "@/lib/adapters/prisma/db";
import { createTestDatabase } from "./postgres";

export interface DatabaseFixture {
  db: Database;
  /** PostgreSQL connection string of this test's database (undefined on PGlite). */
  url?: string;
}

export const backends = (["pglite", "postgresql"] as const).filter((kind) => kind === "pglite" || process.env.CASEGRAPH_TEST_PG === "1");

/** Opens a fresh, migrated database of the given kind. */
export async function freshDatabase(kind: "pglite" | "postgresql"): Promise<DatabaseFixture & { dispose(): Promise<void> }> {
  if (kind === "pglite") {
    const db = await openDatabase({ dataDir: "memory://", migrate: true });
    return { db, dispose: () => db.close() };
  }
  const created = await createTestDatabase();
  const db = await openDatabase({ url: created.url, migrate: true, poolSize: 25 });
  return {
    db,
    url: created.url,
    async dispose() {
      await db.close();
      await created.drop();
    },
  };
}

/** describe() once per available database; `fixture()` gives the suite's database inside tests. */
export function describeEachDatabase(name: string, body: (fixture: () => DatabaseFixture, kind: string) => void) {
  for (const kind of backends) {
    describe(`${name} [${kind}]`, () => {
      let current: Awaited<ReturnType<typeof freshDatabase>> | undefined;
      beforeAll(async () => {
        current = await freshDatabase(kind);
      });
      afterAll(async () => {
        await current?.dispose();
      });
      body(() => {
        if (!current) throw new Error("database fixture not ready");
        return current;
      }, kind);
    });
  }
}
