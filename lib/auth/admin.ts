// Tenant administration: users, the tenant itself, licenses, case membership and API tokens. Every function takes the
// acting admin and works inside the admin's OWN tenant only: an id from another tenant is "not found" (CG-ACCESS-003),
// exactly like an id that does not exist. Every change writes one ledger entry (who, what, before → after) in the same
// transaction (lib/auth/audit.ts). The server actions in app/(workbench)/admin and the CLI both call these.
import { randomBytes } from "node:crypto";
import { hashPassword } from "better-auth/crypto";
import type { PrismaClient } from "../generated/prisma/client";
import { CasegraphError } from "../domain/failure-codes";
import { clearanceCovers, readClassification, readLicenseUses, type Classification, type LicenseUse, type Role, type StoredClassification } from "../domain/markings";
import { userIdFor } from "../adapters/prisma/workspace";
import { auditedChange, type ChangeActor, type Tx } from "./audit";
import type { Actor } from "./actor";
import { issueToken, parseDuration } from "./tokens";

// Separation of duties (README "Users, roles and sign-in"): nobody changes their own permissions, and nobody grants a
// clearance they do not hold themselves. Operators on the CLI (no Actor) are outside the tenant and not capped.

/** CG-ACCESS-005 when an admin targets their own clearance, tags, roles or memberships. */
function assertNotSelf(actor: Actor, userId: string): void {
  if (actor.userId === userId) throw new CasegraphError("CG-ACCESS-005");
}

/** CG-ACCESS-006 unless the acting admin's own clearance covers `clearance` (an unreadable own clearance covers nothing). */
function assertMayGrant(actor: Actor, clearance: Classification): void {
  if (!clearanceCovers(actor.clearance, clearance)) {
    throw new CasegraphError("CG-ACCESS-006", undefined, [{ path: "clearance", message: "Above your own clearance: ask an admin who holds it, or an operator." }]);
  }
}

