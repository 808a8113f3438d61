// What the graph highlights: the nodes (and edges) of the explanation step or the evidence item in focus. Pure, so the
// rule is one function: a step lights its nodes, its edges and their ends, and the nodes its evidence is about; an
// evidence item lights the nodes it is linked to.
import type { StepTargets } from "@/components/answer/answer-view";
import type { GraphHighlight } from "@/components/case-graph/case-graph";
import type { RawContext } from "@/lib/graphrag/types";
import type { EvidenceView, GraphEdgeView } from "@/lib/domain/workbench-views";

export type Focus = { kind: "evidence"; id: string } | { kind: "step"; n: number; targets: StepTargets } | null;

export function highlightOf(
  focus: Focus,
  known: {
    edgeById: ReadonlyMap<string, GraphEdgeView>;
    rawContext: RawContext | null;
    evidenceItem: (id: string) => EvidenceView | undefined;
  },
): GraphHighlight | null {
  const { edgeById, rawContext } = known;
  const snippetNodes = (id: string) => rawContext?.evidenceSnippets.find((s) => s.id === id)?.nodeIds ?? [];
  if (focus?.kind === "step") {
    const ids = new Set(focus.targets.nodes);
    for (const eid of focus.targets.edges) {
      const e = edgeById.get(eid) ?? rawContext?.edges.find((x) => x.id === eid);
      if (e) {
        ids.add(e.source);
        ids.add(e.target);
      }
    }
    for (const evId of focus.targets.evidence) for (const n of snippetNodes(evId)) ids.add(n);
    return { nodes: ids, edges: new Set(focus.targets.edges) };
  }
  if (focus?.kind === "evidence") {
    return { nodes: new Set(known.evidenceItem(focus.id)?.nodeIds ?? snippetNodes(focus.id)), edges: new Set() };
  }
  return null;
}
