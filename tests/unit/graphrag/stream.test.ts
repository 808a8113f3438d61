import { simulateReadableStream } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { AiSdkAnswerModel } from "@/lib/adapters/model/ai-sdk";
import { answerQuestion } from "@/lib/graphrag/answer";
import { answerEventStream, answerPieces, collectEvents, type AnswerEvent } from "@/lib/graphrag/stream";
import { VIEWER, answerJson, harness, mockLlm } from "./fakes";

const Q = { caseId: "case-t", question: "What did Anna Berg and Boris Kade do at Dock 7?" };
const stages = (events: AnswerEvent[]) => [
  ...new Set(events.filter((e) => e.type === "progress").map((e) => (e as { stage: string }).stage)),
];

describe("streaming answers", () => {
  it("reports progress, then streams exactly the validated claims, then the result", async () => {
    const h = harness();
    const events = await collectEvents(answerEventStream((o) => answerQuestion(h.deps, VIEWER, Q, o)));
    expect(stages(events)).toEqual(["retrieving", "filtering", "asking_model", "validating"]);
    const done = events.at(-1)!;
    expect(done.type).toBe("done");
    if (done.type !== "done" || !done.outcome.ok) throw new Error("expected an answer");
    const pieces = events.filter((e) => e.type === "piece").map((e) => (e as { text: string }).text);
    expect(pieces.length).toBeGreaterThan(0);
    expect(pieces.join(" ")).toBe(done.outcome.body.answer.answerText);
    for (const p of pieces) expect(p).toMatch(/\[evidence: [^\]]+, claim: CLM-\d{3}\][.!?]/);
    // Pieces come after validation (and the ledger write), never before.
    const firstPiece = events.findIndex((e) => e.type === "piece");
    expect(events.findIndex((e) => e.type === "progress" && e.stage === "validating")).toBeLessThan(firstPiece);
    expect(h.ledger.entries).toHaveLength(1);
  });

  it("streams nothing of an answer that validation rejects or whose audit fails", async () => {
    const bad = mockLlm("nope", "still nope");
    const h1 = harness(bad.model);
    const e1 = await collectEvents(answerEventStream((o) => answerQuestion(h1.deps, VIEWER, Q, o)));
    expect(e1.filter((e) => e.type === "piece")).toEqual([]);
    expect(e1.at(-1)).toMatchObject({ type: "done", outcome: { ok: false, body: { error: { code: "CG-MODEL-002" } } } });

    const uncited = mockLlm(answerJson({ answerText: "Anna Berg smuggled heroin through Dock 7." }));
    const h2 = harness(uncited.model);
    const e2 = await collectEvents(answerEventStream((o) => answerQuestion(h2.deps, VIEWER, Q, o)));
    expect(e2.filter((e) => e.type === "piece").map((e) => (e as { text: string }).text)).toEqual([
      "Unable to generate citation-backed answer",
    ]);
    expect(JSON.stringify(e2)).not.toContain("heroin");

    const h3 = harness();
    h3.ledger.failNext = 1;
    const e3 = await collectEvents(answerEventStream((o) => answerQuestion(h3.deps, VIEWER, Q, o)));
    expect(e3.filter((e) => e.type === "piece")).toEqual([]);
    expect(e3.at(-1)).toMatchObject({ type: "done", outcome: { ok: false, body: { error: { code: "CG-AUDIT-001" } } } });
    expect(JSON.stringify(e3)).not.toMatch(/Anna|Boris|EV-/);
  });

  it("uses the model's stream (AI SDK streamText) and reports output progress as counts only", async () => {
    const json = JSON.stringify(
      answerJson({
        answerText:
          "Anna Berg met Boris Kade at Dock 7 [evidence: EV-1]. " + "They exchanged a small package [evidence: EV-1]. ".repeat(12),
      }),
    );
    const chunks = json.match(/.{1,40}/gs)!;
    const mock = new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream({
          chunks: [
            { type: "text-start" as const, id: "t" },
            ...chunks.map((delta) => ({ type: "text-delta" as const, id: "t", delta })),
            { type: "text-end" as const, id: "t" },
            {
              type: "finish" as const,
              finishReason: { unified: "stop" as const, raw: "stop" },
              usage: {
                inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
                outputTokens: { total: 1, text: 1, reasoning: undefined },
              },
            },
          ],
        }),
      }),
    });
    const h = harness(new AiSdkAnswerModel(mock, { provider: "mock", modelId: "stream", timeoutMs: 5_000 }));
    const events = await collectEvents(answerEventStream((o) => answerQuestion(h.deps, VIEWER, Q, o)));
    expect(mock.doStreamCalls).toHaveLength(1);
    const output = events.filter((e) => e.type === "progress" && e.detail?.outputChars !== undefined);
    expect(output.length).toBeGreaterThan(0);
    for (const e of output) expect(Object.keys((e as { detail: object }).detail)).toEqual(["outputChars"]);
    const done = events.at(-1)!;
    expect(done).toMatchObject({ type: "done", outcome: { ok: true } });
  });

  it("splits only well-formed answers into pieces", () => {
    expect(answerPieces({ responseType: "refused", answerText: "Refused: no." })).toEqual(["Refused: no."]);
    expect(
      answerPieces({
        responseType: "answer",
        answerText: "A b [evidence: E-1, claim: CLM-001]. C d [evidence: E-2, claim: CLM-002] [evidence: E-3, claim: CLM-002].",
      }),
    ).toEqual(["A b [evidence: E-1, claim: CLM-001].", "C d [evidence: E-2, claim: CLM-002] [evidence: E-3, claim: CLM-002]."]);
  });
});
