import { describe, expect, it } from "vitest";
import { SupportChecker } from "@/lib/graphrag/ground";
import { misquoted } from "@/lib/graphrag/quotes";
import type { RawContext } from "@/lib/graphrag/types";

// A quotation is the source's own words: word overlap would pass a confession no one made.
const TEXT = [
  "Interview of Dmitri Kovac, 8 May 2025.",
  "REYES: Did you kill Raymond Dunn?",
  "KOVAC: No.",
  "DELANEY: I'm done talking. I want a lawyer.",
  "Note: the van was 'clean', per the driver's log. He called it “the fish run”.",
].join("\n");
const ctx: RawContext = {
  nodes: [{ id: "p-kovac", label: "Person", name: "Dmitri Kovac", properties: {} }],
  edges: [],
  evidenceSnippets: [
    { id: "EV-1", type: "interview", sourceSystem: "S", collectedAt: "2025-05-08T00:00:00.000Z", nodeIds: [], text: TEXT },
  ],
};
const check = (claim: string) => new SupportChecker(ctx).claim(claim, ["EV-1"]);

describe("quotations", () => {
  it.each([
    ["Kovac said 'I killed him'", "I killed him"],
    ['Kovac told Reyes: "I killed Raymond Dunn"', "I killed Raymond Dunn"],
    ["He called it 'the drug run'", "the drug run"],
    ["Delaney said “I'm done talking … I want a solicitor”", "I'm done talking … I want a solicitor"],
  ])("unsupported: %s", (claim, span) => {
    const v = check(claim);
    expect(v.support).toBe("unsupported");
    expect(v.reasons).toContain(`quotation "${span}" not in EV-1`);
  });

  it.each([
    'Delaney said "I\'m done talking"',
    "Delaney said: 'I'm done talking... I want a lawyer.'",
    "The van was 'clean' per the driver's log",
    "He called it “the fish run”",
    "Kovac's answer was 'No'",
    // Apostrophes are not quotation marks.
    "The drivers' log says the van was clean",
  ])("word for word, case and punctuation aside: %s", (claim) => {
    expect(misquoted(claim, [TEXT])).toBeNull();
    expect(check(claim).reasons.join(" ")).not.toMatch(/quotation/);
  });
});
