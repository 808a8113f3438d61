// Opens a case for a workbench request: the case-access check (member, same tenant, deny by default) and the stores.
import type { Actor } from "@/lib/auth/actor";
import { PrismaEvidenceStore } from "@/lib/adapters/prisma/evidence-store";
import { PrismaGraphStore } from "@/lib/adapters/prisma/graph-store";
import type { CaseScope } from "@/lib/ports";
import { assertCaseAccess, type CaseRecord } from "../case-access";
import { runtime } from "../runtime";

export async function openCase(actor: Actor, caseId: string) {
  const { db } = await runtime();
  const record: CaseRecord = await assertCaseAccess(db.prisma, actor, caseId);
  const scope: CaseScope = { tenantId: record.tenantId, caseId: record.id };
  return {
    prisma: db.prisma,
    record,
    scope,
    graph: new PrismaGraphStore(db.prisma),
    evidence: new PrismaEvidenceStore(db.prisma),
  };
}

export type OpenCase = Awaited<ReturnType<typeof openCase>>;
