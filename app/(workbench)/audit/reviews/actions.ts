"use server";
// The review queue's decisions (issue 14): supervisors of the tenant approve (note required) or reject a held answer.
import { z } from "zod";
import { authedAction } from "@/lib/auth/guard";
import { decideReview } from "@/lib/server/answers/reviews";
import { runtime } from "@/lib/server/runtime";

const supervisor = { roles: ["supervisor" as const] };
const input = z.object({ id: z.string().min(1).max(100), note: z.string().max(2000).optional() });

export const approveReviewAction = authedAction({ ...supervisor, input }, async (actor, { id, note }) =>
  decideReview((await runtime()).db.prisma, actor, id, "approve", note ?? null),
);

export const rejectReviewAction = authedAction({ ...supervisor, input }, async (actor, { id, note }) =>
  decideReview((await runtime()).db.prisma, actor, id, "reject", note ?? null),
);
