"use client";
// The case graph in Cytoscape.js with the fCoSE layout. Cytoscape is loaded in the browser only (it needs a canvas),
// after the page is interactive. The component keeps one Cytoscape instance for its lifetime: new elements (an
// expanded neighbourhood) are added and laid out incrementally; selection, highlights and hidden labels are classes.
//
// State a test or an assistive technology can read is mirrored on the container: data-graph-ready, data-node-count,
// data-edge-count, data-selected-node, data-highlighted-nodes / -edges (space-separated ids), and a live region.
import type { Core, ElementDefinition, LayoutOptions, StylesheetJson } from "cytoscape";
import { useEffect, useImperativeHandle, useRef, useState, type Ref } from "react";
import type { GraphEdgeView, GraphNodeView } from "@/lib/server/workbench/types";
import { labelStyle } from "./palette";
import { revealHidden } from "@/lib/domain/display-text";

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

type CytoscapeFn = typeof import("cytoscape");
let libs: Promise<CytoscapeFn> | null = null;

/** Cytoscape and fCoSE, fetched once. Started as soon as this module runs in the browser, in parallel with hydration. */
function loadCytoscape(): Promise<CytoscapeFn> {
  libs ??= Promise.all([import("cytoscape"), import("cytoscape-fcose")]).then(([c, f]) => {
    const cytoscape = (c.default ?? c) as CytoscapeFn;
    cytoscape.use(f.default);
    performance.mark("casegraph:graph-libs");
    return cytoscape;
  });
  return libs;
}
if (typeof window !== "undefined") void loadCytoscape().catch(() => {});

// ---- layout cache: the positions of the last layout of exactly this visible graph, kept in sessionStorage (gone when
// the browser session ends). It holds a hash of the ids and bare coordinates, nothing about the case itself.
function fnv(s: string, seed: number): string {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}

function graphHash(nodes: readonly GraphNodeView[], edges: readonly GraphEdgeView[]): { hash: string; order: string[] } {
  const order = nodes.map((n) => n.id).sort();
  const text = order.join("\n") + "\n--\n" + edges.map((e) => e.id).sort().join("\n");
  return { hash: fnv(text, 2166136261) + fnv(text, 2654435761) + ":" + order.length, order };
}

