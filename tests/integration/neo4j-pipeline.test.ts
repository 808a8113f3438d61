// The answer pipeline with Neo4j as its graph store (offline model): for the demo users and a set of questions the
// answer JSON is identical to the one given with the PostgreSQL graph store (requestId, timestamp, auditId and threadId aside).
// A dead Neo4j fails the answer fast with a coded error, the ledger still records the request, and nothing partial
// is returned.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OfflineExtractiveModel } from "@/lib/adapters/model/offline";
import { Neo4jGraphStore } from "@/lib/adapters/neo4j/graph-store";
import { importBundleWithGraph } from "@/lib/adapters/neo4j/sync";
import { openDatabase, type Database } from "@/lib/adapters/prisma/db";
import { PrismaLedger } from "@/lib/adapters/prisma/ledger";
import { PrismaGraphStore } from "@/lib/adapters/prisma/graph-store";
import { importBundle } from "@/lib/adapters/prisma/workspace";
import { loadActor, type Actor } from "@/lib/auth/actor";
import { readEnv } from "@/lib/env";
import { answerQuestion, type AnswerDeps } from "@/lib/graphrag/answer";
import { closeGraphStores } from "@/lib/server/runtime/graph";
import { pipelineDeps } from "@/lib/server/answers/graphrag";
import { describeEachDatabase } from "../support/databases";
import { demoBundle } from "../support/demo";
import { DEAD_NEO4J_URI, TEST_NEO4J_URI, describeNeo4j, testNeo4jConfig, testNeo4jStore, uniqueCaseIds } from "../support/neo4j";

const QUESTIONS = JSON.parse(readFileSync("prisma/demo/questions.json", "utf8")) as Record<string, Array<{ question: string }>>;
const EXTRA = [
  "Who is Raymond Dunn and who did he meet?",
  "Why is device did:ws-fin-0231 high risk?",
  "What links Bayline Seafood Co. to Pier 9 Warehouse?",
  "Summarise everything the evidence says about this case.",
];

/** The answer body without what differs per request (each question is a new thread: its id differs too). */
const comparable = (body: unknown) => {
  const { requestId: _r, timestamp: _t, auditId: _a, threadId: _th, ...rest } = body as Record<string, unknown>;
  return JSON.stringify(rest);
};

async function lastLedgerEntry(db: Database) {
  const [row] = await db.prisma.$queryRaw<Array<{ payload: Record<string, unknown>; case_id: string | null }>>`
    SELECT payload, case_id FROM "ledger" ORDER BY seq DESC LIMIT 1`;
  return row;
}

describeNeo4j("answer pipeline: Neo4j graph store vs PostgreSQL graph store", () => {
  describeEachDatabase("same answers", (fixture) => {
    let bundle: any;
    let suffix: string;
    let neo4j: Neo4jGraphStore;
    let viaPostgres: AnswerDeps, viaNeo4j: AnswerDeps;
    const actors = new Map<string, Actor>();

    beforeAll(async () => {
      const { db } = fixture();
      bundle = demoBundle();
      suffix = uniqueCaseIds(bundle, "pipeline");
      neo4j = testNeo4jStore();
      await importBundleWithGraph(db, bundle, neo4j);
      const ledger = new PrismaLedger(db.prisma);
      const model = new OfflineExtractiveModel();
      viaPostgres = pipelineDeps(db, ledger, model, readEnv({}));
      // The wiring picks Neo4j when NEO4J_URI is set; its store is then used as configured for tests.
      const wired = pipelineDeps(
        db,
        ledger,
        model,
        readEnv({ NEO4J_URI: TEST_NEO4J_URI, NEO4J_USER: testNeo4jConfig().user, NEO4J_PASSWORD: testNeo4jConfig().password }),
      );
      expect(viaPostgres.graph).toBeInstanceOf(PrismaGraphStore);
      expect(wired.graph).toBeInstanceOf(Neo4jGraphStore);
      viaNeo4j = { ...wired, graph: neo4j };
      for (const u of bundle.users) actors.set(u.email, await loadActor(db.prisma, { email: u.email }, "cli"));
    });
    afterAll(async () => {
      for (const c of bundle.cases) await neo4j.writes.deleteCase(c.id);
      await neo4j.close();
      await closeGraphStores();
    });

    it("gives byte-identical answer JSON for every member of every demo case and a set of questions", async () => {
      let compared = 0,
        answered = 0,
        expected = 0;
      for (const c of bundle.cases)
        expected += c.members.length * ((QUESTIONS[c.id.slice(0, -suffix.length)] ?? []).slice(0, 5).length + EXTRA.length);
      for (const c of bundle.cases) {
        const original = c.id.slice(0, -suffix.length);
        const questions = [...(QUESTIONS[original] ?? []).slice(0, 5).map((q) => q.question), ...EXTRA];
        for (const email of c.members) {
          for (const question of questions) {
            const body = { caseId: c.id, question };
            const a = await answerQuestion(viaPostgres, actors.get(email)!, body);
            const b = await answerQuestion(viaNeo4j, actors.get(email)!, body);
            expect(comparable(b.body), `${email} / ${original} / ${question}`).toBe(comparable(a.body));
            expect(b.ok).toBe(a.ok);
            compared++;
            if (a.ok && a.body.rawContext.nodes.length > 0) answered++;
          }
        }
      }
      expect(compared).toBe(expected);
      expect(expected).toBeGreaterThan(40);
      expect(answered).toBeGreaterThan(compared / 2); // the graph mattered: most answers drew on nodes from the store
    });
  });
});

