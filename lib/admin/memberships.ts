// Case membership in the admin's tenant (never the admin's own: separation of duties).
import type { PrismaClient } from "../generated/prisma/client";
import { CasegraphError } from "../domain/failure-codes";
import { readClassification, type StoredClassification } from "../domain/markings";
import type { Actor } from "../auth/actor";
import { assertNotSelf, auditedChange, changeActorOf, tenantOf, type Tx } from "./change";
import { userInTenant } from "./users";

export interface CaseMembersRow {
  id: string;
  title: string;
  classification: StoredClassification;
  status: string;
  members: Array<{ userId: string; email: string; name: string; active: boolean; addedAt: Date; permissions: string[] }>;
}

export async function listCaseMemberships(prisma: PrismaClient, actor: Actor): Promise<CaseMembersRow[]> {
  const tenantId = tenantOf(changeActorOf(actor));
  const cases = await prisma.case.findMany({
    where: { tenantId },
    orderBy: { id: "asc" },
    select: {
      id: true,
      title: true,
      classification: true,
      status: true,
      members: {
        select: { addedAt: true, permissions: true, user: { select: { id: true, email: true, name: true, active: true } } },
        orderBy: { addedAt: "asc" },
      },
    },
  });
  return cases.map((c) => ({
    id: c.id,
    title: c.title,
    classification: readClassification(c.classification),
    status: c.status,
    members: c.members.map((m) => ({
      userId: m.user.id,
      email: m.user.email,
      name: m.user.name,
      active: m.user.active,
      addedAt: m.addedAt,
      permissions: m.permissions,
    })),
  }));
}

async function caseInTenant(tx: Tx, tenantId: string, caseId: string) {
  const c = await tx.case.findFirst({ where: { id: caseId, tenantId }, select: { id: true, title: true } });
  if (!c) throw new CasegraphError("CG-ACCESS-003");
  return c;
}

/**
 * A change to one membership of a case of the admin's tenant: the case and the user are looked up there (another
 * tenant's are "not found"), nobody changes their own, and `change` returns the result and its ledger entry's
 * before → after (null: nothing changed, no entry).
 */
async function changeMembership<T>(
  prisma: PrismaClient,
  actor: Actor,
  input: { caseId: string; userId: string },
  kind: string,
  change: (
    tx: Tx,
    member: { caseId: string; userId: string; user: { id: string; email: string } },
  ) => Promise<{ result: T; before?: unknown; after?: unknown; changed: boolean }>,
): Promise<T> {
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  return auditedChange(prisma, who, async (tx) => {
    const c = await caseInTenant(tx, tenantId, input.caseId);
    const u = await userInTenant(tx, tenantId, input.userId);
    assertNotSelf(actor, u.id);
    const r = await change(tx, { caseId: c.id, userId: u.id, user: { id: u.id, email: u.email } });
    if (!r.changed) return { result: r.result, audit: null };
    return {
      result: r.result,
      audit: { kind, target: { type: "case_member", id: `${c.id}/${u.id}`, tenantId }, caseId: c.id, before: r.before, after: r.after },
    };
  });
}

export async function addCaseMember(prisma: PrismaClient, actor: Actor, input: { caseId: string; userId: string }) {
  return changeMembership(prisma, actor, input, "admin.membership.add", async (tx, m) => {
    const existing = await tx.caseMember.findUnique({ where: { caseId_userId: { caseId: m.caseId, userId: m.userId } } });
    if (existing) return { result: { added: false }, changed: false };
    await tx.caseMember.create({ data: { caseId: m.caseId, userId: m.userId } });
    return { result: { added: true }, changed: true, before: { member: false }, after: { member: true, user: m.user } };
  });
}

export async function removeCaseMember(prisma: PrismaClient, actor: Actor, input: { caseId: string; userId: string }) {
  return changeMembership(prisma, actor, input, "admin.membership.remove", async (tx, m) => {
    const removed = await tx.caseMember.deleteMany({ where: { caseId: m.caseId, userId: m.userId } });
    if (removed.count === 0) return { result: { removed: false }, changed: false };
    return { result: { removed: true }, changed: true, before: { member: true, user: m.user }, after: { member: false } };
  });
}

/** Member permissions an admin grants per case (issue 17): `ingest` lets an investigator add evidence from documents. */
export const MEMBER_PERMISSIONS = ["ingest"] as const;
export type MemberPermission = (typeof MEMBER_PERMISSIONS)[number];

export async function setMemberPermission(
  prisma: PrismaClient,
  actor: Actor,
  input: { caseId: string; userId: string; permission: MemberPermission; granted: boolean },
) {
  return changeMembership(prisma, actor, input, "admin.membership.permissions", async (tx, m) => {
    const key = { caseId_userId: { caseId: m.caseId, userId: m.userId } };
    const found = await tx.caseMember.findUnique({ where: key, select: { permissions: true } });
    if (!found) throw new CasegraphError("CG-ACCESS-003", "Not a member of this case.");
    const before = [...found.permissions].sort();
    const after = input.granted ? [...new Set([...before, input.permission])].sort() : before.filter((p) => p !== input.permission);
    if (JSON.stringify(before) === JSON.stringify(after)) return { result: { changed: false, permissions: after }, changed: false };
    await tx.caseMember.update({ where: key, data: { permissions: after } });
    return {
      result: { changed: true, permissions: after },
      changed: true,
      before: { permissions: before, user: m.user },
      after: { permissions: after, user: m.user },
    };
  });
}
