// The ports of the next-steps step (issue 16): the catalogue (filtered in the database), the facts its query needs,
// and the picker (a model, or the offline one).
import type { AnswerModel, CaseScope } from "../ports";
import type { RiskLevel } from "./catalogue";
import type { Selection, SelectionQuery } from "./filter";
import type { ModelPlaybook } from "./view";
import { offlinePicks, pickPrompt, PICK_PROMPT_VERSION, PICK_SYSTEM_PROMPT, picksSchema } from "./picks";

/** The labels the query reads besides the asker's clearance, tags and roles. */
export interface NextStepFacts {
  caseType: string | null;
  jurisdiction: string | null;
  /** null when the tenant's value cannot be read: nothing fits then. */
  riskTolerance: RiskLevel | null;
  /** user.legalAuthority as stored (heldAuthorities reads it). */
  legalAuthority: unknown;
}

export interface PlaybookCatalogue {
  /** The filter and the ranking, run by the store (the database: never by loading the catalogue). */
  select(query: SelectionQuery): Promise<Selection>;
  /** Which of `ids` name a playbook of the tenant's view of the catalogue (own and shared), whatever its labels. */
  existing(tenantId: string, ids: readonly string[]): Promise<Set<string>>;
  /** The case's labels, its tenant's risk tolerance and the asker's legal authority, read fresh. */
  facts(scope: CaseScope, userId: string): Promise<NextStepFacts>;
}

export interface PickRequest {
  question: string;
  /** Ids of evidence the last answer cited that the asker may still see. */
  evidenceIds: string[];
  /** The four-field view: all the model gets of a playbook. */
  playbooks: ModelPlaybook[];
  signal?: AbortSignal;
}

export interface PlaybookPicker {
  readonly provider: string;
  readonly modelId: string;
  /** The model's raw output; readPicks decides what of it counts. */
  pick(request: PickRequest): Promise<string>;
}

export const OFFLINE_PICKER_ID = "casegraph-playbook-picker-v1";

/** Picks by confidence, deterministically (the default with LLM_PROVIDER=offline, and when DISABLE_MODEL is on). */
export const offlinePicker: PlaybookPicker = {
  provider: "offline",
  modelId: OFFLINE_PICKER_ID,
  async pick(r) {
    return JSON.stringify(offlinePicks(r.evidenceIds, r.playbooks));
  },
};

/** A generative AnswerModel as a picker: the pick prompt and schema, structured output at temperature 0. */
export function modelPicker(model: AnswerModel): PlaybookPicker {
  return {
    provider: model.provider,
    modelId: model.modelId,
    async pick(r) {
      const { text } = await model.generate({
        promptVersion: PICK_PROMPT_VERSION,
        system: PICK_SYSTEM_PROMPT,
        prompt: pickPrompt(r.question, r.evidenceIds, r.playbooks),
        context: { playbooks: r.playbooks, evidenceIds: r.evidenceIds },
        question: r.question,
        attempt: 1,
        schema: picksSchema,
        signal: r.signal,
      });
      return text;
    },
  };
}
