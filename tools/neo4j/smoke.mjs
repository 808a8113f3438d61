#!/usr/bin/env node
// Smoke check for a Neo4j reachable over Bolt (tools/neo4j/run.sh, Docker, Aura, ...).
//
//   node tools/neo4j/smoke.mjs              basic checks + full-text index
//   node tools/neo4j/smoke.mjs write        also MERGE a marker node (for persistence checks)
//   node tools/neo4j/smoke.mjs expect       also require the marker node to exist already
//   node tools/neo4j/smoke.mjs cleanup      delete the marker node and test data, drop the index
//
// Env: NEO4J_URI (default bolt://127.0.0.1:7687), NEO4J_USER (default neo4j),
//      NEO4J_PASSWORD (unset: no auth token; fine when the server has auth disabled),
//      NEO4J_DATABASE (default: the server's default database).
// Exits 0 on success, 1 with a "SMOKE FAIL ..." line otherwise.
import neo4j from "neo4j-driver";

const uri = process.env.NEO4J_URI || "bolt://127.0.0.1:7687";
const user = process.env.NEO4J_USER || "neo4j";
const password = process.env.NEO4J_PASSWORD;
const database = process.env.NEO4J_DATABASE || undefined;
const mode = process.argv[2] || "check";

const MARKER = "casegraph-smoke-marker";
const INDEX = "casegraph_smoke_fulltext";

function fail(step, err) {
  const msg = err instanceof Error ? `${err.code ? `[${err.code}] ` : ""}${err.message}` : String(err);
  console.error(`SMOKE FAIL ${step}: ${msg} (uri=${uri}, user=${password ? user : "<no auth>"})`);
  process.exitCode = 1;
}

const auth = password ? neo4j.auth.basic(user, password) : neo4j.auth.none();
const driver = neo4j.driver(uri, auth, { connectionTimeout: 10_000, maxConnectionPoolSize: 4 });
const run = async (cypher, params = {}) => (await driver.executeQuery(cypher, params, { database })).records;

async function step(name, fn) {
  const t0 = Date.now();
  await fn();
  console.log(`ok   ${name} (${Date.now() - t0} ms)`);
}

let current = "connect";
try {
  await step((current = "connect"), async () => {
    const info = await driver.getServerInfo({ database });
    console.log(`     server ${info.agent} protocol ${info.protocolVersion} at ${info.address}`);
  });

  await step((current = "RETURN 1"), async () => {
    const [r] = await run("RETURN 1 AS one");
    if (r.get("one").toNumber() !== 1) throw new Error(`expected 1, got ${r.get("one")}`);
  });

  if (mode === "cleanup") {
    await step((current = "cleanup"), async () => {
      await run("MATCH (n:SmokeDoc) DETACH DELETE n");
      await run("MATCH (n:SmokeMarker {id: $id}) DETACH DELETE n", { id: MARKER });
      await run(`DROP INDEX ${INDEX} IF EXISTS`);
    });
  } else {
    if (mode === "expect") {
      await step((current = "marker persisted from earlier run"), async () => {
        const rows = await run("MATCH (n:SmokeMarker {id: $id}) RETURN n.createdAt AS at", { id: MARKER });
        if (rows.length !== 1) throw new Error(`expected 1 marker node, found ${rows.length}`);
        console.log(`     marker created at ${rows[0].get("at")}`);
      });
    }

    if (mode === "write") {
      await step((current = "write marker node"), async () => {
        await run("MERGE (n:SmokeMarker {id: $id}) ON CREATE SET n.createdAt = toString(datetime())", {
          id: MARKER,
        });
      });
    }

    await step((current = "create + read node"), async () => {
      const id = `smoke-${Date.now()}-${Math.random().toString(36).slice(2)}`;
      await run("CREATE (:SmokeDoc {id: $id, text: $text})", {
        id,
        text: "The courier signed the warehouse manifest at dawn",
      });
      const rows = await run("MATCH (d:SmokeDoc {id: $id}) RETURN d.text AS text", { id });
      if (rows.length !== 1) throw new Error(`expected 1 node, found ${rows.length}`);
    });

    await step((current = "full-text index create + query"), async () => {
      await run(`CREATE FULLTEXT INDEX ${INDEX} IF NOT EXISTS FOR (n:SmokeDoc) ON EACH [n.text]`);
      await run("CALL db.awaitIndexes(60)");
      const rows = await run(
        `CALL db.index.fulltext.queryNodes($index, $q) YIELD node, score
         RETURN node.text AS text, score ORDER BY score DESC LIMIT 3`,
        { index: INDEX, q: "manifest~" },
      );
      if (rows.length === 0) throw new Error("full-text query returned no hits");
      if (!String(rows[0].get("text")).includes("manifest")) throw new Error(`unexpected hit ${rows[0].get("text")}`);
    });
  }
  console.log(`SMOKE OK ${uri} (${mode})`);
} catch (err) {
  fail(current, err);
} finally {
  await driver.close();
}
