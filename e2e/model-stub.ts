// A stand-in for an OpenAI-compatible model server (/v1/models, /v1/chat/completions, streamed or not), for the e2e
// specs that need the workbench behind a model that misbehaves: it answers a few known questions with fixed output
// (model-stub-answers.ts) and everything else with "no_evidence". It also keeps the prompts it was sent, so a spec can
// check what reached the model (GET /__prompts). Run: `npx tsx e2e/model-stub.ts <port>`; with MODEL_STUB_OUTPUT=<file>
// it answers every question with that file's JSON instead (for probing the pipeline by hand).
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { stubOutputFor } from "./model-stub-answers";

const port = Number(process.argv[2] ?? process.env.MODEL_STUB_PORT ?? 3299);
const prompts: { query: string | null; prompt: string }[] = [];

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** The investigator's query, as prompt.ts writes it: `Query: "<JSON string>"` on a line of its own. */
function queryOf(prompt: string): string | null {
  const line = prompt.split("\n").find((l) => l.startsWith("Query: "));
  if (!line) return null;
  try {
    return JSON.parse(line.slice("Query: ".length)) as string;
  } catch {
    return null;
  }
}

function completion(req: { messages?: { role: string; content: unknown }[]; stream?: boolean }, res: ServerResponse) {
  const prompt = (req.messages ?? [])
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
    .join("\n");
  const query = queryOf(prompt);
  prompts.push({ query, prompt });
  const fixed = process.env.MODEL_STUB_OUTPUT;
  const content = fixed ? readFileSync(fixed, "utf8") : JSON.stringify(stubOutputFor(query));
  const head = { id: `chatcmpl-stub-${prompts.length}`, created: 1_764_000_000, model: "e2e-stub" };
  const usage = { prompt_tokens: Math.ceil(prompt.length / 4), completion_tokens: Math.ceil(content.length / 4), total_tokens: 0 };
  if (!req.stream) {
    send(res, 200, {
      ...head,
      object: "chat.completion",
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage,
    });
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  const chunk = (delta: object, finish: string | null) =>
    res.write(
      `data: ${JSON.stringify({ ...head, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
    );
  chunk({ role: "assistant", content: "" }, null);
  for (let i = 0; i < content.length; i += 200) chunk({ content: content.slice(i, i + 200) }, null);
  chunk({}, "stop");
  res.write(`data: ${JSON.stringify({ ...head, object: "chat.completion.chunk", choices: [], usage })}\n\n`);
  res.end("data: [DONE]\n\n");
}

createServer(async (req, res) => {
  try {
    const path = (req.url ?? "").split("?")[0];
    if (req.method === "GET" && path === "/v1/models")
      return send(res, 200, { object: "list", data: [{ id: "e2e-stub", object: "model" }] });
    if (req.method === "GET" && path === "/__prompts") return send(res, 200, prompts);
    if (req.method === "POST" && path === "/v1/chat/completions") return completion(JSON.parse(await body(req)), res);
    send(res, 404, { error: { message: `no route ${req.method} ${path}` } });
  } catch (err) {
    send(res, 500, { error: { message: String(err) } });
  }
}).listen(port, "127.0.0.1", () => console.log(`model stub on http://127.0.0.1:${port}/v1`));
