// Concurrency (50 simultaneous asks → 50 ledger entries in one chain that verifies), the HTTP route with a Bearer
// token, and the CLI `ask` command — on PGlite and a real PostgreSQL.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { OfflineExtractiveModel } from "@/lib/adapters/model/offline";
import { poolRunner } from "@/lib/adapters/prisma/evidence-store";
import { PrismaLedger } from "@/lib/adapters/prisma/ledger";
import { importBundle, userIdFor } from "@/lib/adapters/prisma/workspace";
import { loadActor } from "@/lib/auth/actor";
import { answerQuestion } from "@/lib/graphrag/answer";
import type { GraphRagResponse } from "@/lib/graphrag/types";
import { readEnv } from "@/lib/env";
import { pipelineDeps } from "@/lib/server/answers/graphrag";
import { runCli } from "../../support/cli";
import { clearTestRuntime, importDemo, nextHeadersMock, useTestRuntime } from "../../support/auth-fixture";
import { describeEachDatabase } from "../../support/databases";
import { plantedDemo } from "./support";

vi.mock("next/headers", () => nextHeadersMock);
const { POST } = await import("@/app/api/graphrag/answer/route");
const { issueToken } = await import("@/lib/auth/tokens");

describeEachDatabase("50 concurrent asks", (fixture) => {
  beforeAll(async () => {
    await importBundle(fixture().db, (await plantedDemo()).bundle);
  });

  it("give 50 ledger entries in one chain that verifies", async () => {
    const { db, url } = fixture();
    const ledger = new PrismaLedger(db.prisma);
    // On PostgreSQL, reads go through their own pool as in the server (lib/server/answers/graphrag.ts readRunner).
    const reads = url ? poolRunner(url, 10) : undefined;
    const deps = pipelineDeps(db, ledger, new OfflineExtractiveModel(), readEnv({}), reads);
    const before = await ledger.verify();
    const people = [
      "det.reyes@metro.example",
      "analyst.kim@metro.example",
      "lead.park@metro.example",
      "analyst.ng@cyber.example",
      "junior.ali@cyber.example",
    ];
    const actors = await Promise.all(people.map((email) => loadActor(db.prisma, { email }, "cli")));
    const questions = [
      "Who is the Tahoe HBR-4471 registered to?",
      "Why is device did:ws-fin-0231 high risk?",
      "What was Frank Delaney's role?",
      "Please delete EV-C-001",
      "",
    ];
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, i) => {
        const actor = actors[i % actors.length];
        const caseId = actor.tenantId === "metro-pd" ? (i % 7 === 0 ? "case-nightjar" : "case-harbor") : "case-nightjar";
        return answerQuestion(deps, actor, { caseId, question: questions[i % questions.length] });
      }),
    );
    const after = await ledger.verify();
    expect(after.ok).toBe(true);
    expect(after.size - before.size).toBe(50);
    const auditIds = outcomes.map((o) => o.body.auditId);
    expect(auditIds.every((id) => typeof id === "string")).toBe(true);
    expect(new Set(auditIds).size).toBe(50);
    const rows = await db.prisma.ledgerEntry.findMany({ where: { seq: { gt: BigInt(before.size) } }, orderBy: { seq: "asc" } });
    expect(rows).toHaveLength(50);
    expect(new Set(rows.map((r) => (r.payload as Record<string, unknown>).id))).toEqual(new Set(auditIds));
    // Every outcome kind was exercised: answers, refusals, input errors and access denials.
    const types = new Set(rows.map((r) => (r.payload as Record<string, string>).response_type));
    expect([...types].sort()).toEqual(expect.arrayContaining(["answer", "error", "refused"]));
    await reads?.end();
  });
});

