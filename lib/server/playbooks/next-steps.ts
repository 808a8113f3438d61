// The next-steps step's wiring for this process (issue 16): the catalogue in the database, case access, the evidence
// store for what a reason may cite, the ledger, and the picker — the configured model, or the offline picker when the
// model is the offline one or the tenant's DISABLE_MODEL switch is on. POST /api/graphrag/next-steps, the server
// action, the CLI and answers to a request for next steps all go through `nextSteps`.
import "server-only";
import { env } from "../../env";
import { PrismaEvidenceStore } from "../../adapters/prisma/evidence-store";
import { PrismaKillSwitches } from "../../adapters/prisma/grounding";
import { PrismaPlaybookCatalogue } from "../../adapters/prisma/playbook-store";
import type { CasegraphError } from "../../domain/failure-codes";
import { classifyRequest } from "../../graphrag/input";
import type { AnswerOutcome, Asker } from "../../graphrag/types";
import { modelPicker, offlinePicker, type PlaybookPicker } from "../../playbooks/ports";
import { refuseNextSteps, suggestNextSteps, type SuggestDeps, type SuggestOptions, type SuggestOutcome } from "../../playbooks/suggest";
import type { AnswerOptions } from "../../graphrag/answer";
import { answerModel, askQuestion, prismaCaseAccess, readRunner, unauditedFailure } from "../answers/graphrag";
import { runtime } from "../runtime";

async function picker(tenantId: string, db: Awaited<ReturnType<typeof runtime>>["db"]): Promise<PlaybookPicker> {
  const model = answerModel();
  if (model.provider === "offline") return offlinePicker;
  // A switched-off model is never called: the deterministic picker (by confidence) stands in.
  const switches = tenantId ? await new PrismaKillSwitches(db.prisma).read(tenantId) : null;
  return switches?.DISABLE_MODEL ? offlinePicker : modelPicker(model);
}

export async function nextStepsDeps(asker: Asker): Promise<SuggestDeps> {
  const { db, ledger } = await runtime();
  const reads = readRunner(db);
  return {
    access: prismaCaseAccess(db.prisma),
    catalogue: new PrismaPlaybookCatalogue(reads),
    evidence: new PrismaEvidenceStore(reads),
    picker: await picker(asker.tenantId, db),
    ledger,
    auditQueryMode: env().AUDIT_QUERY_MODE,
  };
}

/** Suggestions for a case, as `asker` (resolved fresh by the guard or the CLI). Never throws: failures are coded outcomes. */
export async function nextSteps(asker: Asker, body: unknown, options: SuggestOptions = {}): Promise<SuggestOutcome> {
  let deps: SuggestDeps;
  try {
    deps = await nextStepsDeps(asker);
  } catch (err) {
    return unauditedFailure(err);
  }
  return suggestNextSteps(deps, asker, body, options);
}

/**
 * A request for next steps asked as a question ("What should we do next?", "Should we isolate the host?") is refused
 * by the answer pipeline — Casegraph never recommends actions in its own words — and answered here from the catalogue
 * instead: the refusal carries `answer.suggestions`, each needing a supervisor's approval. The suggestions' own ledger
 * entry names the answer's request. Any other answer is returned as it is.
 */
export async function withSuggestions(asker: Asker, body: unknown, outcome: AnswerOutcome): Promise<AnswerOutcome> {
  if (!outcome.ok || outcome.body.answer.responseType !== "refused") return outcome;
  const question = body && typeof body === "object" ? (body as { question?: unknown }).question : undefined;
  if (typeof question !== "string" || classifyRequest(question.normalize("NFC").trim()).kind !== "action") return outcome;
  const steps = await nextSteps(asker, body, { answerRequestId: outcome.body.requestId });
  if (!steps.ok) return outcome; // The refusal stands on its own; the failure is in the ledger.
  outcome.body.answer.suggestions = steps.body.suggestions;
  outcome.body.answer.suggestionRequestId = steps.body.requestId;
  return outcome;
}

/** askQuestion, and for a request for next steps the catalogue's suggestions on the refusal: what every entry point asks through. */
export async function askWithSuggestions(asker: Asker, body: unknown, options: AnswerOptions = {}): Promise<AnswerOutcome> {
  return withSuggestions(asker, body, await askQuestion(asker, body, options));
}

/** The guard's refusal recorder for the next-steps entry points: a refused request still leaves its ledger entry. */
export async function recordRefusedNextSteps(actor: Asker | null, raw: unknown, error: CasegraphError): Promise<void> {
  try {
    const { ledger } = await runtime();
    await refuseNextSteps({ ledger, auditQueryMode: env().AUDIT_QUERY_MODE }, actor, raw, error);
  } catch (err) {
    console.error("casegraph: a refused next-steps request could not be recorded", (err as Error).message);
  }
}
