// Who is it told of (actors.ts, through SupportChecker): a claim that puts what an item tells of one person on another
// person the same item names elsewhere is removed, though every word, name and figure of it is in the item. What the
// item tells of the claim's party in a later sentence ("He …"), of a group ("The three …"), in a field record, or of
// a surname two people share, stands.
import { describe, expect, it } from "vitest";
import { SupportChecker } from "@/lib/graphrag/ground";
import type { RawContext } from "@/lib/graphrag/types";

const snippet = (id: string, text: string, nodeIds: string[]) => ({
  id,
  type: "surveillance_note",
  sourceSystem: "RMS",
  collectedAt: "2025-03-16T10:00:00.000Z",
  nodeIds,
  text,
});
const person = (id: string, name: string) => ({ id, label: "Person", name, properties: {} });

const ctx: RawContext = {
  nodes: [
    person("p-marchetti", "Victor Marchetti"),
    person("p-kovac", "Dmitri Kovac"),
    person("p-delaney", "Frank Delaney"),
    person("p-voss", "Helen Voss"),
    person("p-ortega", "Luis Ortega"),
    person("p-rdunn", "Raymond Dunn"),
    person("p-ldunn", "Lydia Dunn"),
    { id: "org-bayline", label: "Organization", name: "Bayline Seafood Co.", properties: {} },
    { id: "org-kings", label: "Organization", name: "Harbor Kings", properties: {} },
    person("p-wrona", "Tomasz Wrona"),
    person("p-fennimore", "Ryan Fennimore"),
    person("p-sobczak", "Marek Sobczak"),
    person("p-pruitt", "Connor Pruitt"),
    { id: "org-northgate", label: "Organization", name: "Northgate Mutual Insurance", properties: {} },
  ],
  edges: [],
  evidenceSnippets: [
    snippet(
      "EV-1",
      "Surveillance log, 15 Mar 2025. 20:12 Victor Marchetti enters the Anchor Tavern. 20:19 Dmitri Kovac enters. " +
        "20:31 Frank Delaney arrives on foot in a hi-vis jacket. The three sit at the rear booth. 21:46 Delaney leaves " +
        "first, carrying a folded brown envelope. He walks north towards the harbour gate. 21:58 Marchetti and Kovac leave together.",
      ["p-marchetti", "p-kovac", "p-delaney"],
    ),
    snippet(
      "EV-2",
      "State business registry extract. Bayline Seafood Co., corporation no. 2011-0193377. President and director: " +
        "Victor Marchetti. Secretary: Helen Voss. Business: seafood import and wholesale.",
      ["org-bayline", "p-marchetti", "p-voss"],
    ),
    snippet(
      "EV-3",
      "Surveillance log, 11 Apr 2025. 22:41 a white Ford Transit parks in Lot 17. Dmitri Kovac gets into the van's " +
        "passenger seat. 22:50 Kovac returns to his Tahoe and leaves. Luis Ortega stays in the van until 23:05.",
      ["p-kovac", "p-ortega"],
    ),
    snippet(
      "EV-5",
      "Interview of the bartender. The older one is Mr. Marchetti, he owns Bayline Seafood. The third was Frank Delaney from the docks.",
      ["p-marchetti", "p-delaney", "org-bayline"],
    ),
    snippet(
      "EV-6",
      "Lot 17, 02:10. Kovac met a man by the container while Delaney watched from the gate. Police later identified the man as Luis Ortega.",
      ["p-kovac", "p-delaney", "p-ortega"],
    ),
    snippet(
      "EV-7",
      "Subpoena return, First Harbor Bank. Bayline Seafood Co. account ...2207 sent 14 transfers totalling $286,500 to Quayside Laundromat.",
      ["org-bayline"],
    ),
    snippet(
      "EV-8",
      "Tomasz Wrona is the league's integrity officer. Every player signs the league's integrity declaration each season, which prohibits betting on any match. Fennimore signed on 20/07/2024.",
      ["p-wrona", "p-fennimore"],
    ),
    snippet(
      "EV-9",
      "We act for Connor Pruitt and require the return of the client files seized by Northgate Mutual Insurance within 7 days. Yours faithfully, M. Sobczak, Director.",
      ["p-sobczak", "p-pruitt", "org-northgate"],
    ),
    snippet("EV-4", "Neighbour statement. Mrs Dunn was seen at the quay at 05:40 carrying a red holdall.", ["p-rdunn", "p-ldunn"]),
  ],
};
const check = new SupportChecker(ctx);
const verdict = (claim: string, id: string) => check.claim(claim, [id]);

