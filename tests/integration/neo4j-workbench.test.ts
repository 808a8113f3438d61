// With NEO4J_URI set, the workbench reads the case graph from Neo4j, as the answer pipeline does (issue 12, "Reads
// through the ports"): a node renamed in Neo4j alone shows its new name in the case graph view, node search and the
// node inspector, while PostgreSQL still holds the old one.
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { importBundleWithGraph } from "@/lib/adapters/neo4j/sync";
import { loadActor, type Actor } from "@/lib/auth/actor";
import { env } from "@/lib/env";
import { closeGraphStores, configuredNeo4jStore } from "@/lib/server/runtime/graph";
import { listCases } from "@/lib/server/workbench/cases";
import { graphView, searchNodes, visibleCaseGraph } from "@/lib/server/workbench/graph";
import { openCase } from "@/lib/server/workbench/scope";
import { DEMO_PASSWORD, clearTestRuntime, cookieHeaderFrom, nextHeadersMock, setRequest, useTestRuntime } from "../support/auth-fixture";
import { describeEachDatabase } from "../support/databases";
import { demoBundle } from "../support/demo";
import { TEST_NEO4J_URI, describeNeo4j, testNeo4jConfig, uniqueCaseIds } from "../support/neo4j";

vi.mock("next/headers", () => nextHeadersMock);
const { signInWithPassword } = await import("@/lib/auth/sign-in");
const { loadNodeDetails } = await import("@/app/(workbench)/cases/[caseId]/workbench-actions");

describeNeo4j("workbench reads through the configured graph store", () => {
  // Before anything reads the environment: this file's workers run with Neo4j as the graph store.
  process.env.NEO4J_URI = TEST_NEO4J_URI;
  if (testNeo4jConfig().user) process.env.NEO4J_USER = testNeo4jConfig().user;
  if (testNeo4jConfig().password) process.env.NEO4J_PASSWORD = testNeo4jConfig().password;

  describeEachDatabase("Neo4j as the graph store", (fixture) => {
    let caseId: string;
    let lead: Actor;

    beforeAll(async () => {
      const { db } = fixture();
      useTestRuntime(db);
      const bundle = demoBundle();
      uniqueCaseIds(bundle, "workbench");
      caseId = bundle.cases.find((c: { id: string }) => c.id.startsWith("case-harbor")).id;
      await importBundleWithGraph(db, bundle, configuredNeo4jStore(env())!);
      lead = await loadActor(db.prisma, { email: "lead.park@metro.example" }, "session");
    });
    afterAll(async () => {
      await configuredNeo4jStore(env())?.writes.deleteCase(caseId);
      clearTestRuntime();
      await closeGraphStores();
    });

    it("a name changed in Neo4j alone shows in the graph view, node search and inspector", async () => {
      const { db } = fixture();
      const open = await openCase(lead, caseId);
      const before = await visibleCaseGraph(open, lead);
      const node = before.nodes.find((n) => n.label === "Person")!;
      const renamed = `Renamed in Neo4j ${node.id}`;
      const neo4j = configuredNeo4jStore(env())! as unknown as { conn: { write: (fn: (tx: any) => Promise<unknown>) => Promise<unknown> } };
      await neo4j.conn.write((tx) =>
        tx.run(`MATCH (n:CaseNode {caseId: $caseId, id: $id}) SET n.name = $name`, { caseId, id: node.id, name: renamed }),
      );

      const after = await visibleCaseGraph(await openCase(lead, caseId), lead);
      expect(graphView(caseId, after).nodes.find((n) => n.id === node.id)?.name).toBe(renamed);
      expect(searchNodes(after, "Renamed in Neo4j").map((n) => n.id)).toEqual([node.id]);
      expect(after.byId.get(node.id)?.name).toBe(renamed); // the inspector's node comes from this map

      // The server action behind the inspector returns it too.
      setRequest({});
      const { setCookies } = await signInWithPassword(
        db.prisma,
        { email: "lead.park@metro.example", password: DEMO_PASSWORD },
        new Headers(),
      );
      setRequest({ cookie: cookieHeaderFrom(setCookies) });
      const details = await loadNodeDetails({ caseId, nodeId: node.id });
      expect(details).toMatchObject({ ok: true, data: { node: { id: node.id, name: renamed } } });

      // PostgreSQL was not touched: the view did not come from it.
      const pg = await db.prisma.graphNode.findFirst({ where: { caseId, id: node.id }, select: { name: true } });
      expect(pg?.name).toBe(node.name);
      // The case list counts come from the same store.
      expect((await listCases(lead)).find((c) => c.id === caseId)?.visible.nodes).toBe(before.nodes.length);
    });
  });
});
