// Node search ranking. Pure (no server imports): the server ranks the full visible graph with it, the browser ranks the
// nodes it already holds with the same rules.
import type { GraphNodeView } from "./workbench-views";

const byDegree = (a: GraphNodeView, b: GraphNodeView) => b.degree - a.degree || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export function rankNodeMatches(nodes: readonly GraphNodeView[], query: string, limit = 20): GraphNodeView[] {
  const q = query.trim().toLowerCase();
  if (!q) return [];
  const score = (n: GraphNodeView) => {
    const id = n.id.toLowerCase();
    const name = n.name.toLowerCase();
    if (id === q || name === q) return 0;
    if (name.startsWith(q) || id.startsWith(q)) return 1;
    if (name.split(/[\s,.;:()/-]+/).some((w) => w.startsWith(q))) return 2;
    if (name.includes(q) || id.includes(q)) return 3;
    if (n.label.toLowerCase() === q) return 4;
    return -1;
  };
  return nodes
    .map((n) => ({ n, s: score(n) }))
    .filter((x) => x.s >= 0)
    .sort((a, b) => a.s - b.s || byDegree(a.n, b.n))
    .slice(0, limit)
    .map((x) => x.n);
}
