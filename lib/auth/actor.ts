// The acting user, resolved fresh from the database on every request (ASVS 8.3.2: a lowered clearance, a removed
// membership or a deactivated account applies to the very next request). Nothing about permissions is cached in the
// session or the token.
import type { PrismaClient } from "../generated/prisma/client";
import { CasegraphError } from "../domain/failure-codes";
import type { Classification, Role } from "../domain/markings";
import type { Viewer } from "../domain/policy";

export type AuthMethod = "session" | "token" | "cli";

export interface Actor extends Viewer {
  email: string;
  name: string;
  roles: Role[];
  via: AuthMethod;
}

/** Loads the user behind a session, token or CLI flag; a missing or deactivated user is refused. */
export async function loadActor(prisma: PrismaClient, where: { id: string } | { email: string }, via: AuthMethod): Promise<Actor> {
  const user = await prisma.user.findUnique({
    where: "id" in where ? { id: where.id } : { email: where.email.toLowerCase() },
    select: { id: true, email: true, name: true, tenantId: true, roles: true, clearance: true, needToKnow: true, active: true },
  });
  if (!user) throw new CasegraphError("CG-AUTH-002");
  if (!user.active) throw new CasegraphError("CG-AUTH-003");
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    tenantId: user.tenantId,
    roles: user.roles as Role[],
    clearance: user.clearance as Classification,
    needToKnow: user.needToKnow,
    via,
  };
}

export function hasRole(actor: Actor, role: Role): boolean {
  return actor.roles.includes(role);
}
