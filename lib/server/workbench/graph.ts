// The case graph as the user may see it: the case's outline from the configured graph store (Neo4j or PostgreSQL)
// passes visibleGraph (lib/domain/policy.ts) before anything is derived from it (degrees, search, neighbourhoods,
// examples). Hidden items leave counts only.
import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { visibleGraph } from "@/lib/domain/policy";
import { rankNodeMatches } from "@/lib/domain/node-search";
import type { OpenCase } from "./scope";
import type { CaseGraphView, GraphEdgeView, GraphNodeView, NodeNeighbourhood, PropertyValue } from "@/lib/domain/workbench-views";

/** Up to this many visible nodes the whole graph is sent; above it, an overview and neighbourhoods on demand. */
export const FULL_GRAPH_LIMIT = 1_500;
/** Nodes in the overview of a larger graph (the best-connected ones). */
export const OVERVIEW_NODES = 150;
/** Neighbours sent per expansion. */
export const NEIGHBOURHOOD_LIMIT = 100;
/** The most of a case graph one view reads (markings included, properties not); a larger graph is shown in part. */
export const OUTLINE_LIMITS = { maxNodes: 100_000, maxEdges: 400_000 };

export interface VisibleCaseGraph {
  nodes: GraphNodeView[];
  edges: GraphEdgeView[];
  byId: Map<string, GraphNodeView>;
  hidden: { nodes: number; edges: number };
  /** The case holds more than OUTLINE_LIMITS: this is part of it. */
  truncated: boolean;
}

export const asProperties = (v: unknown): Record<string, PropertyValue> =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, PropertyValue>) : {};

/** Loads the case's nodes and edges with their markings (not their properties) and keeps what the actor may see. */
export async function visibleCaseGraph(open: OpenCase, actor: Actor): Promise<VisibleCaseGraph> {
  const outline = await open.graph.outline(open.scope, OUTLINE_LIMITS);
  const vg = visibleGraph(actor, outline.nodes, outline.edges);
  const degree = new Map<string, number>();
  for (const e of vg.edges) {
    degree.set(e.source, (degree.get(e.source) ?? 0) + 1);
    degree.set(e.target, (degree.get(e.target) ?? 0) + 1);
  }
  const nodeViews: GraphNodeView[] = vg.nodes.map((n) => ({
    id: n.id,
    label: n.label,
    name: n.name,
    classification: n.classification,
    degree: degree.get(n.id) ?? 0,
  }));
  const edgeViews: GraphEdgeView[] = vg.edges.map((e) => ({
    id: e.id,
    source: e.source,
    target: e.target,
    type: e.type,
    classification: e.classification,
  }));
  return {
    nodes: nodeViews,
    edges: edgeViews,
    byId: new Map(nodeViews.map((n) => [n.id, n])),
    hidden: { nodes: vg.nodeCounts.filtered, edges: vg.edgeCounts.filtered },
    truncated: outline.truncated,
  };
}

const byDegree = (a: GraphNodeView, b: GraphNodeView) => b.degree - a.degree || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The graph for the page: all of it when small enough, otherwise the best-connected nodes and the edges among them. */
export function graphView(caseId: string, g: VisibleCaseGraph): CaseGraphView {
  const base = { caseId, visible: { nodes: g.nodes.length, edges: g.edges.length }, hidden: g.hidden };
  if (g.nodes.length <= FULL_GRAPH_LIMIT) return { ...base, nodes: g.nodes, edges: g.edges, complete: !g.truncated };
  const keep = new Set(
    [...g.nodes]
      .sort(byDegree)
      .slice(0, OVERVIEW_NODES)
      .map((n) => n.id),
  );
  return {
    ...base,
    nodes: g.nodes.filter((n) => keep.has(n.id)),
    edges: g.edges.filter((e) => keep.has(e.source) && keep.has(e.target)),
    complete: false,
  };
}

/** A visible node and its visible neighbours (best-connected first), with the edges among all of them. */
export function neighbourhood(g: VisibleCaseGraph, nodeId: string, limit = NEIGHBOURHOOD_LIMIT): NodeNeighbourhood {
  const centre = g.byId.get(nodeId);
  if (!centre) throw new CasegraphError("CG-ACCESS-003");
  const neighbours = new Set<string>();
  for (const e of g.edges) {
    if (e.source === nodeId) neighbours.add(e.target);
    else if (e.target === nodeId) neighbours.add(e.source);
  }
  const ranked = [...neighbours].map((id) => g.byId.get(id)!).sort(byDegree);
  const keep = new Set([nodeId, ...ranked.slice(0, limit).map((n) => n.id)]);
  return {
    nodes: [centre, ...ranked.slice(0, limit)],
    edges: g.edges.filter((e) => keep.has(e.source) && keep.has(e.target)),
    truncated: ranked.length > limit,
  };
}

/** Visible nodes whose id, name or label contains the query (case-insensitive); exact and prefix matches first. */
export function searchNodes(g: VisibleCaseGraph, query: string, limit = 20): GraphNodeView[] {
  return rankNodeMatches(g.nodes, query, limit);
}
