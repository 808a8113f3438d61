// Who may add evidence to a case (issue 17): a member of the case holding the `ingest` permission (an admin grants it
// on the memberships page), or a supervisor or admin of the case's tenant. Checked on the server for every entry point
// (the API route, the case page's upload, the CLI), fresh on every call. Another tenant's case and a case the actor is
// not a member of look like a missing one (CG-ACCESS-001); a member without the permission is told so (CG-INGEST-009).
import "server-only";
import type { PrismaClient } from "../../generated/prisma/client";
import type { Actor } from "../../auth/actor";
import { hasRole } from "../../auth/actor";
import { CasegraphError } from "../../domain/failure-codes";
import { ingestFactsOf, memberPermissions } from "../../adapters/prisma/documents";
import { NO_LICENSE } from "../../ingest/markings";

export const INGEST_PERMISSION = "ingest";

export type IngestCase = NonNullable<Awaited<ReturnType<typeof ingestFactsOf>>> & { caseId: string };

export async function assertMayIngest(prisma: PrismaClient, actor: Actor, caseId: string): Promise<IngestCase> {
  if (typeof caseId !== "string" || !caseId || caseId.length > 200 || !actor.tenantId) throw new CasegraphError("CG-ACCESS-001");
  const facts = await ingestFactsOf(prisma, caseId);
  if (!facts || facts.tenantId !== actor.tenantId) throw new CasegraphError("CG-ACCESS-001");
  if (hasRole(actor, "supervisor", "admin")) return { ...facts, caseId };
  const permissions = hasRole(actor, "investigator") ? await memberPermissions(prisma, caseId, actor.userId) : null;
  if (permissions === null) throw new CasegraphError("CG-ACCESS-001");
  if (!permissions.includes(INGEST_PERMISSION)) throw new CasegraphError("CG-INGEST-009");
  return { ...facts, caseId };
}

/** What the case page's "Add evidence" panel offers this actor, or null when they may not ingest into the case. */
export async function ingestPanelOptions(
  prisma: PrismaClient,
  actor: Actor,
  caseId: string,
): Promise<{ caseClassification: string; licenses: Array<{ id: string; name: string; analysis: boolean }> } | null> {
  let target: IngestCase;
  try {
    target = await assertMayIngest(prisma, actor, caseId);
  } catch {
    return null;
  }
  const licenses = await prisma.license.findMany({
    where: { id: { in: [...target.licenses].filter((id) => id !== NO_LICENSE) } },
    select: { id: true, name: true, allows: true },
    orderBy: { id: "asc" },
  });
  const analysis = (uses: readonly string[]) => uses.some((u) => u === "ANALYZE" || u === "INTERNAL_USE" || u === "FULL_ACCESS");
  return {
    caseClassification: target.classification,
    licenses: licenses.map((l) => ({ id: l.id, name: l.name, analysis: analysis(l.allows) })),
  };
}
