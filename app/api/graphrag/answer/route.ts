import { authedRoute, jsonBody } from "@/lib/auth/guard";
import { recordRefusedQuestion } from "@/lib/server/answers/graphrag";
import { askWithSuggestions } from "@/lib/server/playbooks/next-steps";

export const dynamic = "force-dynamic";

/**
 * POST /api/graphrag/answer { caseId, question, threadId? } → the seed-002 response (session or Bearer token), with
 * the `threadId` and `turn` it belongs to (a new thread when none was sent; issue 18). Every request
 * that reaches here — malformed bodies included — goes through the pipeline, so it leaves exactly one audit entry;
 * one the guard refuses (credential, Origin, role) is recorded by recordRefusedQuestion.
 */
export const POST = authedRoute({ roles: ["investigator", "supervisor"], onRefused: recordRefusedQuestion }, async (req, { actor }) => {
  // Over 64 KiB or not JSON: the input step answers CG-INPUT-001 and audits it.
  const outcome = await askWithSuggestions(actor, await jsonBody(req));
  return Response.json(outcome.body, { status: outcome.status, headers: { "Cache-Control": "no-store" } });
});
