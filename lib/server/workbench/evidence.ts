// Evidence as the user may see it: read through the EvidenceStore (as the answer pipeline reads it) and passed through
// the pipeline's policy gate (classification, need-to-know, license allows analysis, tenant) before any of it is
// returned; links to nodes the user may not see are dropped. A hidden item and a missing one look the same
// (CG-ACCESS-003); lists report hidden items as a count.
import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { instructionPassages } from "@/lib/graphrag/context";
import { PolicyGate } from "@/lib/graphrag/policy-filter";
import type { EvidenceRecord } from "@/lib/ports";
import type { OpenCase } from "./scope";
import type { EvidenceSummary, EvidenceView, PropertyValue } from "@/lib/domain/workbench-views";
import { evidenceSource, SOURCE_KEYS } from "@/lib/domain/evidence-source";

const EXCERPT_CHARS = 220;
/** Evidence items one node panel lists (newest first); the rest are counted. */
export const NODE_EVIDENCE_LIMIT = 500;

export function excerptOf(text: string, max = EXCERPT_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  return cut.slice(0, Math.max(cut.lastIndexOf(" "), max - 20)).trimEnd() + "…";
}

/** What every evidence view shows about an item besides its text. */
function heading(r: EvidenceRecord): Omit<EvidenceSummary, "excerpt"> {
  return { id: r.id, type: r.type, sourceSystem: r.sourceSystem, classification: r.classification, collectedAt: r.collectedAt };
}

function summary(r: EvidenceRecord): EvidenceSummary {
  return { ...heading(r), excerpt: excerptOf(r.content) };
}

/** The items among `ids` the user may see, through the policy gate (in no particular order). */
async function visibleRecords(open: OpenCase, gate: PolicyGate, ids: readonly string[]): Promise<EvidenceRecord[]> {
  return ids.length ? gate.evidence(await open.evidence.byIds(open.scope, [...new Set(ids)])) : [];
}

/** Which of `ids` the user may see now (for lists that show only whether an item is still visible). */
export async function visibleEvidenceIds(open: OpenCase, actor: Actor, ids: readonly string[]): Promise<Set<string>> {
  return new Set((await visibleRecords(open, new PolicyGate(actor), ids)).map((r) => r.id));
}

/** Visible evidence items by id, in the order asked; ids that are hidden or unknown are simply absent. */
export async function evidenceByIds(open: OpenCase, actor: Actor, ids: readonly string[]): Promise<EvidenceView[]> {
  if (!ids.length) return [];
  const gate = new PolicyGate(actor);
  const visible = await visibleRecords(open, gate, ids);
  // Links to nodes: only those the user may see.
  const linked = [...new Set(visible.flatMap((r) => r.nodeIds))];
  const visibleNodes = new Set(gate.nodes(await open.graph.nodesByIds(open.scope, linked)).map((n) => n.id));
  const byId = new Map(visible.map((r) => [r.id, r]));
  return ids
    .filter((id, i) => byId.has(id) && ids.indexOf(id) === i)
    .map((id) => {
      const r = byId.get(id)!;
      const metadata = (r.metadata ?? {}) as Record<string, PropertyValue>;
      const source = evidenceSource(metadata, visibleNodes);
      return {
        ...heading(r),
        content: r.content,
        nodeIds: r.nodeIds.filter((n) => visibleNodes.has(n)),
        metadata: source ? Object.fromEntries(Object.entries(metadata).filter(([k]) => !SOURCE_KEYS.has(k))) : metadata,
        ...(source ? { source } : {}),
        instructions: instructionPassages(r.content),
      };
    });
}

export async function evidenceItem(open: OpenCase, actor: Actor, id: string): Promise<EvidenceView> {
  const [item] = await evidenceByIds(open, actor, [id]);
  if (!item) throw new CasegraphError("CG-ACCESS-003");
  return item;
}

/** Evidence linked to a node: the visible items (newest first) and how many linked items are hidden. */
export async function evidenceForNode(
  open: OpenCase,
  actor: Actor,
  nodeId: string,
): Promise<{ evidence: EvidenceSummary[]; hidden: number }> {
  const linked = await open.evidence.linkedTo(open.scope, [nodeId], NODE_EVIDENCE_LIMIT);
  const gate = new PolicyGate(actor);
  const visible = gate
    .evidence(linked)
    .sort((a, b) => (a.collectedAt < b.collectedAt ? 1 : a.collectedAt > b.collectedAt ? -1 : a.id < b.id ? -1 : 1));
  return { evidence: visible.map(summary), hidden: gate.summary().evidence.filtered };
}
