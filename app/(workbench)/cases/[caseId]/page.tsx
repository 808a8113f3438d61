// The case workbench page. The server renders it with the graph the user may see (policy-filtered in
// lib/server/workbench), so the graph can be drawn as soon as the page's script runs; everything after that comes
// through the guarded server actions.
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageActor } from "@/lib/auth/current";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { visibleCounts } from "@/lib/server/workbench/counts";
import { exampleQuestions } from "@/lib/server/workbench/examples";
import { graphView, visibleCaseGraph } from "@/lib/server/workbench/graph";
import { openCase, type OpenCase } from "@/lib/server/workbench/scope";
import { Workbench } from "@/components/workbench/workbench";
import { hasRole } from "@/lib/auth/actor";
import { ingestPanelOptions } from "@/lib/server/ingest/authorize";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ caseId: string }> }): Promise<Metadata> {
  const { caseId } = await params;
  return { title: `${decodeURIComponent(caseId)} · Casegraph` };
}

export default async function CasePage({ params }: { params: Promise<{ caseId: string }> }) {
  const { caseId: raw } = await params;
  const caseId = decodeURIComponent(raw);
  const actor = await requirePageActor({ roles: ["investigator", "supervisor"], from: `/cases/${raw}` });
  let open: OpenCase;
  try {
    open = await openCase(actor, caseId);
  } catch (err) {
    // Not a member, another tenant's case, or no such case: all look the same.
    if (err instanceof CasegraphError && err.code === "CG-ACCESS-001") notFound();
    throw err;
  }
  const [g, counts, tenant, ingest] = await Promise.all([
    visibleCaseGraph(open, actor),
    visibleCounts(open.prisma, null, actor, [{ id: open.record.id, tenantId: open.record.tenantId }]),
    open.prisma.tenant.findUnique({ where: { id: open.record.tenantId }, select: { name: true } }),
    ingestPanelOptions(open.prisma, actor, open.record.id),
  ]);
  const c = counts.get(open.record.id)!;
  return (
    <Workbench
      caseInfo={{
        id: open.record.id,
        title: open.record.title,
        classification: open.record.classification,
        status: open.record.status,
        tenantName: tenant?.name ?? open.record.tenantId,
      }}
      initialGraph={graphView(open.record.id, g)}
      examples={exampleQuestions(g)}
      evidenceCounts={{ visible: c.visible.evidence, hidden: c.hidden.evidence }}
      canAsk={hasRole(actor, "investigator", "supervisor")}
      ingest={ingest}
    />
  );
}
