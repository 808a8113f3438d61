// The model adapters: provider selection from the environment, the OpenAI-compatible provider against a local
// /v1/chat/completions server (what an air-gapped site runs: Ollama, vLLM, LM Studio), bounded probes and timeouts.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAnswerModel } from "@/lib/adapters/model";
import { OFFLINE_MODEL_ID } from "@/lib/adapters/model/offline";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { answerQuestion } from "@/lib/graphrag/answer";
import { modelOutputSchema } from "@/lib/graphrag/prompt";
import { readEnv } from "@/lib/env";
import { VIEWER, answerJson, harness } from "./fakes";

const env = (over: Record<string, string>) => readEnv({ ...over });

describe("provider selection", () => {
  it("defaults to the offline extractive model", () => {
    const m = createAnswerModel(env({}));
    expect([m.provider, m.modelId]).toEqual(["offline", OFFLINE_MODEL_ID]);
  });

  it("names the missing setting instead of falling back to another provider", () => {
    const missing = (over: Record<string, string>) => {
      try {
        createAnswerModel(env(over));
        return null;
      } catch (err) {
        return [(err as CasegraphError).code, (err as CasegraphError).message];
      }
    };
    expect(missing({ LLM_PROVIDER: "openai-compatible", LLM_MODEL: "m" })).toEqual([
      "CG-SYS-003",
      "LLM_BASE_URL must be set when LLM_PROVIDER=openai-compatible.",
    ]);
    expect(missing({ LLM_PROVIDER: "openai-compatible", LLM_BASE_URL: "http://x/v1" })?.[1]).toMatch(/^LLM_MODEL/);
    expect(missing({ LLM_PROVIDER: "openai" })?.[1]).toMatch(/^LLM_API_KEY/);
    expect(missing({ LLM_PROVIDER: "anthropic", LLM_API_KEY: "k" })?.[1]).toMatch(/^LLM_MODEL/);
    expect(missing({ LLM_PROVIDER: "openai", LLM_API_KEY: "k" })).toBeNull();
    expect(missing({ LLM_PROVIDER: "anthropic", LLM_API_KEY: "k", LLM_MODEL: "claude" })).toBeNull();
  });
});

