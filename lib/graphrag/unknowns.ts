// What the answer cannot cover, said plainly (seed 002 "Unknowns & Gaps"): the model's own gaps, items hidden by
// policy (counts only — never what they are), what the limits and the token budget left out, and what validation
// removed. Order is fixed so the same request gives the same list.
import type { HiddenTotals } from "../ports";
import type { ContextBuild } from "./context";
import type { PolicySummary } from "./policy-filter";
import type { ThreadNotes } from "./thread";
import type { ValidationReport } from "./validate";
import type { UnknownDetail, UnknownKind } from "./types";

/**
 * What the answer says was hidden (lib/ports.ts HiddenCountMode): the case-level totals, the same whatever the
 * question (default), or this question's exact counts (a tenant's choice).
 */
export type HiddenReport = { mode: "case"; totals: HiddenTotals } | { mode: "exact"; policy: PolicySummary };

export interface UnknownsInput {
  model?: string[];
  hidden: HiddenReport;
  context?: ContextBuild;
  validation?: ValidationReport;
  maxSnippets?: number;
  maxNodes?: number;
  maxEdges?: number;
  /** A follow-up's thread: what the conversation bound left out, what earlier turns cited that is hidden now. */
  thread?: ThreadNotes;
  /** Cited items part of whose text read as instructions to an automated reader and was withheld from the model. */
  withheldInstructions?: string[];
}

const plural = (n: number, one: string, many = one + "s") => `${n} ${n === 1 ? one : many}`;

/** The unknowns as plain sentences (seed 002 `unknowns`): the texts of composeUnknownDetails, in the same order. */
export function composeUnknowns(input: UnknownsInput): string[] {
  return composeUnknownDetails(input).map((u) => u.text);
}

/**
 * The unknowns with a machine-readable kind (for UIs that group them): the model's own gaps are `not_in_evidence`,
 * policy counts `hidden_by_policy` (with the counts, never what was hidden), narrowing and caps
 * `left_out_of_context`, and what validation took out of the answer `removed_by_validation`.
 */
