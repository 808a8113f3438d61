// What a user may see of whole cases, as counts (case list, case header), decided by the policy functions
// (lib/domain/policy.ts): nodes and edges go through visibleGraph with their markings only (no properties), and
// evidence is grouped by its markings in SQL with each group decided by evidenceDenialReason (items with the same
// markings get the same decision, so the counts are exact without loading every row).
import type { PrismaClient } from "@/lib/generated/prisma/client";
import type { Classification, LicenseUse } from "@/lib/domain/markings";
import { evidenceDenialReason, visibleGraph, type Viewer } from "@/lib/domain/policy";
import type { VisibleCounts } from "./types";

interface MarkRow {
  case_id: string;
  tenant_id: string;
  classification: string;
  need_to_know: string[] | null;
  n: number;
}

interface EvidenceMarkRow extends MarkRow {
  uses: string[] | null;
}

export interface CaseCounts {
  visible: VisibleCounts;
  hidden: VisibleCounts;
}

const mark = (tenantId: string, classification: string, needToKnow: string[] | null) => ({
  tenantId,
  classification: classification as Classification,
  needToKnow: needToKnow ?? [],
});

export async function visibleCounts(
  prisma: PrismaClient,
  viewer: Viewer,
  caseIds: readonly string[],
  options: { graph?: boolean } = {},
): Promise<Map<string, CaseCounts>> {
  const out = new Map<string, CaseCounts>();
  for (const id of caseIds) out.set(id, { visible: { nodes: 0, edges: 0, evidence: 0 }, hidden: { nodes: 0, edges: 0, evidence: 0 } });
  if (!caseIds.length) return out;
  const ids = [...caseIds];
  const withGraph = options.graph !== false;
  const [nodes, edges, evidence] = await Promise.all([
    withGraph
      ? prisma.graphNode.findMany({ where: { caseId: { in: ids } }, select: { caseId: true, id: true, tenantId: true, classification: true, needToKnow: true } })
      : [],
    withGraph
      ? prisma.graphEdge.findMany({ where: { caseId: { in: ids } }, select: { caseId: true, source: true, target: true, tenantId: true, classification: true, needToKnow: true } })
      : [],
    prisma.$queryRaw<EvidenceMarkRow[]>`
      SELECT e.case_id, e.tenant_id, e.classification::text AS classification, e.need_to_know, l.allows::text[] AS uses,
        count(*)::int AS n
      FROM "evidence" e LEFT JOIN "license" l ON l.id = e.license_id
      WHERE e.case_id = ANY(${ids}::text[])
      GROUP BY 1, 2, 3, 4, 5`,
  ]);
  for (const caseId of withGraph ? ids : []) {
    const vg = visibleGraph(
      viewer,
      nodes.filter((n) => n.caseId === caseId).map((n) => ({ ...mark(n.tenantId, n.classification, n.needToKnow), id: n.id })),
      edges.filter((e) => e.caseId === caseId).map((e) => ({ ...mark(e.tenantId, e.classification, e.needToKnow), source: e.source, target: e.target })),
    );
    const c = out.get(caseId)!;
    c.visible.nodes = vg.nodeCounts.allowed;
    c.hidden.nodes = vg.nodeCounts.filtered;
    c.visible.edges = vg.edgeCounts.allowed;
    c.hidden.edges = vg.edgeCounts.filtered;
  }
  for (const r of evidence) {
    const item = { ...mark(r.tenant_id, r.classification, r.need_to_know), licenseUses: (r.uses as LicenseUse[] | null) ?? null };
    const c = out.get(r.case_id);
    if (c) c[evidenceDenialReason(viewer, item) === null ? "visible" : "hidden"].evidence += Number(r.n);
  }
  return out;
}
