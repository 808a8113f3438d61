// Object-level authorization for cases (ASVS 8.2.2, 8.4.1). Deny by default: the case must exist, be in the actor's
// tenant, and list the actor as a member, checked fresh on every call. All three failures look the same to the caller.
import "server-only";
import type { PrismaClient } from "../../generated/prisma/client";
import type { Actor } from "../../auth/actor";
import { CasegraphError } from "../../domain/failure-codes";
import { readClassification, type StoredClassification } from "../../domain/markings";
import type { HiddenCountMode } from "../../ports";

export interface CaseRecord {
  id: string;
  tenantId: string;
  title: string;
  description: string;
  classification: StoredClassification;
  status: string;
  /** The tenant's choice of how answers report hidden items (lib/ports.ts HiddenCountMode). */
  hiddenCounts: HiddenCountMode;
}

export async function assertCaseAccess(prisma: PrismaClient, actor: Actor, caseId: string): Promise<CaseRecord> {
  if (typeof caseId !== "string" || caseId.length === 0 || caseId.length > 200) throw new CasegraphError("CG-ACCESS-001");
  if (!actor.tenantId) throw new CasegraphError("CG-ACCESS-001");
  // The marking is read as text: a value another tool added to the enum reads as UNREADABLE instead of failing.
  const [found] = await prisma.$queryRaw<
    Array<
      Omit<CaseRecord, "classification" | "tenantId" | "hiddenCounts"> & {
        tenant_id: string;
        classification: string;
        hidden_count_mode: string;
      }
    >
  >`
    SELECT c.id, c.tenant_id, c.title, c.description, c.classification::text AS classification, c.status::text AS status,
      t.hidden_count_mode
    FROM "case" c JOIN "tenant" t ON t.id = c.tenant_id
    WHERE c.id = ${caseId} AND c.tenant_id = ${actor.tenantId}
      AND EXISTS (SELECT 1 FROM "case_member" m WHERE m.case_id = c.id AND m.user_id = ${actor.userId})`;
  if (!found) throw new CasegraphError("CG-ACCESS-001");
  const { tenant_id, hidden_count_mode, ...rest } = found;
  // Anything but an explicit "exact" reports case totals: the safe reading of an unexpected value.
  const hiddenCounts: HiddenCountMode = hidden_count_mode === "exact" ? "exact" : "case";
  return { ...rest, tenantId: tenant_id, classification: readClassification(found.classification), hiddenCounts };
}
