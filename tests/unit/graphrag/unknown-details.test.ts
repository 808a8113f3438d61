// unknownDetails: the same sentences as `unknowns`, in the same order, each with a kind a UI can group by; policy
// entries carry counts only.
import { describe, expect, it } from "vitest";
import { emptyCounts } from "@/lib/domain/policy";
import type { ContextBuild } from "@/lib/graphrag/context";
import type { PolicySummary } from "@/lib/graphrag/policy-filter";
import { composeUnknownDetails, composeUnknowns } from "@/lib/graphrag/unknowns";

function policy(evidence: number, nodes: number, edges: number): PolicySummary {
  const c = (n: number) => ({ ...emptyCounts(), filtered: n, byReason: { ...emptyCounts().byReason, classification: n } });
  return { evidence: c(evidence), nodes: c(nodes), edges: c(edges), allowed: 0, filtered: evidence + nodes + edges };
}

const context = {
  rawContext: { nodes: [], edges: [], evidenceSnippets: [] },
  estimatedTokens: 0,
  budget: 16_000,
  leftOut: { snippetsByCap: 3, nodesByCap: 0, edgesByCap: 0, snippetsByBudget: 1, nodesByBudget: 0, edgesByBudget: 0, hopsReducedTo: null },
  excerpts: 0,
  neutralisedSnippets: 0,
  directives: [],
} satisfies ContextBuild;

describe("composeUnknownDetails", () => {
  const input = {
    model: ["The motive is not documented.", "The motive is not documented."],
    hidden: { mode: "exact" as const, policy: policy(4, 2, 3) },
    context,
    validation: {
      invalidCitationCount: 1,
      droppedUncitedClaims: 0,
      droppedInventedReferences: 0,
      droppedActionStatements: 0,
      shortened: false,
    } as never,
    maxSnippets: 20,
  };

  it("gives each unknown a kind, in the order and with the texts of composeUnknowns", () => {
    const details = composeUnknownDetails(input);
    expect(details.map((d) => d.text)).toEqual(composeUnknowns(input));
    expect(details.map((d) => d.kind)).toEqual([
      "not_in_evidence",
      "hidden_by_policy",
      "hidden_by_policy",
      "left_out_of_context",
      "left_out_of_context",
      "removed_by_validation",
    ]);
  });

  it("puts counts, and only counts, on the policy entries", () => {
    const hidden = composeUnknownDetails(input).filter((d) => d.kind === "hidden_by_policy");
    expect(hidden.map((d) => d.counts)).toEqual([{ evidence: 4 }, { nodes: 2, edges: 3 }]);
    expect(
      composeUnknownDetails(input)
        .filter((d) => d.kind !== "hidden_by_policy")
        .every((d) => d.counts === undefined),
    ).toBe(true);
  });

  it("names the cited items part of whose text was withheld as instructions", () => {
    const hidden = { mode: "exact" as const, policy: policy(0, 0, 0) };
    expect(composeUnknowns({ hidden, withheldInstructions: ["EV-6"] })).toEqual([
      "Part of EV-6 reads as instructions to an automated reader; it was withheld from the model and nothing in this answer repeats it. Open the item to read it as evidence.",
    ]);
    expect(composeUnknownDetails({ hidden, withheldInstructions: ["EV-2", "EV-6", "EV-9"] })).toEqual([
      {
        kind: "left_out_of_context",
        text: "Parts of EV-2, EV-6 and EV-9 read as instructions to an automated reader; they were withheld from the model and nothing in this answer repeats them. Open the items to read them as evidence.",
      },
    ]);
    expect(composeUnknowns({ hidden, withheldInstructions: [] })).toEqual([]);
  });

  it("is empty when nothing is unknown", () => {
    expect(composeUnknownDetails({ hidden: { mode: "exact", policy: policy(0, 0, 0) } })).toEqual([]);
  });
});
