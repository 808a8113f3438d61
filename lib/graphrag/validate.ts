// Step 7 — Validate (seed 000 §3, seed 002). The model's output is distrusted: every cited id must be in the context
// the model was shown; invalid citations are stripped and counted; the answer is read as claims (claims.ts: sentences,
// and inside a sentence the clause each marker group closes) and a claim left with no valid citation is dropped; each
// remaining claim is checked against the text of what it cites (ground.ts) — unsupported claims are removed, partly
// supported ones kept and flagged; text that is or repeats an instruction found in evidence is never a claim
// (directives.ts); the inline markers and the citations array are made to agree (the final array is derived from the
// markers that survived, with server-assigned claim ids); an answer whose factual content has no valid, supported
// citation becomes `unable`; statements that take or recommend actions are removed; confidence is lowered for what
// was removed or only partly supported.
import { z } from "zod";
import { displayTexts, lexClauses, renderClauses, shapeOf, stripMarkers, type Clause, type RenderedClause } from "./claims";
import { neutralise, clip } from "./context";
import { isInstructionStatement } from "./directives";
import { SupportChecker, type ClaimSupport } from "./ground";
import { ACTION_VERB_PATTERN } from "./input";
import { squash, words, isIdLike } from "./text";
import { HARD_LIMITS, type AnswerClaim, type Citation, type ExplanationStep, type RawContext } from "./types";

export { shapeOf };

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
  /** Factual clauses dropped because no valid citation was left. */
  droppedUncitedClaims: number;
  /** Clauses dropped because they name an evidence-shaped id the model was not shown. */
  droppedInventedReferences: number;
  /** Clauses or steps dropped because they take or recommend an action. */
  droppedActionStatements: number;
  /** Claims dropped because what they cite does not support them (ground.ts). */
  droppedUnsupportedClaims: number;
  /** Claims or steps dropped because they are, or repeat, an instruction found in evidence (directives.ts). */
  droppedDirectives: number;
  /** All explanation steps dropped, whatever the reason; of them, those their citations do not support. */
  droppedSteps: number;
  droppedUnsupportedSteps: number;
  /** Steps kept although what they cite supports them only in part. */
  partialSteps: number;
  /** Verdicts of the claims that reached the support check (kept: supported, partial; removed: unsupported). */
  claimSupport: Record<ClaimSupport, number>;
  /** Why each removed unsupported claim went (at most 5), without its words ("an amount not in EV-3"). */
  unsupportedReasons: string[];
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
  /** The answer's claims in marker order, each with its support verdict (unsupported ones are removed). */
  claims: AnswerClaim[];
  explanationSteps: ExplanationStep[];
  /** The model's unknowns and its uncited statements of what the evidence does not say. */
  unknowns: string[];
  confidence: number;
  confidenceJustification: string;
  report: ValidationReport;
}

export interface ValidateOptions {
  /** Directives the context builder removed from the evidence (ContextBuild.directives): claims repeating them go. */
  directives?: readonly string[];
}

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

interface KeptClause extends Omit<Clause, "ids"> {
  ids: string[];
  support: Exclude<ClaimSupport, "unsupported">;
  reasons: string[];
}

