// The layout cache: the positions of the last layout of exactly this visible graph, kept in sessionStorage (gone when
// the browser session ends). It holds a hash of the ids and bare coordinates, nothing about the case itself.
import type { Core } from "cytoscape";
import type { GraphEdgeView, GraphNodeView } from "@/lib/domain/workbench-views";

export function fnv(s: string, seed: number): string {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}

export function graphHash(nodes: readonly GraphNodeView[], edges: readonly GraphEdgeView[]): { hash: string; order: string[] } {
  const order = nodes.map((n) => n.id).sort();
  const text =
    order.join("\n") +
    "\n--\n" +
    edges
      .map((e) => e.id)
      .sort()
      .join("\n");
  return { hash: fnv(text, 2166136261) + fnv(text, 2654435761) + ":" + order.length, order };
}

export function readLayout(key: string, hash: string, order: string[]): Map<string, { x: number; y: number }> | null {
  try {
    const raw = sessionStorage.getItem(`casegraph:layout:${key}`);
    if (!raw) return null;
    const saved = JSON.parse(raw) as { h: string; p: number[] };
    if (saved.h !== hash || saved.p.length !== order.length * 2) return null;
    return new Map(order.map((id, i) => [id, { x: saved.p[2 * i], y: saved.p[2 * i + 1] }]));
  } catch {
    return null;
  }
}

export function saveLayout(key: string, cy: Core, hash: string, order: string[]) {
  try {
    const p: number[] = [];
    for (const id of order) {
      const pos = cy.getElementById(id).position();
      p.push(Math.round(pos.x), Math.round(pos.y));
    }
    sessionStorage.setItem(`casegraph:layout:${key}`, JSON.stringify({ h: hash, p }));
  } catch {
    // Storage full or disabled: the next visit lays out again.
  }
}
