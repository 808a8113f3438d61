// GET /api/reviews/mine?caseId=…: the caller's own held answers on a case — status, the supervisor's note once
// decided, and the answer once approved (marked as reviewed). Case membership is checked as for any case read.
import { z } from "zod";
import { authedRoute } from "@/lib/auth/guard";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { assertCaseAccess } from "@/lib/server/access/case-access";
import { myHeldAnswers } from "@/lib/server/answers/reviews";
import { runtime } from "@/lib/server/runtime";

const query = z.object({ caseId: z.string().min(1).max(200) });

export const GET = authedRoute({ roles: ["investigator", "supervisor"] }, async (req, { actor }) => {
  const parsed = query.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) throw new CasegraphError("CG-INPUT-005", "caseId is required.");
  const { db } = await runtime();
  await assertCaseAccess(db.prisma, actor, parsed.data.caseId);
  return Response.json({ held: await myHeldAnswers(db.prisma, actor, parsed.data.caseId) }, { headers: { "Cache-Control": "no-store" } });
});
