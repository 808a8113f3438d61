// Step 7 — Validate (seed 000 §3, seed 002). The model's output is distrusted: every cited id must be in the context
// the model was shown; invalid citations are stripped and counted; sentences left with no valid citation are dropped;
// the inline markers and the citations array are made to agree (the final array is derived from the markers that
// survived, with server-assigned claim ids); an answer whose factual content has no valid citation becomes `unable`;
// statements that take or recommend actions are removed; confidence is lowered for what was removed.
import { z } from "zod";
import { neutralise, clip } from "./context";
import { ACTION_VERB_PATTERN } from "./input";
import { splitSentences, squash, words, isIdLike } from "./text";
import { HARD_LIMITS, type Citation, type ExplanationStep, type RawContext } from "./types";

export const UNABLE_TEXT = "Unable to generate citation-backed answer";
export const NO_EVIDENCE_TEXT = "The evidence available to you in this case does not answer this question.";
export const NO_VISIBLE_EVIDENCE_TEXT = "No evidence is available for you to view in this case based on your current permissions.";

// ---------------------------------------------------------------------------------------------------------------
// Parsing: JSON, read leniently (snake_case keys, a surrounding code fence, numeric strings), but an object with at
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
  response_type: "responseType", answer_text: "answerText", answer: "answerText", summary: "answerText",
  explanation_steps: "explanationSteps", steps: "explanationSteps", confidence_justification: "confidenceJustification",
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
  const conf = typeof p.confidence === "number" ? p.confidence : p.confidence !== undefined && p.confidence.trim() !== "" ? Number(p.confidence) : NaN;
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

// ---------------------------------------------------------------------------------------------------------------
// Validation

export interface ValidationReport {
  /** Distinct ids the model cited that were not in the context (markers, citations array, steps, prose). */
  invalidCitationIds: string[];
  invalidCitationCount: number;
  /** Factual sentences dropped because no valid citation was left. */
  droppedUncitedClaims: number;
  /** Sentences dropped because they name an evidence-shaped id the model was not shown. */
  droppedInventedReferences: number;
  /** Sentences or steps dropped because they take or recommend an action. */
  droppedActionStatements: number;
  droppedSteps: number;
  /** Marker ids missing from the model's citations array, and array entries with no marker. */
  markersWithoutEntry: number;
  entriesWithoutMarker: number;
  /** Injection phrases, role prefixes or markup were neutralised in the model's output. */
  neutralisedOutput: boolean;
  shortened: boolean;
  /** Seed 000 §4.1: every id the model cited was in the context. */
  allCitationsInContext: boolean;
  modelConfidence: number | null;
}

export interface ValidatedAnswer {
  responseType: "answer" | "no_evidence" | "refused" | "unable";
  answerText: string;
  citations: Citation[];
  explanationSteps: ExplanationStep[];
  /** The model's unknowns and its uncited statements of what the evidence does not say. */
  unknowns: string[];
  confidence: number;
  confidenceJustification: string;
  report: ValidationReport;
}

const MARKER = /\[\s*(?:evidence|evid)\s*[:=]\s*([^\]\n]{1,500})\]/giu;
const GRAPH_MARKER = /\[\s*(?:node|edge|nodes|edges)\s*[:=]\s*([^\]\n]{1,500})\]/giu;
const BARE_MARKER = /\[\s*([^\]\s,;[]{2,120}(?:\s*[,;]\s*[^\]\s,;[]{2,120}){0,9})\s*\]/gu;
const PH_OPEN = "\ue000", PH_CLOSE = "\ue001";
const PLACEHOLDER = /\ue000(\d+)\ue001/gu;

// Statements of absence or uncertainty: not factual claims, so they need no citation (they become unknowns).
const GAP = /\b(?:(?:the|available|provided|visible)\s+(?:evidence|context|records?|graph|documents?|material)\s+(?:does|do|did)\s*(?:not|n't)|no\s+(?:available\s+|visible\s+|relevant\s+)?(?:evidence|record|information|item|document|mention)s?\b|(?:is|are|was|were|remains?)\s+(?:not\s+(?:documented|recorded|stated|mentioned|covered|known|established|clear|available|identified|determinable)|unknown|unclear|undetermined)|(?:cannot|can't|could\s+not|unable\s+to)\s+(?:be\s+)?(?:determine|confirm|establish|verify|identify|say|tell)|(?:does|do)\s+not\s+(?:say|state|show|mention|indicate|identify|establish|explain|specify|record)|not\s+(?:enough|sufficient)\s+(?:evidence|information)|insufficient\s+(?:evidence|information)|there\s+is\s+no\s+(?:evidence|record|information|indication))/iu;

