// What a user may see of whole cases, as counts (case list, case header), decided by the policy functions
// (lib/domain/policy.ts): nodes and edges come from the configured graph store's outline (markings only, no
// properties) through visibleGraph, and evidence is grouped by its markings in SQL with each group decided by
// evidenceDenialReason (items with the same markings get the same decision, so the counts are exact without loading
// every row).
import "server-only";
import type { PrismaClient } from "@/lib/generated/prisma/client";
import { readLicenseUses, readRowMarking } from "@/lib/domain/markings";
import { evidenceDenialReason, visibleGraph, type Viewer } from "@/lib/domain/policy";
import type { CaseGraphStore } from "@/lib/ports";
import { activeEvidenceSql } from "@/lib/adapters/prisma/evidence-active";
import { OUTLINE_LIMITS } from "./graph";
import type { VisibleCounts } from "@/lib/domain/workbench-views";

interface EvidenceMarkRow {
  case_id: string;
  tenant_id: string;
  classification: string;
  need_to_know: string[] | null;
  uses: string[] | null;
  n: number;
}

export interface CaseCounts {
  visible: VisibleCounts;
  hidden: VisibleCounts;
}

export interface CountedCase {
  id: string;
  tenantId: string;
}

/** Counts per case; `graph` null leaves the graph counts at zero (the case page computes them from its graph view). */
export async function visibleCounts(
  prisma: PrismaClient,
  graph: CaseGraphStore | null,
  viewer: Viewer,
  cases: readonly CountedCase[],
): Promise<Map<string, CaseCounts>> {
  const out = new Map<string, CaseCounts>();
  for (const c of cases) out.set(c.id, { visible: { nodes: 0, edges: 0, evidence: 0 }, hidden: { nodes: 0, edges: 0, evidence: 0 } });
  if (!cases.length) return out;
  const ids = cases.map((c) => c.id);
  const [outlines, evidence] = await Promise.all([
    graph ? Promise.all(cases.map((c) => graph.outline({ tenantId: c.tenantId, caseId: c.id }, OUTLINE_LIMITS))) : [],
    prisma.$queryRaw<EvidenceMarkRow[]>`
      SELECT e.case_id, e.tenant_id, e.classification::text AS classification, e.need_to_know, l.allows::text[] AS uses,
        count(*)::int AS n
      FROM "evidence" e LEFT JOIN "license" l ON l.id = e.license_id
      WHERE e.case_id = ANY(${ids}::text[]) AND ${activeEvidenceSql("e")}
      GROUP BY 1, 2, 3, 4, 5`,
  ]);
  outlines.forEach((outline, i) => {
    const vg = visibleGraph(viewer, outline.nodes, outline.edges);
    const c = out.get(cases[i].id)!;
    c.visible.nodes = vg.nodeCounts.allowed;
    c.hidden.nodes = vg.nodeCounts.filtered;
    c.visible.edges = vg.edgeCounts.allowed;
    c.hidden.edges = vg.edgeCounts.filtered;
  });
  for (const r of evidence) {
    const item = {
      ...readRowMarking(r),
      licenseUses: readLicenseUses(r.uses),
    };
    const c = out.get(r.case_id);
    if (c) c[evidenceDenialReason(viewer, item) === null ? "visible" : "hidden"].evidence += Number(r.n);
  }
  return out;
}
