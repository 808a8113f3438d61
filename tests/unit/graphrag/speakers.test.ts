import { describe, expect, it } from "vitest";
import { SupportChecker } from "@/lib/graphrag/ground";
import type { RawContext } from "@/lib/graphrag/types";

// Issue 13 §1: in a transcript every word a detective puts to a suspect is in the source; a claim that the suspect
// said or admitted it must not pass on word overlap.
const INTERVIEW = [
  "Interview of Dmitri Kovac, 8 May 2025. Interviewers: Det. Reyes and Lt. Park; counsel present.",
  "REYES: Where were you on the night of April 11th into the 12th?",
  "KOVAC: Home. 220 Cannery Row. All night.",
  "REYES: Your Tahoe went through Port Authority Gate C at 01:29.",
  "KOVAC: People borrow it.",
  "REYES: Did you kill Raymond Dunn?",
  "KOVAC: No.",
  "PARK: Your DNA is on the magazine of the Glock taken out of the water at Dry Dock 3.",
  "KOVAC: No comment.",
].join("\n");
const ctx: RawContext = {
  nodes: [{ id: "p-kovac", label: "Person", name: "Dmitri Kovac", properties: {} }],
  edges: [],
  evidenceSnippets: [
    { id: "EV-1", type: "interview", sourceSystem: "S", collectedAt: "2025-05-08T00:00:00.000Z", nodeIds: ["p-kovac"], text: INTERVIEW },
  ],
};
const check = (claim: string) => new SupportChecker(ctx).claim(claim, ["EV-1"]);

describe("who said it, in a transcript", () => {
  it.each([
    ["Kovac admitted his Tahoe went through Port Authority Gate C at 01:29", "REYES"],
    ["Dmitri Kovac said his DNA is on the magazine of the Glock", "PARK"],
    ["According to Kovac, his DNA is on the magazine of the Glock taken out of the water", "PARK"],
    ["Reyes said he was home at 220 Cannery Row all night", "KOVAC"],
  ])("unsupported: %s", (claim, by) => {
    const v = check(claim);
    expect(v.support).toBe("unsupported");
    expect(v.reasons.join(" ")).toContain(`it is ${by} who says it`);
  });

  it.each([
    "Kovac said people borrow his Tahoe",
    "In interview, Kovac told detectives he was home at 220 Cannery Row all night",
    // An answer verb reads the reply with the question it answers.
    "Kovac denied killing Raymond Dunn",
    // Said to him, not by him.
    "Reyes told Kovac his Tahoe went through Port Authority Gate C at 01:29",
    "Park told Kovac his DNA is on the magazine of the Glock taken out of the water",
  ])("not a wrong speaker: %s", (claim) => {
    expect(check(claim).reasons.join(" ")).not.toMatch(/who says it/);
  });

  it("in a Q/A statement, the questions are whoever took it and the answers whoever gave it, as its heading says", () => {
    const statement: RawContext = {
      ...ctx,
      evidenceSnippets: [
        {
          ...ctx.evidenceSnippets[0],
          text: [
            "Statement of Kiril Dimov, Third Engineer, 07 Mar 2025 11:00, taken by Agent Kwame Osei.",
            "Q: Have you seen a black flexible hose in the engine room?",
            "A: Yes, at the end of January. The Chief had the fitter make a flange for it in the workshop.",
          ].join("\n"),
        },
      ],
    };
    const c = new SupportChecker(statement);
    expect(c.claim("Osei said the Chief had the fitter make a flange for the hose in the workshop", ["EV-1"]).reasons.join(" ")).toContain(
      "it is KIRIL DIMOV who says it",
    );
    expect(c.claim("Dimov said the Chief had the fitter make a flange in the workshop", ["EV-1"]).reasons.join(" ")).not.toMatch(
      /who says it/,
    );
  });

  it("reads only labelled lines: prose that quotes someone is not a transcript", () => {
    const prose: RawContext = {
      ...ctx,
      evidenceSnippets: [
        { ...ctx.evidenceSnippets[0], text: "Reyes told Kovac that his Tahoe went through Gate C at 01:29. Kovac said people borrow it." },
      ],
    };
    const v = new SupportChecker(prose).claim("Kovac said his Tahoe went through Gate C at 01:29", ["EV-1"]);
    expect(v.reasons.join(" ")).not.toMatch(/who says it/);
  });
});