export function composeUnknownDetails(input: UnknownsInput): UnknownDetail[] {
  const out: UnknownDetail[] = [];
  const add = (kind: UnknownKind, text: string, counts?: UnknownDetail["counts"]) => {
    if (!out.some((u) => u.text === text)) out.push(counts ? { kind, text, counts } : { kind, text });
  };
  for (const text of input.model ?? []) add("not_in_evidence", text);

  const h = input.hidden;
  if (h.mode === "exact") {
    const p = h.policy;
    if (p.evidence.filtered) {
      add(
        "hidden_by_policy",
        `${plural(p.evidence.filtered, "evidence item")} ${p.evidence.filtered === 1 ? "was" : "were"} not visible due to policy restrictions.`,
        { evidence: p.evidence.filtered },
      );
    }
    const graphHidden = [
      p.nodes.filtered ? plural(p.nodes.filtered, "graph node") : "",
      p.edges.filtered ? plural(p.edges.filtered, "relationship") : "",
    ].filter(Boolean);
    if (graphHidden.length) {
      const n = p.nodes.filtered + p.edges.filtered;
      add(
        "hidden_by_policy",
        `${graphHidden.join(" and ")} related to the question ${n === 1 ? "was" : "were"} not visible due to policy restrictions.`,
        { nodes: p.nodes.filtered, edges: p.edges.filtered },
      );
    }
  } else {
    // Case totals: whatever the question asks, the same sentence for the same user and case.
    const t = h.totals;
    if (t.evidence) {
      add(
        "hidden_by_policy",
        `${plural(t.evidence, "evidence item")} in this case ${t.evidence === 1 ? "is" : "are"} outside your permissions; no answer can draw on ${t.evidence === 1 ? "it" : "them"}.`,
        { evidence: t.evidence },
      );
    }
    const graphHidden = [t.nodes ? plural(t.nodes, "graph node") : "", t.edges ? plural(t.edges, "relationship") : ""].filter(Boolean);
    if (graphHidden.length) {
      add(
        "hidden_by_policy",
        `${graphHidden.join(" and ")} in this case ${t.nodes + t.edges === 1 ? "is" : "are"} outside your permissions.`,
        { nodes: t.nodes, edges: t.edges },
      );
    }
  }

  const t = input.thread;
  if (t) {
    for (const r of t.ambiguous) {
      const all = [r.name, ...r.alternatives];
      add(
        "not_in_evidence",
        `In this follow-up "${r.phrase}" could mean ${all.slice(0, -1).join(", ")} or ${all[all.length - 1]} (turn ${r.turn}); it was read as ${r.name}.`,
      );
    }
    if (t.noLongerVisible) {
      add(
        "hidden_by_policy",
        `${plural(t.noLongerVisible, "item")} cited in earlier turns of this thread ${t.noLongerVisible === 1 ? "is" : "are"} no longer visible to you; nothing of ${t.noLongerVisible === 1 ? "it" : "them"} was used.`,
      );
    }
    if (t.leftOutByTurns) {
      add(
        "left_out_of_context",
        `Only the last ${plural(t.limits.maxTurns, "turn")} of this thread ${t.limits.maxTurns === 1 ? "was" : "were"} considered: ${plural(t.leftOutByTurns, "earlier turn")} ${t.leftOutByTurns === 1 ? "was" : "were"} left out.`,
      );
    }
    if (t.leftOutByBudget) {
      add(
        "left_out_of_context",
        `${plural(t.leftOutByBudget, "earlier turn")} of this thread did not fit the conversation budget of ${t.limits.tokenBudget.toLocaleString("en-US")} tokens and ${t.leftOutByBudget === 1 ? "was" : "were"} left out.`,
      );
    }
  }

  const c = input.context;
  if (c) {
    const l = c.leftOut;
    const narrowed: string[] = [];
    if (l.hopsReducedTo !== null) narrowed.push(`the graph was limited to ${plural(l.hopsReducedTo, "hop")} from the matched entities`);
    if (l.snippetsByBudget) narrowed.push(`${plural(l.snippetsByBudget, "lower-ranked evidence item")} left out`);
    const graphCut = l.nodesByBudget + l.edgesByBudget;
    if (graphCut)
      narrowed.push(
        `${[l.nodesByBudget ? plural(l.nodesByBudget, "graph node") : "", l.edgesByBudget ? plural(l.edgesByBudget, "relationship") : ""].filter(Boolean).join(" and ")} left out`,
      );
    if (narrowed.length) {
      add(
        "left_out_of_context",
        `To fit the context budget of ${c.budget.toLocaleString("en-US")} tokens the context was narrowed: ${narrowed.join("; ")}.`,
      );
    }
    if (l.snippetsByCap) {
      add(
        "left_out_of_context",
        `${plural(l.snippetsByCap, "further matching evidence item")} beyond the limit of ${input.maxSnippets ?? "?"} ${l.snippetsByCap === 1 ? "was" : "were"} not used.`,
      );
    }
    if (l.nodesByCap || l.edgesByCap) {
      const parts = [
        l.nodesByCap ? plural(l.nodesByCap, "graph node") : "",
        l.edgesByCap ? plural(l.edgesByCap, "relationship") : "",
      ].filter(Boolean);
      add(
        "left_out_of_context",
        `${parts.join(" and ")} beyond the context limits (${input.maxNodes ?? "?"} nodes, ${input.maxEdges ?? "?"} relationships) ${l.nodesByCap + l.edgesByCap === 1 ? "was" : "were"} not used.`,
      );
    }
    if (c.excerpts) {
      add(
        "left_out_of_context",
        `${plural(c.excerpts, "long evidence item")} ${c.excerpts === 1 ? "was" : "were"} shown to the model as an excerpt of the most relevant sentences.`,
      );
    }
  }

  const w = input.withheldInstructions ?? [];
  if (w.length) {
    const one = w.length === 1;
    const ids = one ? w[0] : `${w.slice(0, -1).join(", ")} and ${w[w.length - 1]}`;
    add(
      "left_out_of_context",
      `${one ? "Part" : "Parts"} of ${ids} ${one ? "reads" : "read"} as instructions to an automated reader; ${one ? "it was" : "they were"} withheld from the model and nothing in this answer repeats ${one ? "it" : "them"}. Open the ${one ? "item" : "items"} to read ${one ? "it" : "them"} as evidence.`,
    );
  }

  const v = input.validation;
  if (v) {
    if (v.invalidCitationCount) {
      add(
        "removed_by_validation",
        `${plural(v.invalidCitationCount, "citation")} to items the model was not shown ${v.invalidCitationCount === 1 ? "was" : "were"} removed.`,
      );
    }
    const removed = v.droppedUncitedClaims + v.droppedInventedReferences;
    if (removed)
      add(
        "removed_by_validation",
        `${plural(removed, "statement")} without a valid citation ${removed === 1 ? "was" : "were"} removed from the answer.`,
      );
    if (v.droppedUnsupportedClaims) {
      const why = v.unsupportedReasons.length ? ` (${[...new Set(v.unsupportedReasons)].join("; ")})` : "";
      add(
        "removed_by_validation",
        `${plural(v.droppedUnsupportedClaims, "statement")} ${v.droppedUnsupportedClaims === 1 ? "was" : "were"} removed because the evidence cited does not support ${v.droppedUnsupportedClaims === 1 ? "it" : "them"}${why}.`,
      );
    }
    if (v.droppedDirectives) {
      add(
        "removed_by_validation",
        `${plural(v.droppedDirectives, "statement")} repeating an instruction found in evidence ${v.droppedDirectives === 1 ? "was" : "were"} removed; instructions in evidence are never answers.`,
      );
    }
    if (v.removedLinks) {
      add(
        "removed_by_validation",
        `${plural(v.removedLinks, "image, link or address", "images, links or addresses")} the evidence does not hold ${v.removedLinks === 1 ? "was" : "were"} removed from the model's text.`,
      );
    }
    if (v.droppedUnsupportedSteps) {
      add(
        "removed_by_validation",
        `${plural(v.droppedUnsupportedSteps, "explanation step")} not supported by what ${v.droppedUnsupportedSteps === 1 ? "it cites was" : "they cite were"} removed.`,
      );
    }
    if (v.droppedActionStatements) {
      add(
        "removed_by_validation",
        `${plural(v.droppedActionStatements, "statement")} that took or recommended actions ${v.droppedActionStatements === 1 ? "was" : "were"} removed.`,
      );
    }
    if (v.shortened) add("removed_by_validation", "The answer was shortened to the 10,000-character limit.");
  }
  return out;
}
