// Runs labelled questions through the real pipeline (askQuestion, as each question's user, with that user's current
// permissions), each twice for determinism, and scores them (lib/eval/metrics.ts).
import "server-only";
import { loadActor } from "../../auth/actor";
import { asCasegraphError } from "../../domain/failure-codes";
import { scoreQuestion, summarise, type EvalQuestion, type EvalSummary, type QuestionResult } from "../../eval/metrics";
import { runtime, seedDemoIfEmpty } from "../runtime";
import { askQuestion } from "./graphrag";

export interface EvalReport {
  summary: EvalSummary;
  results: QuestionResult[];
}

export async function runEval(questions: EvalQuestion[], onProgress?: (done: number) => void): Promise<EvalReport> {
  const { db } = await runtime();
  await seedDemoIfEmpty(); // a fresh data folder gets the demo workspace, as the server does at its first start
  const results: QuestionResult[] = [];
  for (const q of questions) {
    let body: unknown;
    let again: unknown;
    let latencyMs = 0;
    try {
      const actor = await loadActor(db.prisma, { email: q.user }, "cli");
      const started = performance.now();
      body = (await askQuestion(actor, { caseId: q.case, question: q.question })).body;
      latencyMs = performance.now() - started;
      again = (await askQuestion(actor, { caseId: q.case, question: q.question })).body;
    } catch (err) {
      // An unknown or deactivated user is a result too (an error response), not a reason to stop the run.
      body = again = { error: asCasegraphError(err).toJSON().error };
    }
    results.push(scoreQuestion({ question: q, body, again, latencyMs }));
    onProgress?.(results.length);
  }
  return { summary: summarise(results, questions), results };
}
