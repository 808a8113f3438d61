// How the case graph looks and is laid out: Cytoscape elements for the workbench's nodes and edges, the stylesheet,
// and the fCoSE options.
import type { ElementDefinition, LayoutOptions, StylesheetJson } from "cytoscape";
import { revealHidden } from "@/lib/domain/display-text";
import type { GraphEdgeView, GraphNodeView } from "@/lib/domain/workbench-views";
import { fnv } from "./layout-cache";
import { labelStyle } from "./palette";

// Colour, shape and size come from classes (one style rule per label and per size step), not per-element data
// mappers: Cytoscape then parses each style value once instead of once per node, which matters at 500+ nodes.
const SIZES = [16, 20, 24, 29, 35];
const sizeClass = (degree: number) => `d${degree <= 1 ? 0 : degree <= 3 ? 1 : degree <= 6 ? 2 : degree <= 12 ? 3 : 4}`;

export function labelClass(label: string): string {
  return `l-${label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 40)}-${fnv(label, 2166136261)}`;
}

export function labelRule(label: string) {
  const s = labelStyle(label);
  return { selector: `node.${labelClass(label)}`, style: { "background-color": s.color, shape: s.shape } };
}

const shortLabel = (name: string) => (name.length > 28 ? name.slice(0, 27) + "…" : name);

export function nodeElement(n: GraphNodeView): ElementDefinition {
  return {
    group: "nodes",
    // A canvas label is plain text: hidden characters are shown as markers, never drawn as themselves.
    data: { id: n.id, name: shortLabel(revealHidden(n.name)), label: n.label },
    classes: `${labelClass(n.label)} ${sizeClass(n.degree)}`,
  };
}

export function edgeElement(e: GraphEdgeView): ElementDefinition {
  return { group: "edges", data: { id: e.id, source: e.source, target: e.target, type: e.type.replace(/_/g, " ").toLowerCase() } };
}

/** Graphs above this size draw labels only where they can be read, and straight edges (both cost much to draw). */
export const BIG = 250;

export function graphStyle(big: boolean, labels: Iterable<string>): StylesheetJson {
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
    {
      selector: "edge.hl",
      style: { width: 3, "line-color": "#d97706", "target-arrow-color": "#d97706", label: "data(type)", "z-index": 20 },
    },
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

export function layoutOptions(count: number, incremental: boolean): LayoutOptions {
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
