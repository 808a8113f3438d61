import { PG_REQUIRED, postgresReachable, ADMIN_URL } from "./postgres";

export default async function setup() {
  const ok = await postgresReachable();
  process.env.CASEGRAPH_TEST_PG = ok ? "1" : "0";
  if (!ok) {
    const line = "=".repeat(100);
    const msg = `${line}\n  PostgreSQL at ${ADMIN_URL.replace(/\/\/[^@]*@/, "//")} is not reachable: the PostgreSQL integration suite was NOT run.\n  Only the embedded (PGlite) suite ran. Start PostgreSQL or set TEST_DATABASE_URL; CI (.ci/run) always runs it.\n${line}`;
    if (PG_REQUIRED) throw new Error(`CASEGRAPH_REQUIRE_PG=1 but PostgreSQL is not reachable at ${ADMIN_URL}`);
    console.warn(msg);
  }
}