describe("an OpenAI-compatible server on this machine", () => {
  let server: Server;
  let base = "";
  const requests: Array<{ url: string; body: any; auth?: string }> = [];
  let reply: () => { status: number; content?: string; delayMs?: number } = () => ({ status: 200, content: "{}" });

  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let data = "";
      req.on("data", (c) => (data += c));
      req.on("end", () => resolve(data));
    });

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      const body = await read(req);
      requests.push({ url: req.url ?? "", body: body ? JSON.parse(body) : null, auth: req.headers.authorization });
      if (req.url?.endsWith("/models")) {
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ object: "list", data: [{ id: "local-model", object: "model" }] }));
        return;
      }
      const r = reply();
      if (r.delayMs) await new Promise((ok) => setTimeout(ok, r.delayMs));
      if (res.destroyed) return;
      res.writeHead(r.status, { "content-type": "application/json" }).end(
        JSON.stringify(
          r.status === 200
            ? {
                id: "c1",
                object: "chat.completion",
                created: 0,
                model: "local-model",
                choices: [{ index: 0, message: { role: "assistant", content: r.content }, finish_reason: "stop" }],
                usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
              }
            : { error: { message: "overloaded", type: "server_error" } },
        ),
      );
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

  it("sends the versioned prompt with a JSON schema at temperature 0, and its validated answer comes back", async () => {
    reply = () => ({
      status: 200,
      content: JSON.stringify(
        answerJson({
          answerText: "Anna Berg met Boris Kade at Dock 7 [evidence: EV-1].",
          citations: [{ evidenceId: "EV-1", claimId: "CLM-1" }],
        }),
      ),
    });
    const model = createAnswerModel(
      env({ LLM_PROVIDER: "openai-compatible", LLM_BASE_URL: base, LLM_MODEL: "local-model", LLM_API_KEY: "sk-local" }),
    );
    const h = harness(model);
    const out = await answerQuestion(h.deps, VIEWER, { caseId: "case-t", question: "What did Anna Berg and Boris Kade do at Dock 7?" });
    expect(out.ok).toBe(true);
    if (!out.ok) return;
    expect(out.body.answer.citations).toEqual([{ evidenceId: "EV-1", claimId: "CLM-001" }]);
    const call = requests.filter((r) => r.url.endsWith("/chat/completions")).at(-1)!;
    expect(call.auth).toBe("Bearer sk-local");
    expect(call.body.model).toBe("local-model");
    expect(call.body.temperature).toBe(0);
    expect(call.body.response_format?.type).toBe("json_schema");
    expect(Object.keys(call.body.response_format.json_schema.schema.properties).sort()).toEqual(
      Object.keys(modelOutputSchema.shape).sort(),
    );
    expect(call.body.messages[0]).toMatchObject({ role: "system" });
    expect(call.body.messages[0].content).toContain("You MUST NOT take any action");
    expect(JSON.stringify(call.body.messages[1])).toContain("UNTRUSTED DATA");
    expect(h.ledger.payloads()[0].model).toBe("openai-compatible:local-model");
  });

  it("turns a failing server into CG-MODEL-001 (audited), and unusable output twice into CG-MODEL-002", async () => {
    const model = createAnswerModel(env({ LLM_PROVIDER: "openai-compatible", LLM_BASE_URL: base, LLM_MODEL: "local-model" }));
    reply = () => ({ status: 500 });
    const h = harness(model);
    const down = await answerQuestion(h.deps, VIEWER, { caseId: "case-t", question: "What did Anna Berg do at Dock 7?" });
    expect(down).toMatchObject({ ok: false, status: 503, body: { error: { code: "CG-MODEL-001" } } });
    reply = () => ({ status: 200, content: "I think Anna did it." });
    const junk = await answerQuestion(h.deps, VIEWER, { caseId: "case-t", question: "What did Anna Berg do at Dock 7?" });
    expect(junk).toMatchObject({ ok: false, status: 502, body: { error: { code: "CG-MODEL-002" } } });
    expect(h.ledger.payloads().map((p) => p.error_code)).toEqual(["CG-MODEL-001", "CG-MODEL-002"]);
  });

  it("gives up after LLM_TIMEOUT_MS", async () => {
    reply = () => ({ status: 200, content: "{}", delayMs: 3_000 });
    const model = createAnswerModel(
      env({ LLM_PROVIDER: "openai-compatible", LLM_BASE_URL: base, LLM_MODEL: "local-model", LLM_TIMEOUT_MS: "1000" }),
    );
    const started = performance.now();
    const out = await answerQuestion(harness(model).deps, VIEWER, { caseId: "case-t", question: "What did Anna Berg do at Dock 7?" });
    expect(out).toMatchObject({ ok: false, body: { error: { code: "CG-MODEL-001" } } });
    expect(performance.now() - started).toBeLessThan(2_900);
  });

  it("probes /models for health, bounded; a dead server is ok:false, fast", async () => {
    const up = await createAnswerModel(env({ LLM_PROVIDER: "openai-compatible", LLM_BASE_URL: base, LLM_MODEL: "local-model" })).probe(
      2_000,
    );
    expect(up).toMatchObject({ provider: "openai-compatible", id: "local-model", ok: true });
    const started = performance.now();
    const dead = await createAnswerModel(
      env({ LLM_PROVIDER: "openai-compatible", LLM_BASE_URL: "http://127.0.0.1:9/v1", LLM_MODEL: "m" }),
    ).probe(1_000);
    expect(dead).toMatchObject({ ok: false, error: "CG-MODEL-001" });
    expect(performance.now() - started).toBeLessThan(1_500);
  });
});
