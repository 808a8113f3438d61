// The signed-in user for server components (pages, layouts). Pages render only what this actor may see; the data they
// show comes through the same lib functions the guarded actions use. proxy.ts only redirects: this is the check.
import "server-only";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { CasegraphError } from "../domain/failure-codes";
import type { Role } from "../domain/markings";
import { runtime } from "../server/runtime";
import { hasRole, type Actor } from "./actor";
import { actorFromSession } from "./session";

/** The actor behind the session cookie, or null when signed out, expired, unknown or deactivated. */
export async function currentActor(): Promise<Actor | null> {
  const h = await headers();
  const { db } = await runtime();
  try {
    return await actorFromSession(db.prisma, h);
  } catch (err) {
    if (err instanceof CasegraphError && err.code.startsWith("CG-AUTH-")) return null;
    throw err;
  }
}

/** For pages: signed out → /login (coming back here afterwards); lacking the role → 404, as if the page did not exist. */
export async function requirePageActor(options: { roles?: Role[]; from?: string } = {}): Promise<Actor> {
  const actor = await currentActor();
  if (!actor) redirect(options.from ? `/login?next=${encodeURIComponent(options.from)}` : "/login");
  if (options.roles?.length && !hasRole(actor, ...options.roles)) notFound();
  return actor;
}

export { safeNextPath } from "./paths";
