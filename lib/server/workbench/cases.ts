// The case list: the cases the user is a member of in their tenant (the rule of assertCaseAccess), with counts of what
// they may see and the last activity from the ledger.
import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { readClassification } from "@/lib/domain/markings";
import { PrismaGraphStore } from "@/lib/adapters/prisma/graph-store";
import { env } from "@/lib/env";
import { configuredNeo4jStore } from "../runtime/graph";
import { runtime } from "../runtime";
import { visibleCounts } from "./counts";
import type { CaseSummary } from "@/lib/domain/workbench-views";

export async function listCases(actor: Actor): Promise<CaseSummary[]> {
  if (!actor.tenantId) return [];
  const { db } = await runtime();
  // Markings read as text: a value another tool added to the enum is unreadable, not a crash.
  const cases = await db.prisma.$queryRaw<
    Array<{
      id: string;
      tenant_id: string;
      tenant_name: string;
      title: string;
      description: string;
      classification: string;
      status: string;
    }>
  >`
    SELECT c.id, c.tenant_id, t.name AS tenant_name, c.title, c.description, c.classification::text AS classification, c.status::text AS status
    FROM "case" c JOIN "tenant" t ON t.id = c.tenant_id
    WHERE c.tenant_id = ${actor.tenantId} AND EXISTS (SELECT 1 FROM "case_member" m WHERE m.case_id = c.id AND m.user_id = ${actor.userId})
    ORDER BY c.title, c.id`;
  if (!cases.length) return [];
  const ids = cases.map((c) => c.id);
  const graph = configuredNeo4jStore(env()) ?? new PrismaGraphStore(db.prisma);
  const [counts, activity] = await Promise.all([
    visibleCounts(
      db.prisma,
      graph,
      actor,
      cases.map((c) => ({ id: c.id, tenantId: c.tenant_id })),
    ),
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
    classification: readClassification(c.classification),
    status: c.status,
    tenant: { id: c.tenant_id, name: c.tenant_name },
    visible: counts.get(c.id)!.visible,
    hidden: counts.get(c.id)!.hidden,
    lastActivityAt: iso(byCase.get(c.id)?.last_at),
    myLastQuestionAt: iso(byCase.get(c.id)?.mine_at),
  }));
}
