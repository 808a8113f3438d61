// The AnswerModel port over any AI SDK 6 language model (LanguageModelV3): OpenAI-compatible servers, OpenAI,
// Anthropic, and in tests `MockLanguageModelV3` playing a misbehaving LLM. Structured output (the zod schema is sent
// as the response format) at temperature 0, bounded by LLM_TIMEOUT_MS. Unusable output is returned as text — the
// pipeline decides about retries — and an unreachable model is CG-MODEL-001.
import "server-only";
import { generateText, NoObjectGeneratedError, Output, streamText, type LanguageModel } from "ai";
import { CasegraphError } from "../../domain/failure-codes";
import type { AnswerModel, AnswerModelRequest, AnswerModelResult, ModelProbe } from "../../ports";

export interface AiSdkModelOptions {
  provider: string;
  modelId: string;
  timeoutMs: number;
  /** Reachability check for /health (e.g. GET /models); defaults to "not probed" = ok:false. */
  probe?: (timeoutMs: number) => Promise<boolean>;
}

export class AiSdkAnswerModel implements AnswerModel {
  readonly provider: string;
  readonly modelId: string;

  constructor(
    private readonly model: LanguageModel,
    private readonly options: AiSdkModelOptions,
  ) {
    this.provider = options.provider;
    this.modelId = options.modelId;
  }

  async generate(request: AnswerModelRequest): Promise<AnswerModelResult> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    const abortSignal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    const common = {
      model: this.model,
      system: request.system,
      prompt: request.prompt,
      output: Output.object({
        schema: request.schema,
        name: "evidence_answer",
        description: "A citation-backed answer over the case context.",
      }),
      temperature: 0,
      maxRetries: 1,
      abortSignal,
    };
    if (request.onOutputProgress) return this.stream(common, request.onOutputProgress);
    try {
      const result = await generateText(common);
      return { text: result.text, usage: usageOf(result.usage) };
    } catch (err) {
      if (NoObjectGeneratedError.isInstance(err)) return { text: err.text ?? "" };
      throw new CasegraphError("CG-MODEL-001", undefined, [], { cause: err });
    }
  }

  /** Streams the model's output so callers can report progress; the text is only used once complete. */
  private async stream(common: Parameters<typeof generateText>[0], onProgress: (chars: number) => void): Promise<AnswerModelResult> {
    let failure: unknown;
    let text = "";
    const result = streamText({
      ...common,
      onError: ({ error }) => {
        failure ??= error;
      },
    } as Parameters<typeof streamText>[0]);
    try {
      for await (const delta of result.textStream) {
        text += delta;
        onProgress(text.length);
      }
    } catch (err) {
      failure ??= err;
    }
    if (failure && !NoObjectGeneratedError.isInstance(failure)) throw new CasegraphError("CG-MODEL-001", undefined, [], { cause: failure });
    return { text };
  }

  async probe(timeoutMs: number): Promise<ModelProbe> {
    const started = performance.now();
    let ok = false;
    let error: string | undefined;
    try {
      ok = this.options.probe ? await this.options.probe(timeoutMs) : false;
      if (!ok) error = "CG-MODEL-001";
    } catch {
      error = "CG-MODEL-001";
    }
    return {
      provider: this.provider,
      id: this.modelId,
      ok,
      latencyMs: Math.round(performance.now() - started),
      ...(error ? { error } : {}),
    };
  }
}

function usageOf(u: { inputTokens?: number; outputTokens?: number } | undefined) {
  return u ? { inputTokens: u.inputTokens, outputTokens: u.outputTokens } : undefined;
}
