"use server";
// Suggested next steps on the case page (issue 16): ask the catalogue for steps (after an answer, citing what it rests
// on), propose one for the case, and list the case's proposed and approved steps. Nothing is executed: a supervisor
// approves or rejects a proposal (app/(workbench)/audit/next-steps), and each step is a ledger entry.
import { z } from "zod";
import { authedAction } from "@/lib/auth/guard";
import { errorOfBody } from "@/lib/domain/failure-codes";
import { nextSteps, recordRefusedNextSteps } from "@/lib/server/playbooks/next-steps";
import { caseNextSteps, proposeNextStep } from "@/lib/server/playbooks/proposals";
import { runtime } from "@/lib/server/runtime";

const members = { roles: ["investigator" as const, "supervisor" as const] };
const id = z.string().trim().min(1).max(200);

export const suggestNextStepsAction = authedAction(
  {
    ...members,
    onRefused: recordRefusedNextSteps,
    // Shape only: the suggest step checks the question and the follow-up like the answer pipeline (and audits rejects).
    input: z.object({
      caseId: z.string().max(1_000),
      question: z.string().max(100_000),
      followUp: z
        .object({ answerText: z.string().max(20_000).optional(), evidenceIds: z.array(z.string().max(200)).max(50).optional() })
        .optional(),
    }),
  },
  async (actor, input) => {
    const outcome = await nextSteps(actor, input);
    if (!outcome.ok) throw errorOfBody(outcome.body.error);
    return outcome.body;
  },
);

export const proposeNextStepAction = authedAction(
  {
    ...members,
    input: z.object({
      caseId: id,
      playbookId: id,
      version: z.string().trim().min(1).max(40),
      reason: z.string().max(1_000).optional(),
      citations: z.array(z.string().max(200)).max(20).optional(),
      suggestionRequestId: z.string().max(100).optional(),
    }),
  },
  async (actor, input) => proposeNextStep((await runtime()).db.prisma, actor, input),
);

export const loadCaseNextSteps = authedAction({ ...members, input: z.object({ caseId: id }) }, async (actor, { caseId }) =>
  caseNextSteps((await runtime()).db.prisma, actor, caseId),
);