// Statements that claim to have acted, tell someone to act, or recommend acting (seed 000 §3.1: read-only).
const ACTION_STATEMENTS = [
  new RegExp(String.raw`^(?:i|we)\s+(?:have|'ve|will|'ll|am going to|are going to|can|shall|just)\s+(?:now\s+|also\s+|already\s+)?(?:${ACTION_VERB_PATTERN})(?:s|es|ed|d|ing)?\b`, "iu"),
  new RegExp(String.raw`\b(?:you|we|investigators|police|officers|detectives|the team|analysts|authorities)\s+(?:should|must|need to|ought to|have to)\s+(?:immediately\s+|now\s+|also\s+)?(?:${ACTION_VERB_PATTERN})\b`, "iu"),
  new RegExp(String.raw`^(?:please\s+)?(?:${ACTION_VERB_PATTERN})\s+(?:the|this|that|these|those|him|her|them|it|all|every|his|their|its)\b`, "iu"),
  /\b(?:i|we)\s+(?:would\s+)?(?:recommend|suggest|advise)\b/iu,
];
const isActionStatement = (text: string) => ACTION_STATEMENTS.some((re) => re.test(text));

interface Sentence {
  text: string;
  markers: string[][];
}

export function validateAnswer(output: ModelOutput, context: RawContext): ValidatedAnswer {
  const evidenceIds = new Set(context.evidenceSnippets.map((s) => s.id));
  const nodeIds = new Set(context.nodes.map((n) => n.id));
  const edgeRef = new Map<string, string>();
  for (const e of context.edges) {
    const triple = `${e.source}:${e.type}:${e.target}`;
    edgeRef.set(triple, triple);
    edgeRef.set(e.id, triple);
  }
  const evidenceShapes = new Set([...evidenceIds].map(shapeOf));
  const snippetText = new Map(context.evidenceSnippets.map((s) => [s.id, normaliseForQuote(s.text)]));
  const invalid = new Map<string, number>();
  const noteInvalid = (id: string) => invalid.set(id, (invalid.get(id) ?? 0) + 1);
  let neutralisedOutput = false;
  let droppedUncitedClaims = 0, droppedInventedReferences = 0, droppedActionStatements = 0, droppedSteps = 0;
  const gapStatements: string[] = [];

  const clean = (text: string) => {
    const n = neutralise(text);
    if (n.kinds.some((k) => k !== "citation_token" && k !== "control_chars")) neutralisedOutput = true;
    return squash(n.text.replace(/\[citation token removed\]/g, "")).replace(/\s+([.,;:!?])/g, "$1");
  };

  // 1. Answer text → sentences, each with the evidence ids of its markers.
  const sentences = toSentences(output.answerText, evidenceIds);
  const kept: Array<{ text: string; ids: string[] }> = [];
  const refused = output.responseType === "refused";
  if (!refused) {
    for (const s of sentences) {
      const ids = [...new Set(s.markers.flat())];
      const valid = ids.filter((id) => evidenceIds.has(id));
      for (const id of ids) if (!evidenceIds.has(id)) noteInvalid(id);
      const text = clean(s.text);
      if (!text || !/[\p{L}\p{N}]/u.test(text)) continue;
      // Ids in the prose that look like evidence ids but were not shown: invented references.
      const invented = words(text).filter((w) => isIdLike(w.raw) && !evidenceIds.has(w.raw) && !nodeIds.has(w.raw) && evidenceShapes.has(shapeOf(w.raw)));
      if (invented.length) {
        invented.forEach((w) => noteInvalid(w.raw));
        droppedInventedReferences++;
        continue;
      }
      if (isActionStatement(text) && !valid.some((id) => snippetText.get(id)!.includes(normaliseForQuote(stripTerminator(text))))) {
        droppedActionStatements++;
        continue;
      }
      if (valid.length) {
        kept.push({ text, ids: valid });
      } else if (GAP.test(text)) {
        gapStatements.push(text);
      } else if (words(text).length >= 3 || /\d/.test(text)) {
        droppedUncitedClaims++;
      }
    }
  }

  // 2. The answer length limit: whole sentences only.
  let shortened = false;
  while (kept.length > 1 && rendered(kept).length > HARD_LIMITS.maxAnswerChars) {
    kept.pop();
    shortened = true;
  }
  if (kept.length === 1 && rendered(kept).length > HARD_LIMITS.maxAnswerChars) {
    kept[0] = { ...kept[0], text: clip(kept[0].text, HARD_LIMITS.maxAnswerChars - 200) };
    shortened = true;
  }

  // 3. Citations array vs markers: the array is rebuilt from the surviving markers; disagreements are counted.
  const markerIds = new Set(kept.flatMap((k) => k.ids));
  const arrayIds = new Set<string>();
  for (const c of output.citations) {
    const id = c.evidenceId.trim();
    if (!evidenceIds.has(id)) noteInvalid(id);
    else arrayIds.add(id);
  }
  const markersWithoutEntry = refused ? 0 : [...markerIds].filter((id) => !arrayIds.has(id)).length;
  const entriesWithoutMarker = refused ? 0 : [...arrayIds].filter((id) => !markerIds.has(id)).length;
  const claimIds = kept.map((_, i) => `CLM-${String(i + 1).padStart(3, "0")}`);
  const citations: Citation[] = kept
    .flatMap((k, i) => k.ids.map((evidenceId) => ({ evidenceId, claimId: claimIds[i] })))
    .sort((a, b) => cmp(a.evidenceId, b.evidenceId) || cmp(a.claimId, b.claimId));
  const answerText = kept.map((k, i) => withMarkers(k.text, k.ids, claimIds[i])).join(" ");

  // 4. Explanation steps: only ids from the context (edges normalised to source:TYPE:target); empty steps dropped.
  const steps: ExplanationStep[] = [];
  if (!refused && kept.length) {
    for (const step of output.explanationSteps) {
      const cites: string[] = [];
      for (const raw of step.citations) {
        const id = raw.trim();
        if (evidenceIds.has(id) || nodeIds.has(id)) cites.push(id);
        else if (edgeRef.has(id)) cites.push(edgeRef.get(id)!);
        else noteInvalid(id);
      }
      const claim = clean(step.claim);
      if (!cites.length || !claim) {
        droppedSteps++;
        continue;
      }
      if (isActionStatement(claim)) {
        droppedActionStatements++;
        droppedSteps++;
        continue;
      }
      steps.push({ stepNumber: steps.length + 1, claim: clip(claim, 1_000), citations: [...new Set(cites)] });
    }
  }

  // 5. Outcome, confidence and what the model said it could not answer.
  const modelConfidence = output.confidence === null ? null : clamp01(output.confidence);
  const removed = droppedUncitedClaims + droppedInventedReferences + droppedActionStatements;
  let responseType: ValidatedAnswer["responseType"];
  let confidence: number;
  let text: string;
  let justification = clip(clean(output.confidenceJustification), 1_000);
  if (refused) {
    responseType = "refused";
    text = clip(clean(stripMarkers(output.answerText)), 1_000) || "Refused: the request is outside what this assistant may answer.";
    confidence = modelConfidence ?? 1;
  } else if (kept.length) {
    responseType = "answer";
    text = answerText;
    const base = modelConfidence ?? 0;
    confidence = round2(removed ? (base * kept.length) / (kept.length + removed) : base);
    if (modelConfidence === null) justification = (justification ? justification + " " : "") + "The model gave no confidence score.";
    else if (confidence < base) {
      justification = (justification ? justification + " " : "") +
        `Lowered from ${base.toFixed(2)} to ${confidence.toFixed(2)}: ${removed} statement(s) were removed in validation.`;
    }
  } else if (removed > 0) {
    responseType = "unable";
    text = UNABLE_TEXT;
    confidence = 0;
    justification = `${removed} statement(s) had no valid citation to evidence the model was shown; the answer was withheld.`;
  } else {
    responseType = "no_evidence";
    text = NO_EVIDENCE_TEXT;
    confidence = modelConfidence ?? 0;
  }
  const unknowns = [...gapStatements, ...output.unknowns.map(clean)]
    .map((u) => clip(u, 500))
    .filter((u, i, all) => u && all.indexOf(u) === i)
    .slice(0, 20);
  const invalidIds = [...invalid.keys()].sort(cmp);
  return {
    responseType,
    answerText: text,
    citations: responseType === "answer" ? citations : [],
    explanationSteps: responseType === "answer" ? steps : [],
    unknowns,
    confidence,
    confidenceJustification: justification,
    report: {
      invalidCitationIds: invalidIds,
      invalidCitationCount: [...invalid.values()].reduce((a, b) => a + b, 0),
      droppedUncitedClaims,
      droppedInventedReferences,
      droppedActionStatements,
      droppedSteps,
      markersWithoutEntry,
      entriesWithoutMarker,
      neutralisedOutput,
      shortened,
      allCitationsInContext: invalidIds.length === 0,
      modelConfidence,
    },
  };
}

