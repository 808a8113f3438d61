// Unknown markings fail closed at read time (issue 11 §1). Another tool writes markings Casegraph cannot read straight
// into the stores — a classification the enum was extended with, a NULL or blank need-to-know tag in PostgreSQL; in
// Neo4j "SECRET//NOFORN", "secret ", null, a number, tags that are not a list. Those items are denied to everyone,
// the highest clearance included, in the answer pipeline and in every workbench loader, counted under their own
// reason in the ledger, and counted (no ids) for operators in health and `graph status`.
import { afterAll, beforeAll, expect, it } from "vitest";
import { OfflineExtractiveModel } from "@/lib/adapters/model/offline";
import { importBundleWithGraph } from "@/lib/adapters/neo4j/sync";
import type { Neo4jGraphStore } from "@/lib/adapters/neo4j/graph-store";
import { PrismaLedger } from "@/lib/adapters/prisma/ledger";
import { loadActor, type Actor } from "@/lib/auth/actor";
import { readEnv } from "@/lib/env";
import { answerQuestion } from "@/lib/graphrag/answer";
import { unreadableMarkings } from "@/lib/server/runtime/graph";
import { askQuestion, pipelineDeps } from "@/lib/server/answers/graphrag";
import { listCases } from "@/lib/server/workbench/cases";
import { evidenceByIds } from "@/lib/server/workbench/evidence";
import { searchNodes, visibleCaseGraph } from "@/lib/server/workbench/graph";
import { openCase } from "@/lib/server/workbench/scope";
import { clearTestRuntime, importDemo, useTestRuntime } from "../support/auth-fixture";
import { describeEachDatabase } from "../support/databases";
import { demoBundle } from "../support/demo";
import { describeNeo4j, testNeo4jStore, uniqueCaseIds } from "../support/neo4j";

const CASE = "case-harbor";
const QUESTION = "Who killed Raymond Dunn?";

async function lastAnswerPolicy(db: { prisma: { $queryRaw: (...a: any[]) => Promise<any> } }) {
  const [row] = await db.prisma.$queryRaw`SELECT payload FROM "ledger" WHERE kind = 'graphrag.answer' ORDER BY seq DESC LIMIT 1`;
  return row.payload.policy as Record<"evidence" | "nodes" | "edges", { by_reason: Record<string, number> }>;
}

describeEachDatabase("unreadable markings in PostgreSQL", (fixture) => {
  let lead: Actor;
  let evidenceId: string;
  let node: { id: string; name: string };

  beforeAll(async () => {
    const { db } = fixture();
    useTestRuntime(db);
    await importDemo(db);
    // The highest clearance and every tag of the tenant: only the unreadable marking can hide an item from them.
    lead = await loadActor(db.prisma, { email: "lead.park@metro.example" }, "session");
  });
  afterAll(() => clearTestRuntime());

  it("before: the items are visible to the lead investigator", async () => {
    const outcome = await askQuestion(lead, { caseId: CASE, question: QUESTION });
    expect(outcome.ok).toBe(true);
    const ctx = (outcome.body as any).rawContext;
    evidenceId = ctx.evidenceSnippets[0].id;
    expect(evidenceId).toMatch(/\S/);
    const named = ctx.nodes.find((n: any) => n.name);
    node = { id: named.id, name: named.name };
    expect(await unreadableMarkings(fixture().db, {})).toEqual({ nodes: 0, edges: 0, evidence: 0 });
  });

  it("after another tool writes markings Casegraph cannot read, they are hidden from everyone and counted", async () => {
    const { db } = fixture();
    // The database refuses a NULL tag outright (a CHECK constraint)...
    await expect(
      db.prisma
        .$executeRaw`UPDATE "graph_node" SET need_to_know = ARRAY['narcotics', NULL]::text[] WHERE id = ${node.id} AND case_id = ${CASE}`,
    ).rejects.toThrow();
    // ...but another tool can extend the enum and use its value, or write a blank tag: one evidence item gets a foreign
    // marking, one node and one edge a blank tag.
    await db.prisma.$executeRawUnsafe(`ALTER TYPE "Classification" ADD VALUE IF NOT EXISTS 'SECRET//NOFORN'`);
    await db.prisma.$executeRaw`UPDATE "evidence" SET classification = 'SECRET//NOFORN' WHERE id = ${evidenceId} AND case_id = ${CASE}`;
    await db.prisma
      .$executeRaw`UPDATE "graph_node" SET need_to_know = ARRAY['narcotics', ' ']::text[] WHERE id = ${node.id} AND case_id = ${CASE}`;
    await db.prisma.$executeRawUnsafe(
      `UPDATE "graph_edge" SET need_to_know = ARRAY['  ']::text[] WHERE id = (SELECT id FROM "graph_edge" WHERE case_id = '${CASE}' ORDER BY id LIMIT 1)`,
    );

    const outcome = await askQuestion(lead, { caseId: CASE, question: QUESTION });
    expect(outcome.ok).toBe(true);
    const body = JSON.stringify(outcome.body);
    expect(body).not.toContain(`"${evidenceId}"`);
    expect(body).not.toContain(`"${node.id}"`);
    const policy = await lastAnswerPolicy(db);
    expect(policy.evidence.by_reason.unreadable_marking).toBe(1);
    expect(policy.nodes.by_reason.unreadable_marking).toBe(1);

    // Every workbench loader: graph view, node search, evidence panel.
    const open = await openCase(lead, CASE);
    const graph = await visibleCaseGraph(open, lead);
    expect(graph.nodes.map((n) => n.id)).not.toContain(node.id);
    expect(searchNodes(graph, node.name).map((n) => n.id)).not.toContain(node.id);
    expect(await evidenceByIds(open, lead, [evidenceId])).toEqual([]);

    expect(await unreadableMarkings(db, {})).toEqual({ nodes: 1, edges: 1, evidence: 1 });
  });

  it("a user whose clearance cannot be read sees nothing, and signs in without an error", async () => {
    const { db } = fixture();
    await db.prisma.$executeRaw`UPDATE "user" SET clearance = 'SECRET//NOFORN' WHERE email = 'det.reyes@metro.example'`;
    const reyes = await loadActor(db.prisma, { email: "det.reyes@metro.example" }, "session");
    expect(reyes.clearance).toBe("UNREADABLE");
    const outcome = await askQuestion(reyes, { caseId: CASE, question: QUESTION });
    expect((outcome.body as any).rawContext?.evidenceSnippets ?? []).toEqual([]);
    expect((outcome.body as any).rawContext?.nodes ?? []).toEqual([]);
    const [listed] = await listCases(reyes);
    expect(listed.visible).toEqual({ nodes: 0, edges: 0, evidence: 0 });
    const graph = await visibleCaseGraph(await openCase(reyes, CASE), reyes);
    expect(graph.nodes).toEqual([]);
  });
});

