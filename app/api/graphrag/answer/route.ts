import { authedRoute } from "@/lib/auth/guard";
import { askQuestion, recordRefusedQuestion } from "@/lib/server/answers/graphrag";

export const dynamic = "force-dynamic";

const MAX_BODY_CHARS = 64 * 1024;

/**
 * POST /api/graphrag/answer { caseId, question, threadId? } → the seed-002 response (session or Bearer token), with
 * the `threadId` and `turn` it belongs to (a new thread when none was sent; issue 18). Every request
 * that reaches here — malformed bodies included — goes through the pipeline, so it leaves exactly one audit entry;
 * one the guard refuses (credential, Origin, role) is recorded by recordRefusedQuestion.
 */
export const POST = authedRoute({ roles: ["investigator", "supervisor"], onRefused: recordRefusedQuestion }, async (req, { actor }) => {
  const text = await req.text();
  let body: unknown = undefined;
  if (text.length <= MAX_BODY_CHARS) {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined; // The pipeline's input step answers CG-INPUT-001 and audits it.
    }
  }
  const outcome = await askQuestion(actor, body);
  return Response.json(outcome.body, { status: outcome.status, headers: { "Cache-Control": "no-store" } });
});
