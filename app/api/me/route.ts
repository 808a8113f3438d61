// GET /api/me: who the caller is (session cookie or `Authorization: Bearer <token>`), with their CURRENT roles, clearance
// and need-to-know tags: the quickest way for an API client to check a token. Never returns other users' data.
import { authedRoute } from "@/lib/auth/guard";

export const dynamic = "force-dynamic";

export const GET = authedRoute({}, async (_req, { actor }) =>
  Response.json(
    {
      userId: actor.userId,
      email: actor.email,
      name: actor.name,
      tenantId: actor.tenantId,
      roles: actor.roles,
      clearance: actor.clearance,
      needToKnow: actor.needToKnow,
      via: actor.via,
    },
    { headers: { "Cache-Control": "no-store" } },
  ),
);
