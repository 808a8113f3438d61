// Runs labelled questions through the real pipeline (askQuestion, as each question's user, with that user's current
// permissions), each twice for determinism, and scores them (lib/eval/metrics.ts). Lines naming a thread are asked as
// the turns of one thread, in order.
import "server-only";
import { PrismaEvidenceStore } from "../../adapters/prisma/evidence-store";
import { loadActor, type Actor } from "../../auth/actor";
import { asCasegraphError } from "../../domain/failure-codes";
import { PolicyGate } from "../../graphrag/policy-filter";
import { scoreQuestion, summarise, type EvalQuestion, type EvalSummary, type QuestionResult } from "../../eval/metrics";
import { assertCaseAccess } from "../access/case-access";
import { runtime, seedDemoIfEmpty } from "../runtime";
import { askQuestion } from "./graphrag";

export interface EvalReport {
  summary: EvalSummary;
  results: QuestionResult[];
}

export async function runEval(questions: EvalQuestion[], onProgress?: (done: number) => void): Promise<EvalReport> {
  const { db } = await runtime();
  const evidence = new PrismaEvidenceStore(db.prisma);
  await seedDemoIfEmpty(); // a fresh data folder gets the demo workspace, as the server does at its first start
  const results: QuestionResult[] = [];
  // A named thread's lines are its turns, in file order (issue 18). The run and the re-run (determinism) each keep
  // their own thread, so the re-run of a follow-up is read against the re-run of the turns before it.
  const threads = new Map<string, { first?: string; again?: string }>();
  for (const q of questions) {
    let body: unknown;
    let again: unknown;
    let latencyMs = 0;
    let goldHidden: string[] | undefined;
    const thread = q.thread ? (threads.get(q.thread) ?? threads.set(q.thread, {}).get(q.thread)!) : null;
    const ask = async (actor: Parameters<typeof askQuestion>[0], run: "first" | "again") => {
      const threadId = thread?.[run];
      // Afresh: a reused answer would make the re-run identical whatever the answerer does.
      const out = (await askQuestion(actor, { caseId: q.case, question: q.question, ...(threadId ? { threadId } : {}) }, { afresh: true }))
        .body;
      if (thread && out.threadId) thread[run] = out.threadId;
      return out;
    };
    try {
      const actor = await loadActor(db.prisma, { email: q.user }, "cli");
      if (q.gold.length) goldHidden = await hiddenFrom(db.prisma, evidence, actor, q.case, q.gold);
      const started = performance.now();
      body = await ask(actor, "first");
      latencyMs = performance.now() - started;
      again = await ask(actor, "again");
    } catch (err) {
      // An unknown or deactivated user is a result too (an error response), not a reason to stop the run.
      body = again = { error: asCasegraphError(err).toJSON().error };
    }
    results.push(scoreQuestion({ question: q, body, again, latencyMs, ...(goldHidden ? { goldHidden } : {}) }));
    onProgress?.(results.length);
  }
  return { summary: summarise(results, questions), results };
}

/**
 * The gold evidence ids the question's user may not see (hidden by policy, or not in the case), read through the same
 * policy gate as the answer: a label the run can check. (None when the user may not open the case: the answer says so.)
 */
async function hiddenFrom(
  prisma: Parameters<typeof assertCaseAccess>[0],
  evidence: PrismaEvidenceStore,
  actor: Actor,
  caseId: string,
  gold: readonly string[],
): Promise<string[] | undefined> {
  const record = await assertCaseAccess(prisma, actor, caseId).catch(() => undefined);
  if (!record) return undefined;
  const found = await evidence.byIds({ tenantId: record.tenantId, caseId: record.id }, gold);
  const visible = new Set(new PolicyGate(actor).evidence(found).map((e) => e.id));
  return gold.filter((id) => !visible.has(id)).sort();
}
