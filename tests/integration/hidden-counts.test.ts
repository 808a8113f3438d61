// The hidden-item count is not an oracle (issue 11 §4). By default an answer reports what the policy hid as the case
// totals of what the asker cannot see, so two questions that differ only in a word found solely in hidden evidence get
// identical answers — a CUI analyst cannot test whether a name appears in SECRET evidence. A tenant that accepts the
// risk switches to exact per-question counts (a ledger entry); the ledger always keeps the exact counts.
import { afterAll, beforeAll, expect, it } from "vitest";
import { loadActor, type Actor } from "@/lib/auth/actor";
import { askQuestion } from "@/lib/server/answers/graphrag";
import { listCases } from "@/lib/server/workbench/cases";
import { questionHistory } from "@/lib/server/workbench/history";
import { openCase } from "@/lib/server/workbench/scope";
import { split } from "../../e2e/pages/demo-policy";
import { clearTestRuntime, importDemo, useTestRuntime } from "../support/auth-fixture";
import { describeEachDatabase } from "../support/databases";

const CASE = "case-harbor";
const ANALYST = "analyst.kim@metro.example";
/** A word no item of any demo case holds. */
const ABSENT = "Quxxolantry";

/** Proper names (capitalised words of 4+ letters) that occur in evidence hidden from the analyst and nowhere she may look. */
function hiddenOnlyNames(): string[] {
  const s = split(CASE, ANALYST);
  const seen = [
    ...s.visible.evidence.map((e) => `${e.id} ${e.content} ${e.sourceSystem} ${e.type}`),
    ...s.visible.nodes.map((n) => `${n.id} ${n.label} ${JSON.stringify(n.properties ?? {})}`),
    ...s.visible.edges.map((e) => JSON.stringify(e)),
    s.case.title,
  ]
    .join(" ")
    .toLowerCase();
  const names = new Set<string>();
  for (const e of s.hidden.evidence) for (const w of e.content.match(/\b[A-Z][a-z]{3,}\b/g) ?? []) names.add(w);
  // Not a word of the visible case in any form (a shared stem would make the visible retrieval differ).
  return [...names].filter((w) => !seen.includes(w.toLowerCase().slice(0, 4))).sort();
}

const withoutIds = (body: unknown) => {
  const { requestId: _r, timestamp: _t, auditId: _a, threadId: _th, ...rest } = body as Record<string, unknown>;
  // The provenance (issue 15) names this request's own question (queryHash) and time: per request, like the ids.
  const { provenance: _p, ...answer } = (rest.answer ?? {}) as Record<string, unknown>;
  return JSON.stringify({ ...rest, answer });
};

const hiddenUnknowns = (body: any) => (body.answer?.unknownDetails ?? []).filter((u: { kind: string }) => u.kind === "hidden_by_policy");

describeEachDatabase("hidden counts in answers", (fixture) => {
  let kim: Actor;
  const words = hiddenOnlyNames();

  beforeAll(async () => {
    const { db } = fixture();
    useTestRuntime(db);
    await importDemo(db);
    kim = await loadActor(db.prisma, { email: ANALYST }, "session");
  });
  afterAll(() => clearTestRuntime());

  it("has hidden-only names to probe with", () => {
    expect(words.length).toBeGreaterThanOrEqual(3);
  });

  it("by default, a word only hidden evidence holds changes nothing in the answer", async () => {
    const baseline = await askQuestion(kim, { caseId: CASE, question: `Who is ${ABSENT}?` });
    expect(baseline.ok).toBe(true);
    for (const word of words.slice(0, 6)) {
      const probe = await askQuestion(kim, { caseId: CASE, question: `Who is ${word}?` });
      expect(withoutIds(probe.body), word).toBe(withoutIds(baseline.body));
    }
    // What it says instead: the case totals, the same numbers the case list shows her.
    const [listed] = (await listCases(kim)).filter((c) => c.id === CASE);
    const hidden = hiddenUnknowns(baseline.body);
    expect(hidden.map((u: any) => u.counts)).toEqual([
      { evidence: listed.hidden.evidence },
      { nodes: listed.hidden.nodes, edges: listed.hidden.edges },
    ]);
    expect(listed.hidden.evidence).toBeGreaterThan(0);
  });

  it("by default, the policy part of an answer that does find something does not depend on the hidden word", async () => {
    const plain = await askQuestion(kim, { caseId: CASE, question: `What happened at Pier 9 and who is ${ABSENT}?` });
    for (const word of words.slice(0, 4)) {
      const probe = await askQuestion(kim, { caseId: CASE, question: `What happened at Pier 9 and who is ${word}?` });
      expect(hiddenUnknowns(probe.body), word).toEqual(hiddenUnknowns(plain.body));
    }
  });

  it("keeps the exact counts in the ledger, and shows them only where the tenant chose exact counts", async () => {
    const { db } = fixture();
    const word = words[0];
    await askQuestion(kim, { caseId: CASE, question: `Who is ${word}?` });
    const [row] = await db.prisma.$queryRaw<
      Array<{ payload: any }>
    >`SELECT payload FROM "ledger" WHERE kind = 'graphrag.answer' ORDER BY seq DESC LIMIT 1`;
    expect(row.payload.policy_filtered_count).toBeGreaterThan(0);
    // Her history does not show the per-question count either.
    const history = await questionHistory(await openCase(kim, CASE), kim);
    expect(history.every((h) => h.hiddenByPolicy === null)).toBe(true);

    await db.prisma.tenant.update({ where: { id: "metro-pd" }, data: { hiddenCountMode: "exact" } });
    const exact = await askQuestion(kim, { caseId: CASE, question: `Who is ${word}?` });
    const absent = await askQuestion(kim, { caseId: CASE, question: `Who is ${ABSENT}?` });
    expect(withoutIds(exact.body)).not.toBe(withoutIds(absent.body));
    expect(hiddenUnknowns(exact.body)[0].text).toMatch(/not visible due to policy restrictions/);
    expect(hiddenUnknowns(absent.body)).toEqual([]);
    const [, exactEntry] = await questionHistory(await openCase(kim, CASE), kim); // newest first: the absent word, then this
    expect(exactEntry.question).toBe(`Who is ${word}?`);
    expect(exactEntry.hiddenByPolicy).toBeGreaterThan(0);
    await db.prisma.tenant.update({ where: { id: "metro-pd" }, data: { hiddenCountMode: "case" } });
  });
});
