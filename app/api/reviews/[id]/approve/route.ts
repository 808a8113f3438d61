// POST /api/reviews/{id}/approve {"note": "…"}: a supervisor of the tenant decides a held answer (issue 14); a ledger entry.
import { authedRoute } from "@/lib/auth/guard";
import { decideFromRequest } from "@/lib/server/answers/review-route";

export const POST = authedRoute<{ id: string }>({ roles: ["supervisor"] }, async (req, { actor, params }) =>
  decideFromRequest(req, actor, params.id, "approve"),
);