/** Splits answer text into sentences, lifting citation markers (in any of the forms models use) out of the text. */
function toSentences(answerText: string, evidenceIds: Set<string>): Sentence[] {
  const markers: string[][] = [];
  const hold = (ids: string[]) => {
    markers.push(ids);
    return `${PH_OPEN}${markers.length - 1}${PH_CLOSE}`;
  };
  let text = answerText.replace(/[\ue000-\uf8ff]/gu, "");
  text = text.replace(MARKER, (_, inner: string) => hold(markerIds(inner, evidenceIds)));
  text = text.replace(GRAPH_MARKER, () => " ");
  // "[EV-1]" or "[EV-1, EV-2]": a bracketed list counts as a marker when every item is an id of the context, or when
  // it has the shape of one (then it is an invented citation, stripped and counted).
  const shapes = new Set([...evidenceIds].map(shapeOf));
  text = text.replace(BARE_MARKER, (whole: string, inner: string) => {
    const items = inner.split(/\s*[,;]\s*/).map((s) => s.trim()).filter(Boolean);
    const looksLikeIds = items.every((id) => evidenceIds.has(id) || (isIdLike(id) && shapes.has(shapeOf(id))));
    return looksLikeIds ? hold(items) : whole;
  });
  const raw = splitSentences(text);
  // A marker that follows the full stop belongs to the sentence before it.
  const out: Sentence[] = [];
  for (const s of raw) {
    const lead = new RegExp(`^(?:\\s*${PH_OPEN}\\d+${PH_CLOSE})+`, "u").exec(s);
    let body = s;
    if (lead && out.length) {
      for (const m of lead[0].matchAll(PLACEHOLDER)) out[out.length - 1].markers.push(markers[Number(m[1])]);
      body = s.slice(lead[0].length);
    }
    const ids: string[][] = [];
    for (const m of body.matchAll(PLACEHOLDER)) ids.push(markers[Number(m[1])]);
    const plain = body.replace(PLACEHOLDER, " ");
    if (!plain.trim() && out.length) {
      out[out.length - 1].markers.push(...ids);
      continue;
    }
    out.push({ text: plain, markers: ids });
  }
  return out;
}