describeNeo4j("unreadable markings in Neo4j", () => {
  describeEachDatabase("a graph written by another tool", (fixture) => {
    let neo4j: Neo4jGraphStore;
    let caseId: string;
    let lead: Actor;

    beforeAll(async () => {
      const { db } = fixture();
      const bundle = demoBundle();
      uniqueCaseIds(bundle, "markings");
      caseId = bundle.cases.find((c: { id: string }) => c.id.startsWith(CASE)).id;
      neo4j = testNeo4jStore();
      await importBundleWithGraph(db, bundle, neo4j);
      lead = await loadActor(db.prisma, { email: "lead.park@metro.example" }, "cli");
    });
    afterAll(async () => {
      await neo4j.writes.deleteCase(caseId);
      await neo4j.close();
    });

    it("nodes and edges whose markings cannot be read are denied in answers and counted", async () => {
      const { db } = fixture();
      const deps = { ...pipelineDeps(db, new PrismaLedger(db.prisma), new OfflineExtractiveModel(), readEnv({})), graph: neo4j };
      const before = await answerQuestion(deps, lead, { caseId, question: QUESTION });
      expect(before.ok).toBe(true);
      const nodes = (before.body as any).rawContext.nodes as Array<{ id: string }>;
      expect(nodes.length).toBeGreaterThanOrEqual(4);
      const bad: unknown[] = ["SECRET//NOFORN", "secret ", null, 3];
      const targets = nodes.slice(0, bad.length).map((n) => n.id);
      const driver = (neo4j as any).conn;
      await driver.write((tx: any) =>
        tx.run(`UNWIND range(0, size($ids) - 1) AS i MATCH (n:CaseNode {caseId: $caseId, id: $ids[i]}) SET n.classification = $bad[i]`, {
          ids: targets,
          bad,
          caseId,
        }),
      );
      // Tags that are not a list, on one more node (if there is one) — and on every edge of the case.
      await driver.write((tx: any) => tx.run(`MATCH ()-[r:EDGE {caseId: $caseId}]->() SET r.needToKnow = 'narcotics'`, { caseId }));

      const after = await answerQuestion(deps, lead, { caseId, question: QUESTION });
      const body = JSON.stringify(after.body);
      for (const id of targets) expect(body).not.toContain(`"${id}"`);
      expect((after.body as any).rawContext?.edges ?? []).toEqual([]);
      const policy = await lastAnswerPolicy(db);
      expect(policy.nodes.by_reason.unreadable_marking).toBeGreaterThanOrEqual(1);

      const counts = await neo4j.unreadableMarkings();
      expect(counts.nodes).toBeGreaterThanOrEqual(targets.length);
      expect(counts.edges).toBeGreaterThan(0);
    });
  });
});