describe("what an item tells of one party, put on another", () => {
  // The passage also names a party of the claim, so the claim's party may be there unnamed: kept, for review.
  it.each([
    ["Frank Delaney owns Bayline Seafood", "EV-5", "Victor Marchetti", "Frank Delaney"],
    ["Kovac met Luis Ortega by the container", "EV-6", "Frank Delaney", "Luis Ortega"],
  ])("%s [%s] is partial: told of another beside one it names", (claim, id, told, said) => {
    const v = verdict(claim, id);
    expect(v.support).toBe("partial");
    expect(v.reasons).toContain(`in ${id} that is told of ${told}, not ${said}`);
  });

  it.each([
    ["Marchetti left first, carrying a folded brown envelope", "EV-1", "Frank Delaney", "Victor Marchetti"],
    ["Kovac arrived on foot in a hi-vis jacket", "EV-1", "Frank Delaney", "Dmitri Kovac"],
    ["Marchetti walked north towards the harbour gate", "EV-1", "Frank Delaney", "Victor Marchetti"],
    ["Helen Voss is the president and director of Bayline Seafood Co.", "EV-2", "Victor Marchetti", "Helen Voss"],
    ["Dmitri Kovac stayed in the van until 23:05", "EV-3", "Luis Ortega", "Dmitri Kovac"],
  ])("%s [%s] is unsupported: it is told of another", (claim, id, told, said) => {
    const v = verdict(claim, id);
    expect(v.support).toBe("unsupported");
    expect(v.reasons).toContain(`in ${id} that is told of ${told}, not ${said}`);
    // Safe to show where the claim is withheld: no name of it.
    expect(v.gaps).toContain(`told of another party in ${id}`);
  });

  it.each([
    // Told of the party in its own sentence, as the claim puts it.
    ["Delaney left first, carrying a folded brown envelope", "EV-1"],
    ["Victor Marchetti is the president and director of Bayline Seafood Co.", "EV-2"],
    ["Luis Ortega stayed in the van until 23:05", "EV-3"],
    // In the sentence after the one that names it, which names nobody.
    ["Delaney walked north towards the harbour gate", "EV-1"],
    // Of a group the party is one of.
    ["Marchetti sat at the rear booth", "EV-1"],
    // With another party the claim names itself.
    ["Kovac left together with Marchetti at 21:58", "EV-1"],
    // A name that only shares a word with a party's is not that party ("First Harbor Bank", the Harbor Kings).
    ["First Harbor Bank's records show 14 transfers totalling $286,500 to Quayside Laundromat", "EV-7"],
    // What is told of no one in particular (a rule for every player) may be of anyone.
    ["Fennimore signed the integrity declaration, which prohibits betting on any match", "EV-8"],
    // A letter is told by the one who signs it.
    ["M. Sobczak required the return of the client files within 7 days", "EV-9"],
    // A surname two people share may be either.
    ["Raymond Dunn was seen at the quay at 05:40 carrying a red holdall", "EV-4"],
  ])("%s [%s] is not reported", (claim, id) => {
    const v = verdict(claim, id);
    expect(v.reasons.join("; ")).not.toMatch(/told of/);
    expect(v.support, v.reasons.join("; ")).not.toBe("unsupported");
  });
});
