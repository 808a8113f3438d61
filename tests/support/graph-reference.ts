// The CaseGraphStore contract (lib/ports.ts) written out directly over a bundle held in memory — no SQL, no Cypher,
// no shared query code — so the contract suite can check each real store against what the contract says, not only
// against the other store. Uses the contract's own definitions of tokens and id order (lib/domain/graph-contract.ts),
// which a unit test checks separately.
import { compareIds, nodeSearchTokens, simpleLower, textQueryGroups, textRank } from "@/lib/domain/graph-contract";
import { parseClassification, type Classification } from "@/lib/domain/markings";
import type { GraphEdgeRecord, GraphNodeRecord, SeedCandidate, SeedQuery, Subgraph, SubgraphLimits } from "@/lib/ports";
import { nodeName } from "@/lib/adapters/prisma/workspace";
import { defaultEdgeId, markingOf, sortedTags } from "@/lib/workspace/bundle";

export interface RefCase {
  id: string;
  tenantId: string;
  nodes: GraphNodeRecord[];
  edges: GraphEdgeRecord[];
}

export function referenceCases(bundle: any): RefCase[] {
  return bundle.cases.map((c: any) => {
    const marking = parseClassification(c.classification) as Classification;
    return {
      id: c.id,
      tenantId: c.tenant,
      nodes: c.nodes.map((n: any) => ({
        id: n.id,
        tenantId: c.tenant,
        label: n.label,
        name: nodeName(n.id, n.properties ?? {}),
        properties: n.properties ?? {},
        classification: markingOf(n.classification, marking),
        needToKnow: sortedTags(n.needToKnow),
      })),
      edges: c.edges.map((e: any) => ({
        id: e.id ?? defaultEdgeId(e),
        tenantId: c.tenant,
        source: e.source,
        target: e.target,
        type: e.type,
        properties: e.properties ?? {},
        classification: markingOf(e.classification, marking),
        needToKnow: sortedTags(e.needToKnow),
      })),
    };
  });
}

const KIND = { id: 0, name: 1, text: 2 } as const;

export function referenceSeeds(c: RefCase, q: SeedQuery): SeedCandidate[] {
  const ids = new Set(q.ids),
    phrases = new Set(q.phrases);
  const groups = textQueryGroups(q.terms);
  const out: SeedCandidate[] = [];
  for (const node of c.nodes) {
    if (ids.has(node.id)) out.push({ node, match: "id", rank: 0 });
    else if (phrases.has(simpleLower(node.name))) out.push({ node, match: "name", rank: 0 });
  }
  const text = c.nodes
    .map((node) => ({ node, match: "text" as const, rank: textRank(groups, nodeSearchTokens(node)) }))
    .filter((x) => x.rank > 0)
    .sort((a, b) => b.rank - a.rank || compareIds(a.node.id, b.node.id))
    .slice(0, q.limit);
  const seen = new Set(out.map((x) => x.node.id));
  for (const t of text) if (!seen.has(t.node.id)) out.push(t);
  return out.sort((a, b) => KIND[a.match] - KIND[b.match] || b.rank - a.rank || compareIds(a.node.id, b.node.id));
}

export function referenceExpand(c: RefCase, seedIds: readonly string[], limits: SubgraphLimits): Subgraph {
  const edgesById = [...c.edges].sort((a, b) => compareIds(a.id, b.id));
  const hopOf = new Map<string, number>();
  for (const id of seedIds) if (!hopOf.has(id)) hopOf.set(id, 0);
  let frontier = new Set(hopOf.keys());
  let truncated = false;
  // A hop is skipped only when the node cap is full AND a cut was already seen (nothing could change).
  for (let hop = 1; hop <= limits.hops && frontier.size && !(truncated && hopOf.size >= limits.maxNodes); hop++) {
    const read = edgesById.filter((e) => frontier.has(e.source) || frontier.has(e.target)).slice(0, limits.maxEdges);
    if (read.length >= limits.maxEdges) truncated = true;
    const next = new Set<string>();
    for (const e of read) {
      for (const id of [e.source, e.target]) {
        if (hopOf.has(id)) continue;
        if (hopOf.size >= limits.maxNodes) {
          truncated = true;
          continue;
        }
        hopOf.set(id, hop);
        next.add(id);
      }
    }
    frontier = next;
  }
  const nodes = c.nodes
    .filter((n) => hopOf.has(n.id))
    .map((n) => ({ ...n, hop: hopOf.get(n.id)! }))
    .sort((a, b) => a.hop - b.hop || compareIds(a.id, b.id));
  const among = edgesById.filter((e) => hopOf.has(e.source) && hopOf.has(e.target)).slice(0, limits.maxEdges);
  return { nodes, edges: among, truncated: truncated || among.length >= limits.maxEdges };
}

/** Breadth-first distances over the whole case graph (no caps), to check hop numbers independently. */
export function bfsDistances(c: RefCase, seedIds: readonly string[]): Map<string, number> {
  const adj = new Map<string, string[]>();
  for (const e of c.edges) {
    (adj.get(e.source) ?? adj.set(e.source, []).get(e.source)!).push(e.target);
    (adj.get(e.target) ?? adj.set(e.target, []).get(e.target)!).push(e.source);
  }
  const dist = new Map(seedIds.map((id) => [id, 0]));
  let frontier = [...dist.keys()];
  for (let d = 1; frontier.length; d++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const n of adj.get(id) ?? []) {
        if (dist.has(n)) continue;
        dist.set(n, d);
        next.push(n);
      }
    }
    frontier = next;
  }
  return dist;
}