function readLayout(key: string, hash: string, order: string[]): Map<string, { x: number; y: number }> | null {
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

function saveLayout(key: string, cy: Core, hash: string, order: string[]) {
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

// Colour, shape and size come from classes (one style rule per label and per size step), not per-element data
// mappers: Cytoscape then parses each style value once instead of once per node, which matters at 500+ nodes.
const SIZES = [16, 20, 24, 29, 35];
const sizeClass = (degree: number) => `d${degree <= 1 ? 0 : degree <= 3 ? 1 : degree <= 6 ? 2 : degree <= 12 ? 3 : 4}`;

export function labelClass(label: string): string {
  return `l-${label.toLowerCase().replace(/[^a-z0-9]+/g, "-").slice(0, 40)}-${fnv(label, 2166136261)}`;
}

function labelRule(label: string) {
  const s = labelStyle(label);
  return { selector: `node.${labelClass(label)}`, style: { "background-color": s.color, shape: s.shape } };
}


const shortLabel = (name: string) => (name.length > 28 ? name.slice(0, 27) + "…" : name);

function nodeElement(n: GraphNodeView): ElementDefinition {
  return {
    group: "nodes",
    // A canvas label is plain text: hidden characters are shown as markers, never drawn as themselves.
    data: { id: n.id, name: shortLabel(revealHidden(n.name)), label: n.label },
    classes: `${labelClass(n.label)} ${sizeClass(n.degree)}`,
  };
}

function edgeElement(e: GraphEdgeView): ElementDefinition {
  return { group: "edges", data: { id: e.id, source: e.source, target: e.target, type: e.type.replace(/_/g, " ").toLowerCase() } };
}

/** Graphs above this size draw labels only where they can be read, and straight edges (both cost much to draw). */
const BIG = 250;

function graphStyle(big: boolean, labels: Iterable<string>): StylesheetJson {
  const style: StylesheetJson = [
  {
    selector: "node",
    style: {
      "background-color": "#64748b",
      width: SIZES[0],
      height: SIZES[0],
      label: "data(name)",
      "font-size": 12,
      "font-family": "ui-sans-serif, system-ui, sans-serif",
      color: "#0f172a",
      "text-valign": "bottom",
      "text-margin-y": 3,
      "text-outline-color": "#ffffff",
      "text-outline-width": 2,
      "min-zoomed-font-size": 6,
      "border-width": 1.5,
      "border-color": "#ffffff",
      ...(big ? {} : { "transition-property": "opacity, border-width, border-color", "transition-duration": 120 }),
    },
  },
  {
    selector: "edge",
    style: {
      width: 1.2,
      "line-color": "#94a3b8",
      "target-arrow-color": "#94a3b8",
      "target-arrow-shape": "triangle",
      "arrow-scale": 0.7,
      "curve-style": "bezier",
      "font-size": 9,
      color: "#334155",
      "text-rotation": "autorotate",
      "text-outline-color": "#ffffff",
      "text-outline-width": 2,
      "min-zoomed-font-size": 8,
    },
  },
  { selector: "node.dim", style: { opacity: 0.18 } },
  { selector: "edge.dim", style: { opacity: 0.08 } },
  { selector: "node.hl", style: { "border-width": 4, "border-color": "#f59e0b", "z-index": 20, "font-weight": "bold" } },
  { selector: "edge.hl", style: { width: 3, "line-color": "#d97706", "target-arrow-color": "#d97706", label: "data(type)", "z-index": 20 } },
  { selector: "node.sel", style: { "border-width": 4, "border-color": "#1d4ed8", "z-index": 30, "font-weight": "bold" } },
  { selector: "edge.sel-adj", style: { width: 2.2, "line-color": "#1d4ed8", "target-arrow-color": "#1d4ed8", label: "data(type)" } },
  { selector: ".label-hidden", style: { display: "none" } },
  ];
  SIZES.forEach((size, i) => style.push({ selector: `node.d${i}`, style: { width: size, height: size } }));
  for (const label of new Set(labels)) style.push(labelRule(label) as StylesheetJson[number]);
  if (big) {
    // Labels come in as the user zooms into a region (class "labelled", see the viewport handler), and always for
    // highlighted and selected nodes; measuring 500 labels up front would delay the first picture by about a third.
    style.push(
      { selector: "node", style: { label: "" } },
      { selector: "node.labelled, node.hl, node.sel", style: { label: "data(name)" } },
      { selector: "edge", style: { "curve-style": "straight" } },
    );
  }
  return style;
}

function layoutOptions(count: number, incremental: boolean): LayoutOptions {
  // Larger graphs get the spectral ("draft") pass only: fast, and already legible; small graphs get the full pass.
  return {
    name: "fcose",
    quality: incremental ? "default" : count > 250 ? "draft" : "default",
    randomize: !incremental,
    animate: incremental,
    animationDuration: 300,
    fit: !incremental,
    padding: 24,
    nodeDimensionsIncludeLabels: false,
    packComponents: true,
    // Tuned on the demo cases for a ~700×450 px canvas: compact enough that labels show at the fitted zoom.
    nodeRepulsion: count > 250 ? 6500 : 9000,
    idealEdgeLength: 70,
    gravity: 0.5,
    gravityRange: 2,
    nodeSeparation: 90,
    numIter: count > 250 ? 1200 : 2500,
    // Fewer spectral samples for large graphs: about half the time, little visible difference.
    sampleSize: count > 250 ? 12 : 25,
  } as LayoutOptions;
}

export function CaseGraph({ nodes, edges, selectedId, highlight, hiddenLabels, onSelectNode, onReady, ariaLabel, layoutCacheKey, ref }: Props) {
  const container = useRef<HTMLDivElement>(null);
  const cyRef = useRef<Core | null>(null);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);
  const latest = useRef({ nodes, edges, onSelectNode, onReady, layoutCacheKey });
  useEffect(() => {
    latest.current = { nodes, edges, onSelectNode, onReady, layoutCacheKey };
  });

  // Create the instance once.
  useEffect(() => {
    performance.mark("casegraph:mounted");
    let cancelled = false;
    let cy: Core | null = null;
    loadCytoscape()
      .then((cytoscape) => {
        if (cancelled || !container.current) return;
        const { nodes: n0, edges: e0, layoutCacheKey: cacheKey } = latest.current;
        const { hash, order } = graphHash(n0, e0);
        const saved = cacheKey ? readLayout(cacheKey, hash, order) : null;
        const big = n0.length > BIG;
        cy = cytoscape({
          container: container.current,
          elements: [
            ...n0.map((n) => ({ ...nodeElement(n), ...(saved ? { position: saved.get(n.id) } : {}) })),
            ...e0.map(edgeElement),
          ],
          style: graphStyle(big, n0.map((n) => n.label)),
          layout: { name: "preset", fit: false },
          minZoom: 0.08,
          maxZoom: 3,
          wheelSensitivity: 0.3,
          boxSelectionEnabled: false,
          selectionType: "single",
          autoungrabify: false,
          textureOnViewport: big,
          hideEdgesOnViewport: big,
          pixelRatio: big ? 1 : "auto",
        });
        performance.mark("casegraph:cy-created");
        const instance = cy;
        cyRef.current = instance;
        instance.on("tap", "node", (evt) => latest.current.onSelectNode(evt.target.id()));
        if (big) {
          // Label the nodes in view once they are large enough on screen to read.
          let timer: ReturnType<typeof setTimeout> | null = null;
          instance.on("viewport", () => {
            if (timer) clearTimeout(timer);
            timer = setTimeout(() => {
              if (instance.destroyed() || instance.zoom() * 12 < 7) return;
              const ext = instance.extent();
              instance.batch(() => {
                instance
                  .nodes()
                  .filter((n) => {
                    if (n.hasClass("labelled")) return false;
                    const p = n.position();
                    return p.x >= ext.x1 && p.x <= ext.x2 && p.y >= ext.y1 && p.y <= ext.y2;
                  })
                  .addClass("labelled");
              });
            }, 150);
          });
        }
        instance.on("tap", (evt) => {
          if (evt.target === instance) latest.current.onSelectNode(null);
        });
        const done = () => {
          if (cancelled) return;
          performance.mark("casegraph:layout-end");
          setReady(true);
          // Ready = laid out and drawn: wait for the frame that paints it.
          requestAnimationFrame(() => latest.current.onReady?.(performance.now()));
        };
        // Fit to the nodes only: the box of every edge would mean routing each one first (a fifth of the first
        // picture's time at 500 nodes), and edges run between nodes anyway.
        const fitNodes = () => instance.fit(instance.nodes(), 24);
        performance.mark("casegraph:layout-start");
        if (saved) {
          fitNodes();
          done();
          return;
        }
        const layout = instance.layout({ ...layoutOptions(n0.length, false), fit: false } as LayoutOptions);
        layout.one("layoutstop", () => {
          fitNodes();
          if (cacheKey) saveLayout(cacheKey, instance, hash, order);
          done();
        });
        layout.run();
      })
      .catch(() => setFailed(true));
    return () => {
      cancelled = true;
      cy?.destroy();
      cyRef.current = null;
    };
  }, []);

  // The panel below the graph opens and closes: keep Cytoscape's idea of its size in step with the box.
  useEffect(() => {
    const el = container.current;
    if (!el || !ready) return;
    const ro = new ResizeObserver(() => cyRef.current?.resize());
    ro.observe(el);
    return () => ro.disconnect();
  }, [ready]);

  // Elements added later (expanded neighbourhoods): add, then lay out incrementally around what is there.
  useEffect(() => {
    const cy = cyRef.current;
    if (!cy || !ready) return;
    const add: ElementDefinition[] = [];
    const known = new Set(cy.nodes().map((n) => n.data("label") as string));
    const fresh = new Set<string>();
    for (const n of nodes) {
      if (!cy.getElementById(n.id).empty()) continue;
      add.push(nodeElement(n));
      if (!known.has(n.label)) fresh.add(n.label);
    }
    // A label seen for the first time needs its colour and shape rule.
    if (fresh.size) {
      const sheet = cy.style();
      for (const label of fresh) {
        const r = labelRule(label);
        sheet.selector(r.selector).style(r.style);
      }
      sheet.update();
    }
    for (const e of edges) if (cy.getElementById(e.id).empty()) add.push(edgeElement(e));
    if (!add.length) return;
    const added = cy.add(add);
    // Start new nodes next to a neighbour that is already placed, so the incremental layout moves little.
    added.nodes().forEach((node) => {
      const anchor = node.neighborhood().nodes().filter((m) => !added.contains(m));
      const p = anchor.nonempty() ? anchor[0].position() : { x: 0, y: 0 };
      node.position({ x: p.x + (Math.random() - 0.5) * 80, y: p.y + (Math.random() - 0.5) * 80 });
    });
    cy.layout(layoutOptions(cy.nodes().length, true)).run();
  }, [nodes, edges, ready]);

  // Selection, highlight, hidden labels → classes.
  useEffect(() => {
    const cy = cyRef.current;
    if (!cy || !ready) return;
    cy.batch(() => {
      cy.elements().removeClass("hl dim sel sel-adj label-hidden");
      if (hiddenLabels.size) cy.nodes().filter((n) => hiddenLabels.has(n.data("label"))).addClass("label-hidden");
      if (highlight && (highlight.nodes.size || highlight.edges.size)) {
        cy.elements().addClass("dim");
        const hlNodes = cy.nodes().filter((n) => highlight.nodes.has(n.id()));
        const hlEdges = cy.edges().filter((e) => highlight.edges.has(e.id()));
        hlNodes.removeClass("dim").addClass("hl");
        hlEdges.removeClass("dim").addClass("hl");
        hlEdges.connectedNodes().removeClass("dim");
      }
      if (selectedId) {
        const sel = cy.getElementById(selectedId);
        sel.removeClass("dim").addClass("sel");
        sel.connectedEdges().addClass("sel-adj");
      }
    });
  }, [highlight, selectedId, hiddenLabels, ready, nodes]);

  useImperativeHandle(ref, () => ({
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
      const layout = cy.layout({ ...layoutOptions(cy.nodes().length, false), animate: cy.nodes().length <= 250, animationDuration: 400 } as LayoutOptions);
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
  }), []);

  const highlightedNodes = highlight ? [...highlight.nodes].filter((id) => nodes.some((n) => n.id === id)).sort() : [];
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
        <div className="pointer-events-none absolute inset-0 flex items-center justify-center text-sm text-slate-600" data-testid="graph-loading">
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
        {highlightedNodes.length ? `${highlightedNodes.length} node${highlightedNodes.length === 1 ? "" : "s"} highlighted in the graph.` : ""}
      </p>
    </div>
  );
}
