"use server";
// The asker's side of the review queue (issue 14): their own held answers on this case — status, the supervisor's
// note once decided, and the answer once approved (marked as reviewed).
import { z } from "zod";
import { authedAction } from "@/lib/auth/guard";
import { assertCaseAccess } from "@/lib/server/access/case-access";
import { myHeldAnswers } from "@/lib/server/answers/reviews";
import { runtime } from "@/lib/server/runtime";

export const loadHeldAnswers = authedAction(
  { roles: ["investigator", "supervisor"], input: z.object({ caseId: z.string().min(1).max(200) }) },
  async (actor, { caseId }) => {
    const { db } = await runtime();
    await assertCaseAccess(db.prisma, actor, caseId);
    return myHeldAnswers(db.prisma, actor, caseId);
  },
);
