"use server";
// Proposed next steps (issue 16): supervisors of the tenant approve or reject a step an investigator proposed, with a
// note. The decision is recorded (and in the ledger); Casegraph executes nothing.
import { z } from "zod";
import { authedAction } from "@/lib/auth/guard";
import { decideNextStep } from "@/lib/server/playbooks/proposals";
import { runtime } from "@/lib/server/runtime";

const supervisor = { roles: ["supervisor" as const] };
const input = z.object({ id: z.string().min(1).max(100), note: z.string().max(2000) });

export const approveNextStepAction = authedAction({ ...supervisor, input }, async (actor, { id, note }) =>
  decideNextStep((await runtime()).db.prisma, actor, id, "approve", note),
);

export const rejectNextStepAction = authedAction({ ...supervisor, input }, async (actor, { id, note }) =>
  decideNextStep((await runtime()).db.prisma, actor, id, "reject", note),
);