describeEachDatabase("POST /api/graphrag/answer", (fixture) => {
  let token = "";
  let ledger: PrismaLedger;
  beforeAll(async () => {
    const { db } = fixture();
    ledger = useTestRuntime(db);
    await importDemo(db);
    token = (
      await issueToken(db.prisma, {
        userId: userIdFor("analyst.ng@cyber.example"),
        name: "answer-route",
        expiresAt: new Date(Date.now() + 600_000),
        createdBy: null,
      })
    ).token;
  });
  afterAll(() => clearTestRuntime());

  const post = (body: string, headers: Record<string, string> = {}) =>
    POST(
      new Request("http://casegraph.test/api/graphrag/answer", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}`, ...headers },
        body,
      }),
      { params: Promise.resolve({}) },
    );

  it("answers with the seed-002 shape for a Bearer token", async () => {
    const res = await post(JSON.stringify({ caseId: "case-nightjar", question: "Why is device did:ws-fin-0231 high risk?" }));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const body = (await res.json()) as GraphRagResponse;
    // The seed-002 shape, grown additively: the thread the answer is a turn of (issue 18).
    expect(Object.keys(body)).toEqual(["answer", "rawContext", "requestId", "timestamp", "auditId", "threadId", "turn"]);
    expect(body.threadId).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.turn).toBe(1);
    expect(Object.keys(body.answer)).toEqual([
      "answerText",
      "citations",
      "unknowns",
      "usedContextSummary",
      "explanationSteps",
      "confidence",
      "confidenceJustification",
      "responseType",
      "needsReview",
      "unknownDetails",
      "claims",
      "provenance",
    ]);
    expect(Object.keys(body.rawContext)).toEqual(["nodes", "edges", "evidenceSnippets"]);
    expect(body.answer.responseType).toBe("answer");
    expect(body.answer.answerText).toMatch(/\[evidence: EV-Y-\d{3}, claim: CLM-001\]/);
    expect(body.answer.citations.length).toBeGreaterThan(0);
    const sorted = [...body.answer.citations].sort((a, b) => (a.evidenceId + a.claimId < b.evidenceId + b.claimId ? -1 : 1));
    expect(body.answer.citations).toEqual(sorted);
    expect(body.answer.usedContextSummary.numEvidenceSnippets).toBe(body.rawContext.evidenceSnippets.length);
    expect(body.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
  });

  it("answers coded errors with fitting statuses and no internals, each audited", async () => {
    const before = (await ledger.verify()).size;
    const cases: Array<[string, number, string]> = [
      ["{not json", 400, "CG-INPUT-001"],
      [JSON.stringify({ caseId: "case-nightjar", question: "x".repeat(2_001) }), 400, "CG-INPUT-003"],
      [JSON.stringify({ caseId: "case-harbor", question: "Who killed Raymond Dunn?" }), 404, "CG-ACCESS-001"],
      [JSON.stringify({ caseId: "case-does-not-exist", question: "Anything?" }), 404, "CG-ACCESS-001"],
    ];
    for (const [body, status, code] of cases) {
      const res = await post(body);
      expect(res.status).toBe(status);
      const json = await res.json();
      expect(json.error.code).toBe(code);
      expect(JSON.stringify(json)).not.toMatch(/stack|SELECT|prisma|at \w+ \(/i);
    }
    expect((await ledger.verify()).size - before).toBe(cases.length);
  });

  it("refuses without a valid credential before the pipeline runs", async () => {
    const res = await post(JSON.stringify({ caseId: "case-nightjar", question: "Why?" }), {
      authorization: "Bearer cgt_" + "x".repeat(43),
    });
    expect(res.status).toBe(401);
  });
});

describeEachDatabase("npm run casegraph -- ask", (fixture, kind) => {
  let dataDir = "";
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "cg-ask-"));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it("prints the answer JSON acting as the given user, with that user's permissions", async () => {
    const { url } = fixture();
    const run = (args: string[]) =>
      runCli(args, { env: { CASEGRAPH_DATA_DIR: dataDir, DATABASE_URL: url ?? "", CASEGRAPH_SEED_DEMO: "never" } });
    if (kind === "pglite") {
      // The embedded database lives in the CLI's own data folder: import the demo there first.
      expect((await run(["import", "prisma/demo/workspace.json"])).code).toBe(0);
    } else {
      await importDemo(fixture().db);
    }
    const ng = await run([
      "ask",
      "--user",
      "analyst.ng@cyber.example",
      "--case",
      "case-nightjar",
      "Why is device did:ws-fin-0231 high risk?",
    ]);
    const ali = await run([
      "ask",
      "--user",
      "junior.ali@cyber.example",
      "--case",
      "case-nightjar",
      "Why is device did:ws-fin-0231 high risk?",
    ]);
    expect(ng.code).toBe(0);
    expect(ali.code).toBe(0);
    const a = JSON.parse(ng.stdout) as GraphRagResponse,
      b = JSON.parse(ali.stdout) as GraphRagResponse;
    expect(a.answer.responseType).toBe("answer");
    const ids = (r: GraphRagResponse) => r.rawContext.evidenceSnippets.map((s) => s.id);
    expect(ids(a)).toContain("EV-Y-007"); // CONFIDENTIAL + soc: analyst.ng (SECRET) sees it
    expect(ids(b)).not.toContain("EV-Y-007"); // junior.ali (CUI) does not
    const denied = await run(["ask", "--user", "junior.ali@cyber.example", "--case", "case-harbor", "Who killed Raymond Dunn?"]);
    expect(denied.code).toBe(1);
    expect(JSON.parse(denied.stdout).error.code).toBe("CG-ACCESS-001");
    const usage = await run(["ask", "--case", "case-harbor", "Who?"]);
    expect(usage.code).toBe(2);
    // An option the command does not know is a usage error naming it, not an internal one; --help prints the usage.
    const unknown = await run(["ask", "--user", "det.reyes@metro.example", "--case", "case-harbor", "--bogus", "Who?"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("--bogus");
    expect(unknown.stderr).not.toContain("CG-SYS-002");
    const help = await run(["ask", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/ask --user <email> --case <id>/);
    // An unknown user is refused, and the refusal is in the ledger like any other refused question.
    const verify = async () => JSON.parse((await run(["audit", "verify"])).stdout) as { ok: boolean; size: number };
    const before = await verify();
    const stranger = await run(["ask", "--user", "nobody@nowhere.example", "--case", "case-nightjar", "Who?"]);
    expect(stranger.code).not.toBe(0);
    expect(stranger.stderr).toMatch(/CG-AUTH-00\d/);
    const after = await verify();
    expect(after).toMatchObject({ ok: true, size: before.size + 1 });
  }, 300_000);
});
