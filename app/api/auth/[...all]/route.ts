// better-auth's HTTP handler, behind an allow-list: only reading the session and signing out are reachable. Sign-in is
// the login page's server action (lockout, Origin check); sign-up, password and profile endpoints do not exist here.
// Public by design (listed in tests/integration/authz-matrix.test.ts): better-auth itself checks the session cookie.
import { authFor, PUBLIC_AUTH_PATHS } from "@/lib/auth/auth";
import { errorResponse } from "@/lib/auth/guard";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { runtime } from "@/lib/server/runtime";

export const dynamic = "force-dynamic";

async function handle(req: Request): Promise<Response> {
  const path = new URL(req.url).pathname.replace(/^\/api\/auth/, "").replace(/\/+$/, "") || "/";
  const allowed = PUBLIC_AUTH_PATHS.some((p) => p.method === req.method.toUpperCase() && p.path === path);
  if (!allowed) return errorResponse(new CasegraphError("CG-ACCESS-003"));
  try {
    const { db } = await runtime();
    const auth = await authFor(db.prisma);
    return await auth.handler(req);
  } catch (err) {
    return errorResponse(err);
  }
}

export const GET = handle;
export const POST = handle;
