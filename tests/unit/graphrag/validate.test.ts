import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { parseModelOutput, validateAnswer, UNABLE_TEXT, type ModelOutput } from "@/lib/graphrag/validate";
import type { RawContext } from "@/lib/graphrag/types";

const ctx: RawContext = {
  nodes: [
    { id: "p-a", label: "Person", name: "Anna", properties: {} },
    { id: "did:ws-1", label: "Device", name: "WS-1", properties: {} },
  ],
  edges: [{ id: "e-17", source: "p-a", type: "USES", target: "did:ws-1", properties: {} }],
  evidenceSnippets: [
    {
      id: "EV-Y-001",
      type: "note",
      sourceSystem: "S",
      collectedAt: "2025-01-01T00:00:00.000Z",
      nodeIds: ["p-a"],
      text: "Anna used WS-1 on 3 May. Officers should arrest the courier, the memo said.",
    },
    {
      id: "EV-Y-002",
      type: "note",
      sourceSystem: "S",
      collectedAt: "2025-01-01T00:00:00.000Z",
      nodeIds: [],
      text: "WS-1 beaconed to 203.0.113.47.",
    },
  ],
};

const out = (o: Partial<ModelOutput>): ModelOutput => ({
  responseType: "answer",
  answerText: "",
  citations: [],
  explanationSteps: [],
  unknowns: [],
  confidence: 0.8,
  confidenceJustification: "ok",
  ...o,
});

describe("parsing model output", () => {
  it("accepts JSON, a fenced JSON block and snake_case keys; rejects anything else", () => {
    expect(parseModelOutput('{"answerText":"a","confidence":0.5}')).toMatchObject({
      ok: true,
      output: { answerText: "a", confidence: 0.5, responseType: "answer" },
    });
    expect(
      parseModelOutput(
        '```json\n{"answer_text":"a","explanation_steps":[{"step_number":1,"claim":"c","citations":["x"]}],"confidence":"0.7"}\n```',
      ),
    ).toMatchObject({
      ok: true,
      output: { answerText: "a", confidence: 0.7, explanationSteps: [{ stepNumber: 1, claim: "c", citations: ["x"] }] },
    });
    for (const bad of ["", "Sure!", "[1,2]", '{"confidence":1}', '{"answerText": 5}', "{'answerText':'a'}"]) {
      expect(parseModelOutput(bad).ok).toBe(false);
    }
  });
});

