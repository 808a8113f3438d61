// The deterministic policy decision (seed 003: filter before the model sees anything). Deny by default: every
// check must pass positively; missing or unreadable data is a denial, never an allow. The functions are total: they
// take whatever a row, a Neo4j property or a session held (types can lie at runtime) and never grant more than the
// rules below on well-formed values.
import {
  clearanceCovers,
  LICENSE_USES,
  normaliseTag,
  readClassification,
  readTenantId,
  UNREADABLE,
  type LicenseUse,
  type StoredClassification,
} from "./markings";

export interface Viewer {
  userId: string;
  tenantId: string;
  clearance: StoredClassification;
  needToKnow: readonly string[];
}

export interface Marking {
  tenantId: string;
  classification: StoredClassification;
  needToKnow: readonly string[];
}

/** Evidence additionally carries its license's allowed uses. */
export interface EvidenceMarking extends Marking {
  licenseUses: readonly LicenseUse[] | null;
}

export const DENIAL_REASONS = ["tenant", "unreadable_marking", "classification", "need_to_know", "license"] as const;
export type DenialReason = (typeof DENIAL_REASONS)[number];

/** Uses that let an item be shown to the model and the analyst. */
const ANALYSIS_USES: readonly LicenseUse[] = ["ANALYZE", "INTERNAL_USE", "FULL_ACCESS"];

const isTagList = (raw: unknown): raw is readonly string[] =>
  Array.isArray(raw) && raw.every((t) => typeof t === "string" && normaliseTag(t) !== "");

export function denialReason(viewer: Viewer, item: Marking): DenialReason | null {
  if (readTenantId(viewer.tenantId) === "" || item.tenantId !== viewer.tenantId) return "tenant";
  if (readClassification(item.classification) === UNREADABLE || !isTagList(item.needToKnow)) return "unreadable_marking";
  if (!clearanceCovers(viewer.clearance, item.classification)) return "classification";
  if (item.needToKnow.length > 0) {
    const held = new Set(Array.isArray(viewer.needToKnow) ? viewer.needToKnow.filter((t) => typeof t === "string").map(normaliseTag) : []);
    if (!item.needToKnow.some((t) => held.has(normaliseTag(t)))) return "need_to_know";
  }
  return null;
}

export function evidenceDenialReason(viewer: Viewer, item: EvidenceMarking): DenialReason | null {
  const base = denialReason(viewer, item);
  if (base) return base;
  const uses = Array.isArray(item.licenseUses) ? item.licenseUses : [];
  if (!uses.some((u) => ANALYSIS_USES.includes(u) && (LICENSE_USES as readonly string[]).includes(u))) return "license";
  return null;
}

export const mayView = (viewer: Viewer, item: Marking) => denialReason(viewer, item) === null;
export const mayViewEvidence = (viewer: Viewer, item: EvidenceMarking) => evidenceDenialReason(viewer, item) === null;

export interface PolicyCounts {
  allowed: number;
  filtered: number;
  byReason: Record<DenialReason, number>;
}

export function emptyCounts(): PolicyCounts {
  return { allowed: 0, filtered: 0, byReason: { tenant: 0, unreadable_marking: 0, classification: 0, need_to_know: 0, license: 0 } };
}

/** Splits items into the visible ones and counts of the rest; what was hidden is never returned. */
export function partition<T>(items: readonly T[], reasonOf: (item: T) => DenialReason | null) {
  const visible: T[] = [];
  const counts = emptyCounts();
  for (const item of items) {
    const reason = reasonOf(item);
    if (reason) {
      counts.filtered++;
      counts.byReason[reason]++;
    } else {
      counts.allowed++;
      visible.push(item);
    }
  }
  return { visible, counts };
}

/**
 * An edge is visible only if it and both its endpoints are. Edges whose endpoints were not retrieved at all are
 * outside this subgraph and dropped uncounted; an edge hidden because of an endpoint counts with that endpoint's reason.
 */
export function visibleGraph<N extends Marking & { id: string }, E extends Marking & { source: string; target: string }>(
  viewer: Viewer,
  nodes: readonly N[],
  edges: readonly E[],
) {
  const nodeReason = new Map(nodes.map((node) => [node.id, denialReason(viewer, node)]));
  const n = partition(nodes, (node) => nodeReason.get(node.id) ?? null);
  const inSubgraph = edges.filter((edge) => nodeReason.has(edge.source) && nodeReason.has(edge.target));
  const e = partition(
    inSubgraph,
    (edge) => denialReason(viewer, edge) ?? nodeReason.get(edge.source) ?? nodeReason.get(edge.target) ?? null,
  );
  return { nodes: n.visible, edges: e.visible, nodeCounts: n.counts, edgeCounts: e.counts };
}