describe("answer pipeline when Neo4j is dead or does not hold the case", () => {
  let db: Database;
  let ledger: PrismaLedger;
  let bundle: any;
  let actor: Actor;
  const unloaded = `case-unloaded-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  beforeAll(async () => {
    db = await openDatabase({ dataDir: "memory://", migrate: true });
    bundle = demoBundle();
    // PostgreSQL only: a case that no Neo4j has ever been given.
    bundle.cases.push({
      ...bundle.cases[0],
      id: unloaded,
      evidence: bundle.cases[0].evidence.map((e: any) => ({ ...e, id: `${e.id}-u` })),
    });
    await importBundle(db, bundle);
    ledger = new PrismaLedger(db.prisma);
    actor = await loadActor(db.prisma, { email: "lead.park@metro.example" }, "cli");
  });
  afterAll(async () => {
    await db.close();
  });

  it("a dead Neo4j: CG-GRAPH-001 in under 2 s, no partial answer, and the ledger records the request", async () => {
    const dead = Neo4jGraphStore.connect({ uri: DEAD_NEO4J_URI }); // production timeouts and retry time
    try {
      const deps = { ...pipelineDeps(db, ledger, new OfflineExtractiveModel(), readEnv({})), graph: dead };
      const before = (await ledger.verify()).size;
      const started = performance.now();
      const out = await answerQuestion(deps, actor, { caseId: "case-harbor", question: "Who killed Raymond Dunn?" });
      const ms = performance.now() - started;
      expect(out).toMatchObject({ ok: false, status: 503, body: { error: { code: "CG-GRAPH-001" } } });
      expect(ms).toBeLessThan(2_000);
      expect(out.body).not.toHaveProperty("answer");
      expect(out.body).not.toHaveProperty("rawContext");
      expect(JSON.stringify(out.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|bolt:/);
      const after = await ledger.verify();
      expect(after).toMatchObject({ ok: true, size: before + 1 });
      const entry = await lastLedgerEntry(db);
      expect(entry.case_id).toBe("case-harbor");
      expect(entry.payload).toMatchObject({ error_code: "CG-GRAPH-001", response_type: "error" });
    } finally {
      await dead.close();
    }
  });

  describeNeo4j("with a live Neo4j", () => {
    it("a case Neo4j never loaded is refused with CG-GRAPH-005 (recorded), not answered from an empty graph", async () => {
      const live = testNeo4jStore();
      try {
        const deps = { ...pipelineDeps(db, ledger, new OfflineExtractiveModel(), readEnv({})), graph: live };
        const out = await answerQuestion(deps, actor, { caseId: unloaded, question: "Who killed Raymond Dunn?" });
        expect(out).toMatchObject({ ok: false, status: 503, body: { error: { code: "CG-GRAPH-005" } } });
        expect(out.body).not.toHaveProperty("answer");
        expect((await lastLedgerEntry(db)).payload).toMatchObject({ error_code: "CG-GRAPH-005" });
      } finally {
        await live.close();
      }
    });
  });
});
