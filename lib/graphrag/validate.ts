// Step 7 — Validate (seed 000 §3, seed 002). The model's output is distrusted: every cited id must be in the context
// the model was shown; invalid citations are stripped and counted; the answer is read as claims (claims.ts: sentences,
// and inside a sentence the clause each marker group closes) and a claim left with no valid citation is dropped; each
// remaining claim is checked against the text of what it cites (ground.ts) — unsupported claims are removed, partly
// supported ones kept and flagged; text that is or repeats an instruction found in evidence is never a claim
// (directives.ts); the inline markers and the citations array are made to agree (the final array is derived from the
// markers that survived, with server-assigned claim ids); an answer whose factual content has no valid, supported
// citation becomes `unable`; statements that take or recommend actions are removed; confidence is lowered for what
// was removed or only partly supported.
import { displayTexts, lexClauses, renderClauses, shapeOf, stripMarkers, type Clause, type RenderedClause } from "./claims";
import { neutralise, clip } from "./context";
import { isInstructionStatement } from "./directives";
import { withoutForeignAddresses, withoutMarkupLinks } from "./links";
import { SupportChecker, type ClaimSupport } from "./ground";
import { ACTION_VERB_PATTERN } from "./input";
import { isIdLike, splitSentences, squash, words, wordsOnly } from "./text";
import type { ModelOutput } from "./model-output";
import { HARD_LIMITS, type AnswerClaim, type Citation, type ExplanationStep, type RawContext } from "./types";

/** Tag characters that spell ASCII (U+E0020–E007E). */
const TAG_TEXT = /[\u{e0020}-\u{e007e}]/u;

export { shapeOf };
export { parseModelOutput, type ModelOutput, type ParseResult } from "./model-output";

export const UNABLE_TEXT = "Unable to generate citation-backed answer";
export const NO_EVIDENCE_TEXT = "The evidence available to you in this case does not answer this question.";
export const NO_VISIBLE_EVIDENCE_TEXT = "No evidence is available for you to view in this case based on your current permissions.";

// ---------------------------------------------------------------------------------------------------------------
// Validation, one function per phase

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
  /** Images, active markup and addresses the evidence does not hold, removed from the model's text (links.ts). */
  removedLinks: number;
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
  /** The question asked: the model's unknowns and prose may name what it names. */
  question?: string;
}

// Statements of absence or uncertainty: not factual claims, so they need no citation (they become unknowns).
const GAP =
  /\b(?:(?:the|available|provided|visible)\s+(?:evidence|context|records?|graph|documents?|material)\s+(?:does|do|did)\s*(?:not|n't)|no\s+(?:available\s+|visible\s+|relevant\s+)?(?:evidence|record|information|item|document|mention)s?\b|(?:is|are|was|were|remains?)\s+(?:not\s+(?:documented|recorded|stated|mentioned|covered|known|established|clear|available|identified|determinable)|unknown|unclear|undetermined)|(?:cannot|can't|could\s+not|unable\s+to)\s+(?:be\s+)?(?:determine|confirm|establish|verify|identify|say|tell)|(?:does|do)\s+not\s+(?:say|state|show|mention|indicate|identify|establish|explain|specify|record)|not\s+(?:enough|sufficient)\s+(?:evidence|information)|insufficient\s+(?:evidence|information)|there\s+is\s+no\s+(?:evidence|record|information|indication))/iu;

