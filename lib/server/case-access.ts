// Object-level authorization for cases (ASVS 8.2.2, 8.4.1). Deny by default: the case must exist, be in the actor's
// tenant, and list the actor as a member, checked fresh on every call. All three failures look the same to the caller.
import type { PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { CasegraphError } from "../domain/failure-codes";
import type { Classification } from "../domain/markings";

export interface CaseRecord {
  id: string;
  tenantId: string;
  title: string;
  description: string;
  classification: Classification;
  status: string;
}

export async function assertCaseAccess(prisma: PrismaClient, actor: Actor, caseId: string): Promise<CaseRecord> {
  if (typeof caseId !== "string" || caseId.length === 0 || caseId.length > 200) throw new CasegraphError("CG-ACCESS-001");
  const found = await prisma.case.findFirst({
    where: { id: caseId, tenantId: actor.tenantId, members: { some: { userId: actor.userId } } },
    select: { id: true, tenantId: true, title: true, description: true, classification: true, status: true },
  });
  if (!found || !actor.tenantId) throw new CasegraphError("CG-ACCESS-001");
  return { ...found, classification: found.classification as Classification };
}
