// Step 6's output, read: the model's JSON, read leniently (snake_case keys, a surrounding code fence, numeric
// strings), but an object with at least an answer text, or it is unusable output and the pipeline retries once with a
// stricter prompt. What it says is still unchecked: validate.ts distrusts all of it.
import { z } from "zod";

// least an answer text, or it is unusable output and the pipeline retries once with a stricter prompt.

const lenientSchema = z.object({
  responseType: z.string().optional(),
  answerText: z.string(),
  citations: z.array(z.unknown()).optional(),
  explanationSteps: z.array(z.unknown()).optional(),
  unknowns: z.array(z.unknown()).optional(),
  confidence: z.union([z.number(), z.string()]).optional(),
  confidenceJustification: z.string().optional(),
});

export interface ModelOutput {
  responseType: string;
  answerText: string;
  citations: Array<{ evidenceId: string; claimId?: string }>;
  explanationSteps: Array<{ stepNumber?: number; claim: string; citations: string[] }>;
  unknowns: string[];
  confidence: number | null;
  confidenceJustification: string;
}

const KEY_ALIASES: Record<string, string> = {
  response_type: "responseType",
  answer_text: "answerText",
  answer: "answerText",
  summary: "answerText",
  explanation_steps: "explanationSteps",
  steps: "explanationSteps",
  confidence_justification: "confidenceJustification",
  justification: "confidenceJustification",
};

export type ParseResult = { ok: true; output: ModelOutput } | { ok: false; reason: string };

export function parseModelOutput(text: string): ParseResult {
  let body = text.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*)\n```$/i.exec(body);
  if (fenced) body = fenced[1].trim();
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, reason: "not JSON" };
  }
  if (!json || typeof json !== "object" || Array.isArray(json)) return { ok: false, reason: "not a JSON object" };
  const obj: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(json as Record<string, unknown>)) {
    const key = KEY_ALIASES[k] ?? k;
    if (!(key in obj) || k === key) obj[key] = v;
  }
  const parsed = lenientSchema.safeParse(obj);
  if (!parsed.success) return { ok: false, reason: "does not match the answer schema" };
  const p = parsed.data;
  const str = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");
  const citations = (p.citations ?? []).flatMap((c) => {
    if (typeof c === "string") return [{ evidenceId: c }];
    if (c && typeof c === "object") {
      const r = c as Record<string, unknown>;
      const evidenceId = str(r.evidenceId ?? r.evidence_id ?? r.id);
      const claimId = str(r.claimId ?? r.claim_id) || undefined;
      return evidenceId ? [{ evidenceId, claimId }] : [];
    }
    return [];
  });
  const explanationSteps = (p.explanationSteps ?? []).flatMap((s) => {
    if (!s || typeof s !== "object") return [];
    const r = s as Record<string, unknown>;
    const claim = str(r.claim ?? r.text);
    const cites = Array.isArray(r.citations) ? r.citations.map(str).filter(Boolean) : [];
    const n = Number(r.stepNumber ?? r.step_number);
    return claim ? [{ stepNumber: Number.isFinite(n) ? n : undefined, claim, citations: cites }] : [];
  });
  const conf =
    typeof p.confidence === "number" ? p.confidence : p.confidence !== undefined && p.confidence.trim() !== "" ? Number(p.confidence) : NaN;
  return {
    ok: true,
    output: {
      responseType: (p.responseType ?? "answer").trim().toLowerCase(),
      answerText: p.answerText,
      citations,
      explanationSteps,
      unknowns: (p.unknowns ?? []).map(str).filter((u) => u.trim()),
      confidence: Number.isFinite(conf) ? conf : null,
      confidenceJustification: p.confidenceJustification ?? "",
    },
  };
}