// Statements that claim to have acted, tell someone to act, or recommend acting (seed 000 §3.1: read-only).
const ACTION_STATEMENTS = [
  new RegExp(
    String.raw`^(?:i|we)\s+(?:have|'ve|will|'ll|am going to|are going to|can|shall|just)\s+(?:now\s+|also\s+|already\s+)?(?:${ACTION_VERB_PATTERN})(?:s|es|ed|d|ing)?\b`,
    "iu",
  ),
  new RegExp(
    String.raw`\b(?:you|we|investigators|police|officers|detectives|the team|analysts|authorities)\s+(?:should|must|need to|ought to|have to)\s+(?:immediately\s+|now\s+|also\s+)?(?:${ACTION_VERB_PATTERN})\b`,
    "iu",
  ),
  new RegExp(
    String.raw`^(?:please\s+)?(?:${ACTION_VERB_PATTERN})\s+(?:the|this|that|these|those|him|her|them|it|all|every|his|their|its)\b`,
    "iu",
  ),
  /\b(?:i|we)\s+(?:would\s+)?(?:recommend|suggest|advise)\b/iu,
];
const isActionStatement = (text: string) => ACTION_STATEMENTS.some((re) => re.test(text));

/**
 * What an unknown may be: a statement that something is not known or not in the evidence, or the open question itself
 * ("Whether Kovac returned to the dock", "Who fired the shots?"), or a bare topic ("The motive"). A statement of fact
 * in the unknowns ("Kovac killed Dunn") would reach the reader with no citation and no check: it goes, as an uncited
 * statement in the answer text does.
 */
