"use client";
// The workbench's graph data: the page's graph (kept fresh by react-query) plus the neighbourhoods loaded on demand,
// merged into one node and edge list (an edge only when both its ends are present), with lookups and label counts.
import { useQuery } from "@tanstack/react-query";
import { useCallback, useMemo, useState } from "react";
import { unwrap } from "@/components/providers";
import type { CaseGraphView, GraphEdgeView, GraphNodeView, NodeNeighbourhood } from "@/lib/domain/workbench-views";
import type { ActionResult } from "@/lib/auth/guard";

export interface GraphDataSources {
  loadCaseGraph: (input: { caseId: string }) => Promise<ActionResult<CaseGraphView>>;
  expandNode: (input: { caseId: string; nodeId: string }) => Promise<ActionResult<NodeNeighbourhood>>;
}

export function useGraphData(caseId: string, initialGraph: CaseGraphView, sources: GraphDataSources) {
  const graphQuery = useQuery({
    queryKey: ["graph", caseId],
    queryFn: () => unwrap(sources.loadCaseGraph({ caseId })),
    initialData: initialGraph,
    staleTime: 5 * 60_000,
  });
  const graph = graphQuery.data;
  const [extra, setExtra] = useState<{ nodes: GraphNodeView[]; edges: GraphEdgeView[] }>({ nodes: [], edges: [] });
  const { nodes, edges, nodeById } = useMemo(() => {
    const byId = new Map<string, GraphNodeView>();
    for (const n of graph.nodes) byId.set(n.id, n);
    for (const n of extra.nodes) if (!byId.has(n.id)) byId.set(n.id, n);
    const edgeIds = new Set<string>();
    const allEdges: GraphEdgeView[] = [];
    for (const e of [...graph.edges, ...extra.edges]) {
      if (edgeIds.has(e.id) || !byId.has(e.source) || !byId.has(e.target)) continue;
      edgeIds.add(e.id);
      allEdges.push(e);
    }
    return { nodes: [...byId.values()], edges: allEdges, nodeById: byId };
  }, [graph, extra]);
  const edgeById = useMemo(() => new Map(edges.map((e) => [e.id, e])), [edges]);
  const [hiddenLabels, setHiddenLabels] = useState<ReadonlySet<string>>(new Set());
  const labelCounts = useMemo(() => {
    const m = new Map<string, number>();
    for (const n of nodes) m.set(n.label, (m.get(n.label) ?? 0) + 1);
    return [...m.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  }, [nodes]);

  const merge = useCallback((more: { nodes: GraphNodeView[]; edges: GraphEdgeView[] }) => {
    setExtra((x) => ({ nodes: [...x.nodes, ...more.nodes], edges: [...x.edges, ...more.edges] }));
  }, []);
  const [expanding, setExpanding] = useState<string | null>(null);
  const expand = useCallback(
    async (id: string) => {
      setExpanding(id);
      try {
        merge(await unwrap(sources.expandNode({ caseId, nodeId: id })));
      } catch {
        // The node panel still shows the node; the neighbours can be asked for again.
      } finally {
        setExpanding(null);
      }
    },
    [caseId, merge, sources],
  );

  return { graph, nodes, edges, nodeById, edgeById, labelCounts, hiddenLabels, setHiddenLabels, expand, expanding };
}
