import { env } from "../../lib/env";
import { migratePostgres } from "../../lib/adapters/prisma/db";
import { runtime } from "../../lib/server/runtime";
import { UsageError, type Command } from "../command";

export default {
  name: "db",
  usage: "  db migrate                            apply pending migrations (PostgreSQL: DATABASE_URL)",
  async run(args) {
    if (args[0] !== "migrate") throw new UsageError("db migrate");
    const url = env().DATABASE_URL;
    // The embedded database migrates itself when opened.
    const applied = url ? await migratePostgres(url) : (await runtime(), ["(embedded database migrated on open)"]);
    console.log(JSON.stringify({ ok: true, applied }));
    return 0;
  },
} satisfies Command;