export function validateAnswer(output: ModelOutput, context: RawContext, options: ValidateOptions = {}): ValidatedAnswer {
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
  const support = new SupportChecker(context);
  const directives = options.directives ?? [];
  const invalid = new Map<string, number>();
  const noteInvalid = (id: string) => invalid.set(id, (invalid.get(id) ?? 0) + 1);
  let neutralisedOutput = false;
  let droppedUncitedClaims = 0, droppedInventedReferences = 0, droppedActionStatements = 0, droppedSteps = 0;
  let droppedUnsupportedClaims = 0, droppedDirectives = 0, droppedUnsupportedSteps = 0, partialSteps = 0;
  const gapStatements: string[] = [];
  const unsupportedReasons: string[] = [];
  const isInstruction = (text: string) => isInstructionStatement(text, directives);

  const clean = (text: string) => {
    const n = neutralise(text);
    if (n.kinds.some((k) => k !== "citation_token" && k !== "control_chars")) neutralisedOutput = true;
    return squash(n.text.replace(/\[citation token removed\]/g, "")).replace(/\s+([.,;:!?])/g, "$1");
  };

  // 1. Answer text → clauses, each bound to the evidence ids of the markers that close it (claims.ts); then each
  //    claim against what it cites (ground.ts).
  const kept: KeptClause[] = [];
  const refused = output.responseType === "refused";
  if (!refused) {
    for (const c of lexClauses(output.answerText, evidenceIds)) {
      const valid = c.ids.filter((id) => evidenceIds.has(id));
      for (const id of c.ids) if (!evidenceIds.has(id)) noteInvalid(id);
      // Text that came from an instruction in evidence is never a claim, whichever model wrote it.
      if (isInstruction(c.text)) {
        neutralisedOutput = true;
        droppedDirectives++;
        continue;
      }
      const text = clean(c.text);
      if (!text || !/[\p{L}\p{N}]/u.test(text)) continue;
      // Ids in the prose that look like evidence ids but were not shown: invented references.
      const invented = words(text).filter((w) => isIdLike(w.raw) && !evidenceIds.has(w.raw) && !nodeIds.has(w.raw) && evidenceShapes.has(shapeOf(w.raw)));
      if (invented.length) {
        invented.forEach((w) => noteInvalid(w.raw));
        droppedInventedReferences++;
        continue;
      }
      if (isActionStatement(text) && !valid.some((id) => snippetText.get(id)!.includes(normaliseForQuote(text)))) {
        droppedActionStatements++;
        continue;
      }
      if (valid.length) {
        const verdict = support.claim(text, valid);
        if (verdict.support !== "unsupported") {
          kept.push({ ...c, text, ids: valid, support: verdict.support, reasons: verdict.reasons });
        } else if (GAP.test(text)) {
          gapStatements.push(asSentence(text, c.terminator)); // a cited statement of absence: an unknown, not a claim
        } else {
          droppedUnsupportedClaims++;
          // The gap, not the reason: the unknowns must not echo the withheld claim's own words.
          if (unsupportedReasons.length < 5) unsupportedReasons.push(verdict.gaps[0]);
        }
      } else if (GAP.test(text)) {
        gapStatements.push(asSentence(text, c.terminator));
      } else if (words(text).length >= 3 || /\d/.test(text)) {
        droppedUncitedClaims++;
      }
    }
  }

  // 2. The answer length limit: whole clauses only.
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
  const withIds = withClaimIds(kept);
  const citations: Citation[] = withIds
    .flatMap((k) => k.ids.map((evidenceId) => ({ evidenceId, claimId: k.claimId })))
    .sort((a, b) => cmp(a.evidenceId, b.evidenceId) || cmp(a.claimId, b.claimId));
  const answerText = renderClauses(withIds);
  const shownTexts = displayTexts(kept);
  const claims: AnswerClaim[] = withIds.map((k, i) => ({ claimId: k.claimId, text: shownTexts[i], evidenceIds: k.ids, support: k.support, reasons: k.reasons }));

  // 4. Explanation steps: only ids from the context (edges normalised to source:TYPE:target), each step supported by
  //    what it cites; empty, instruction-like, action and unsupported steps dropped.
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
      if (isInstruction(step.claim)) {
        neutralisedOutput = true;
        droppedDirectives++;
        droppedSteps++;
        continue;
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
      const verdict = support.step(claim, cites);
      if (verdict.support === "unsupported") {
        droppedUnsupportedSteps++;
        droppedSteps++;
        continue;
      }
      if (verdict.support === "partial") partialSteps++;
      steps.push({ stepNumber: steps.length + 1, claim: clip(claim, 1_000), citations: [...new Set(cites)] });
    }
  }

  // The model's own unknowns are free text too: one that repeats an instruction found in evidence goes.
  const unknowns = [...gapStatements, ...output.unknowns]
    .filter((u) => {
      if (!isInstruction(u)) return true;
      droppedDirectives++;
      return false;
    })
    .map((u) => clip(clean(u), 500))
    .filter((u, i, all) => u && all.indexOf(u) === i)
    .slice(0, 20);

  // 5. Outcome, confidence and what the model said it could not answer. Confidence: the model's, scaled by the share
  //    of its statements that survived, a partly supported claim counting half.
  const modelConfidence = output.confidence === null ? null : clamp01(output.confidence);
  const removed = droppedUncitedClaims + droppedInventedReferences + droppedActionStatements + droppedUnsupportedClaims + droppedDirectives;
  const partial = kept.filter((k) => k.support === "partial").length;
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
    confidence = round2(removed || partial ? (base * (kept.length - partial / 2)) / (kept.length + removed) : base);
    if (modelConfidence === null) justification = (justification ? justification + " " : "") + "The model gave no confidence score.";
    else if (confidence < base) {
      const why = [removed ? `${removed} statement(s) were removed in validation` : "", partial ? `${partial} claim(s) are only partly supported by what they cite` : ""].filter(Boolean).join("; ");
      justification = (justification ? justification + " " : "") + `Lowered from ${base.toFixed(2)} to ${confidence.toFixed(2)}: ${why}.`;
    }
  } else if (removed > 0) {
    responseType = "unable";
    text = UNABLE_TEXT;
    confidence = 0;
    const uncited = droppedUncitedClaims + droppedInventedReferences + droppedActionStatements;
    justification = [
      uncited ? `${uncited} statement(s) had no valid citation to evidence the model was shown` : "",
      droppedUnsupportedClaims ? `${droppedUnsupportedClaims} statement(s) were not supported by the evidence they cite` : "",
      droppedDirectives ? `${droppedDirectives} statement(s) repeated instructions found in evidence` : "",
    ].filter(Boolean).join("; ") + "; the answer was withheld.";
  } else {
    responseType = "no_evidence";
    text = NO_EVIDENCE_TEXT;
    confidence = modelConfidence ?? 0;
  }
  const invalidIds = [...invalid.keys()].sort(cmp);
  const answered = responseType === "answer";
  return {
    responseType,
    answerText: text,
    citations: answered ? citations : [],
    claims: answered ? claims : [],
    explanationSteps: answered ? steps : [],
    unknowns,
    confidence,
    confidenceJustification: justification,
    report: {
      invalidCitationIds: invalidIds,
      invalidCitationCount: [...invalid.values()].reduce((a, b) => a + b, 0),
      droppedUncitedClaims,
      droppedInventedReferences,
      droppedActionStatements,
      droppedUnsupportedClaims,
      droppedDirectives,
      droppedSteps,
      droppedUnsupportedSteps,
      partialSteps,
      claimSupport: {
        supported: answered ? kept.length - partial : 0,
        partial: answered ? partial : 0,
        unsupported: droppedUnsupportedClaims,
      },
      unsupportedReasons,
      markersWithoutEntry,
      entriesWithoutMarker,
      neutralisedOutput,
      shortened,
      allCitationsInContext: invalidIds.length === 0,
      modelConfidence,
    },
  };
}

function withClaimIds<T extends Omit<RenderedClause, "claimId">>(kept: T[]): Array<T & { claimId: string }> {
  return kept.map((k, i) => ({ ...k, claimId: `CLM-${String(i + 1).padStart(3, "0")}` }));
}

function rendered(kept: KeptClause[]): string {
  return renderClauses(withClaimIds(kept));
}

function asSentence(text: string, terminator: string): string {
  return `${text}${terminator || "."}`;
}

function normaliseForQuote(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const round2 = (x: number) => Math.round(x * 100) / 100;
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
