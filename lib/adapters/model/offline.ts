// The offline model shipped with Casegraph: `casegraph-extractive-v2`. It needs no network and is honest about what
// it is — extractive, not generative: it quotes the evidence (and states the graph's relationships in plain words)
// that answers what the question asks, or says precisely what no visible evidence states (lib/graphrag/extractive.ts).
// Same input → same output, byte for byte.
import "server-only";
import type { AnswerModel, AnswerModelRequest, AnswerModelResult, ModelProbe } from "../../ports";
import { extractiveAnswer } from "../../graphrag/extractive";
import type { RawContext } from "../../graphrag/types";

export const OFFLINE_PROVIDER = "offline";
export const OFFLINE_MODEL_ID = "casegraph-extractive-v2";
/** A digest of the answerer's sources (tests/unit/graphrag/offline-revision.test.ts keeps it current): part of the reuse key. */
export const OFFLINE_MODEL_REVISION = "754bedae7ba5";

export class OfflineExtractiveModel implements AnswerModel {
  readonly provider = OFFLINE_PROVIDER;
  readonly modelId = OFFLINE_MODEL_ID;
  readonly revision = OFFLINE_MODEL_REVISION;

  async generate(request: AnswerModelRequest): Promise<AnswerModelResult> {
    const output = extractiveAnswer(request.context as RawContext, request.question, { followUp: request.followUp });
    const text = JSON.stringify(output);
    request.onOutputProgress?.(text.length);
    return { text };
  }

  async probe(): Promise<ModelProbe> {
    return { provider: this.provider, id: this.modelId, ok: true, latencyMs: 0 };
  }
}

export { extractiveAnswer };
