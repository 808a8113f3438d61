import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PG_REQUIRED, postgresReachable, ADMIN_URL } from "./postgres";
import { NEO4J_REQUIRED, TEST_NEO4J_URI, neo4jReachable, testNeo4jStore } from "./neo4j";

const banner = (lines: string[]) => {
  const line = "=".repeat(100);
  return `${line}\n${lines.map((l) => `  ${l}`).join("\n")}\n${line}`;
};

export default async function setup() {
  const [pg, neo4j] = await Promise.all([postgresReachable(), neo4jReachable()]);
  process.env.CASEGRAPH_TEST_PG = pg ? "1" : "0";
  process.env.CASEGRAPH_TEST_NEO4J = neo4j ? "1" : "0";
  if (!pg) {
    if (PG_REQUIRED) throw new Error(`CASEGRAPH_REQUIRE_PG=1 but PostgreSQL is not reachable at ${ADMIN_URL}`);
    console.warn(
      banner([
        `PostgreSQL at ${ADMIN_URL.replace(/\/\/[^@]*@/, "//")} is not reachable: the PostgreSQL integration suite was NOT run.`,
        "Only the embedded (PGlite) suite ran. Start PostgreSQL or set TEST_DATABASE_URL; CI (.ci/run) always runs it.",
      ]),
    );
  }
  if (!neo4j) {
    if (NEO4J_REQUIRED) throw new Error(`CASEGRAPH_REQUIRE_NEO4J=1 but Neo4j is not reachable at ${TEST_NEO4J_URI}`);
    console.warn(
      banner([
        `Neo4j suite NOT run: Neo4j at ${TEST_NEO4J_URI} is not reachable (contract suite on Neo4j, import, pipeline, health).`,
        "Start one with `bash tools/neo4j/run.sh start` (or set TEST_NEO4J_URI); CI (.ci/run) runs it with CASEGRAPH_REQUIRE_NEO4J=1.",
      ]),
    );
  } else {
    // Constraints, indexes and query plans once, before the workers race to create them.
    const store = testNeo4jStore();
    try {
      await store.ensureSchema();
    } finally {
      await store.close();
    }
  }
  // Tests never write into the developer's data folder (.data): a CLI or server module a test runs without a folder of
  // its own keeps its keys and checkpoints in this run's folder, removed afterwards.
  const dataDir = process.env.CASEGRAPH_DATA_DIR ? null : await mkdtemp(path.join(os.tmpdir(), "cg-test-data-"));
  if (dataDir) process.env.CASEGRAPH_DATA_DIR = dataDir;
  return async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  };
}