function markerIds(inner: string, evidenceIds: Set<string>): string[] {
  const ids: string[] = [];
  for (const part of inner.split(/[,;]/)) {
    const p = part.trim();
    if (!p || /^claim\s*[:=]/iu.test(p)) continue;
    if (evidenceIds.has(p) || !/\s/.test(p)) ids.push(p);
    else ids.push(...p.split(/\s+/).filter(Boolean));
  }
  return ids;
}

function withMarkers(text: string, ids: string[], claimId: string): string {
  const marks = ids.map((id) => `[evidence: ${id}, claim: ${claimId}]`).join(" ");
  const m = /^(.*?)([.!?]+["'”’)]*)?$/su.exec(text.trim())!;
  return `${m[1].trimEnd()} ${marks}${m[2] ?? "."}`;
}

function rendered(kept: Array<{ text: string; ids: string[] }>): string {
  return kept.map((k, i) => withMarkers(k.text, k.ids, `CLM-${String(i + 1).padStart(3, "0")}`)).join(" ");
}

function stripMarkers(text: string): string {
  return text.replace(MARKER, " ").replace(GRAPH_MARKER, " ");
}

function stripTerminator(text: string): string {
  return text.replace(/[.!?]+["'”’)]*$/u, "");
}

/** Letters → A/a, digits → 9: "EV-Y-999" and "EV-Y-019" share a shape, "2025-04-12" does not. */
export function shapeOf(id: string): string {
  return id.replace(/\p{Lu}/gu, "A").replace(/\p{Ll}/gu, "a").replace(/\p{N}/gu, "9").replace(/9+/g, "9");
}

function normaliseForQuote(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const round2 = (x: number) => Math.round(x * 100) / 100;
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
