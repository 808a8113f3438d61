// The streaming variant: progress events (retrieving, filtering, asking the model, validating) while the pipeline
// runs, then the validated answer in pieces, then the full result. What is streamed is never more than validation
// keeps: answer text is held back until it has been validated AND its ledger entry written, and the pieces are
// exactly the claims of the final answer (their concatenation is answer.answerText).
import type { AnswerOptions } from "./answer";
import type { Answer, AnswerOutcome, Stage } from "./types";

export type AnswerEvent =
  | { type: "progress"; stage: Stage; detail?: Record<string, number> }
  | { type: "piece"; index: number; text: string }
  | { type: "done"; outcome: AnswerOutcome };

/** Splits a validated answer into its claims: each ends after its citation markers and full stop. */
export function answerPieces(answer: Pick<Answer, "answerText" | "responseType">): string[] {
  if (answer.responseType !== "answer") return answer.answerText ? [answer.answerText] : [];
  const pieces = answer.answerText.match(/.*?\[evidence: [^\]]+\](?: \[evidence: [^\]]+\])*[.!?]+["'”’)]*(?= |$)/gsu) ?? [];
  const joined = pieces.map((p) => p.trim()).join(" ");
  return joined === answer.answerText ? pieces.map((p) => p.trim()) : [answer.answerText];
}

/** Runs `run` (the pipeline bound to an asker and a question) and reports it as a stream of events. */
export function answerEventStream(run: (options: AnswerOptions) => Promise<AnswerOutcome>): ReadableStream<AnswerEvent> {
  let lastChars = 0;
  return new ReadableStream<AnswerEvent>({
    async start(controller) {
      let outcome: AnswerOutcome;
      try {
        outcome = await run({
          onProgress: (e) => {
            // Output progress arrives per token; report it at most every 256 characters.
            const chars = e.detail?.outputChars;
            if (chars !== undefined) {
              if (chars - lastChars < 256) return;
              lastChars = chars;
            }
            controller.enqueue({ type: "progress", stage: e.stage, ...(e.detail ? { detail: e.detail } : {}) });
          },
        });
      } catch {
        // The pipeline reports failures as outcomes; a throw here is a bug, reported without internals.
        outcome = {
          ok: false,
          status: 500,
          body: {
            error: { code: "CG-SYS-002", message: "Internal error." },
            requestId: "",
            timestamp: new Date().toISOString(),
            auditId: null,
          },
        };
      }
      if (outcome.ok) {
        answerPieces(outcome.body.answer).forEach((text, index) => controller.enqueue({ type: "piece", index, text }));
      }
      controller.enqueue({ type: "done", outcome });
      controller.close();
    },
  });
}

export async function collectEvents(stream: ReadableStream<AnswerEvent>): Promise<AnswerEvent[]> {
  const out: AnswerEvent[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(value);
  }
}
