"use client";
// One Cytoscape instance for the component's lifetime: created once (from the saved layout when this browser session
// has one, else laid out with fCoSE), resized with its box, given the elements that arrive later (expanded
// neighbourhoods, laid out incrementally), and kept in step with the selection, highlight and hidden labels as classes.
import type { Core, ElementDefinition, LayoutOptions } from "cytoscape";
import { useEffect, useRef, useState } from "react";
import type { GraphEdgeView, GraphNodeView } from "@/lib/domain/workbench-views";
import { BIG, edgeElement, graphStyle, labelRule, layoutOptions, nodeElement } from "./graph-style";
import { graphHash, readLayout, saveLayout } from "./layout-cache";

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

export interface CytoscapeInput {
  nodes: readonly GraphNodeView[];
  edges: readonly GraphEdgeView[];
  selectedId: string | null;
  highlight: { nodes: ReadonlySet<string>; edges: ReadonlySet<string> } | null;
  hiddenLabels: ReadonlySet<string>;
  onSelectNode: (id: string | null) => void;
  onReady?: (msSinceNavigation: number) => void;
  layoutCacheKey?: string;
}

export function useCytoscape({ nodes, edges, selectedId, highlight, hiddenLabels, onSelectNode, onReady, layoutCacheKey }: CytoscapeInput) {
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
          elements: [...n0.map((n) => ({ ...nodeElement(n), ...(saved ? { position: saved.get(n.id) } : {}) })), ...e0.map(edgeElement)],
          style: graphStyle(
            big,
            n0.map((n) => n.label),
          ),
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
      const anchor = node
        .neighborhood()
        .nodes()
        .filter((m) => !added.contains(m));
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
      if (hiddenLabels.size)
        cy.nodes()
          .filter((n) => hiddenLabels.has(n.data("label")))
          .addClass("label-hidden");
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

  return { container, cyRef, ready, failed, latest };
}
