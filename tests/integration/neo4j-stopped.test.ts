// A real Neo4j stopped mid-run. The suite starts its own Neo4j (tools/neo4j/run.sh on a free port, its own data
// folder, authentication on — the shared test server is never touched), answers through it, stops it, and asks again:
// a coded error in under 2 s, the request in the ledger, nothing partial. It also checks refused credentials
// (CG-GRAPH-003) and runs `graph sync --all` there, which removes cases PostgreSQL does not have (never run against
// the shared server: it would remove other suites' cases). It needs Java, as `npm run neo4j:local` does.
import { execFile, spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, expect, it } from "vitest";
import { OfflineExtractiveModel } from "@/lib/adapters/model/offline";
import { Neo4jGraphStore } from "@/lib/adapters/neo4j/graph-store";
import { importBundleWithGraph, syncAll } from "@/lib/adapters/neo4j/sync";
import { openDatabase, type Database } from "@/lib/adapters/prisma/db";
import { PrismaLedger } from "@/lib/adapters/prisma/ledger";
import { loadActor } from "@/lib/auth/actor";
import { readEnv } from "@/lib/env";
import { answerQuestion } from "@/lib/graphrag/answer";
import { pipelineDeps } from "@/lib/server/answers/graphrag";
import { demoBundle } from "../support/demo";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { TEST_NEO4J_URI, describeWhen, neo4jAvailable } from "../support/neo4j";

const run = promisify(execFile);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

const hasJava = spawnSync("java", ["-version"], { stdio: "ignore" }).status === 0;
if (!hasJava) console.warn("Neo4j stop/restart suite NOT run: no `java` on PATH (tools/neo4j/run.sh needs JDK 17 or 21).");

describeWhen(
  hasJava && neo4jAvailable(),
  hasJava ? `no Neo4j reachable at ${TEST_NEO4J_URI}` : "no `java` on PATH",
  "a real Neo4j stopped mid-run",
  () => {
    let dir: string;
    let env: NodeJS.ProcessEnv;
    let store: Neo4jGraphStore;
    let db: Database;
    let uri: string;
    const PASSWORD = "cg-test-password";
    const runSh = (cmd: string) => run("bash", ["tools/neo4j/run.sh", cmd], { env, cwd: process.cwd(), timeout: 280_000 });

    beforeAll(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), "cg-neo4j-stop-"));
      const port = await freePort();
      // Its own data folder and port; a small heap; no class-data archive (the shared one belongs to the main server).
      env = {
        ...process.env,
        CASEGRAPH_DATA_DIR: dir,
        NEO4J_LOCAL_PORT: String(port),
        NEO4J_LOCAL_HEAP: "384m",
        NEO4J_LOCAL_CDS: "0",
        NEO4J_LOCAL_START_TIMEOUT: "240",
        NEO4J_LOCAL_PASSWORD: PASSWORD,
      };
      delete env.NEO4J_LOCAL_DIR;
      await runSh("start");
      uri = `bolt://127.0.0.1:${port}`;
      // Production connection timeouts and retry time; a generous read deadline, so a busy test machine cannot fail the
      // "up" half — the "stopped" half must then fail fast on the connection alone.
      store = Neo4jGraphStore.connect({ uri, user: "neo4j", password: PASSWORD, readTimeoutMs: 15_000 });
      db = await openDatabase({ dataDir: "memory://", migrate: true });
    }, 300_000);

    afterAll(async () => {
      await store?.close();
      await db?.close();
      if (env) await runSh("stop").catch(() => {});
      if (dir) await rm(dir, { recursive: true, force: true });
    }, 120_000);

    it("refuses wrong or missing credentials with CG-GRAPH-003, without driver text", async () => {
      for (const creds of [{ user: "neo4j", password: "wrong-password" }, {}]) {
        const bad = Neo4jGraphStore.connect({ uri, ...creds });
        try {
          const err = await bad.nodesByIds({ tenantId: "t", caseId: "c" }, ["a"]).then(
            () => null,
            (e) => e,
          );
          expect(err).toBeInstanceOf(CasegraphError);
          expect((err as CasegraphError).code).toBe("CG-GRAPH-003");
          expect(JSON.stringify((err as CasegraphError).toJSON())).not.toMatch(/Unauthorized|neo4j|password/i);
          expect(await bad.ping(5_000)).toEqual({ ok: false, error: "CG-GRAPH-003" });
        } finally {
          await bad.close();
        }
      }
    });

    it("answers through it, then — once it is stopped — fails fast with CG-GRAPH-001, recorded in the ledger", async () => {
      const bundle = demoBundle();
      await importBundleWithGraph(db, bundle, store);
      const ledger = new PrismaLedger(db.prisma);
      const deps = { ...pipelineDeps(db, ledger, new OfflineExtractiveModel(), readEnv({})), graph: store };
      const actor = await loadActor(db.prisma, { email: "lead.park@metro.example" }, "cli");
      const ask = () => answerQuestion(deps, actor, { caseId: "case-harbor", question: "Who is Raymond Dunn and who did he meet?" });

      const up = await ask();
      expect(up.ok, JSON.stringify(up.body).slice(0, 400)).toBe(true);
      if (up.ok) expect(up.body.rawContext.nodes.length).toBeGreaterThan(0);

      // `graph sync --all` here: an orphan case (not in PostgreSQL) is removed, every PostgreSQL case is rebuilt.
      const orphan = { tenantId: "metro-pd", caseId: "case-orphan" };
      await store.writes.beginWrite(orphan);
      await store.writes.writeNodes(
        orphan,
        [{ id: "x", label: "L", name: "X", properties: {}, classification: "PUBLIC", needToKnow: [] }],
        "s",
      );
      await store.writes.markReady([orphan]);
      const synced = await syncAll(db.prisma, store);
      expect(synced.map((r) => [r.caseId, r.deleted])).toEqual([
        ["case-harbor", false],
        ["case-ledgerline", false],
        ["case-nightjar", false],
        ["case-orphan", true],
      ]);
      expect((await store.writes.listCases()).map((c) => c.caseId).sort()).toEqual(["case-harbor", "case-ledgerline", "case-nightjar"]);

      await runSh("stop");
      const before = (await ledger.verify()).size;
      const started = performance.now();
      const down = await ask();
      const ms = performance.now() - started;
      expect(down).toMatchObject({ ok: false, status: 503, body: { error: { code: "CG-GRAPH-001" } } });
      expect(down.body).not.toHaveProperty("answer");
      expect(ms).toBeLessThan(2_000);
      expect(await ledger.verify()).toMatchObject({ ok: true, size: before + 1 });
      const [entry] = await db.prisma.$queryRaw<
        Array<{ payload: Record<string, unknown> }>
      >`SELECT payload FROM "ledger" ORDER BY seq DESC LIMIT 1`;
      expect(entry.payload).toMatchObject({ case_id: "case-harbor", error_code: "CG-GRAPH-001", response_type: "error" });
      expect(await store.ping(1_500)).toEqual({ ok: false, error: "CG-GRAPH-001" });
    });
  },
);