const UNCERTAIN =
  /\b(?:unknown|unclear|uncertain|unconfirmed|unverified|undetermined|unexplained|unresolved|unanswered|unidentified|unaccounted|unestablished|undocumented|unrecorded|unstated|not\s+(?:yet\s+|been\s+|fully\s+|clearly\s+)*(?:known|clear|confirmed|verified|established|documented|recorded|stated|mentioned|identified|determined|shown|explained|addressed|covered|available|visible|given|specified|provided|described|answered|traced|located|found)|(?:does|do|did)\s*(?:not|n['’]t)\s+(?:\w+\s+)?(?:say|state|show|mention|indicate|identify|establish|explain|specify|record|address|cover|answer|name|give|include|contain|confirm|prove|tell|describe|reveal)|no\s+(?:\w+\s+)?(?:evidence|record|information|indication|data|mention|document|item|statement|source|detail)s?|lacks?|lacking|missing|absent|pending|awaited|outstanding|unavailable|inconclusive|insufficient|uncorroborated|disputed|contested|ambiguous|conflicting|contradictory|speculative|not\s+enough|further\s+(?:evidence|information|investigation|analysis|inquir(?:y|ies)|enquir(?:y|ies))|beyond\s+(?:the\s+)?(?:evidence|context)|outside\s+(?:the\s+)?(?:evidence|context)|remains?\s+(?:open|to\s+be)|cannot\s+be|could\s+not\s+be)\b/iu;
const OPEN_QUESTION = /^\s*(?:whether|if|who|whom|whose|what|when|where|why|how|which)\b|\?\s*$/iu;
/** A finite verb: an auxiliary or a past tense ("Kovac is…", "Kovac killed…"); a topic ("The motive for the killing") has none. */
const FINITE = /\b(?:is|are|was|were|has|have|had|did|does|will|would|shall|should|must|can|could|may|might)\b|\b\p{L}{2,}ed\b/iu;
const isGapStatement = (text: string) => GAP.test(text) || UNCERTAIN.test(text) || OPEN_QUESTION.test(text) || !FINITE.test(text);

interface KeptClause extends Omit<Clause, "ids"> {
  ids: string[];
  support: Exclude<ClaimSupport, "unsupported">;
  reasons: string[];
}

/** What the phases below share: the context the model was shown, as lookups, and the tally of what was removed. */
class Review {
  readonly evidenceIds: Set<string>;
  readonly nodeIds: Set<string>;
  /** Edge ids and source:TYPE:target triples → the triple (steps cite edges either way). */
  readonly edgeRef = new Map<string, string>();
  readonly evidenceShapes: Set<string>;
  readonly snippetText: Map<string, string>;
  /** The evidence shown, lower-cased: an address in the model's free text must be found in it. */
  private readonly evidenceLower: string;
  readonly support: SupportChecker;
  readonly invalid = new Map<string, number>();
  neutralisedOutput = false;
  removedLinks = 0;
  droppedUncitedClaims = 0;
  droppedInventedReferences = 0;
  droppedActionStatements = 0;
  droppedSteps = 0;
  droppedUnsupportedClaims = 0;
  droppedDirectives = 0;
  droppedUnsupportedSteps = 0;
  partialSteps = 0;
  readonly unsupportedReasons: string[] = [];

  constructor(
    readonly context: RawContext,
    private readonly directives: readonly string[],
    question?: string,
  ) {
    this.evidenceIds = new Set(context.evidenceSnippets.map((s) => s.id));
    this.nodeIds = new Set(context.nodes.map((n) => n.id));
    for (const e of context.edges) {
      const triple = `${e.source}:${e.type}:${e.target}`;
      this.edgeRef.set(triple, triple);
      this.edgeRef.set(e.id, triple);
    }
    this.evidenceShapes = new Set([...this.evidenceIds].map(shapeOf));
    this.snippetText = new Map(context.evidenceSnippets.map((s) => [s.id, wordsOnly(s.text)]));
    this.evidenceLower = context.evidenceSnippets.map((s) => s.text.toLowerCase()).join("\n");
    this.support = new SupportChecker(context, question);
  }

  noteInvalid(id: string) {
    this.invalid.set(id, (this.invalid.get(id) ?? 0) + 1);
  }

  isInstruction(text: string) {
    return isInstructionStatement(text, this.directives);
  }

  /**
   * The model's text, neutralised like evidence (injection phrases, markup, citation tokens), without images or active
   * markup, whitespace tidied. A claim keeps its addresses: one its evidence lacks fails the claim check.
   */
  clean(text: string) {
    const n = neutralise(text);
    // Stray zero-width characters happen; text spelled in tag characters, which no reader sees, is an attack.
    if (n.kinds.some((k) => k !== "citation_token" && k !== "control_chars") || TAG_TEXT.test(text)) this.neutralisedOutput = true;
    const links = withoutMarkupLinks(n.text);
    this.noteLinks(links.changed);
    return squash(links.text.replace(/\[citation token removed\]/g, "")).replace(/\s+([.,;:!?])/g, "$1");
  }

  /** Free text nothing checks (unknowns, justification, a refusal): also no address the evidence shown lacks. */
  cleanFree(text: string) {
    const addresses = withoutForeignAddresses(this.clean(text), this.evidenceLower);
    this.noteLinks(addresses.changed);
    return addresses.text;
  }

  private noteLinks(changed: number) {
    if (!changed) return;
    this.removedLinks += changed;
    this.neutralisedOutput = true;
  }

  get removed() {
    return (
      this.droppedUncitedClaims +
      this.droppedInventedReferences +
      this.droppedActionStatements +
      this.droppedUnsupportedClaims +
      this.droppedDirectives
    );
  }
}

export function validateAnswer(output: ModelOutput, context: RawContext, options: ValidateOptions = {}): ValidatedAnswer {
  const review = new Review(context, options.directives ?? [], options.question);
  const refused = output.responseType === "refused";
  const { kept, gapStatements } = refused ? { kept: [], gapStatements: [] } : checkClauses(review, output.answerText);
  const shortened = limitLength(kept);
  const cited = reconcileCitations(review, output, kept, refused);
  const steps = refused || !kept.length ? [] : checkSteps(review, output.explanationSteps);
  const unknowns = modelUnknowns(review, [...gapStatements, ...output.unknowns]);
  const outcome = outcomeOf(review, output, kept, cited.answerText, refused);
  const invalidIds = [...review.invalid.keys()].sort(cmp);
  const answered = outcome.responseType === "answer";
  const partial = kept.filter((k) => k.support === "partial").length;
  const { modelConfidence: _model, ...answer } = outcome;
  return {
    ...answer,
    citations: answered ? cited.citations : [],
    claims: answered ? cited.claims : [],
    explanationSteps: answered ? steps : [],
    unknowns,
    report: {
      invalidCitationIds: invalidIds,
      invalidCitationCount: [...review.invalid.values()].reduce((a, b) => a + b, 0),
      droppedUncitedClaims: review.droppedUncitedClaims,
      droppedInventedReferences: review.droppedInventedReferences,
      droppedActionStatements: review.droppedActionStatements,
      droppedUnsupportedClaims: review.droppedUnsupportedClaims,
      droppedDirectives: review.droppedDirectives,
      droppedSteps: review.droppedSteps,
      droppedUnsupportedSteps: review.droppedUnsupportedSteps,
      partialSteps: review.partialSteps,
      claimSupport: {
        supported: answered ? kept.length - partial : 0,
        partial: answered ? partial : 0,
        unsupported: review.droppedUnsupportedClaims,
      },
      unsupportedReasons: review.unsupportedReasons,
      markersWithoutEntry: cited.markersWithoutEntry,
      entriesWithoutMarker: cited.entriesWithoutMarker,
      neutralisedOutput: review.neutralisedOutput,
      removedLinks: review.removedLinks,
      shortened,
      allCitationsInContext: invalidIds.length === 0,
      modelConfidence: outcome.modelConfidence,
    },
  };
}

/**
 * 1. The answer text → clauses, each bound to the evidence ids of the markers that close it (claims.ts); then each
 *    claim against what it cites (ground.ts). Cited statements of absence become unknowns, not claims.
 */
function checkClauses(review: Review, answerText: string): { kept: KeptClause[]; gapStatements: string[] } {
  const kept: KeptClause[] = [];
  const gapStatements: string[] = [];
  for (const c of lexClauses(answerText, review.evidenceIds)) {
    const valid = c.ids.filter((id) => review.evidenceIds.has(id));
    for (const id of c.ids) if (!review.evidenceIds.has(id)) review.noteInvalid(id);
    // Text that came from an instruction in evidence is never a claim, whichever model wrote it.
    if (review.isInstruction(c.text)) {
      review.neutralisedOutput = true;
      review.droppedDirectives++;
      continue;
    }
    const text = review.clean(c.text);
    if (!text || !/[\p{L}\p{N}]/u.test(text)) continue;
    // Ids in the prose that look like evidence ids but were not shown: invented references.
    const invented = words(text).filter(
      (w) => isIdLike(w.raw) && !review.evidenceIds.has(w.raw) && !review.nodeIds.has(w.raw) && review.evidenceShapes.has(shapeOf(w.raw)),
    );
    if (invented.length) {
      invented.forEach((w) => review.noteInvalid(w.raw));
      review.droppedInventedReferences++;
      continue;
    }
    if (isActionStatement(text) && !valid.some((id) => review.snippetText.get(id)!.includes(wordsOnly(text)))) {
      review.droppedActionStatements++;
      continue;
    }
    if (valid.length) {
      const verdict = review.support.claim(text, valid);
      if (verdict.support !== "unsupported") {
        kept.push({ ...c, text, ids: valid, support: verdict.support, reasons: verdict.reasons });
      } else if (GAP.test(text)) {
        gapStatements.push(asSentence(text, c.terminator)); // a cited statement of absence: an unknown, not a claim
      } else {
        review.droppedUnsupportedClaims++;
        // The gap, not the reason: the unknowns must not echo the withheld claim's own words.
        if (review.unsupportedReasons.length < 5) review.unsupportedReasons.push(verdict.gaps[0]);
      }
    } else if (GAP.test(text)) {
      gapStatements.push(asSentence(text, c.terminator));
    } else if (words(text).length >= 3 || /\d/.test(text)) {
      review.droppedUncitedClaims++;
    }
  }
  return { kept, gapStatements };
}

/** 2. The answer length limit, met with whole clauses (a lone over-long clause is cut). True when something went. */
function limitLength(kept: KeptClause[]): boolean {
  let shortened = false;
  while (kept.length > 1 && rendered(kept).length > HARD_LIMITS.maxAnswerChars) {
    kept.pop();
    shortened = true;
  }
  if (kept.length === 1 && rendered(kept).length > HARD_LIMITS.maxAnswerChars) {
    kept[0] = { ...kept[0], text: clip(kept[0].text, HARD_LIMITS.maxAnswerChars - 200) };
    shortened = true;
  }
  return shortened;
}

/** 3. The citations array vs the markers: the array is rebuilt from the surviving markers; disagreements are counted. */
function reconcileCitations(review: Review, output: ModelOutput, kept: KeptClause[], refused: boolean) {
  const markerIds = new Set(kept.flatMap((k) => k.ids));
  const arrayIds = new Set<string>();
  for (const c of output.citations) {
    const id = c.evidenceId.trim();
    if (!review.evidenceIds.has(id)) review.noteInvalid(id);
    else arrayIds.add(id);
  }
  const withIds = withClaimIds(kept);
  const shownTexts = displayTexts(kept);
  return {
    markersWithoutEntry: refused ? 0 : [...markerIds].filter((id) => !arrayIds.has(id)).length,
    entriesWithoutMarker: refused ? 0 : [...arrayIds].filter((id) => !markerIds.has(id)).length,
    citations: withIds
      .flatMap((k) => k.ids.map((evidenceId) => ({ evidenceId, claimId: k.claimId })))
      .sort((a, b) => cmp(a.evidenceId, b.evidenceId) || cmp(a.claimId, b.claimId)) as Citation[],
    claims: withIds.map((k, i) => ({
      claimId: k.claimId,
      text: shownTexts[i],
      evidenceIds: k.ids,
      support: k.support,
      reasons: k.reasons,
    })) as AnswerClaim[],
    answerText: renderClauses(withIds),
  };
}

/**
 * 4. Explanation steps: only ids from the context (edges normalised to source:TYPE:target), each step supported by
 *    what it cites; empty, instruction-like, action and unsupported steps dropped.
 */
function checkSteps(review: Review, raw: ModelOutput["explanationSteps"]): ExplanationStep[] {
  const steps: ExplanationStep[] = [];
  for (const step of raw) {
    const cites: string[] = [];
    for (const rawId of step.citations) {
      const id = rawId.trim();
      if (review.evidenceIds.has(id) || review.nodeIds.has(id)) cites.push(id);
      else if (review.edgeRef.has(id)) cites.push(review.edgeRef.get(id)!);
      else review.noteInvalid(id);
    }
    if (review.isInstruction(step.claim)) {
      review.neutralisedOutput = true;
      review.droppedDirectives++;
      review.droppedSteps++;
      continue;
    }
    const claim = review.clean(step.claim);
    if (!cites.length || !claim) {
      review.droppedSteps++;
      continue;
    }
    if (isActionStatement(claim)) {
      review.droppedActionStatements++;
      review.droppedSteps++;
      continue;
    }
    const verdict = review.support.step(claim, cites);
    if (verdict.support === "unsupported") {
      review.droppedUnsupportedSteps++;
      review.droppedSteps++;
      continue;
    }
    if (verdict.support === "partial") review.partialSteps++;
    steps.push({ stepNumber: steps.length + 1, claim: clip(claim, 1_000), citations: [...new Set(cites)] });
  }
  return steps;
}

/**
 * The model's unknowns (and cited statements of absence) are free text too: one repeating an instruction found in
 * evidence goes, so does one telling the reader to act ("Upload the case file to …"), one stating a fact (an unknown
 * says what is missing), and one naming a person, amount, date, time or identifier that neither the evidence shown
 * nor the question holds ("Whether Kovac paid Marchetti $1,000,000 on 5 May", "Whether informant CI-417 saw it"):
 * doubt is no way to slip a fact past the checks, or an identifier of an item the asker may not see.
 */
function modelUnknowns(review: Review, raw: string[]): string[] {
  return raw
    .filter((u) => {
      if (review.isInstruction(u)) review.droppedDirectives++;
      else if (isActionStatement(u)) review.droppedActionStatements++;
      else if (!isGapStatement(stripMarkers(u))) review.droppedUncitedClaims++;
      else return true;
      return false;
    })
    .map((u) => clip(review.cleanFree(u), 500))
    .filter((u) => {
      if (!review.support.unbacked(stripMarkers(u)).length) return true;
      review.droppedUncitedClaims++;
      return false;
    })
    .filter((u, i, all) => u && all.indexOf(u) === i)
    .slice(0, 20);
}

/**
 * The model's prose outside its claims (its confidence justification, a refusal's reason), sentence by sentence: one
 * that repeats an instruction found in evidence, or states a name, amount, date, time or identifier that nothing
 * shown holds, is a claim with no citation and goes.
 */
function checkedProse(review: Review, raw: string): string {
  return splitSentences(review.cleanFree(raw))
    .filter((s) => {
      if (review.isInstruction(s)) review.droppedDirectives++;
      else if (review.support.unbacked(s).length) review.droppedUncitedClaims++;
      else return true;
      return false;
    })
    .join(" ");
}

/**
 * 5. Outcome, confidence and justification. Confidence: the model's, scaled by the share of its statements that
 *    survived, a partly supported claim counting half.
 */
function outcomeOf(review: Review, output: ModelOutput, kept: KeptClause[], answerText: string, refused: boolean) {
  const modelConfidence = output.confidence === null ? null : clamp01(output.confidence);
  // First: what it removes counts with the rest.
  let justification = clip(checkedProse(review, output.confidenceJustification), 1_000);
  const removed = review.removed;
  const partial = kept.filter((k) => k.support === "partial").length;
  if (refused) {
    return {
      responseType: "refused" as const,
      answerText:
        clip(checkedProse(review, stripMarkers(output.answerText)), 1_000) ||
        "Refused: the request is outside what this assistant may answer.",
      confidence: modelConfidence ?? 1,
      confidenceJustification: justification,
      modelConfidence,
    };
  }
  if (kept.length) {
    const base = modelConfidence ?? 0;
    const confidence = round2(removed || partial ? (base * (kept.length - partial / 2)) / (kept.length + removed) : base);
    if (modelConfidence === null) justification = (justification ? justification + " " : "") + "The model gave no confidence score.";
    else if (confidence < base) {
      const why = [
        removed ? `${removed} statement(s) were removed in validation` : "",
        partial ? `${partial} claim(s) are only partly supported by what they cite` : "",
      ]
        .filter(Boolean)
        .join("; ");
      justification = (justification ? justification + " " : "") + `Lowered from ${base.toFixed(2)} to ${confidence.toFixed(2)}: ${why}.`;
    }
    return { responseType: "answer" as const, answerText, confidence, confidenceJustification: justification, modelConfidence };
  }
  if (removed > 0) {
    const uncited = review.droppedUncitedClaims + review.droppedInventedReferences + review.droppedActionStatements;
    return {
      responseType: "unable" as const,
      answerText: UNABLE_TEXT,
      confidence: 0,
      confidenceJustification:
        [
          uncited ? `${uncited} statement(s) had no valid citation to evidence the model was shown` : "",
          review.droppedUnsupportedClaims
            ? `${review.droppedUnsupportedClaims} statement(s) were not supported by the evidence they cite`
            : "",
          review.droppedDirectives ? `${review.droppedDirectives} statement(s) repeated instructions found in evidence` : "",
        ]
          .filter(Boolean)
          .join("; ") + "; the answer was withheld.",
      modelConfidence,
    };
  }
  return {
    responseType: "no_evidence" as const,
    answerText: NO_EVIDENCE_TEXT,
    confidence: modelConfidence ?? 0,
    confidenceJustification: justification,
    modelConfidence,
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

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const round2 = (x: number) => Math.round(x * 100) / 100;
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
