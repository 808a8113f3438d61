import { authedRoute, jsonBody } from "@/lib/auth/guard";
import { nextSteps, recordRefusedNextSteps } from "@/lib/server/playbooks/next-steps";

export const dynamic = "force-dynamic";

/**
 * POST /api/graphrag/next-steps { caseId, question, followUp?: { answerText?, evidenceIds? }, minConfidence?, maxResults? }
 * → { suggestions: [{ playbookId, version, description, confidence, reason, citations }], catalogueVersion, requestId,
 * timestamp, auditId } (session or Bearer token). Playbooks from the agency's catalogue that fit the case and the asker;
 * each needs a supervisor's approval, and nothing is executed. Every request leaves one ledger entry.
 */
export const POST = authedRoute({ roles: ["investigator", "supervisor"], onRefused: recordRefusedNextSteps }, async (req, { actor }) => {
  // Over 64 KiB or not JSON: the input step answers CG-INPUT-001 and audits it.
  const outcome = await nextSteps(actor, await jsonBody(req));
  return Response.json(outcome.body, { status: outcome.status, headers: { "Cache-Control": "no-store" } });
});
