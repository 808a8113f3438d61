// Evidence revocation (issue 15): an admin of the evidence's tenant withdraws an item with a reason (withdrawn by the
// source, found unreliable, court order). From the next request on the stores no longer return it (evidence-active.ts),
// answers that cited it are flagged, and the revocation is a ledger entry written in the same transaction.
import type { PrismaClient } from "../generated/prisma/client";
import { CasegraphError } from "../domain/failure-codes";
import type { Actor } from "../auth/actor";
import { activeAdminByEmail, auditedChange, changeActorOf, tenantOf, type ChangeActor } from "./change";

export const REVOKE_KIND = "evidence.revoke";
const MAX_REASON = 500;

export interface RevokeInput {
  caseId: string;
  evidenceId: string;
  reason: string;
}

export interface Revocation {
  caseId: string;
  evidenceId: string;
  revokedAt: string;
  reason: string;
  revokedBy: string;
}

/** An admin in the UI: only evidence of their own tenant (anything else is CG-GROUND-005, like a missing id). */
export async function revokeEvidence(prisma: PrismaClient, actor: Actor, input: RevokeInput): Promise<Revocation> {
  if (!actor.roles.includes("admin")) throw new CasegraphError("CG-ACCESS-002");
  return revokeAs(prisma, changeActorOf(actor), input);
}

/**
 * The CLI: `--by <admin email>` names the admin whose decision it is; they must be an active admin of the evidence's
 * tenant. Recorded as theirs, made at the shell (via "cli").
 */
export async function revokeEvidenceByAdmin(prisma: PrismaClient, adminEmail: string, input: RevokeInput): Promise<Revocation> {
  return revokeAs(prisma, await activeAdminByEmail(prisma, adminEmail), input);
}

export function checkReason(raw: string): string {
  const reason = raw.replace(/[\u0000-\u001f\u007f]/g, " ").trim();
  if (!reason || reason.length > MAX_REASON)
    throw new CasegraphError("CG-GROUND-006", undefined, [{ path: "reason", message: `a reason of 1–${MAX_REASON} characters` }]);
  return reason;
}

async function revokeAs(prisma: PrismaClient, who: ChangeActor, input: RevokeInput): Promise<Revocation> {
  const tenantId = tenantOf(who);
  const reason = checkReason(input.reason);
  return auditedChange(prisma, who, async (tx) => {
    const found = await tx.evidence.findUnique({
      where: { caseId_id: { caseId: input.caseId, id: input.evidenceId } },
      select: { id: true, caseId: true, tenantId: true, revokedAt: true, contentSha256: true, case: { select: { tenantId: true } } },
    });
    // Another tenant's item is "not found", exactly like a missing one.
    if (!found || found.case.tenantId !== tenantId) throw new CasegraphError("CG-GROUND-005");
    if (found.revokedAt) throw new CasegraphError("CG-GROUND-007");
    const revokedAt = new Date();
    await tx.evidence.update({
      where: { caseId_id: { caseId: input.caseId, id: input.evidenceId } },
      data: { revokedAt, revokedReason: reason, revokedBy: who.email },
    });
    const result: Revocation = {
      caseId: found.caseId,
      evidenceId: found.id,
      revokedAt: revokedAt.toISOString(),
      reason,
      revokedBy: who.email,
    };
    return {
      result,
      audit: {
        kind: REVOKE_KIND,
        target: { type: "evidence", id: found.id, tenantId: found.tenantId },
        caseId: found.caseId,
        before: { state: "active", contentSha256: found.contentSha256 },
        after: { state: "revoked", revokedAt: result.revokedAt, reason, revokedBy: who.email },
      },
    };
  });
}

/** Revocations of the given evidence ids of a case, for flags on earlier answers (history, audit explorer, exports). */
export async function revocationsOf(
  prisma: PrismaClient,
  caseId: string,
  ids: readonly string[],
): Promise<Map<string, { revokedAt: string; reason: string }>> {
  if (!ids.length) return new Map();
  const rows = await prisma.evidence.findMany({
    where: { caseId, id: { in: [...new Set(ids)] }, revokedAt: { not: null } },
    select: { id: true, revokedAt: true, revokedReason: true },
    orderBy: { id: "asc" },
  });
  return new Map(rows.map((r) => [r.id, { revokedAt: r.revokedAt!.toISOString(), reason: r.revokedReason ?? "" }]));
}