const sameSet = (a: readonly string[], b: readonly string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

export function changeActorOf(actor: Actor): ChangeActor {
  return { userId: actor.userId, email: actor.email, tenantId: actor.tenantId, via: actor.via };
}

function tenantOf(actor: ChangeActor): string {
  if (!actor.tenantId) throw new CasegraphError("CG-ACCESS-003");
  return actor.tenantId;
}

const userView = { id: true, email: true, name: true, tenantId: true, roles: true, clearance: true, needToKnow: true, active: true } as const;

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

async function userInTenant(tx: Tx | PrismaClient, tenantId: string, userId: string): Promise<UserSnapshot> {
  const u = await tx.user.findFirst({ where: { id: userId, tenantId }, select: userView });
  if (!u) throw new CasegraphError("CG-ACCESS-003");
  return { ...u, clearance: readClassification(u.clearance) };
}

function conflict(path: string, message: string): CasegraphError {
  return new CasegraphError("CG-INPUT-006", undefined, [{ path, message }]);
}

// ---------------------------------------------------------------------------------------------------------- users

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

/** Creates a user in `tenantId` with a credential account (scrypt hash). Used by the admin page and the CLI. */
export async function createUserIn(prisma: PrismaClient, who: ChangeActor, tenantId: string, input: NewUser): Promise<UserSnapshot> {
  const email = input.email.trim().toLowerCase();
  const hash = await hashPassword(input.password); // Slow: outside the transaction.
  return auditedChange(prisma, who, async (tx) => {
    // E-mail addresses identify a sign-in across every tenant. The message does not say where the address is in use, so
    // it reads the same for this tenant's users (listed to the admin anyway) and another tenant's (issue 11 §8).
    if (await tx.user.findUnique({ where: { email }, select: { id: true } })) throw conflict("email", "This e-mail address cannot be used for a new account.");
    if (!(await tx.tenant.findUnique({ where: { id: tenantId }, select: { id: true } }))) throw new CasegraphError("CG-ACCESS-003");
    const id = userIdFor(email);
    const created = await tx.user.create({
      data: { id, email, name: input.name, tenantId, roles: input.roles, clearance: input.clearance, needToKnow: input.needToKnow, active: true },
      select: userView,
    });
    await tx.account.create({ data: { id: "acc_" + id, accountId: id, providerId: "credential", userId: id, password: hash } });
    const snapshot = { ...created, clearance: readClassification(created.clearance) };
    return { result: snapshot, audit: { kind: "admin.user.create", target: { type: "user", id, tenantId }, before: null, after: snapshot } };
  });
}

export async function createUser(prisma: PrismaClient, actor: Actor, input: NewUser): Promise<UserSnapshot> {
  assertMayGrant(actor, input.clearance);
  const who = changeActorOf(actor);
  return createUserIn(prisma, who, tenantOf(who), input);
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
    const permissionsChange = before.clearance !== input.clearance || !sameSet(before.needToKnow, input.needToKnow) || !sameSet(before.roles, input.roles);
    if (permissionsChange) assertNotSelf(actor, before.id);
    if (before.clearance !== input.clearance) assertMayGrant(actor, input.clearance);
    const updated = await tx.user.update({
      where: { id: before.id },
      data: { name: input.name, roles: input.roles, clearance: input.clearance, needToKnow: input.needToKnow },
      select: userView,
    });
    const after = { ...updated, clearance: readClassification(updated.clearance) };
    const changed = JSON.stringify(before) !== JSON.stringify(after);
    return { result: after, audit: changed ? { kind: "admin.user.update", target: { type: "user", id: before.id, tenantId }, before, after } : null };
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
export async function resetPassword(prisma: PrismaClient, actor: Actor, input: { userId: string; password: string }): Promise<{ sessionsEnded: number }> {
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  await userInTenant(prisma, tenantId, input.userId);
  const hash = await hashPassword(input.password);
  return auditedChange(prisma, who, async (tx) => {
    const user = await userInTenant(tx, tenantId, input.userId);
    const existing = await tx.account.findFirst({ where: { userId: user.id, providerId: "credential" }, select: { id: true } });
    if (existing) await tx.account.update({ where: { id: existing.id }, data: { password: hash } });
    else await tx.account.create({ data: { id: "acc_" + user.id, accountId: user.id, providerId: "credential", userId: user.id, password: hash } });
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

// --------------------------------------------------------------------------------------------------------- tenant

export async function getTenant(prisma: PrismaClient, actor: Actor) {
  const tenantId = tenantOf(changeActorOf(actor));
  const t = await prisma.tenant.findUnique({
    where: { id: tenantId },
    select: { id: true, name: true, hiddenCountMode: true, createdAt: true, _count: { select: { users: true, cases: true } } },
  });
  if (!t) throw new CasegraphError("CG-ACCESS-003");
  return {
    id: t.id, name: t.name, hiddenCountMode: t.hiddenCountMode === "exact" ? ("exact" as const) : ("case" as const),
    createdAt: t.createdAt, users: t._count.users, cases: t._count.cases,
  };
}

/**
 * How answers report hidden items in this tenant (README "Hidden items in answers"): "case" totals (default) or
 * "exact" per-question counts, which let a user probe hidden evidence word by word — the admin accepts that risk.
 */
export async function setHiddenCountMode(prisma: PrismaClient, actor: Actor, input: { mode: "case" | "exact" }) {
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  return auditedChange(prisma, who, async (tx) => {
    const before = await tx.tenant.findUnique({ where: { id: tenantId }, select: { id: true, hiddenCountMode: true } });
    if (!before) throw new CasegraphError("CG-ACCESS-003");
    if (before.hiddenCountMode === input.mode) return { result: before, audit: null };
    const after = await tx.tenant.update({ where: { id: tenantId }, data: { hiddenCountMode: input.mode }, select: { id: true, hiddenCountMode: true } });
    return { result: after, audit: { kind: "admin.tenant.hidden_counts", target: { type: "tenant", id: tenantId, tenantId }, before, after } };
  });
}

export async function renameTenant(prisma: PrismaClient, actor: Actor, input: { name: string }) {
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  return auditedChange(prisma, who, async (tx) => {
    const before = await tx.tenant.findUnique({ where: { id: tenantId }, select: { id: true, name: true } });
    if (!before) throw new CasegraphError("CG-ACCESS-003");
    if (before.name === input.name) return { result: before, audit: null };
    const after = await tx.tenant.update({ where: { id: tenantId }, data: { name: input.name }, select: { id: true, name: true } });
    return { result: after, audit: { kind: "admin.tenant.rename", target: { type: "tenant", id: tenantId, tenantId }, before, after } };
  });
}

/** Operators only (CLI): a new tenant. Tenant admins never create tenants. */
export async function createTenant(prisma: PrismaClient, who: ChangeActor, input: { id: string; name: string }) {
  return auditedChange(prisma, who, async (tx) => {
    if (await tx.tenant.findUnique({ where: { id: input.id }, select: { id: true } })) throw conflict("tenant", "This tenant already exists.");
    const after = await tx.tenant.create({ data: { id: input.id, name: input.name }, select: { id: true, name: true } });
    return { result: after, audit: { kind: "admin.tenant.create", target: { type: "tenant", id: after.id, tenantId: after.id }, before: null, after } };
  });
}

// ------------------------------------------------------------------------------------------------------- licenses

export interface LicenseRow {
  id: string;
  name: string;
  allows: LicenseUse[];
  shared: boolean;
  /** Evidence items of the admin's tenant under this license. */
  evidenceCount: number;
}

/** The tenant's own licenses plus the shared ones its evidence uses (another tenant's licenses are never listed). */
export async function listLicenses(prisma: PrismaClient, actor: Actor): Promise<LicenseRow[]> {
  const tenantId = tenantOf(changeActorOf(actor));
  const used = await prisma.evidence.groupBy({ by: ["licenseId"], where: { tenantId }, _count: { _all: true } });
  const counts = new Map(used.map((u) => [u.licenseId, u._count._all]));
  const rows = await prisma.license.findMany({
    where: { OR: [{ tenantId }, { tenantId: null, id: { in: [...counts.keys()] } }] },
    orderBy: { id: "asc" },
    select: { id: true, name: true, allows: true, tenantId: true },
  });
  return rows.map((l) => ({ id: l.id, name: l.name, allows: readLicenseUses(l.allows) ?? [], shared: l.tenantId === null, evidenceCount: counts.get(l.id) ?? 0 }));
}

export async function createLicense(prisma: PrismaClient, actor: Actor, input: { id: string; name: string; allows: LicenseUse[] }) {
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  return auditedChange(prisma, who, async (tx) => {
    // License ids are unique across tenants; the message does not say whose license holds the id.
    if (await tx.license.findUnique({ where: { id: input.id }, select: { id: true } })) throw conflict("id", "This license id cannot be used; choose another.");
    const after = await tx.license.create({ data: { id: input.id, name: input.name, allows: input.allows, tenantId }, select: { id: true, name: true, allows: true } });
    return { result: after, audit: { kind: "admin.license.create", target: { type: "license", id: after.id, tenantId }, before: null, after } };
  });
}

export async function updateLicense(prisma: PrismaClient, actor: Actor, input: { id: string; name: string; allows: LicenseUse[] }) {
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  return auditedChange(prisma, who, async (tx) => {
    const found = await tx.license.findUnique({ where: { id: input.id }, select: { id: true, name: true, allows: true, tenantId: true } });
    if (!found) throw new CasegraphError("CG-ACCESS-003");
    if (found.tenantId === null) {
      // A shared license the tenant uses is visible (read-only); one it does not use does not exist for this admin.
      const usedHere = await tx.evidence.findFirst({ where: { tenantId, licenseId: found.id }, select: { id: true } });
      throw new CasegraphError(usedHere ? "CG-ACCESS-004" : "CG-ACCESS-003");
    }
    if (found.tenantId !== tenantId) throw new CasegraphError("CG-ACCESS-003");
    const before = { id: found.id, name: found.name, allows: [...found.allows].sort() };
    const after = await tx.license.update({ where: { id: found.id }, data: { name: input.name, allows: input.allows }, select: { id: true, name: true, allows: true } });
    const changed = JSON.stringify(before) !== JSON.stringify({ ...after, allows: [...after.allows].sort() });
    return { result: after, audit: changed ? { kind: "admin.license.update", target: { type: "license", id: found.id, tenantId }, before, after } : null };
  });
}

// ---------------------------------------------------------------------------------------------------- memberships

export interface CaseMembersRow {
  id: string;
  title: string;
  classification: StoredClassification;
  status: string;
  members: Array<{ userId: string; email: string; name: string; active: boolean; addedAt: Date }>;
}

export async function listCaseMemberships(prisma: PrismaClient, actor: Actor): Promise<CaseMembersRow[]> {
  const tenantId = tenantOf(changeActorOf(actor));
  const cases = await prisma.case.findMany({
    where: { tenantId },
    orderBy: { id: "asc" },
    select: {
      id: true, title: true, classification: true, status: true,
      members: { select: { addedAt: true, user: { select: { id: true, email: true, name: true, active: true } } }, orderBy: { addedAt: "asc" } },
    },
  });
  return cases.map((c) => ({
    id: c.id,
    title: c.title,
    classification: readClassification(c.classification),
    status: c.status,
    members: c.members.map((m) => ({ userId: m.user.id, email: m.user.email, name: m.user.name, active: m.user.active, addedAt: m.addedAt })),
  }));
}

async function caseInTenant(tx: Tx, tenantId: string, caseId: string) {
  const c = await tx.case.findFirst({ where: { id: caseId, tenantId }, select: { id: true, title: true } });
  if (!c) throw new CasegraphError("CG-ACCESS-003");
  return c;
}

export async function addCaseMember(prisma: PrismaClient, actor: Actor, input: { caseId: string; userId: string }) {
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  return auditedChange(prisma, who, async (tx) => {
    const c = await caseInTenant(tx, tenantId, input.caseId);
    const u = await userInTenant(tx, tenantId, input.userId);
    assertNotSelf(actor, u.id);
    const existing = await tx.caseMember.findUnique({ where: { caseId_userId: { caseId: c.id, userId: u.id } } });
    if (existing) return { result: { added: false }, audit: null };
    await tx.caseMember.create({ data: { caseId: c.id, userId: u.id } });
    return {
      result: { added: true },
      audit: { kind: "admin.membership.add", target: { type: "case_member", id: `${c.id}/${u.id}`, tenantId }, caseId: c.id, before: { member: false }, after: { member: true, user: { id: u.id, email: u.email } } },
    };
  });
}

export async function removeCaseMember(prisma: PrismaClient, actor: Actor, input: { caseId: string; userId: string }) {
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  return auditedChange(prisma, who, async (tx) => {
    const c = await caseInTenant(tx, tenantId, input.caseId);
    const u = await userInTenant(tx, tenantId, input.userId);
    assertNotSelf(actor, u.id);
    const removed = await tx.caseMember.deleteMany({ where: { caseId: c.id, userId: u.id } });
    if (removed.count === 0) return { result: { removed: false }, audit: null };
    return {
      result: { removed: true },
      audit: { kind: "admin.membership.remove", target: { type: "case_member", id: `${c.id}/${u.id}`, tenantId }, caseId: c.id, before: { member: true, user: { id: u.id, email: u.email } }, after: { member: false } },
    };
  });
}

// --------------------------------------------------------------------------------------------------------- tokens

export interface TokenRow {
  id: string;
  name: string;
  prefix: string;
  userId: string;
  userEmail: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdBy: string | null;
  status: "active" | "expired" | "revoked";
}

export async function listTokensIn(prisma: PrismaClient, where: { tenantId?: string; userId?: string }): Promise<TokenRow[]> {
  const now = Date.now();
  const rows = await prisma.apiToken.findMany({
    where: { ...(where.userId ? { userId: where.userId } : {}), ...(where.tenantId ? { user: { tenantId: where.tenantId } } : {}) },
    orderBy: { createdAt: "desc" },
    select: { id: true, name: true, prefix: true, userId: true, createdAt: true, expiresAt: true, revokedAt: true, lastUsedAt: true, createdBy: true, user: { select: { email: true } } },
  });
  return rows.map(({ user, ...t }) => ({
    ...t,
    userEmail: user.email,
    status: t.revokedAt ? "revoked" : t.expiresAt.getTime() <= now ? "expired" : "active",
  }));
}

export async function listTokens(prisma: PrismaClient, actor: Actor): Promise<TokenRow[]> {
  return listTokensIn(prisma, { tenantId: tenantOf(changeActorOf(actor)) });
}

/**
 * Issues a token for a user (the secret is in the result, once); the ledger gets its id, prefix and issuer, never the
 * secret. Owners issue their own (issueOwnToken); only an operator on the CLI issues one for someone else, and the
 * entry says so (`onBehalf: true`).
 */
export async function issueTokenAs(
  prisma: PrismaClient,
  who: ChangeActor,
  input: { userId: string; name: string; expiresIn: string },
  scopeTenantId: string | null,
) {
  const ms = parseDuration(input.expiresIn);
  if (ms === null) throw new CasegraphError("CG-INPUT-001", undefined, [{ path: "expiresIn", message: "Use e.g. 7d, 12h or 90d (at most 365 days)." }]);
  return auditedChange(prisma, who, async (tx) => {
    const user = scopeTenantId
      ? await userInTenant(tx, scopeTenantId, input.userId)
      : await tx.user.findUnique({ where: { id: input.userId }, select: userView });
    if (!user) throw new CasegraphError("CG-ACCESS-003");
    if (!user.active) throw new CasegraphError("CG-AUTH-003", "The user is deactivated; reactivate them first.");
    const issued = await issueToken(tx, { userId: user.id, name: input.name, expiresAt: new Date(Date.now() + ms), createdBy: who.email });
    const after = {
      id: issued.id, name: issued.name, prefix: issued.prefix, userId: user.id, userEmail: user.email, expiresAt: issued.expiresAt.toISOString(),
      issuer: who.email, onBehalf: who.userId !== user.id,
    };
    return { result: issued, audit: { kind: "admin.token.issue", target: { type: "api_token", id: issued.id, tenantId: user.tenantId }, before: null, after } };
  });
}

/** A token for the signed-in user themselves (any role): tokens are created by their owner only. */
export async function issueOwnToken(prisma: PrismaClient, actor: Actor, input: { name: string; expiresIn: string }) {
  const who = changeActorOf(actor);
  return issueTokenAs(prisma, who, { ...input, userId: actor.userId }, tenantOf(who));
}

/** The signed-in user's own tokens. */
export async function listOwnTokens(prisma: PrismaClient, actor: Actor): Promise<TokenRow[]> {
  return listTokensIn(prisma, { tenantId: tenantOf(changeActorOf(actor)), userId: actor.userId });
}

/** Revokes one of the signed-in user's own tokens (anyone else's is "not found"). */
export async function revokeOwnToken(prisma: PrismaClient, actor: Actor, input: { tokenId: string }) {
  const who = changeActorOf(actor);
  return revokeTokenAs(prisma, who, input.tokenId, { tenantId: tenantOf(who), userId: actor.userId });
}

/** Revokes a token; `scope` limits it to a tenant (admins) and optionally to one owner; null = any (operators). */
export async function revokeTokenAs(prisma: PrismaClient, who: ChangeActor, tokenId: string, scope: { tenantId: string; userId?: string } | null) {
  return auditedChange(prisma, who, async (tx) => {
    const t = await tx.apiToken.findFirst({
      where: { id: tokenId, ...(scope ? { user: { tenantId: scope.tenantId }, ...(scope.userId ? { userId: scope.userId } : {}) } : {}) },
      select: { id: true, name: true, prefix: true, revokedAt: true, userId: true, user: { select: { tenantId: true, email: true } } },
    });
    if (!t) throw new CasegraphError("CG-ACCESS-003");
    if (t.revokedAt) return { result: { revoked: false, revokedAt: t.revokedAt }, audit: null };
    const revokedAt = new Date();
    await tx.apiToken.update({ where: { id: t.id }, data: { revokedAt } });
    return {
      result: { revoked: true, revokedAt },
      audit: {
        kind: "admin.token.revoke",
        target: { type: "api_token", id: t.id, tenantId: t.user.tenantId },
        before: { revokedAt: null, name: t.name, prefix: t.prefix, userEmail: t.user.email },
        after: { revokedAt: revokedAt.toISOString() },
      },
    };
  });
}

export async function revokeToken(prisma: PrismaClient, actor: Actor, input: { tokenId: string }) {
  const who = changeActorOf(actor);
  return revokeTokenAs(prisma, who, input.tokenId, { tenantId: tenantOf(who) });
}

/** A random password for generated accounts (CLI without --password and no TTY). */
export function randomPassword(): string {
  return randomBytes(18).toString("base64url");
}
