// Who is calling: a better-auth session cookie or an API token, turned into a fresh Actor (lib/auth/actor.ts).
import "server-only";
import type { PrismaClient } from "../generated/prisma/client";
import { CasegraphError } from "../domain/failure-codes";
import type { Role } from "../domain/markings";
import { hasRole, loadActor, type Actor } from "./actor";
import { authFor } from "./auth";
import { bearerFrom, resolveToken } from "./tokens";

/** better-auth's session cookie name, with or without the __Secure- prefix. */
export const SESSION_COOKIE = "casegraph.session_token";

function hasSessionCookie(h: Headers): boolean {
  const cookie = h.get("cookie");
  return !!cookie && cookie.includes(SESSION_COOKIE + "=");
}

/** The session's user id, or null when the request carries no valid session. */
export async function sessionUserId(prisma: PrismaClient, h: Headers): Promise<string | null> {
  if (!hasSessionCookie(h)) return null;
  const auth = await authFor(prisma);
  let session: Awaited<ReturnType<typeof auth.api.getSession>>;
  try {
    session = await auth.api.getSession({ headers: h });
  } catch (err) {
    throw new CasegraphError("CG-SYS-001", undefined, [], { cause: err });
  }
  return session?.user?.id ?? null;
}

/** Actor from the session cookie only (server actions and pages). */
export async function actorFromSession(prisma: PrismaClient, h: Headers): Promise<Actor> {
  const userId = await sessionUserId(prisma, h);
  if (!userId) throw new CasegraphError(hasSessionCookie(h) ? "CG-AUTH-002" : "CG-AUTH-001");
  return loadActor(prisma, { id: userId }, "session");
}

/**
 * Actor for an HTTP request: an Authorization header wins (and must be a valid Bearer token: no fallback to the cookie),
 * otherwise the session cookie.
 */
export async function actorFromRequest(prisma: PrismaClient, h: Headers): Promise<Actor> {
  const bearer = bearerFrom(h.get("authorization"));
  if (bearer !== null) {
    const { userId, tokenId, issuer } = await resolveToken(prisma, bearer);
    return loadActor(prisma, { id: userId }, "token", { id: tokenId, issuer });
  }
  return actorFromSession(prisma, h);
}

export function requireRoles(actor: Actor, roles: readonly Role[] | undefined): void {
  if (!roles || roles.length === 0) return;
  if (!hasRole(actor, ...roles)) throw new CasegraphError("CG-ACCESS-002");
}
