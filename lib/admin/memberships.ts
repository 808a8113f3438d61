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
      audit: {
        kind: "admin.membership.add",
        target: { type: "case_member", id: `${c.id}/${u.id}`, tenantId },
        caseId: c.id,
        before: { member: false },
        after: { member: true, user: { id: u.id, email: u.email } },
      },
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
      audit: {
        kind: "admin.membership.remove",
        target: { type: "case_member", id: `${c.id}/${u.id}`, tenantId },
        caseId: c.id,
        before: { member: true, user: { id: u.id, email: u.email } },
        after: { member: false },
      },
    };
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
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  return auditedChange(prisma, who, async (tx) => {
    const c = await caseInTenant(tx, tenantId, input.caseId);
    const u = await userInTenant(tx, tenantId, input.userId);
    assertNotSelf(actor, u.id);
    const m = await tx.caseMember.findUnique({ where: { caseId_userId: { caseId: c.id, userId: u.id } }, select: { permissions: true } });
    if (!m) throw new CasegraphError("CG-ACCESS-003", "Not a member of this case.");
    const before = [...m.permissions].sort();
    const after = input.granted ? [...new Set([...before, input.permission])].sort() : before.filter((p) => p !== input.permission);
    if (JSON.stringify(before) === JSON.stringify(after)) return { result: { changed: false, permissions: after }, audit: null };
    await tx.caseMember.update({ where: { caseId_userId: { caseId: c.id, userId: u.id } }, data: { permissions: after } });
    return {
      result: { changed: true, permissions: after },
      audit: {
        kind: "admin.membership.permissions",
        target: { type: "case_member", id: `${c.id}/${u.id}`, tenantId },
        caseId: c.id,
        before: { permissions: before, user: { id: u.id, email: u.email } },
        after: { permissions: after, user: { id: u.id, email: u.email } },
      },
    };
  });
}
