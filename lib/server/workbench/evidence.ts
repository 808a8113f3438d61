// Evidence as the user may see it: every item passes evidenceDenialReason (classification, need-to-know, license allows
// analysis, tenant) before any of it is returned; links to nodes the user may not see are dropped. A hidden item and a
// missing one look the same (CG-ACCESS-003); lists report hidden items as a count.
import type { Actor } from "@/lib/auth/actor";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { denialReason, evidenceDenialReason } from "@/lib/domain/policy";
import type { Classification, LicenseUse } from "@/lib/domain/markings";
import type { OpenCase } from "./scope";
import type { EvidenceSummary, EvidenceView, PropertyValue } from "./types";

const EXCERPT_CHARS = 220;

const SELECT = {
  id: true, tenantId: true, type: true, content: true, sourceSystem: true, classification: true, needToKnow: true,
  collectedAt: true, metadata: true, nodeIds: true, license: { select: { allows: true } },
} as const;

type Row = {
  id: string; tenantId: string; type: string; content: string; sourceSystem: string; classification: string;
  needToKnow: string[]; collectedAt: Date; metadata: unknown; nodeIds: string[]; license: { allows: string[] } | null;
};

const mayView = (actor: Actor, r: Row) =>
  evidenceDenialReason(actor, {
    tenantId: r.tenantId,
    classification: r.classification as Classification,
    needToKnow: r.needToKnow,
    licenseUses: (r.license?.allows as LicenseUse[] | undefined) ?? null,
  }) === null;

export function excerptOf(text: string, max = EXCERPT_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  return cut.slice(0, Math.max(cut.lastIndexOf(" "), max - 20)).trimEnd() + "…";
}

function summary(r: Row): EvidenceSummary {
  return {
    id: r.id,
    type: r.type,
    sourceSystem: r.sourceSystem,
    classification: r.classification as Classification,
    collectedAt: r.collectedAt.toISOString(),
    excerpt: excerptOf(r.content),
  };
}

/** Visible evidence items by id, in the order asked; ids that are hidden or unknown are simply absent. */
export async function evidenceByIds(open: OpenCase, actor: Actor, ids: readonly string[]): Promise<EvidenceView[]> {
  if (!ids.length) return [];
  const rows = (await open.prisma.evidence.findMany({
    where: { caseId: open.scope.caseId, id: { in: [...new Set(ids)] } },
    select: SELECT,
  })) as Row[];
  const visible = rows.filter((r) => mayView(actor, r));
  // Links to nodes: only those the user may see.
  const linked = [...new Set(visible.flatMap((r) => r.nodeIds))];
  const nodes = await open.graph.nodesByIds(open.scope, linked);
  const visibleNodes = new Set(nodes.filter((n) => denialReason(actor, n) === null).map((n) => n.id));
  const byId = new Map(visible.map((r) => [r.id, r]));
  return ids
    .filter((id, i) => ids.indexOf(id) === i && byId.has(id))
    .map((id) => {
      const r = byId.get(id)!;
      return {
        id: r.id,
        type: r.type,
        sourceSystem: r.sourceSystem,
        classification: r.classification as Classification,
        collectedAt: r.collectedAt.toISOString(),
        content: r.content,
        nodeIds: r.nodeIds.filter((n) => visibleNodes.has(n)),
        metadata: r.metadata && typeof r.metadata === "object" && !Array.isArray(r.metadata) ? (r.metadata as Record<string, PropertyValue>) : {},
      };
    });
}

export async function evidenceItem(open: OpenCase, actor: Actor, id: string): Promise<EvidenceView> {
  const [item] = await evidenceByIds(open, actor, [id]);
  if (!item) throw new CasegraphError("CG-ACCESS-003");
  return item;
}

/** Evidence linked to a node: the visible items (newest first) and how many linked items are hidden. */
export async function evidenceForNode(open: OpenCase, actor: Actor, nodeId: string): Promise<{ evidence: EvidenceSummary[]; hidden: number }> {
  const rows = (await open.prisma.evidence.findMany({
    where: { caseId: open.scope.caseId, nodeIds: { has: nodeId } },
    select: SELECT,
    orderBy: [{ collectedAt: "desc" }, { id: "asc" }],
  })) as Row[];
  const visible = rows.filter((r) => mayView(actor, r));
  return { evidence: visible.map(summary), hidden: rows.length - visible.length };
}
