// The real Neo4j for integration tests: TEST_NEO4J_URI, else the local server of `npm run neo4j:local`
// (bolt://127.0.0.1:7687). The global setup probes it once and sets CASEGRAPH_TEST_NEO4J=1|0 for the workers; with
// CASEGRAPH_REQUIRE_NEO4J=1 (CI) an unreachable server fails the run instead of leaving the Neo4j suites out.
// Suites isolate their data by case id (uniqueCaseIds) and delete it afterwards.
import { randomBytes } from "node:crypto";
import { describe, it } from "vitest";
import { Neo4jGraphStore, type Neo4jGraphStoreOptions } from "@/lib/adapters/neo4j/graph-store";
import type { Neo4jConfig } from "@/lib/adapters/neo4j/connection";

export const TEST_NEO4J_URI = process.env.TEST_NEO4J_URI || "bolt://127.0.0.1:7687";
export const NEO4J_REQUIRED = process.env.CASEGRAPH_REQUIRE_NEO4J === "1";
/** A port nothing listens on: a dead Neo4j. */
export const DEAD_NEO4J_URI = "bolt://127.0.0.1:1";

export const neo4jAvailable = () => process.env.CASEGRAPH_TEST_NEO4J === "1";

export function testNeo4jConfig(overrides: Partial<Neo4jConfig> = {}): Neo4jConfig {
  return {
    uri: TEST_NEO4J_URI,
    user: process.env.TEST_NEO4J_USER,
    password: process.env.TEST_NEO4J_PASSWORD,
    database: process.env.TEST_NEO4J_DATABASE,
    // The test machine runs PostgreSQL, a JVM and two test workers on two cores: reads get more time than in production.
    readTimeoutMs: 15_000,
    ...overrides,
  };
}

export function testNeo4jStore(options?: Neo4jGraphStoreOptions, config?: Partial<Neo4jConfig>): Neo4jGraphStore {
  return Neo4jGraphStore.connect(testNeo4jConfig(config), options);
}

export async function neo4jReachable(uri = TEST_NEO4J_URI): Promise<boolean> {
  const store = Neo4jGraphStore.connect({ ...testNeo4jConfig(), uri, connectTimeoutMs: 2_000 });
  try {
    return (await store.ping(5_000)).ok;
  } finally {
    await store.close();
  }
}

/**
 * describe() when `ready`; otherwise the suite is listed with one skipped test that says why, so a file whose only
 * suite cannot run still has a suite (vitest fails a file with none: "No test suite found") and the run says what was
 * left out. CI sets CASEGRAPH_REQUIRE_NEO4J=1, and the global setup then fails instead of getting here.
 */
export function describeWhen(ready: boolean, missing: string, name: string, body: () => void) {
  if (ready) describe(name, body);
  else describe(name, () => it.skip(`NOT RUN: ${missing}`, () => {}));
}

/** describe() only when a real Neo4j answered the global setup's probe (its banner says so when not). */
export function describeNeo4j(name: string, body: () => void) {
  describeWhen(neo4jAvailable(), `no Neo4j reachable at ${TEST_NEO4J_URI} (see the banner above)`, name, body);
}

/** Gives the bundle's case ids a random suffix (returned), so suites never share a case in the shared Neo4j. */
export function uniqueCaseIds(bundle: Record<string, any>, tag: string): string {
  const suffix = `-${tag}-${randomBytes(4).toString("hex")}`;
  for (const c of bundle.cases as Array<{ id: string }>) c.id += suffix;
  return suffix;
}
