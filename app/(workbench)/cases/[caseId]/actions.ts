"use server";
// Server actions for the case workbench: authorize (guard) → validate (zod) → the answer pipeline → result.
// `ask` returns the same body as POST /api/graphrag/answer; `askStream` returns a stream of progress events and the
// validated answer's pieces (never more than validation keeps), ending with the full result.
import { z } from "zod";
import { authedAction } from "@/lib/auth/guard";
import { errorOfBody } from "@/lib/domain/failure-codes";
import { answerEventStream } from "@/lib/graphrag/stream";
import { recordRefusedQuestion } from "@/lib/server/answers/graphrag";
import { askWithSuggestions } from "@/lib/server/playbooks/next-steps";

// Shape only: length, characters and limits are the pipeline's step 1, so rejected questions are audited too.
const askInput = z.object({
  caseId: z.string().max(1_000),
  question: z.string().max(100_000),
  maxNodes: z.number().int().optional(),
  maxSnippets: z.number().int().optional(),
  hops: z.number().int().optional(),
  /** A request for next steps asked after an answer: that answer's text and cited evidence (lib/playbooks/suggest.ts checks them). */
  followUp: z
    .object({ answerText: z.string().max(20_000).optional(), evidenceIds: z.array(z.string().max(200)).max(50).optional() })
    .optional(),
  /** The thread this question continues (issue 18); absent or null: a new thread. */
  threadId: z.string().max(1_000).nullish(),
});

export const ask = authedAction(
  { roles: ["investigator", "supervisor"], input: askInput, onRefused: recordRefusedQuestion },
  async (actor, input) => {
    const outcome = await askWithSuggestions(actor, input);
    if (!outcome.ok) throw errorOfBody(outcome.body.error);
    return outcome.body;
  },
);

export const askStream = authedAction(
  { roles: ["investigator", "supervisor"], input: askInput, onRefused: recordRefusedQuestion },
  async (actor, input) => answerEventStream((options) => askWithSuggestions(actor, input, options)),
);
