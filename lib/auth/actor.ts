// The acting user, resolved fresh from the database on every request (ASVS 8.3.2: a lowered clearance, a removed
// membership or a deactivated account applies to the very next request). Nothing about permissions is cached in the
// session or the token.
import "server-only";
import { Prisma, type PrismaClient } from "../generated/prisma/client";
import { CasegraphError, failingAs } from "../domain/failure-codes";
import { readClassification, readHeldTags, readRoles, readTenantId, type Role } from "../domain/markings";
import type { Viewer } from "../domain/policy";

export type AuthMethod = "session" | "token" | "cli";

export interface Actor extends Viewer {
  email: string;
  name: string;
  roles: Role[];
  via: AuthMethod;
  /** The API token a "token" request came with, and who issued it (the ledger names both). */
  token?: { id: string; issuer: string | null };
}

/** Loads the user behind a session, token or CLI flag; a missing or deactivated user is refused. */
export async function loadActor(
  prisma: PrismaClient,
  where: { id: string } | { email: string },
  via: AuthMethod,
  token?: Actor["token"],
): Promise<Actor> {
  // Read as text: a clearance another tool added to the enum is UNREADABLE (sees nothing), not a failed sign-in.
  const key = "id" in where ? where.id : where.email.toLowerCase();
  // A database that does not answer is CG-SYS-001 here, as for a session (session.ts): no driver error reaches a caller.
  const [user] = await failingAs(
    "CG-SYS-001",
    () =>
      prisma.$queryRaw<
        Array<{
          id: string;
          email: string;
          name: string;
          tenantId: unknown;
          roles: unknown;
          clearance: unknown;
          needToKnow: unknown;
          active: boolean;
        }>
      >`
    SELECT u.id, u.email, u.name, u.tenant_id AS "tenantId", u.roles, u.clearance::text AS clearance,
      u.need_to_know AS "needToKnow", u.active
    FROM "user" u WHERE ${"id" in where ? Prisma.sql`u.id = ${key}` : Prisma.sql`u.email = ${key}`}`,
  );
  if (!user) throw new CasegraphError("CG-AUTH-002");
  if (!user.active) throw new CasegraphError("CG-AUTH-003");
  return {
    userId: user.id,
    email: user.email,
    name: user.name,
    // Parsed, not cast: a clearance this version cannot read sees nothing; unknown roles and blank tags grant nothing.
    tenantId: readTenantId(user.tenantId),
    roles: readRoles(user.roles),
    clearance: readClassification(user.clearance),
    needToKnow: readHeldTags(user.needToKnow),
    via,
    ...(token ? { token } : {}),
  };
}

/** Whether the actor holds at least one of `roles`. */
export function hasRole(actor: Pick<Actor, "roles">, ...roles: Role[]): boolean {
  return roles.some((r) => actor.roles.includes(r));
}
