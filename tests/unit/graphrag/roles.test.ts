// Who did what to whom (roles.ts): a claim that puts two named parties the other way round around the same verb is
// caught even though every word of it is in its source; the passive, acts that go both ways, relationships named by a
// noun and sources that tell the act both ways are left alone.
import { describe, expect, it } from "vitest";
import { actsIn, reversedActs } from "@/lib/graphrag/roles";

const PARTIES = [
  ["frank", "delaney"],
  ["victor", "marchetti"],
];
const SOURCE = "Bank record, 3 May 2025. Frank Delaney paid Victor Marchetti USD 5,000 in cash at the Anchor Tavern.";
const reversed = (claim: string, sources = [SOURCE], parties = PARTIES) => reversedActs(claim, sources, parties).length > 0;

describe("who did what to whom", () => {
  it("reads the agent, the other party and the verb; the passive for what it says", () => {
    expect(actsIn(SOURCE, PARTIES)).toEqual([{ agent: 0, patient: 1, verb: "paid", word: "paid" }]);
    expect(actsIn("Victor Marchetti was paid USD 5,000 by Frank Delaney.", PARTIES)).toEqual([
      { agent: 0, patient: 1, verb: "paid", word: "paid" },
    ]);
  });

  it("catches the parties the other way round, active or passive", () => {
    expect(reversed("Victor Marchetti paid Frank Delaney USD 5,000 in cash")).toBe(true);
    expect(reversed("Frank Delaney was paid USD 5,000 by Victor Marchetti")).toBe(true);
    expect(reversed("Marchetti sent the money to Delaney", ["Delaney sent the money to Marchetti on 3 May."])).toBe(true);
  });

  it("reads past the first party's own words to the verb, and a company's suffix as part of its name", () => {
    const bank =
      "Bayline Seafood Co. operating account ...2207 sent 14 transfers totalling $286,500 to Quayside Laundromat LLC account ...8815.";
    const companies = [
      ["quayside", "laundromat"],
      ["bayline", "seafood"],
    ];
    expect(reversed("Quayside Laundromat sent 14 transfers totalling $286,500 to Bayline Seafood", [bank], companies)).toBe(true);
    expect(reversed("Bayline Seafood sent 14 transfers to Quayside Laundromat", [bank], companies)).toBe(false);
  });

  it("leaves the claim alone when it says what the source says", () => {
    expect(reversed("Frank Delaney paid Victor Marchetti USD 5,000")).toBe(false);
    expect(reversed("Victor Marchetti was paid USD 5,000 by Frank Delaney")).toBe(false);
  });

  it("reads a participle before 'by' as the passive without a copula, as a record or a relationship writes it", () => {
    const staff = [
      ["raymond", "dunn"],
      ["bayline", "seafood"],
    ];
    const edge = ["Raymond Dunn EMPLOYED BY Bayline Seafood Co."];
    expect(actsIn(edge[0], staff)).toEqual([{ agent: 1, patient: 0, verb: "emploi", word: "EMPLOYED" }]);
    expect(reversed("Dunn was employed as a driver by Bayline Seafood", edge, staff)).toBe(false);
    expect(reversed("Bayline Seafood employed Raymond Dunn as a driver", edge, staff)).toBe(false);
    expect(reversed("Raymond Dunn employed Bayline Seafood", edge, staff)).toBe(true);
  });

  it("does not compare acts that go both ways, relationships named by a noun, or parties joined as equals", () => {
    const met = ["Delaney met Marchetti at Pier 9 on 4 May."];
    expect(reversed("Marchetti met Delaney at Pier 9", met)).toBe(false);
    const associate = ["Frank Delaney is an associate of Victor Marchetti."];
    expect(reversed("Victor Marchetti is an associate of Frank Delaney", associate)).toBe(false);
    expect(reversed("Marchetti and Delaney paid the bar bill", ["Delaney and Marchetti paid the bar bill."])).toBe(false);
  });

  it("does not decide when the sources tell the act both ways, or never tell it", () => {
    const both = [SOURCE, "On 9 May Victor Marchetti paid Frank Delaney USD 1,000."];
    expect(reversed("Victor Marchetti paid Frank Delaney USD 1,000", both)).toBe(false);
    expect(reversed("Victor Marchetti called Frank Delaney")).toBe(false);
  });

  it("does not take a name two parties share for either of them", () => {
    const dunns = [
      ["raymond", "dunn"],
      ["lydia", "dunn"],
    ];
    expect(reversed("Lydia Dunn called Raymond Dunn", ["Raymond Dunn called Lydia Dunn at nine."], dunns)).toBe(true);
    expect(actsIn("Dunn called Dunn.", dunns)).toEqual([]);
  });
});
