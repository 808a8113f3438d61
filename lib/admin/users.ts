// Users of the admin's tenant: list, read, create, update permissions (separation of duties: never one's own, never
// above one's own clearance), deactivate, reset a password. Operators create users in any tenant from the CLI.
import { randomBytes } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import type { PrismaClient } from "../generated/prisma/client";
import { userIdFor } from "../adapters/prisma/workspace";
import { CasegraphError } from "../domain/failure-codes";
import { readClassification, type Classification, type Role, type StoredClassification } from "../domain/markings";
import type { Actor } from "../auth/actor";
import {
  assertMayGrant,
  assertNotSelf,
  auditedChange,
  changeActorOf,
  conflict,
  sameSet,
  tenantOf,
  type ChangeActor,
  type Tx,
} from "./change";

export const userView = {
  id: true,
  email: true,
  name: true,
  tenantId: true,
  roles: true,
  clearance: true,
  needToKnow: true,
  active: true,
} as const;

export interface UserSnapshot {
  id: string;
  email: string;
  name: string;
  tenantId: string;
  roles: string[];
  clearance: StoredClassification;
  needToKnow: string[];
  active: boolean;
}

/** A user of `tenantId` (another tenant's, or none: CG-ACCESS-003). */
export async function userInTenant(tx: Tx | PrismaClient, tenantId: string, userId: string): Promise<UserSnapshot> {
  const u = await tx.user.findFirst({ where: { id: userId, tenantId }, select: userView });
  if (!u) throw new CasegraphError("CG-ACCESS-003");
  return { ...u, clearance: readClassification(u.clearance) };
}

export interface UserRow extends UserSnapshot {
  createdAt: Date;
  caseIds: string[];
  activeTokens: number;
}

export async function listUsers(prisma: PrismaClient, actor: Actor): Promise<UserRow[]> {
  const tenantId = tenantOf(changeActorOf(actor));
  const now = new Date();
  const rows = await prisma.user.findMany({
    where: { tenantId },
    orderBy: [{ active: "desc" }, { email: "asc" }],
    select: {
      ...userView,
      createdAt: true,
      memberships: { select: { caseId: true }, orderBy: { caseId: "asc" } },
      _count: { select: { apiTokens: { where: { revokedAt: null, expiresAt: { gt: now } } } } },
    },
  });
  return rows.map(({ memberships, _count, ...u }) => ({
    ...u,
    clearance: readClassification(u.clearance),
    caseIds: memberships.map((m) => m.caseId),
    activeTokens: _count.apiTokens,
  }));
}

export async function getUser(prisma: PrismaClient, actor: Actor, userId: string): Promise<UserSnapshot> {
  return userInTenant(prisma, tenantOf(changeActorOf(actor)), userId);
}

export interface NewUser {
  email: string;
  name: string;
  roles: Role[];
  clearance: Classification;
  needToKnow: string[];
  password: string;
}

/** Creates a user in `tenantId` with a credential account (scrypt hash). */
async function create(prisma: PrismaClient, who: ChangeActor, tenantId: string, input: NewUser): Promise<UserSnapshot> {
  const email = input.email.trim().toLowerCase();
  const hash = await hashPassword(input.password); // Slow: outside the transaction.
  return auditedChange(prisma, who, async (tx) => {
    // E-mail addresses identify a sign-in across every tenant. The message does not say where the address is in use, so
    // it reads the same for this tenant's users (listed to the admin anyway) and another tenant's (issue 11 §8).
    if (await tx.user.findUnique({ where: { email }, select: { id: true } }))
      throw conflict("email", "This e-mail address cannot be used for a new account.");
    if (!(await tx.tenant.findUnique({ where: { id: tenantId }, select: { id: true } }))) throw new CasegraphError("CG-ACCESS-003");
    const id = userIdFor(email);
    const created = await tx.user.create({
      data: {
        id,
        email,
        name: input.name,
        tenantId,
        roles: input.roles,
        clearance: input.clearance,
        needToKnow: input.needToKnow,
        active: true,
      },
      select: userView,
    });
    await tx.account.create({ data: { id: "acc_" + id, accountId: id, providerId: "credential", userId: id, password: hash } });
    const snapshot = { ...created, clearance: readClassification(created.clearance) };
    return {
      result: snapshot,
      audit: { kind: "admin.user.create", target: { type: "user", id, tenantId }, before: null, after: snapshot },
    };
  });
}

