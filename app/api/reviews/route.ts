// GET /api/reviews[?status=pending|approved|rejected]: the held answers of the supervisor's tenant (issue 14).
import { z } from "zod";
import { authedRoute } from "@/lib/auth/guard";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { listReviews } from "@/lib/server/answers/reviews";
import { runtime } from "@/lib/server/runtime";

const query = z.object({ status: z.enum(["pending", "approved", "rejected"]).optional() });

export const GET = authedRoute({ roles: ["supervisor"] }, async (req, { actor }) => {
  const parsed = query.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) throw new CasegraphError("CG-INPUT-005", "status must be pending, approved or rejected.");
  const { db } = await runtime();
  return Response.json({ reviews: await listReviews(db.prisma, actor, parsed.data) }, { headers: { "Cache-Control": "no-store" } });
});
