// The case list: the cases the user is a member of in their tenant (the rule of assertCaseAccess), with counts of what
// they may see and the last activity from the ledger.
import type { Actor } from "@/lib/auth/actor";
import type { Classification } from "@/lib/domain/markings";
import { runtime } from "../runtime";
import { visibleCounts } from "./counts";
import type { CaseSummary } from "./types";

export async function listCases(actor: Actor): Promise<CaseSummary[]> {
  if (!actor.tenantId) return [];
  const { db } = await runtime();
  const cases = await db.prisma.case.findMany({
    where: { tenantId: actor.tenantId, members: { some: { userId: actor.userId } } },
    orderBy: { title: "asc" },
    select: { id: true, title: true, description: true, classification: true, status: true, tenant: { select: { id: true, name: true } } },
  });
  if (!cases.length) return [];
  const ids = cases.map((c) => c.id);
  const [counts, activity] = await Promise.all([
    visibleCounts(db.prisma, actor, ids),
    db.prisma.$queryRaw<Array<{ case_id: string; last_at: Date | string | null; mine_at: Date | string | null }>>`
      SELECT l.case_id, max(l.created_at) AS last_at,
        max(l.created_at) FILTER (WHERE l.actor_id = ${actor.userId} AND l.kind = 'graphrag.answer') AS mine_at
      FROM "ledger" l
      WHERE l.case_id = ANY(${ids}::text[]) AND l.tenant_id = ${actor.tenantId}
      GROUP BY l.case_id`,
  ]);
  const iso = (v: Date | string | null | undefined) => (v ? new Date(v).toISOString() : null);
  const byCase = new Map(activity.map((a) => [a.case_id, a]));
  return cases.map((c) => ({
    id: c.id,
    title: c.title,
    description: c.description,
    classification: c.classification as Classification,
    status: c.status,
    tenant: c.tenant,
    visible: counts.get(c.id)!.visible,
    hidden: counts.get(c.id)!.hidden,
    lastActivityAt: iso(byCase.get(c.id)?.last_at),
    myLastQuestionAt: iso(byCase.get(c.id)?.mine_at),
  }));
}
