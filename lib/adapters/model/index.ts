// Picks the answer model from the environment (LLM_PROVIDER): the offline extractive model by default (no network),
// or an AI SDK provider — any OpenAI-compatible /v1/chat/completions server (Ollama, vLLM, LM Studio…), OpenAI, or
// Anthropic. A missing setting is CG-SYS-003 naming the variable, never a silent fallback to another provider.
import "server-only";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { CasegraphError } from "../../domain/failure-codes";
import type { Env } from "../../env";
import type { AnswerModel } from "../../ports";
import { AiSdkAnswerModel } from "./ai-sdk";
import { OfflineExtractiveModel } from "./offline";

type ModelEnv = Pick<Env, "LLM_PROVIDER" | "LLM_BASE_URL" | "LLM_API_KEY" | "LLM_MODEL" | "LLM_TIMEOUT_MS">;

export function createAnswerModel(env: ModelEnv): AnswerModel {
  const require = (name: keyof ModelEnv, value: string | undefined): string => {
    if (!value)
      throw new CasegraphError("CG-SYS-003", `${name} must be set when LLM_PROVIDER=${env.LLM_PROVIDER}.`, [
        { path: name, message: "required" },
      ]);
    return value;
  };
  switch (env.LLM_PROVIDER) {
    case "offline":
      return new OfflineExtractiveModel();
    case "openai-compatible": {
      const baseURL = require("LLM_BASE_URL", env.LLM_BASE_URL).replace(/\/+$/, "");
      const modelId = require("LLM_MODEL", env.LLM_MODEL);
      const provider = createOpenAICompatible({
        name: "openai-compatible",
        baseURL,
        apiKey: env.LLM_API_KEY,
        supportsStructuredOutputs: true,
      });
      return new AiSdkAnswerModel(provider.chatModel(modelId), {
        provider: "openai-compatible",
        modelId,
        timeoutMs: env.LLM_TIMEOUT_MS,
        probe: (ms) => httpOk(`${baseURL}/models`, env.LLM_API_KEY ? { Authorization: `Bearer ${env.LLM_API_KEY}` } : {}, ms),
      });
    }
    case "openai": {
      const apiKey = require("LLM_API_KEY", env.LLM_API_KEY);
      const modelId = env.LLM_MODEL ?? "gpt-4o-mini";
      const baseURL = (env.LLM_BASE_URL ?? "https://api.openai.com/v1").replace(/\/+$/, "");
      const provider = createOpenAI({ apiKey, baseURL });
      return new AiSdkAnswerModel(provider.chat(modelId), {
        provider: "openai",
        modelId,
        timeoutMs: env.LLM_TIMEOUT_MS,
        probe: (ms) => httpOk(`${baseURL}/models`, { Authorization: `Bearer ${apiKey}` }, ms),
      });
    }
    case "anthropic": {
      const apiKey = require("LLM_API_KEY", env.LLM_API_KEY);
      const modelId = require("LLM_MODEL", env.LLM_MODEL);
      const baseURL = (env.LLM_BASE_URL ?? "https://api.anthropic.com/v1").replace(/\/+$/, "");
      const provider = createAnthropic({ apiKey, baseURL });
      return new AiSdkAnswerModel(provider(modelId), {
        provider: "anthropic",
        modelId,
        timeoutMs: env.LLM_TIMEOUT_MS,
        probe: (ms) => httpOk(`${baseURL}/models`, { "x-api-key": apiKey, "anthropic-version": "2023-06-01" }, ms),
      });
    }
  }
}

async function httpOk(url: string, headers: Record<string, string>, timeoutMs: number): Promise<boolean> {
  const res = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
  await res.body?.cancel().catch(() => {});
  return res.ok;
}

export { OfflineExtractiveModel, OFFLINE_MODEL_ID } from "./offline";
export { AiSdkAnswerModel } from "./ai-sdk";