export async function createUser(prisma: PrismaClient, actor: Actor, input: NewUser): Promise<UserSnapshot> {
  assertMayGrant(actor, input.clearance);
  const who = changeActorOf(actor);
  return create(prisma, who, tenantOf(who), input);
}

/** Operators (CLI): a user in any tenant, with any clearance (the first admin of a new installation). */
export async function createUserAsOperator(
  prisma: PrismaClient,
  operator: ChangeActor,
  tenantId: string,
  input: NewUser,
): Promise<UserSnapshot> {
  return create(prisma, operator, tenantId, input);
}

export async function updateUser(
  prisma: PrismaClient,
  actor: Actor,
  input: { userId: string; name: string; roles: Role[]; clearance: Classification; needToKnow: string[] },
): Promise<UserSnapshot> {
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  return auditedChange(prisma, who, async (tx) => {
    const before = await userInTenant(tx, tenantId, input.userId);
    const permissionsChange =
      before.clearance !== input.clearance || !sameSet(before.needToKnow, input.needToKnow) || !sameSet(before.roles, input.roles);
    if (permissionsChange) assertNotSelf(actor, before.id);
    if (before.clearance !== input.clearance) assertMayGrant(actor, input.clearance);
    const updated = await tx.user.update({
      where: { id: before.id },
      data: { name: input.name, roles: input.roles, clearance: input.clearance, needToKnow: input.needToKnow },
      select: userView,
    });
    const after = { ...updated, clearance: readClassification(updated.clearance) };
    const changed = JSON.stringify(before) !== JSON.stringify(after);
    return {
      result: after,
      audit: changed ? { kind: "admin.user.update", target: { type: "user", id: before.id, tenantId }, before, after } : null,
    };
  });
}

/** Deactivation also ends every session of the user at once; reactivation restores sign-in, not old sessions. */
export async function setUserActive(prisma: PrismaClient, actor: Actor, input: { userId: string; active: boolean }): Promise<UserSnapshot> {
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  return auditedChange(prisma, who, async (tx) => {
    const before = await userInTenant(tx, tenantId, input.userId);
    if (before.id === actor.userId && !input.active) throw new CasegraphError("CG-INPUT-007");
    if (before.active === input.active) return { result: before, audit: null };
    const updated = await tx.user.update({ where: { id: before.id }, data: { active: input.active }, select: userView });
    let sessionsEnded = 0;
    if (!input.active) sessionsEnded = (await tx.session.deleteMany({ where: { userId: before.id } })).count;
    const after = { ...updated, clearance: readClassification(updated.clearance) };
    return {
      result: after,
      audit: {
        kind: input.active ? "admin.user.reactivate" : "admin.user.deactivate",
        target: { type: "user", id: before.id, tenantId },
        before: { active: before.active },
        after: { active: after.active, ...(input.active ? {} : { sessionsEnded }) },
      },
    };
  });
}

/** Sets a new password (scrypt) and ends the user's sessions; the ledger records that it happened, never the value. */
export async function resetPassword(
  prisma: PrismaClient,
  actor: Actor,
  input: { userId: string; password: string },
): Promise<{ sessionsEnded: number }> {
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  await userInTenant(prisma, tenantId, input.userId);
  const hash = await hashPassword(input.password);
  return auditedChange(prisma, who, async (tx) => {
    const user = await userInTenant(tx, tenantId, input.userId);
    const existing = await tx.account.findFirst({ where: { userId: user.id, providerId: "credential" }, select: { id: true } });
    if (existing) await tx.account.update({ where: { id: existing.id }, data: { password: hash } });
    else
      await tx.account.create({
        data: { id: "acc_" + user.id, accountId: user.id, providerId: "credential", userId: user.id, password: hash },
      });
    const sessionsEnded = (await tx.session.deleteMany({ where: { userId: user.id } })).count;
    return {
      result: { sessionsEnded },
      audit: {
        kind: "admin.user.password_reset",
        target: { type: "user", id: user.id, tenantId },
        before: { hadPassword: !!existing },
        after: { passwordChanged: true, sessionsEnded },
      },
    };
  });
}

/** A random password for generated accounts (CLI without --password and no TTY). */
export function randomPassword(): string {
  return randomBytes(18).toString("base64url");
}
