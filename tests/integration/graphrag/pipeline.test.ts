// The answer pipeline over the demo workspace on PGlite and a real PostgreSQL: every demo user × every demo case × a
// set of questions. A unique canary is planted in every evidence item, node and edge before import; nothing the user
// may not see — above their clearance, outside their tags, license or tenant — may appear in what the model is shown
// or anywhere in the response JSON.
import { readFile } from "node:fs/promises";
import { beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "@/lib/generated/prisma/client";
import { PrismaEvidenceStore, driverRunner, evidenceSearchSql, planSearch } from "@/lib/adapters/prisma/evidence-store";
import { PrismaGraphStore, seedTextSql } from "@/lib/adapters/prisma/graph-store";
import { generateBundleChunks } from "@/lib/workspace/generate";
import { OfflineExtractiveModel } from "@/lib/adapters/model/offline";
import { PrismaLedger } from "@/lib/adapters/prisma/ledger";
import { importBundle } from "@/lib/adapters/prisma/workspace";
import { loadActor, type Actor } from "@/lib/auth/actor";
import { answerQuestion, type AnswerDeps } from "@/lib/graphrag/answer";
import type { GraphRagResponse } from "@/lib/graphrag/types";
import { readEnv } from "@/lib/env";
import { pipelineDeps } from "@/lib/server/answers/graphrag";
import { describeEachDatabase } from "../../support/databases";
import { RecordingModel, plantedDemo, questionsFor, visibleIds, type Planted } from "./support";

const CASES = ["case-harbor", "case-nightjar", "case-ledgerline"];

describeEachDatabase("answer pipeline over the demo workspace", (fixture) => {
  let planted: Planted;
  let deps: AnswerDeps;
  let model: RecordingModel;
  let ledger: PrismaLedger;
  const actors = new Map<string, Actor>();

  beforeAll(async () => {
    const { db } = fixture();
    planted = await plantedDemo();
    await importBundle(db, planted.bundle);
    ledger = new PrismaLedger(db.prisma);
    model = new RecordingModel(new OfflineExtractiveModel());
    deps = pipelineDeps(db, ledger, model, readEnv({}));
    for (const u of planted.bundle.users) actors.set(u.email, await loadActor(db.prisma, { email: u.email }, "cli"));
  });

  it("never shows anyone an item they may not see — not to the model, not in the answer (every user × every case)", async () => {
    let asked = 0,
      answered = 0,
      denied = 0;
    const before = (await ledger.verify()).size;
    for (const user of planted.bundle.users) {
      const actor = actors.get(user.email)!;
      for (const caseId of CASES) {
        const c = planted.bundle.cases.find((x: any) => x.id === caseId);
        const member = c.members.includes(user.email);
        const questions = member ? await questionsFor(planted.bundle, caseId) : [(await questionsFor(planted.bundle, caseId))[0]];
        const visible = visibleIds(planted.bundle, user, caseId);
        const forbidden = [...planted.canaries]
          .filter(([, where]) => {
            if (where.caseId !== caseId || !member) return true; // other cases, and every case a non-member asks about
            const set = where.kind === "evidence" ? visible.evidence : where.kind === "node" ? visible.nodes : visible.edges;
            return !set.has(where.id);
          })
          .map(([token]) => token);
        const hiddenEvidenceIds = c.evidence.map((e: any) => e.id).filter((id: string) => !member || !visible.evidence.has(id));
        const hiddenNodeIds = c.nodes.map((n: any) => n.id).filter((id: string) => !member || !visible.nodes.has(id));

        for (const question of questions) {
          const seenBefore = model.requests.length;
          const out = await answerQuestion(deps, actor, { caseId, question });
          asked++;
          const json = JSON.stringify(out.body);
          const shown = model.requests
            .slice(seenBefore)
            .map((r) => `${r.prompt}\n${JSON.stringify(r.context)}`)
            .join("\n");
          for (const token of forbidden) {
            expect(
              json.includes(token),
              `${user.email} / ${caseId} / "${question}": response leaks ${token} (${JSON.stringify(planted.canaries.get(token))})`,
            ).toBe(false);
            expect(shown.includes(token), `${user.email} / ${caseId} / "${question}": model was shown ${token}`).toBe(false);
          }
          if (!member) {
            expect(out).toMatchObject({ ok: false, status: 404, body: { error: { code: "CG-ACCESS-001" } } });
            denied++;
            continue;
          }
          if (!out.ok) throw new Error(`${user.email} / ${caseId} / "${question}": ${json}`);
          answered++;
          const body = out.body as GraphRagResponse;
          const ctxEvidence = body.rawContext.evidenceSnippets.map((s) => s.id);
          for (const id of ctxEvidence) expect(visible.evidence.has(id), `${user.email} saw hidden evidence ${id}`).toBe(true);
          for (const n of body.rawContext.nodes) expect(visible.nodes.has(n.id), `${user.email} saw hidden node ${n.id}`).toBe(true);
          for (const e of body.rawContext.edges) expect(visible.edges.has(e.id), `${user.email} saw hidden edge ${e.id}`).toBe(true);
          // Hidden ids do not surface through links, citations, steps or unknowns either.
          const answerJson = JSON.stringify(body.answer) + JSON.stringify(body.rawContext);
          // (An id the question itself names may be echoed back, e.g. "does not mention: EV-C-008": that tells nothing.)
          for (const id of hiddenEvidenceIds.filter((x: string) => !question.includes(x))) {
            expect(
              new RegExp(`(^|[^\\w-])${id}(?![\\w-])`).test(answerJson),
              `${user.email} / ${caseId} / "${question}": hidden evidence id ${id} surfaced`,
            ).toBe(false);
          }
          for (const id of hiddenNodeIds.filter((x: string) => !question.includes(x)))
            expect(answerJson.includes(`"${id}"`), `${user.email}: hidden node id ${id} surfaced`).toBe(false);
          for (const cit of body.answer.citations) expect(ctxEvidence).toContain(cit.evidenceId);
          expect(body.rawContext.nodes.length).toBeLessThanOrEqual(50);
          expect(body.rawContext.edges.length).toBeLessThanOrEqual(200);
          expect(body.rawContext.evidenceSnippets.length).toBeLessThanOrEqual(20);
          expect(body.answer.answerText.length).toBeLessThanOrEqual(10_000);
        }
      }
    }
    expect(answered).toBeGreaterThan(40);
    expect(denied).toBe(21);
    // One chained entry per request, whatever the outcome.
    const after = await ledger.verify();
    expect(after.ok).toBe(true);
    expect(after.size - before).toBe(asked);
  });

  it("the ingest-only items never reach the model for anyone, though they match the question", async () => {
    const ingestOnly = planted.bundle.cases.flatMap((c: any) =>
      c.evidence.filter((e: any) => e.license === "LIC-INGEST-ONLY").map((e: any) => e.id),
    );
    expect(ingestOnly.length).toBeGreaterThan(0);
    const shown = new Set(model.requests.flatMap((r) => (r.context as GraphRagResponse["rawContext"]).evidenceSnippets.map((s) => s.id)));
    for (const id of ingestOnly) expect(shown.has(id)).toBe(false);
    const out = await answerQuestion(deps, actors.get("lead.park@metro.example")!, {
      caseId: "case-harbor",
      question: "Where was the black Chevrolet Tahoe HBR-4471 on the night of 12 April 2025?",
    });
    expect(out.ok).toBe(true);
    expect(JSON.stringify(out.body)).not.toContain("EV-C-008");
  });

  it("neutralises the injection samples in what the model sees and leaves the stored originals unchanged", async () => {
    const { db } = fixture();
    const park = actors.get("lead.park@metro.example")!;
    const ali = actors.get("junior.ali@cyber.example")!;
    const a = await answerQuestion(deps, park, {
      caseId: "case-harbor",
      question: "What did the handwritten note CI-417 handed over say?",
    });
    const b = await answerQuestion(deps, ali, {
      caseId: "case-nightjar",
      question: "What did the phishing email delivered to praman say?",
    });
    for (const [out, id] of [
      [a, "EV-C-012"],
      [b, "EV-Y-019"],
    ] as const) {
      if (!out.ok) throw new Error(JSON.stringify(out.body));
      const s = out.body.rawContext.evidenceSnippets.find((x) => x.id === id);
      expect(s, `${id} should be in context`).toBeDefined();
      expect(s!.neutralised?.length).toBeGreaterThan(0);
      expect(s!.text).not.toMatch(/ignore previous instructions|\[evidence: EV-Y-999\]|SYSTEM:/i);
      const json = JSON.stringify(out.body);
      expect(json).not.toMatch(/ignore previous instructions/i);
      expect(json).not.toContain("EV-Y-999]");
      const stored = await db.prisma.evidence.findFirst({ where: { id }, select: { content: true } });
      const original = planted.bundle.cases.flatMap((c: any) => c.evidence).find((e: any) => e.id === id).content;
      expect(stored!.content).toBe(original);
    }
  });

  it("is byte-identical for the same question, data and offline model (apart from requestId, timestamp, auditId, threadId)", async () => {
    // Each question asked on its own starts a new thread (issue 18): its id differs like the request's.
    const strip = (b: unknown) => JSON.stringify({ ...(b as object), requestId: 0, timestamp: 0, auditId: 0, threadId: 0 });
    for (const [email, caseId, question] of [
      ["analyst.kim@metro.example", "case-harbor", "Who killed Raymond Dunn?"],
      ["analyst.ng@cyber.example", "case-nightjar", "Why is device did:ws-fin-0231 high risk?"],
    ]) {
      const x = await answerQuestion(deps, actors.get(email)!, { caseId, question });
      const y = await answerQuestion(deps, actors.get(email)!, { caseId, question });
      expect(x.ok && y.ok).toBe(true);
      expect(strip(x.body)).toBe(strip(y.body));
      expect((x.body as GraphRagResponse).requestId).not.toBe((y.body as GraphRagResponse).requestId);
    }
  });

  it("gives two users different answers to the same question, as their permissions differ", async () => {
    const q = { caseId: "case-nightjar", question: "Why is device did:ws-fin-0231 high risk?" };
    const ng = (await answerQuestion(deps, actors.get("analyst.ng@cyber.example")!, q)).body as GraphRagResponse;
    const ali = (await answerQuestion(deps, actors.get("junior.ali@cyber.example")!, q)).body as GraphRagResponse;
    expect(ng.answer.responseType).toBe("answer");
    expect(ali.answer.responseType).toBe("answer");
    expect(ali.answer.unknowns.some((u) => /in this case are outside your permissions/.test(u))).toBe(true);
    const aliIds = new Set(ali.rawContext.evidenceSnippets.map((s) => s.id));
    expect(["EV-Y-006", "EV-Y-007", "EV-Y-009"].some((id) => aliIds.has(id))).toBe(false);
    expect(ng.rawContext.evidenceSnippets.some((s) => ["EV-Y-006", "EV-Y-007", "EV-Y-009"].includes(s.id))).toBe(true);
  });

  it("records the seed 000 §4.1 / seed 002 audit fields in the chained entry", async () => {
    const { db } = fixture();
    const out = await answerQuestion(deps, actors.get("det.reyes@metro.example")!, {
      caseId: "case-harbor",
      question: "What did the lab find in the drugs from the controlled buys?",
    });
    if (!out.ok) throw new Error(JSON.stringify(out.body));
    const row = await db.prisma.ledgerEntry.findFirst({ orderBy: { seq: "desc" } });
    const p = row!.payload as Record<string, any>;
    expect(row).toMatchObject({
      kind: "graphrag.answer",
      caseId: "case-harbor",
      actorId: actors.get("det.reyes@metro.example")!.userId,
      tenantId: "metro-pd",
    });
    expect(p).toMatchObject({
      id: out.body.auditId,
      request_id: out.body.requestId,
      ts: out.body.timestamp,
      prompt_version: "prompt_v1",
      model: "offline:casegraph-extractive-v2",
      response_type: "answer",
      answer_has_answer: true,
      context_evidence_count: out.body.rawContext.evidenceSnippets.length,
      all_citations_in_context: true,
    });
    expect(p.context_evidence_ids).toEqual(out.body.rawContext.evidenceSnippets.map((s) => s.id));
    expect(p.context_node_ids).toEqual(out.body.rawContext.nodes.map((n) => n.id));
    expect(p.citation_ids).toEqual(expect.arrayContaining(out.body.answer.citations.map((c) => c.evidenceId)));
    expect(p.policy_filtered_count).toBeGreaterThan(0);
    expect(JSON.stringify(p)).not.toContain("zqcanary"); // ids and counts, never evidence text
  });
});

describeEachDatabase("retrieval uses the stored tsvector and its GIN index", (fixture) => {
  const scope = { tenantId: "gen-tenant", caseId: "case-gen-3" };
  beforeAll(async () => {
    // A generated case big enough for the planner to prefer the full-text index over the case's btree index.
    const { db } = fixture();
    const bundle = JSON.parse([...generateBundleChunks({ nodes: 3_000, evidence: 20_000, seed: 3 })].join(""));
    await importBundle(db, bundle);
    await db.prisma.$executeRawUnsafe("ANALYZE");
  });

  it("never computes to_tsvector per row or scans with ILIKE at query time", async () => {
    for (const file of ["lib/adapters/prisma/evidence-store.ts", "lib/adapters/prisma/graph-store.ts"]) {
      const code = (await readFile(file, "utf8"))
        .split("\n")
        .filter((l) => !l.trim().startsWith("//"))
        .join("\n");
      expect(code).not.toMatch(/to_tsvector\s*\(/i);
      expect(code).not.toMatch(/\bI?LIKE\b/i);
    }
  });

  it("the planner reads evidence_search_idx and graph_node_search_idx for the store's full-text queries", async () => {
    const { db } = fixture();
    // With sequential scans priced out (a few thousand rows are cheap to scan), the planner must still find an index
    // for the full-text predicate: the GIN on the stored column. The bench prints the plan at 100k rows.
    const plan = await planSearch(driverRunner(db), "evidence", "english", ["amara", "brandt"]);
    const [evidencePlan, nodePlan] = await db.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
      const explain = async (sql: Prisma.Sql) =>
        (await tx.$queryRaw<Array<Record<string, string>>>(Prisma.sql`EXPLAIN ${sql}`)).map((r) => Object.values(r)[0]).join("\n");
      return [await explain(evidenceSearchSql(scope, plan, 60)), await explain(seedTextSql(scope, ["amara", "brandt"], 200))];
    });
    expect(evidencePlan).toMatch(/Bitmap Index Scan on evidence_search_idx/);
    expect(evidencePlan).not.toMatch(/to_tsvector/);
    expect(nodePlan).toMatch(/Bitmap Index Scan on graph_node_search_idx/);
  });

  it("finds evidence by OR-ed terms and ranks items matching more of them first", async () => {
    const { db } = fixture();
    const store = new PrismaEvidenceStore(driverRunner(db));
    const hits = await store.search(scope, { terms: ["amara", "brandt", "zzznotaword"], limit: 30 });
    expect(hits.length).toBe(30);
    for (let i = 1; i < hits.length; i++) expect(hits[i - 1].rank).toBeGreaterThanOrEqual(hits[i].rank);
    expect(hits[0].content.toLowerCase()).toMatch(/amara[\s\S]*brandt|brandt[\s\S]*amara/);
    // Websearch syntax in the question cannot break the query.
    expect(await store.search(scope, { terms: ['"unclosed', "-not", "or", "a:b", "(x"], limit: 5 })).toBeInstanceOf(Array);
  });

  it("expands k hops within the node and edge caps", async () => {
    const { db } = fixture();
    const graph = new PrismaGraphStore(driverRunner(db));
    const [{ source }] = await db.prisma.$queryRaw<
      Array<{ source: string }>
    >`SELECT source FROM graph_edge WHERE case_id = ${scope.caseId} ORDER BY id LIMIT 1`;
    const seeds = (await graph.findSeedNodes(scope, { ids: [source], phrases: [], terms: [], limit: 10 })).map((c) => c.node.id);
    expect(seeds).toEqual([source]);
    const one = await graph.expand(scope, seeds, { hops: 1, maxNodes: 500, maxEdges: 500 });
    const two = await graph.expand(scope, seeds, { hops: 2, maxNodes: 500, maxEdges: 500 });
    const capped = await graph.expand(scope, seeds, { hops: 3, maxNodes: 20, maxEdges: 15 });
    expect(Math.max(...one.nodes.map((n) => n.hop))).toBe(1);
    expect(two.nodes.length).toBeGreaterThan(one.nodes.length);
    expect(capped.nodes.length).toBeLessThanOrEqual(20);
    expect(capped.edges.length).toBeLessThanOrEqual(15);
    expect(capped.truncated).toBe(true);
    const ids = new Set(two.nodes.map((n) => n.id));
    for (const e of two.edges) expect(ids.has(e.source) && ids.has(e.target)).toBe(true);
    // Scoped by case and tenant: the same ids in another tenant's scope find nothing.
    expect(await graph.expand({ ...scope, tenantId: "metro-pd" }, seeds, { hops: 2, maxNodes: 50, maxEdges: 50 })).toMatchObject({
      edges: [],
    });
  });
});

describe("planted canaries", () => {
  it("are unique words in every item of the demo", async () => {
    const p = await plantedDemo();
    const total = p.bundle.cases.reduce((a: number, c: any) => a + c.evidence.length + c.nodes.length + c.edges.length, 0);
    expect(p.canaries.size).toBe(total);
  });
});
