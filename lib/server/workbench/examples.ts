// Example questions for the ask panel, built from the case's VISIBLE graph: the best-connected nodes the user may see,
// one per label, each with a question shaped for its kind. Nothing hidden can appear (the input is visibleCaseGraph),
// and nothing is written for a particular demo case.
import "server-only";
import type { VisibleCaseGraph } from "./graph";
import type { ExampleQuestion, GraphNodeView } from "@/lib/domain/workbench-views";

const TEMPLATES: Record<string, (n: GraphNodeView) => string> = {
  person: (n) => `What is ${n.name}'s role in this case?`,
  event: (n) => `What happened in “${n.name}”, and who was involved?`,
  meeting: (n) => `Who attended “${n.name}”?`,
  device: (n) => `Why is device ${n.id} considered risky?`,
  account: (n) => `What activity is linked to account ${n.name}?`,
  vehicle: (n) => `Where was the ${n.name} seen?`,
  location: (n) => `What happened at ${n.name}?`,
  organization: (n) => `How is ${n.name} involved?`,
  phone: (n) => `Who used the phone ${n.name}, and who did it call?`,
  ipaddress: (n) => `What connected to ${n.name}?`,
  domain: (n) => `What resolved to or contacted ${n.name}?`,
  malware: (n) => `Where was ${n.name} seen?`,
};

const generic = (n: GraphNodeView) => `What does the evidence say about ${n.name}?`;

export function exampleQuestions(g: VisibleCaseGraph, count = 4): ExampleQuestion[] {
  const ranked = [...g.nodes].sort((a, b) => b.degree - a.degree || (a.id < b.id ? -1 : 1));
  const out: ExampleQuestion[] = [];
  const labels = new Set<string>();
  // Prefer labels with a tailored question, one node per label; fall back to the generic question.
  for (const pass of [true, false]) {
    for (const n of ranked) {
      if (out.length >= count) break;
      const key = n.label.toLowerCase();
      if (labels.has(key) || !n.name.trim()) continue;
      const t = TEMPLATES[key];
      if (pass && !t) continue;
      labels.add(key);
      out.push({ question: (t ?? generic)(n), nodeId: n.id });
    }
  }
  return out;
}
