"use client";
// The case graph in Cytoscape.js with the fCoSE layout. Cytoscape is loaded in the browser only (it needs a canvas),
// after the page is interactive. The component keeps one Cytoscape instance for its lifetime: new elements (an
// expanded neighbourhood) are added and laid out incrementally; selection, highlights and hidden labels are classes.
//
// State a test or an assistive technology can read is mirrored on the container: data-graph-ready, data-node-count,
// data-edge-count, data-selected-node, data-highlighted-nodes / -edges (space-separated ids), and a live region.
import type { LayoutOptions } from "cytoscape";
import { useImperativeHandle, useMemo, type Ref } from "react";
import type { GraphEdgeView, GraphNodeView } from "@/lib/domain/workbench-views";
import { layoutOptions } from "./graph-style";
import { graphHash, saveLayout } from "./layout-cache";
import { useCytoscape } from "./use-cytoscape";

export { labelClass } from "./graph-style";

export interface CaseGraphHandle {
  fit(): void;
  zoomBy(factor: number): void;
  /** Runs the layout again from scratch and fits the view. */
  relayout(): void;
  /** Centres the view on these nodes (zooming in as far as they fit). */
  focus(ids: readonly string[]): void;
}

export interface GraphHighlight {
  nodes: ReadonlySet<string>;
  edges: ReadonlySet<string>;
}

interface Props {
  nodes: readonly GraphNodeView[];
  edges: readonly GraphEdgeView[];
  selectedId: string | null;
  highlight: GraphHighlight | null;
  hiddenLabels: ReadonlySet<string>;
  onSelectNode: (id: string | null) => void;
  /** Called once, when the first layout has finished and the graph responds to input. */
  onReady?: (msSinceNavigation: number) => void;
  ariaLabel: string;
  /** Reuse this browser session's layout of the same visible graph (keyed by case and a hash of the ids). */
  layoutCacheKey?: string;
  ref?: Ref<CaseGraphHandle>;
}

export function CaseGraph({
  nodes,
  edges,
  selectedId,
  highlight,
  hiddenLabels,
  onSelectNode,
  onReady,
  ariaLabel,
  layoutCacheKey,
  ref,
}: Props) {
  const { container, cyRef, ready, failed, latest } = useCytoscape({
    nodes,
    edges,
    selectedId,
    highlight,
    hiddenLabels,
    onSelectNode,
    onReady,
    layoutCacheKey,
  });

  useImperativeHandle(
    ref,
    () => ({
      fit() {
        cyRef.current?.animate({ fit: { eles: cyRef.current.elements(":visible"), padding: 24 } }, { duration: 200 });
      },
      zoomBy(factor: number) {
        const cy = cyRef.current;
        if (!cy) return;
        const level = Math.min(cy.maxZoom(), Math.max(cy.minZoom(), cy.zoom() * factor));
        cy.animate({ zoom: { level, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } } }, { duration: 150 });
      },
      relayout() {
        const cy = cyRef.current;
        if (!cy) return;
        const layout = cy.layout({
          ...layoutOptions(cy.nodes().length, false),
          animate: cy.nodes().length <= 250,
          animationDuration: 400,
        } as LayoutOptions);
        const { nodes: n, edges: e, layoutCacheKey: key } = latest.current;
        // Save only when the graph on screen is the page's graph (no neighbourhoods added since).
        if (key && cy.nodes().length === n.length) {
          const { hash, order } = graphHash(n, e);
          layout.one("layoutstop", () => saveLayout(key, cy, hash, order));
        }
        layout.run();
      },
      focus(ids: readonly string[]) {
        const cy = cyRef.current;
        if (!cy) return;
        cy.resize(); // the inspector may just have opened below the graph
        const wanted = new Set(ids);
        const eles = cy.nodes().filter((n) => wanted.has(n.id()) && n.visible());
        if (eles.empty()) return;
        // Frame the nodes themselves (a lone node with its neighbours), never closer than is comfortable to read.
        const box = (eles.length === 1 ? eles.closedNeighborhood().nodes() : eles).boundingBox();
        const pad = 48;
        const w = cy.width();
        const h = cy.height();
        const zoom = Math.max(cy.minZoom(), Math.min(1.3, (w - 2 * pad) / Math.max(box.w, 1), (h - 2 * pad) / Math.max(box.h, 1)));
        const cx = (box.x1 + box.x2) / 2;
        const cyc = (box.y1 + box.y2) / 2;
        cy.stop();
        cy.animate({ zoom, pan: { x: w / 2 - zoom * cx, y: h / 2 - zoom * cyc }, duration: 250 });
      },
    }),
    [cyRef, latest],
  );

  // Which highlighted ids are on screen: one set of the node ids per node list, not a scan of the nodes per id.
  const nodeIds = useMemo(() => new Set(nodes.map((n) => n.id)), [nodes]);
  const highlightedNodes = highlight ? [...highlight.nodes].filter((id) => nodeIds.has(id)).sort() : [];
  const highlightedEdges = highlight ? [...highlight.edges].sort() : [];

  return (
    <div className="relative h-full w-full">
      <div
        ref={container}
        role="application"
        aria-roledescription="case graph"
        aria-label={ariaLabel}
        tabIndex={0}
        data-testid="case-graph"
        data-graph-ready={ready ? "true" : "false"}
        data-node-count={nodes.length}
        data-edge-count={edges.length}
        data-selected-node={selectedId ?? ""}
        data-highlighted-nodes={highlightedNodes.join(" ")}
        data-highlighted-edges={highlightedEdges.join(" ")}
        className="h-full w-full rounded-md bg-white focus-visible:outline-2 focus-visible:outline-offset-[-2px] focus-visible:outline-blue-700"
        onKeyDown={(e) => {
          const cy = cyRef.current;
          if (!cy) return;
          const pan: Record<string, [number, number]> = { ArrowLeft: [60, 0], ArrowRight: [-60, 0], ArrowUp: [0, 60], ArrowDown: [0, -60] };
          if (pan[e.key]) {
            e.preventDefault();
            cy.panBy({ x: pan[e.key][0], y: pan[e.key][1] });
          } else if (e.key === "+" || e.key === "=") {
            e.preventDefault();
            cy.zoom({ level: Math.min(cy.maxZoom(), cy.zoom() * 1.25), renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
          } else if (e.key === "-") {
            e.preventDefault();
            cy.zoom({ level: Math.max(cy.minZoom(), cy.zoom() / 1.25), renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
          } else if (e.key === "0") {
            e.preventDefault();
            cy.fit(cy.elements(":visible"), 24);
          }
        }}
      />
      {!ready && !failed ? (
        <div
          className="pointer-events-none absolute inset-0 flex items-center justify-center text-sm text-slate-600"
          data-testid="graph-loading"
        >
          <span className="mr-2 h-4 w-4 animate-spin rounded-full border-2 border-slate-400 border-t-transparent" aria-hidden />
          Laying out {nodes.length.toLocaleString("en-US")} nodes…
        </div>
      ) : null}
      {failed ? (
        <div role="alert" className="absolute inset-0 flex items-center justify-center p-6 text-center text-sm text-red-800">
          The graph view could not be loaded in this browser. The node search and the evidence still work.
        </div>
      ) : null}
      <p className="sr-only" aria-live="polite">
        {highlightedNodes.length
          ? `${highlightedNodes.length} node${highlightedNodes.length === 1 ? "" : "s"} highlighted in the graph.`
          : ""}
      </p>
    </div>
  );
}
