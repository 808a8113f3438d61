// Colour and shape per node label: fixed for the labels the demo and generator use, derived from the label's name for
// any other (so a label always looks the same). Every colour keeps 3:1 contrast against the white canvas (WCAG 1.4.11
// for graphics) and the shape repeats the distinction for people who cannot tell the colours apart.
export type NodeShape =
  | "ellipse"
  | "round-rectangle"
  | "diamond"
  | "hexagon"
  | "triangle"
  | "round-triangle"
  | "rhomboid"
  | "star"
  | "vee"
  | "tag"
  | "octagon"
  | "barrel"
  | "pentagon"
  | "concave-hexagon"
  | "round-diamond";

export interface LabelStyle {
  color: string;
  shape: NodeShape;
}

const KNOWN: Record<string, LabelStyle> = {
  person: { color: "#1d4ed8", shape: "ellipse" },
  location: { color: "#047857", shape: "round-rectangle" },
  phone: { color: "#7c3aed", shape: "round-diamond" },
  event: { color: "#b91c1c", shape: "star" },
  organization: { color: "#a16207", shape: "hexagon" },
  vehicle: { color: "#0e7490", shape: "tag" },
  meeting: { color: "#be185d", shape: "octagon" },
  account: { color: "#4d7c0f", shape: "barrel" },
  weapon: { color: "#374151", shape: "vee" },
  device: { color: "#1e40af", shape: "round-rectangle" },
  ipaddress: { color: "#6d28d9", shape: "diamond" },
  domain: { color: "#0f766e", shape: "pentagon" },
  timewindow: { color: "#57534e", shape: "rhomboid" },
  tool: { color: "#9a3412", shape: "triangle" },
  cluster: { color: "#9d174d", shape: "concave-hexagon" },
  malware: { color: "#b91c1c", shape: "vee" },
};

const FALLBACK_COLOURS = ["#1e3a8a", "#065f46", "#7f1d1d", "#713f12", "#581c87", "#134e4a", "#831843", "#3f3f46"];
const FALLBACK_SHAPES: NodeShape[] = ["ellipse", "diamond", "hexagon", "triangle", "pentagon", "octagon", "rhomboid", "tag"];

function hash(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}

export function labelStyle(label: string): LabelStyle {
  const key = label.toLowerCase().replace(/[^a-z0-9]/g, "");
  const known = KNOWN[key];
  if (known) return known;
  const h = hash(key);
  return { color: FALLBACK_COLOURS[h % FALLBACK_COLOURS.length], shape: FALLBACK_SHAPES[(h >>> 8) % FALLBACK_SHAPES.length] };
}

/** An SVG path (in a 16×16 box) approximating the Cytoscape shape, for the legend. */
export function shapePath(shape: NodeShape): string {
  switch (shape) {
    case "ellipse":
      return "M8 1.5a6.5 6.5 0 1 1 0 13a6.5 6.5 0 1 1 0-13z";
    case "round-rectangle":
    case "barrel":
      return "M4 2h8a2.5 2.5 0 0 1 2.5 2.5v7A2.5 2.5 0 0 1 12 14H4a2.5 2.5 0 0 1-2.5-2.5v-7A2.5 2.5 0 0 1 4 2z";
    case "diamond":
    case "round-diamond":
      return "M8 1l7 7-7 7-7-7z";
    case "hexagon":
    case "concave-hexagon":
      return "M4.5 2h7L15 8l-3.5 6h-7L1 8z";
    case "triangle":
    case "round-triangle":
      return "M8 1.5l7 12.5H1z";
    case "rhomboid":
      return "M5 2h10l-4 12H1z";
    case "star":
      return "M8 1l2.1 4.6 5 .5-3.8 3.3 1.1 4.9L8 11.8l-4.4 2.5 1.1-4.9L.9 6.1l5-.5z";
    case "vee":
      return "M1 2l7 5 7-5-7 12z";
    case "tag":
      return "M1 3h9l5 5-5 5H1z";
    case "octagon":
      return "M5 1h6l4 4v6l-4 4H5l-4-4V5z";
    case "pentagon":
      return "M8 1l7 5.2-2.7 8.3H3.7L1 6.2z";
  }
}
