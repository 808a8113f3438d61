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
  members: Array<{ userId: string; email: string; name: string; active: boolean; addedAt: Date }>;
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
        select: { addedAt: true, user: { select: { id: true, email: true, name: true, active: true } } },
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
    })),
  }));
}

async function caseInTenant(tx: Tx, tenantId: string, caseId: string) {
  const c = await tx.case.findFirst({ where: { id: caseId, tenantId }, select: { id: true, title: true } });
  if (!c) throw new CasegraphError("CG-ACCESS-003");
  return c;
}

export async function addCaseMember(prisma: PrismaClient, actor: Actor, input: { caseId: string; userId: string }) {
  const added = await changeMembership(prisma, actor, input, true, async (tx, caseId, userId) => {
    if (await tx.caseMember.findUnique({ where: { caseId_userId: { caseId, userId } } })) return false;
    await tx.caseMember.create({ data: { caseId, userId } });
    return true;
  });
  return { added };
}

export async function removeCaseMember(prisma: PrismaClient, actor: Actor, input: { caseId: string; userId: string }) {
  const removed = await changeMembership(
    prisma,
    actor,
    input,
    false,
    async (tx, caseId, userId) => (await tx.caseMember.deleteMany({ where: { caseId, userId } })).count > 0,
  );
  return { removed };
}

/** Makes a user a member of a case or not (`member`); audited only when `apply` changed something. */
async function changeMembership(
  prisma: PrismaClient,
  actor: Actor,
  input: { caseId: string; userId: string },
  member: boolean,
  apply: (tx: Tx, caseId: string, userId: string) => Promise<boolean>,
): Promise<boolean> {
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  return auditedChange(prisma, who, async (tx) => {
    const c = await caseInTenant(tx, tenantId, input.caseId);
    const u = await userInTenant(tx, tenantId, input.userId);
    assertNotSelf(actor, u.id);
    if (!(await apply(tx, c.id, u.id))) return { result: false, audit: null };
    const user = { id: u.id, email: u.email };
    return {
      result: true,
      audit: {
        kind: member ? "admin.membership.add" : "admin.membership.remove",
        target: { type: "case_member", id: `${c.id}/${u.id}`, tenantId },
        caseId: c.id,
        before: member ? { member: false } : { member: true, user },
        after: member ? { member: true, user } : { member: false },
      },
    };
  });
}