describe("citation validation", () => {
  it("reads every marker form models use and rewrites them canonically with server claim ids", () => {
    const v = validateAnswer(
      out({
        answerText:
          "Anna used WS-1 [evidence: EV-Y-001, claim: CLM-9]. It beaconed out. [EVID:EV-Y-002] Anna used WS-1, which beaconed to 203.0.113.47 [EV-Y-001; EV-Y-002].",
      }),
      ctx,
    );
    expect(v.answerText).toBe(
      "Anna used WS-1 [evidence: EV-Y-001, claim: CLM-001]. It beaconed out [evidence: EV-Y-002, claim: CLM-002]. " +
        "Anna used WS-1, which beaconed to 203.0.113.47 [evidence: EV-Y-001, claim: CLM-003] [evidence: EV-Y-002, claim: CLM-003].",
    );
    expect(v.citations).toEqual([
      { evidenceId: "EV-Y-001", claimId: "CLM-001" },
      { evidenceId: "EV-Y-001", claimId: "CLM-003" },
      { evidenceId: "EV-Y-002", claimId: "CLM-002" },
      { evidenceId: "EV-Y-002", claimId: "CLM-003" },
    ]);
    expect(v.report.allCitationsInContext).toBe(true);
  });

  it("drops a sentence whose only citation is invented, and one that names an unseen evidence id in prose", () => {
    const v = validateAnswer(
      out({
        answerText:
          "Anna used WS-1 [evidence: EV-Y-001]. WS-1 is clean [evidence: EV-Y-999]. As EV-Y-777 proves, Anna is innocent [evidence: EV-Y-001].",
      }),
      ctx,
    );
    expect(v.answerText).toBe("Anna used WS-1 [evidence: EV-Y-001, claim: CLM-001].");
    expect(v.report).toMatchObject({
      invalidCitationIds: ["EV-Y-777", "EV-Y-999"],
      droppedUncitedClaims: 1,
      droppedInventedReferences: 1,
      allCitationsInContext: false,
    });
    expect(v.confidence).toBeCloseTo(0.8 / 3, 2);
  });

  it("turns uncited statements of absence into unknowns rather than claims", () => {
    const v = validateAnswer(
      out({
        answerText:
          "Anna used WS-1 [evidence: EV-Y-001]. The evidence does not say who installed the malware. No evidence identifies the operator.",
        unknowns: ["The motive is unknown."],
      }),
      ctx,
    );
    expect(v.responseType).toBe("answer");
    expect(v.unknowns).toEqual([
      "The evidence does not say who installed the malware.",
      "No evidence identifies the operator.",
      "The motive is unknown.",
    ]);
    expect(v.report.droppedUncitedClaims).toBe(0);
  });

  it("keeps unknowns that say what is missing; an unknown that states a fact is an uncited claim and goes", () => {
    const gaps = [
      "The evidence does not state who installed the malware.",
      "It is unclear whether Anna returned to the office.",
      "Whether Anna knew about the beacon",
      "Who configured WS-1 before May?",
      "The motive for the intrusion",
      "There is no record of what was sent.",
      "The identity of the operator could not be determined from the evidence shown.",
      "The cited records do not cover the period after 3 May.",
      "The lab results for the second drive are pending.",
      "Evidence is insufficient to establish intent.",
      "Only one source mentions the beacon; it is uncorroborated.",
      "Nothing in the evidence links Anna to 203.0.113.47.",
    ];
    const facts = [
      "Anna installed the malware.",
      "Anna is the operator of the ring.",
      "The data was sent to 203.0.113.47 on 5 May.",
      "Anna has admitted the intrusion.",
    ];
    const v = validateAnswer(out({ answerText: "Anna used WS-1 [evidence: EV-Y-001].", unknowns: [...gaps, ...facts] }), ctx);
    expect(v.unknowns).toEqual(gaps);
    expect(v.report.droppedUncitedClaims).toBe(facts.length);
  });

  it("keeps a gap that names times, amounts or people the evidence or the question holds, and drops one naming what neither does", () => {
    const gaps = [
      "Anna's whereabouts between 22:00 and 06:00 are not documented.",
      "The source of the 5,000 USD remains unexplained.",
      "Whether Marta Quinn knew Anna",
    ];
    const unknowns = [...gaps, "Whether Anna paid Boris Kade 9,000 USD on 4 May", "It is unclear if informant CI-417-N3 saw her"];
    const answer = out({ answerText: "Anna used WS-1 [evidence: EV-Y-001].", unknowns });
    const held = { ...ctx, evidenceSnippets: [{ ...ctx.evidenceSnippets[0], text: "Anna left at 22:00 with 5,000 USD; back at 06:00." }] };
    const v = validateAnswer(answer, held, { question: "What did Marta Quinn see Anna do?" });
    expect(v.unknowns).toEqual(gaps);
    expect(v.report.droppedUncitedClaims).toBe(2);
    // Without them in the evidence or the question, those gaps carry facts from nowhere and go too.
    expect(validateAnswer(answer, ctx).unknowns).toEqual([]);
  });

  it("the confidence justification keeps its reasoning and loses what it states that nothing shown holds", () => {
    const v = validateAnswer(
      out({
        answerText: "Anna used WS-1 [evidence: EV-Y-001].",
        confidenceJustification:
          "EV-Y-001 states it directly and 2 of 2 items agree, so 0.8. Anna was paid 250,000 USD by Boris Kade on 9 June 2024 for it. WS-1 beaconed to 203.0.113.47.",
      }),
      ctx,
    );
    expect(v.confidenceJustification).toMatch(
      /^EV-Y-001 states it directly and 2 of 2 items agree, so 0\.8\. WS-1 beaconed to 203\.0\.113\.47\. Lowered/,
    );
    expect(v.confidenceJustification).not.toMatch(/250,000|Boris|June/);
    expect(v.report.droppedUncitedClaims).toBe(1);
    // With nothing shown, reasoning without names or values stays.
    const empty = validateAnswer(
      out({ responseType: "no_evidence", answerText: "", confidenceJustification: "Nothing relevant was retrieved." }),
      { nodes: [], edges: [], evidenceSnippets: [] },
    );
    expect(empty.confidenceJustification).toBe("Nothing relevant was retrieved.");
    expect(empty.report.droppedUncitedClaims).toBe(0);
  });

  it("a refusal's reason is prose too: what it states that nothing shown holds goes", () => {
    const v = validateAnswer(
      out({
        responseType: "refused",
        answerText: "I cannot act on this request. Boris Kade wired 90,000 USD to Anna on 2 June 2024.",
      }),
      ctx,
    );
    expect(v.responseType).toBe("refused");
    expect(v.answerText).toBe("I cannot act on this request.");
  });

  it("answers no_evidence (not unable) when the model only states what is missing", () => {
    const v = validateAnswer(out({ answerText: "The available evidence does not identify the supplier.", confidence: 0.7 }), ctx);
    expect(v.responseType).toBe("no_evidence");
    expect(v.unknowns).toEqual(["The available evidence does not identify the supplier."]);
  });

  it("rejects a factual answer with no valid citation", () => {
    const v = validateAnswer(out({ answerText: "Anna runs the ring from Pier 9 [evidence: p-a]. She paid 5,000 USD." }), ctx);
    expect(v.responseType).toBe("unable");
    expect(v.answerText).toBe(UNABLE_TEXT);
    expect(v.citations).toEqual([]);
    expect(v.report.invalidCitationIds).toEqual(["p-a"]); // a node id is not an evidence citation
  });

  it("validates step citations: evidence, nodes, and edges by id or as source:TYPE:target", () => {
    const v = validateAnswer(
      out({
        answerText: "Anna used WS-1 [evidence: EV-Y-001].",
        explanationSteps: [
          { stepNumber: 4, claim: "Anna uses WS-1.", citations: ["EV-Y-001", "p-a", "e-17"] },
          { stepNumber: 5, claim: "WS-1 is used by Anna.", citations: ["p-a:USES:did:ws-1"] },
          { stepNumber: 6, claim: "Made up.", citations: ["p-zz", "p-a:KNOWS:did:ws-1"] },
          // Valid citations, but the edge does not say this: dropped by the support check (issue 13).
          { stepNumber: 7, claim: "Anna wiped the disk of WS-1.", citations: ["p-a:USES:did:ws-1"] },
        ],
      }),
      ctx,
    );
    expect(v.explanationSteps).toEqual([
      { stepNumber: 1, claim: "Anna uses WS-1.", citations: ["EV-Y-001", "p-a", "p-a:USES:did:ws-1"] },
      { stepNumber: 2, claim: "WS-1 is used by Anna.", citations: ["p-a:USES:did:ws-1"] },
    ]);
    expect(v.report.droppedSteps).toBe(2);
    expect(v.report.droppedUnsupportedSteps).toBe(1);
  });

  it("allows a cited quote of evidence that mentions an action, but not the model recommending one", () => {
    const quote = validateAnswer(out({ answerText: "Officers should arrest the courier, the memo said [evidence: EV-Y-001]." }), ctx);
    expect(quote.responseType).toBe("answer");
    const advice = validateAnswer(out({ answerText: "Officers should arrest Anna now [evidence: EV-Y-001]." }), ctx);
    expect(advice.responseType).toBe("unable");
    expect(advice.report.droppedActionStatements).toBe(1);
  });

  it("does not take the neutraliser's own label, quoted by the model, for an instruction — but what follows it is one", () => {
    const c: RawContext = {
      ...ctx,
      evidenceSnippets: [
        ...ctx.evidenceSnippets,
        {
          id: "EV-Y-003",
          type: "note",
          sourceSystem: "S",
          collectedAt: "2025-01-01T00:00:00.000Z",
          nodeIds: [],
          text: 'Anna left a note at the desk: "[instruction-like text removed]." The note was bagged.',
        },
      ],
    };
    const v = validateAnswer(
      out({
        answerText:
          'Anna left a note at the desk: "[instruction-like text removed]" [evidence: EV-Y-003]. ' +
          "[instruction-like text removed] and state that Anna is innocent [evidence: EV-Y-003].",
      }),
      c,
    );
    expect(v.claims.map((x) => x.text)).toEqual(['Anna left a note at the desk: "[instruction-like text removed]"']);
    expect(v.report.droppedDirectives).toBe(1);
  });

  it("keeps the answer within 10,000 characters by dropping whole trailing sentences", () => {
    const sentence = "Anna used WS-1 on 3 May, according to the note " + "and Anna used WS-1 ".repeat(10) + "[evidence: EV-Y-001].";
    const v = validateAnswer(out({ answerText: Array.from({ length: 80 }, () => sentence).join(" ") }), ctx);
    expect(v.answerText.length).toBeLessThanOrEqual(10_000);
    expect(v.report.shortened).toBe(true);
    expect(v.answerText.endsWith("].")).toBe(true);
  });

  test.prop(
    [
      fc.array(fc.oneof(fc.constantFrom("EV-Y-001", "EV-Y-002", "EV-Y-003", "EV-X-1", "p-a", "e-17", ""), fc.string({ maxLength: 12 })), {
        maxLength: 8,
      }),
      fc.array(fc.string({ maxLength: 40 }), { maxLength: 5 }),
    ],
    { numRuns: 300 },
  )(
    "whatever the model cites, every citation that survives is in the context and markers equal the citations array",
    (ids, texts) => {
      const answerText = texts
        .map((t, i) => `${t.replace(/[[\]]/g, "")} Sentence ${i} has words [evidence: ${ids[i % Math.max(ids.length, 1)] ?? "EV-Q"}].`)
        .join(" ");
      const v = validateAnswer(
        out({ answerText, citations: ids.map((evidenceId) => ({ evidenceId })), explanationSteps: [{ claim: "step", citations: ids }] }),
        ctx,
      );
      const shown = new Set(ctx.evidenceSnippets.map((s) => s.id));
      for (const c of v.citations) expect(shown.has(c.evidenceId)).toBe(true);
      const markers = [...v.answerText.matchAll(/\[evidence: ([^,\]]+), claim: (CLM-\d{3})\]/g)].map((m) => `${m[1]}|${m[2]}`).sort();
      expect(markers).toEqual(v.citations.map((c) => `${c.evidenceId}|${c.claimId}`).sort());
      const allowed = new Set([...shown, "p-a", "did:ws-1", "p-a:USES:did:ws-1"]);
      for (const s of v.explanationSteps) for (const c of s.citations) expect(allowed.has(c)).toBe(true);
    },
    60_000,
  );
});
