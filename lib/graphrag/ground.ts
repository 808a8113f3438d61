// Step 7b — Ground: is each claim supported by what it cites? (issue 13 §1). Deterministic, model-agnostic, pure.
//
// PUBLIC API (the contract with the offline answerer, lib/adapters/model/, which checks its own answers with it):
//
//   groundAnswer(answerText, context, { directives? }) → { claims: GroundedClaim[], counts }
//       Lexes the answer like validation does (claims.ts: sentences, and inside a sentence the clause each marker
//       group closes) and gives every clause a verdict against the evidence it cites. A clause citing nothing valid,
//       or reading as an instruction, is `unsupported`.
//   new SupportChecker(context)
//       .claim(text, evidenceIds) → SupportVerdict    one claim against the evidence snippets it cites
//       .step(claim, citations)   → SupportVerdict    an explanation step against the evidence, nodes and edges it cites
//       .unbacked(text)           → string[]          what prose outside the claims (an unknown, a justification, a
//                                                      refusal) names that nothing in the context or the question holds
//   SupportVerdict = { support: "supported" | "partial" | "unsupported", reasons: string[], gaps: string[] }
//       reasons quote the claim ("amount $58,500 not in EV-3"); gaps say the same without the claim's words ("an
//       amount not in EV-3"), for places that must not echo a withheld claim (the unknowns).
//
// What a claim is checked against ("its sources"):
// - an evidence id: the snippet text as the model saw it (neutralised), its metadata (id, type, source system,
//   collected date), the names and aliases of the case nodes the item is linked to, and the relationships between
//   those nodes in the context ("Dmitri Kovac ASSOCIATE OF Victor Marchetti") — the evidence that links both ends of a
//   relationship supports it;
// - a node id (explanation steps): its id, label, name and properties;
// - an edge (`source:TYPE:target` or its id): both endpoints' ids and names, the type and its properties.
//
// The verdict (documented in README "How answers are checked"):
// - unsupported — a number, amount, percentage, date, time or identifier of the claim is not in its sources, or a
//   figure is there only in another unit ("14 seconds" for "14 minutes", contradictions.ts) or the things it counts are
//   counted otherwise ("three casings" for "two casings"), or a time is there but not on the claim's date, or a day is
//   there but the source gives it to another event (moments.ts);
//   a named entity of the claim is not there at all; what the sources tell of one person or organisation is put on
//   another they name elsewhere (actors.ts; partial when the passage that tells it also names another of the claim's
//   parties); a value, party or act of one entry of a timed record is put with the time or the party of another
//   (entries.ts, `misbound`); two events a claim orders with "before" / "after" are the other way round in the timed
//   record that tells them (sequence.ts); two of its figures are compared the wrong way round, whatever it cites ("0.71
//   was above the threshold of 0.80", contradictions.ts); two named parties are the other way round around the same
//   verb ("A paid B" where the sources say only "B paid A", roles.ts; a call record's "incoming from" / "outgoing to",
//   calls.ts); words credited
//   to the wrong speaker of a transcript (speakers.ts); quoted text not in the sources word for word (quotes.ts); the
//   claim has a negation its sources lack; fewer than half of its content words (Porter-stemmed, an irregular verb's
//   forms as one, framing words such as "according", "states", "indicates" aside) are there; or it cites nothing valid,
//   or reads as an instruction.
// - partial — a name is there only in part ("Santos" for "Maria Santos"); half to three quarters of the content words
//   are there; the source sentence that says what the claim says (by its words and dates first, its names after)
//   negates a word the claim states positively, also beside a negation the claim keeps (a denial, "refused to", "ruled
//   out" and "no evidence that" negate as "not" does, and a question answered "No" negates what it asks); it rests
//   only on a question, which states no fact; it only reports as an assertion or a possibility ("alleged",
//   "reportedly", "most likely", "probable") what the claim states as fact; the sentence a clause of the claim rests on
//   says the opposite of one of its words ("unlocked" for "locked", "westbound" for "eastbound", "unwitnessed" for
//   "witnessed", "headlights off" for "headlights on") or speaks of a part where the claim says all ("two of the four"
//   for "all four"); or the claim has nothing that can be checked.
// - supported — everything else.
import { lexClauses } from "./claims";
import { boundedMemo } from "./memo";
import { contradictions, misCompared, type Contradiction } from "./contradictions";
import { isInstructionStatement, withoutLabels } from "./directives";
import { baseForm } from "./irregular";
import { reversedActs } from "./roles";
import { misordered, ORDERS } from "./sequence";
import { PartyReader } from "./actors";
import { callsInWords } from "./calls";
import { firstTime, timedEntries } from "./entries";
import { misdatedDays, misdatedTimes, momentsOf } from "./moments";
import { misattributed } from "./speakers";
import { misquoted } from "./quotes";
import { dateKeys, extractFacts, HAVE, idKey, joinedStem, figureTags, PARTICLES, porter, type Facts } from "./facts";
import type { ClaimSupport, ContextEdge, ContextNode, ContextSnippet, RawContext } from "./types";
import { escapeRegExp } from "./text";

export type { ClaimSupport };

export interface SupportVerdict {
  support: ClaimSupport;
  /** Why it is not `supported`, e.g. "amount $58,500 not in EV-3"; empty when supported. */
  reasons: string[];
  /** The reasons without the claim's own words ("an amount not in EV-3"): safe to show when the claim is withheld. */
  gaps: string[];
}

export interface GroundedClaim extends SupportVerdict {
  /** The clause, markers lifted out. */
  text: string;
  /** Cited evidence ids that are in the context. */
  evidenceIds: string[];
  /** Cited ids that are not. */
  invalidIds: string[];
}

export interface GroundedAnswer {
  claims: GroundedClaim[];
  counts: Record<ClaimSupport, number>;
}

/** Thresholds on the share of a claim's content words found in its sources. */
export const COVERAGE = { supported: 0.75, partial: 0.5 } as const;

/**
 * A claim giving a time is another entry's when the entries of that time hold under half of what it says and one other
 * entry three quarters or more (entries.ts).
 */
const ENTRY_OWN_SHARE = 0.5;
const ENTRY_OTHER_SHARE = 0.75;
/** The key of what a claim says, beside its values' places and its parties' numbers (misbound). */
const ACT = -1e6;

export function groundAnswer(answerText: string, context: RawContext, options: { directives?: readonly string[] } = {}): GroundedAnswer {
  const checker = new SupportChecker(context);
  const shown = new Set(context.evidenceSnippets.map((s) => s.id));
  const claims: GroundedClaim[] = [];
  for (const c of lexClauses(answerText, shown)) {
    const evidenceIds = c.ids.filter((id) => shown.has(id));
    const invalidIds = c.ids.filter((id) => !shown.has(id));
    let verdict: SupportVerdict;
    if (isInstructionStatement(c.text, options.directives)) {
      verdict = unsupported("reads as an instruction found in evidence, not a fact");
    } else if (!evidenceIds.length) {
      verdict = invalidIds.length
        ? {
            support: "unsupported",
            reasons: [`cites ${invalidIds.join(", ")}, not in the context`],
            gaps: ["cites ids not in the context"],
          }
        : unsupported("cites no evidence");
    } else {
      verdict = checker.claim(c.text, evidenceIds);
    }
    claims.push({ text: c.text, evidenceIds, invalidIds, ...verdict });
  }
  const counts = { supported: 0, partial: 0, unsupported: 0 };
  for (const c of claims) counts[c.support]++;
  return { claims, counts };
}

// ---------------------------------------------------------------------------------------------------------------

interface SourceIndex {
  /** Plain numbers, percentages, years of dates and bare amounts. */
  values: Set<number>;
  percents: Set<number>;
  amounts: Array<{ value: number; currency?: string }>;
  dates: Set<string>;
  years: Set<number>;
  times: Set<number>;
  /** Each time with the dates it falls under, and times no date governs (moments.ts). */
  moments: Set<string>;
  loose: Set<number>;
  ids: Set<string>;
  phones: string[];
  tokens: Set<string>;
  /** Porter stems of every word. */
  stems: Set<string>;
  /** Lower-case words joined by single spaces, padded, for multi-part identifiers written with spaces. */
  compact: string;
  sentences: Facts["sentences"];
  /** Some sentence negates, reports an assertion or asks: only then is a claim aligned with its sentences. */
  qualified: boolean;
  /** The texts as written, for who did what to whom (roles.ts). */
  texts: string[];
  /** The day an evidence item is dated by (when it was collected), as facts.ts tags it: a claim about the item may give it. */
  dated: Set<string>;
}

export class SupportChecker {
  private readonly snippets: Map<string, ContextSnippet>;
  private readonly nodes: Map<string, ContextNode>;
  private readonly edges: Map<string, ContextEdge>;
  private readonly cache = new Map<string, SourceIndex>();
  private readonly properNouns: Set<string>;
  /** What the sources tell of each person and organisation of the case (actors.ts). */
  private readonly parties: PartyReader;
  private everything?: SourceView;

  /** `question`: the investigator's question, whose own names and values prose outside the claims may repeat. */
  constructor(
    private readonly context: RawContext,
    private readonly question?: string,
  ) {
    this.snippets = new Map(context.evidenceSnippets.map((s) => [s.id, s]));
    this.nodes = new Map(context.nodes.map((n) => [n.id, n]));
    this.edges = new Map();
    for (const e of context.edges) {
      this.edges.set(e.id, e);
      this.edges.set(`${e.source}:${e.type}:${e.target}`, e);
    }
    this.properNouns = properNounsOf(context);
    this.parties = new PartyReader(
      context.nodes.filter((n) => PARTY_LABEL.test(n.label)).map((n) => ({ name: n.name, aliases: aliasesOf(n) })),
    );
  }

  /** A claim of the answer text against the evidence items it cites (ids not in the context are ignored). */
  claim(text: string, evidenceIds: readonly string[]): SupportVerdict {
    const ids = evidenceIds.filter((id) => this.snippets.has(id));
    if (!ids.length) return unsupported("cites no evidence in the context");
    const verdict = this.check(
      text,
      ids.map((id) => this.evidenceIndex(id)),
      ids.join(", "),
    );
    if (verdict.support === "unsupported") {
      const laundered = this.namedInsideOther(ids);
      if (laundered) {
        verdict.reasons.push(laundered);
        verdict.gaps.push(laundered);
      }
    }
    return verdict;
  }

  /** An explanation step against the evidence, nodes and edges it cites. */
  step(claim: string, citations: readonly string[]): SupportVerdict {
    const parts: SourceIndex[] = [];
    const used: string[] = [];
    for (const id of citations) {
      if (this.snippets.has(id)) parts.push(this.evidenceIndex(id));
      else if (this.nodes.has(id)) parts.push(this.nodeIndex(id));
      else if (this.edges.has(id)) parts.push(this.edgeIndex(this.edges.get(id)!));
      else continue;
      used.push(id);
    }
    if (!parts.length) return unsupported("cites nothing in the context");
    return this.check(claim, parts, used.join(", "));
  }

  // -------------------------------------------------------------------------------------------------------------

  /**
   * What free text nothing else checks (the model's confidence justification) states that no evidence item, node or
   * relationship shown holds: its amounts, dates, times, identifiers and names. Empty when every one is somewhere in
   * the context.
   */
  unbacked(text: string): string[] {
    // The whole context as one source, read once per checker (a justification is checked sentence by sentence), and
    // the question: what it names may be named back ("No visible evidence states Marta Quinn's address").
    this.everything ??= merge([
      ...this.context.evidenceSnippets.map((s) => this.evidenceIndex(s.id)),
      ...this.context.nodes.map((n) => this.nodeIndex(n.id)),
      ...this.context.edges.map((e) => this.edgeIndex(e)),
      ...(this.question ? [indexTexts([this.question], [])] : []),
    ]);
    const said = withoutLabels(text);
    const facts = extractFacts(said, { claim: true, properNouns: this.properNouns });
    // Counts and scores are the free text's own ("two sources agree", "confidence 0.8"); amounts are not.
    facts.numbers = facts.numbers.filter((n) => n.kind === "amount");
    const { hard, soft } = this.valueFindings(said, facts, this.everything, "the evidence shown");
    return [...hard, ...soft.filter((f) => f.reason.startsWith("name"))].map((f) => f.reason);
  }

  private check(text: string, parts: SourceIndex[], label: string): SupportVerdict {
    const src: SourceView = parts.length === 1 ? parts[0] : merge(parts);
    // A label the model quoted from what it saw is not a claim's word.
    const said = withoutLabels(text);
    const facts = extractFacts(said, { claim: true, properNouns: this.properNouns });
    const { hard, soft } = this.valueFindings(said, facts, src, label);

    // Two parties the other way round ("Marchetti paid Delaney" where the source has "Delaney paid Marchetti").
    if (facts.entities.length >= 2) {
      const parties = facts.entities.map((e) => e.tokens);
      // A call record's calls, in the words the order is read from ("Dmitri Kovac called Raymond Dunn", calls.ts).
      const calls = parts.flatMap((p) => this.recordOf(p)?.calls ?? []);
      for (const stated of reversedActs(text, calls.length ? [...src.texts, ...calls] : src.texts, parties)) {
        const [agent, patient] = [facts.entities[stated.agent].raw, facts.entities[stated.patient].raw];
        hard.push({
          at: facts.entities[stated.agent].at,
          reason: `in ${label} it is ${patient} who ${stated.word} ${agent}, not the other way round`,
          gap: `two parties the other way round in ${label}`,
        });
      }
    }

    // What its sources tell of another party, one the claim does not name ("Marchetti left first" where the item says
    // "Delaney leaves first" and names Marchetti elsewhere).
    const swapped = this.parties.toldOfAnother({ text, stems: facts.stems, entities: facts.entities.map((e) => e.tokens) }, src.texts);
    if (swapped)
      (swapped.sure ? hard : soft).push({
        at: LATE,
        reason: `in ${label} that is told of ${swapped.told}, not ${swapped.said}`,
        gap: `told of another party in ${label}`,
      });

    // A value taken from one entry of a log and put with the time or the party of another (entries.ts).
    hard.push(...this.misbound(facts, parts, label));
    // Two events in the other order than the record's entries tell them ("Kovac returns before the van parks" where the
    // van parks at 22:41 and Kovac returns at 22:50).
    for (const part of ORDERS.test(text) ? parts : []) {
      const record = this.recordOf(part);
      const order = record && misordered(text, record.entries);
      if (order)
        hard.push({
          at: LATE,
          reason: `in ${label} "${order.then}" (${order.thenAt}) comes before "${order.first}" (${order.firstAt})`,
          gap: `two events in the other order in ${label}`,
        });
    }
    // A day the source gives only to another event ("the wire of $450,000 on 2 May" where 2 May is the balance's).
    // A claim that speaks of a cited item itself ("EV-C-007 (surveillance note, 2025-04-13) states: …") may give its date.
    const aboutItem = label.split(", ").some((id) => text.includes(id));
    for (const d of misdatedDays(text, facts, src.sentences, aboutItem ? src.dated : new Set()))
      hard.push({ at: d.at, reason: `date ${d.raw} is told of another event in ${label}`, gap: `a date of another event in ${label}` });

    // Words credited to the wrong speaker ("Kovac admitted …" for what the detective said to him).
    const speaker = misattributed(text, facts.entities, src.texts);
    if (speaker)
      hard.push({
        at: LATE,
        reason: `in ${label} it is ${speaker.by} who says it, not ${speaker.said}`,
        gap: `another speaker's words in ${label}`,
      });

    // A quotation must be the source's own words ("Kovac said 'I killed him'").
    const quote = misquoted(withoutLabels(text), src.texts);
    if (quote) hard.push({ at: LATE, reason: `quotation "${quote}" not in ${label}`, gap: `a quotation not in ${label}` });

    // Negation: the claim's must be in the source sentences it rests on; a source negation of a word the claim
    // states positively makes it partial.
    const claimStems = new Set([...facts.stems, ...facts.entities.flatMap((e) => e.tokens.map(porter))]);
    // "Had" is a stopword, yet a source may deny having ("he did not have it on arrival", facts.ts).
    if (facts.tokens.some((t) => HAVE.test(t))) claimStems.add("have");
    // The figures it gives say which sentence it rests on too ("Put it at 305", not "don't put it all through").
    const claimFigures = new Set(facts.tokens.filter((t) => /\d/.test(t)));
    // Its dates, times and amounts, however written ("14th March 2022" = "14/03/2022").
    const claimValues = [...facts.dates, ...facts.times, ...facts.numbers].map(figureTags);
    // (Only when a negation or a hedge is in play: most claims and sources have none.)
    const sentences = facts.negations.length || src.qualified ? src.sentences : [];
    const nameStems = new Set(facts.entities.flatMap((e) => e.tokens.map(porter)));
    const overlaps = sentences.map((s) => {
      let said = 0;
      let named = 0;
      for (const t of claimStems) {
        if (!s.stems.has(t)) continue;
        if (nameStems.has(t)) named++;
        else said++;
      }
      for (const t of claimFigures) if (s.figures.has(t)) said++;
      for (const tags of claimValues) if (tags.some((t) => s.figures.has(t))) said++;
      return { said, named };
    });
    const alignBy = (score: (o: { said: number; named: number }) => number) => {
      const scores = overlaps.map(score);
      const top = Math.max(0, ...scores);
      return { top, sentences: top > 0 ? sentences.filter((_, i) => scores[i] === top) : sentences };
    };
    const { top: best, sentences: aligned } = alignBy((o) => o.said + o.named);
    // What the claim itself denies (the first word of each denied term).
    const deniedByClaim = new Set(facts.denied.filter((d): d is string => d !== null).map((d) => d.split(" ")[0]));
    if (facts.negations.length) {
      // In the sentence it rests on, or in any sentence that denies what it denies (a claim joining two sentences
      // rests on the one with more of its words: "X sent 14 transfers, and Quayside has no recorded lease").
      // A reply on its own ("No.") is found in a source sentence that is one.
      const bare = facts.denied.includes(null);
      const denies = (s: SourceView["sentences"][number]) =>
        s.negated.some((n) => (n === null ? bare : deniedByClaim.has(n.split(" ")[0])));
      if (!aligned.some((s) => s.negated.length) && !sentences.some(denies))
        hard.push({ at: LATE, reason: `negation "${facts.negations[0]}" not in ${label}`, gap: `a negation not in ${label}` });
    }
    // A word the claim states and the sentence it rests on denies. That sentence says what the claim says of the
    // things it names: names alone ("Redline Haulage Ltd", a heading naming them) do not make the sentence a claim rests
    // on; "We have never worked for Pellam Logistics" does, for "… worked for Pellam Logistics" — also when the claim
    // keeps another of its negations ("… and have never collected from their depot").
    const saying = alignBy((o) => o.said * SAID + o.named);
    // What the claim denies itself is no flip, nor, beside a denial of its own, a name: "Kovac denied killing Raymond
    // Dunn" rests on "Did you kill Raymond Dunn? No." whose "No" denies the names with the killing.
    const ownDenial = (t: string) =>
      deniedByClaim.has(t.split(" ")[0]) || (deniedByClaim.size > 0 && t.split(" ").every((w) => nameStems.has(w)));
    // When as close a sentence (by what the claim says, not by the names alone) states the word without denying it,
    // the claim rests on that one.
    const states = (t: string) =>
      saying.top >= SAID &&
      saying.sentences.some((s) => !s.question && !s.negated.includes(t) && t.split(" ").every((w) => s.stems.has(w)));
    const flipped =
      saying.top > 0
        ? saying.sentences
            .flatMap((s) => s.negated)
            .find((t) => t !== null && t.split(" ").every((w) => claimStems.has(w)) && !ownDenial(t) && !states(t))
        : undefined;
    if (flipped)
      soft.push({
        at: LATE,
        reason: `${label} negates "${flipped
          .split(" ")
          .map((w) => wordOf(facts, w))
          .join(" … ")}"`,
        gap: `${label} negates part of it`,
      });
    // What the cited sentence says against it: the opposite of one of its words, a part where it says all, a figure
    // in another unit (contradictions.ts).
    for (const c of contradictions(text, claimStems, src.texts)) {
      const finding = { at: LATE, reason: `${label} says "${c.told}", not "${c.said}"`, gap: CONTRADICTION_GAP[c.kind](label) };
      (c.kind === "quantity" || c.kind === "count" ? hard : soft).push(finding);
    }
    // Two figures compared the wrong way round ("0.71 was above the threshold of 0.80"): false whatever it cites.
    const compared = misCompared(text, facts.numbers);
    if (compared)
      hard.push({ at: LATE, reason: `${compared.said} is false: it is ${compared.told}`, gap: CONTRADICTION_GAP.comparison(label) });

    // A question states no fact: a claim that rests only on one ("REYES: Was the Tahoe yours?") is what was asked,
    // unless the claim says so ("Asked whether …, he said …").
    if (best > 0 && aligned.length && aligned.every((s) => s.question) && !/\basked\b|\bquestion(?:ed)?\b/i.test(text))
      soft.push({ at: LATE, reason: `${label} only asks it; it does not state it`, gap: `${label} only asks it` });

    // An assertion or a possibility stated as fact: the source says it was alleged or may have happened, the claim
    // says it happened.
    if (best > 0 && !facts.hedged && aligned.every((s) => s.hedged))
      soft.push({
        at: LATE,
        reason: `${label} reports it as an assertion or a possibility, not a fact`,
        gap: `${label} does not state it as fact`,
      });

    // Content words.
    const stems = [...new Set(facts.stems)];
    if (stems.length) {
      const absent = stems.filter((t) => !src.stems.has(t) && !src.stems.has(baseForm(t)) && !src.stems.has(facts.joined.get(t) ?? ""));
      const share = (stems.length - absent.length) / stems.length;
      if (share < COVERAGE.supported) {
        const words = absent.slice(0, 5).map((t) => wordOf(facts, t));
        const reason = `only ${stems.length - absent.length} of ${stems.length} content words in ${label} (missing: ${words.join(", ")}${absent.length > 5 ? ", …" : ""})`;
        (share < COVERAGE.partial ? hard : soft).push({
          at: LATE + 1,
          reason,
          gap: `${share < COVERAGE.partial ? "most" : "some"} of its words not in ${label}`,
        });
      }
    } else if (!facts.numbers.length && !facts.dates.length && !facts.times.length && !facts.ids.length && !facts.entities.length) {
      soft.push({
        at: LATE,
        reason: `nothing in the claim can be checked against ${label}`,
        gap: `nothing in it can be checked against ${label}`,
      });
    }

    const order = (a: Finding, b: Finding) => a.at - b.at;
    const all = hard.length ? [...hard.sort(order), ...soft.sort(order)] : soft.sort(order);
    return {
      support: hard.length ? "unsupported" : soft.length ? "partial" : "supported",
      reasons: all.map((f) => f.reason),
      gaps: all.map((f) => f.gap),
    };
  }

  /**
   * The claim's numbers, dates, times, identifiers and names that `src` does not hold (hard) or holds in part (soft).
   * `said` is the text `facts` were read from.
   */
  private valueFindings(said: string, facts: Facts, src: SourceView, label: string): { hard: Finding[]; soft: Finding[] } {
    const hard: Finding[] = [];
    const soft: Finding[] = [];
    const missing = (at: number, what: string, raw: string): Finding => ({
      at,
      reason: `${what} ${raw.trim()} not in ${label}`,
      gap: `${/^[aeiou]/.test(what) ? "an" : "a"} ${what} not in ${label}`,
    });

    for (const n of facts.numbers) {
      const v = round(n.value);
      const ok =
        n.kind === "amount"
          ? src.amounts.some((a) => round(a.value) === v && (!a.currency || !n.currency || a.currency === n.currency)) || src.values.has(v)
          : n.kind === "percent"
            ? src.percents.has(v) || src.values.has(v)
            : src.values.has(v) || src.percents.has(v) || src.amounts.some((a) => round(a.value) === v);
      if (!ok) hard.push(missing(n.at, n.kind === "amount" ? "amount" : n.kind === "percent" ? "percentage" : "number", n.raw));
    }
    for (const d of facts.dates) {
      const ok = d.readings.some((r) => {
        if (r.y !== undefined && r.m !== undefined && r.d !== undefined)
          return src.dates.has(`${r.y}-${r.m}-${r.d}`) || (src.dates.has(`--${r.m}-${r.d}`) && src.years.has(r.y));
        if (r.m !== undefined && r.d !== undefined) return src.dates.has(`--${r.m}-${r.d}`);
        return src.dates.has(`${r.y}-${r.m}`);
      });
      if (!ok) hard.push(missing(d.at, "date", d.raw));
    }
    for (const t of facts.times) if (!src.times.has(t.minutes)) hard.push(missing(t.at, "time", t.raw));
    for (const t of misdatedTimes(said, facts, src)) {
      const day = facts.dates[0].raw;
      hard.push({ at: t.at, reason: `time ${t.raw} not on ${day} in ${label}`, gap: `a time not on that date in ${label}` });
    }
    for (const id of facts.ids) {
      const ok =
        id.kind === "phone"
          ? src.phones.some((p) => p === id.key || (Math.min(p.length, id.key.length) >= 7 && (p.endsWith(id.key) || id.key.endsWith(p))))
          : src.ids.has(id.key) || spelledOut(src.compact, id.raw);
      if (!ok) hard.push(missing(id.at, id.kind === "phone" ? "phone number" : id.kind === "ip" ? "IP address" : "identifier", id.raw));
    }
    for (const e of facts.entities) {
      const found = e.tokens.filter((t) => src.tokens.has(t) || src.stems.has(porter(t)));
      if (found.length === 0) hard.push({ at: e.at, reason: `name "${e.raw}" not in ${label}`, gap: `a name not in ${label}` });
      else if (found.length < e.tokens.length)
        soft.push({ at: e.at, reason: `name "${e.raw}" only partly in ${label}`, gap: `a name only partly in ${label}` });
    }
    return { hard, soft };
  }

  /**
   * The claim's numbers, identifiers and parties that its sources hold only in entries of a timed record (a log, a
   * call record) other than the entry of the time the claim gives ("called +1-555-0143 at 01:22" where the record
   * has 01:22 to one number and 01:58 to that one), or only in entries told of another party, one the claim does not
   * name ("Ortega called for 2m14s" where the 2m14s call is Kovac's). A value the record's header holds, or another
   * cited source holds outside such a record, is bound to nothing.
   */
  private misbound(facts: Facts, parts: SourceIndex[], label: string): Finding[] {
    // Every finding here turns on a value of the claim, and on a time or a party it names.
    const values = [...facts.numbers, ...facts.ids, ...facts.times];
    const claimParties = this.parties.namedBy(facts.entities.map((e) => e.tokens));
    if (!values.length || (!facts.times.length && !claimParties.size)) return [];
    const records = parts.map((p) => this.recordOf(p));
    if (!records.some(Boolean)) return [];
    const timeAts = new Set(facts.times.map((t) => t.at));
    const held = (idx: SourceIndex) => {
      const missing = new Set(this.valueFindings("", { ...facts, dates: [], entities: [] }, idx, "").hard.map((f) => f.at));
      return (at: number) => !missing.has(at);
    };
    // Each value by its place in the claim, the act by ACT, each party by -1 - its number: held rightly by some cited
    // source, or only by entries of another time or party.
    const verdicts = new Map<number, { ok: boolean; finding?: Finding }>();
    const note = (at: number, finding?: Finding) => {
      const v = verdicts.get(at) ?? { ok: false };
      if (!finding) v.ok = true;
      else v.finding ??= finding;
      verdicts.set(at, v);
    };
    parts.forEach((part, i) => {
      const record = records[i];
      const inPart = held(part);
      if (!record) {
        // Prose binds nothing: what it holds stands, and it may tell the act or the party too.
        for (const v of values) if (inPart(v.at)) note(v.at);
        note(ACT);
        for (const p of claimParties) note(-1 - p);
        return;
      }
      const inHeader = held(record.header);
      const inEntry = record.entries.map((e) => held(e.index));
      // The entries of the claim's own times, and the claim's parties the record names only in its entries.
      const timed = record.entries.filter((_, k) => facts.times.some((t) => inEntry[k](t.at)));
      const when = facts.times.find((t) => record.entries.some((_, k) => inEntry[k](t.at)))?.raw;
      const bound = [...claimParties].filter((p) => !record.headerParties.has(p) && record.entries.some((e) => e.parties.has(p)));
      const others = (entries: typeof record.entries) => entries.flatMap((e) => [...e.parties]).filter((q) => !claimParties.has(q));
      for (const v of values) {
        if (!inPart(v.at)) continue;
        const holding = record.entries.filter((_, k) => inEntry[k](v.at));
        if (inHeader(v.at) || !holding.length || timeAts.has(v.at)) {
          note(v.at);
          continue;
        }
        if (timed.length && !holding.some((e) => timed.includes(e)))
          note(v.at, { at: v.at, reason: `in ${label} ${v.raw.trim()} is not at ${when}`, gap: `a value of another entry in ${label}` });
        else if (!timed.length && bound.length && !holding.some((e) => bound.some((p) => e.parties.has(p))) && others(holding).length)
          note(v.at, {
            at: v.at,
            reason: `in ${label} ${v.raw.trim()} is told of ${this.parties.nameOf(others(holding)[0])}, not ${this.parties.nameOf(bound[0])}`,
            gap: `a value of another party's entry in ${label}`,
          });
        else note(v.at);
      }
      // What the claim says at its time, told in another entry only ("Delaney arrived on foot at 21:46" where the
      // 21:46 entry has him leave and the 20:31 one arrive): the time's entries hold under half of it, another entry
      // three quarters or more.
      const act = [...new Set(facts.stems)];
      const size = act.length + values.length - timeAts.size;
      const holds = (entries: number[]) =>
        act.filter((t) => entries.some((k) => record.entries[k].index.stems.has(t) || record.entries[k].index.stems.has(baseForm(t))))
          .length + values.filter((v) => !timeAts.has(v.at) && entries.some((k) => inEntry[k](v.at))).length;
      const own = record.entries.flatMap((e, k) => (timed.includes(e) ? [k] : []));
      const need = size <= 2 ? size : Math.ceil(size * ENTRY_OTHER_SHARE);
      const elsewhere =
        own.length && size >= 2 && holds(own) / size < ENTRY_OWN_SHARE
          ? record.entries.findIndex((e, k) => !timed.includes(e) && holds([k]) >= need)
          : -1;
      note(
        ACT,
        elsewhere < 0
          ? undefined
          : {
              at: LATE,
              reason: `in ${label} that is not at ${when}: ${firstTime(record.entries[elsewhere].text) ?? "another entry"} tells it`,
              gap: `another entry's time in ${label}`,
            },
      );
      // A party of the claim at a time whose entries tell of another party only ("Kovac arrived at 20:12").
      for (const p of claimParties)
        note(
          -1 - p,
          bound.includes(p) && timed.length && !timed.some((e) => e.parties.has(p)) && others(timed).length
            ? {
                at: LATE,
                reason: `in ${label} at ${when} that is told of ${this.parties.nameOf(others(timed)[0])}, not ${this.parties.nameOf(p)}`,
                gap: `another party's entry in ${label}`,
              }
            : undefined,
        );
    });
    return [...verdicts.values()].flatMap((v) => (!v.ok && v.finding ? [v.finding] : []));
  }

  /** A source's timed record (entries.ts) with each entry's index and the parties it names; null for prose. */
  private recordOf(part: SourceIndex): TimedRecordIndex | null {
    const text = part.texts[0] ?? "";
    return recordMemo(`${this.parties.signature}\u0000${text}`, () => {
      const record = timedEntries(text);
      return (
        record && {
          header: buildIndex([record.header], []),
          headerParties: this.parties.namedIn(record.header),
          entries: record.entries.map((e) => ({ text: e, index: buildIndex([e], []), parties: this.parties.namedIn(e) })),
          calls: callsInWords(record, (text, except) => this.parties.principal(text, except)),
        }
      );
    });
  }

  /** "EV-2 is named inside EV-7's text": a cited id that only appears inside another item (citation laundering). */
  private namedInsideOther(ids: string[]): string | null {
    for (const id of ids) {
      const re = new RegExp(`(?<![\\p{L}\\p{N}-])${escapeRegExp(id)}(?![\\p{L}\\p{N}]|-\\p{N})`, "u");
      const other = this.context.evidenceSnippets.find((s) => s.id !== id && !ids.includes(s.id) && re.test(s.text));
      if (other) return `${id} is named inside ${other.id}'s text`;
    }
    return null;
  }

  private cached(key: string, build: () => SourceIndex): SourceIndex {
    let idx = this.cache.get(key);
    if (!idx) {
      idx = build();
      this.cache.set(key, idx);
    }
    return idx;
  }

  private evidenceIndex(id: string): SourceIndex {
    return this.cached(`ev\u0000${id}`, () => {
      const s = this.snippets.get(id)!;
      const linked = s.nodeIds.filter((n) => this.nodes.has(n));
      const linkedSet = new Set(linked);
      return buildIndex(
        [
          withoutLabels(s.text),
          `${s.id}. ${words(s.type)}. ${s.sourceSystem}. ${s.collectedAt}.`,
          ...linked.map((n) => nameText(this.nodes.get(n)!)),
          ...this.context.edges.filter((e) => linkedSet.has(e.source) && linkedSet.has(e.target)).map((e) => this.edgeText(e)),
        ],
        [s.id, ...linked],
        s.collectedAt,
      );
    });
  }

  private nodeIndex(id: string): SourceIndex {
    const n = this.nodes.get(id)!;
    return this.cached(`node\u0000${id}`, () => buildIndex([nameText(n), `${words(n.label)}.`, ...propertyTexts(n.properties)], [n.id]));
  }

  private edgeIndex(e: ContextEdge): SourceIndex {
    return this.cached(`edge\u0000${e.id}`, () => {
      const ends = [e.source, e.target].map((id) => this.nodes.get(id)).filter((n): n is ContextNode => !!n);
      return buildIndex([this.edgeText(e), ...ends.map(nameText), ...propertyTexts(e.properties)], [e.id, e.source, e.target]);
    });
  }

  private edgeText(e: ContextEdge): string {
    const name = (id: string) => this.nodes.get(id)?.name || id;
    return `${name(e.source)} ${words(e.type)} ${name(e.target)}.`;
  }
}

interface TimedRecordIndex {
  header: SourceIndex;
  headerParties: Set<number>;
  entries: Array<{ text: string; index: SourceIndex; parties: Set<number> }>;
  /** Its calls in plain words, when it is a call record (calls.ts). */
  calls: string[];
}

interface Finding {
  /** Where in the claim (for a stable order); whole-claim findings come after the positioned ones. */
  at: number;
  reason: string;
  gap: string;
}

const LATE = 1e9;
/** A word a claim says of what it names outweighs any number of its names, in aligning it with a sentence. */
const SAID = 1000;

const CONTRADICTION_GAP: Record<Contradiction["kind"], (label: string) => string> = {
  comparison: () => "two of its figures compared the wrong way round",
  opposite: (label) => `${label} says the opposite of part of it`,
  quantifier: (label) => `${label} speaks of only part of what it says`,
  quantity: (label) => `a figure in another unit in ${label}`,
  count: (label) => `another count in ${label}`,
};

const unsupported = (reason: string): SupportVerdict => ({ support: "unsupported", reasons: [reason], gaps: [reason] });

/** A source's timed record by the case's parties and its text, for the same reason. */
const recordMemo = boundedMemo<TimedRecordIndex | null>(500);

/** Indexes by content: the same evidence, nodes and edges recur across the answers of a case. */
const indexMemo = boundedMemo<SourceIndex>(500);

function buildIndex(texts: string[], ids: string[], dated?: string): SourceIndex {
  return indexMemo(`${ids.join("\u0001")}\u0002${texts.join("\u0001")}\u0002${dated ?? ""}`, () => indexTexts(texts, ids, dated));
}

function indexTexts(texts: string[], ids: string[], dated?: string): SourceIndex {
  const idx: SourceIndex = {
    values: new Set(),
    percents: new Set(),
    amounts: [],
    dates: new Set(),
    years: new Set(),
    times: new Set(),
    moments: new Set(),
    loose: new Set(),
    ids: new Set(),
    phones: [],
    tokens: new Set(),
    stems: new Set(),
    compact: " ",
    sentences: [],
    qualified: false,
    texts,
    dated: new Set(dated ? extractFacts(dated, { source: true }).dates.flatMap(figureTags) : []),
  };
  for (const id of ids) idx.ids.add(idKey(id));
  for (const text of texts) {
    const f = extractFacts(text, { source: true });
    for (const n of f.numbers) {
      if (n.kind === "percent") idx.percents.add(round(n.value));
      else if (n.kind === "amount" && n.currency) idx.amounts.push({ value: n.value, currency: n.currency });
      else idx.values.add(round(n.value));
    }
    for (const d of f.dates) {
      for (const r of d.readings) {
        for (const k of dateKeys(r)) idx.dates.add(k);
        if (r.y !== undefined) {
          idx.years.add(r.y);
          idx.values.add(r.y);
        }
      }
    }
    for (const t of f.times) idx.times.add(t.minutes);
    const m = momentsOf(text, f);
    m.moments.forEach((x) => idx.moments.add(x));
    m.loose.forEach((x) => idx.loose.add(x));
    for (const id of f.ids) {
      if (id.kind === "phone") idx.phones.push(id.key);
      else idx.ids.add(id.key);
    }
    let prev = "";
    // A record's abbreviation also reads as the words it stands for ("corporation no. 2011-0193377" says "number").
    for (const t of f.tokens) for (const w of ABBREVIATIONS[t]?.split(" ") ?? []) idx.stems.add(porter(w));
    if (/\bnos?\.\s*\d/i.test(text)) idx.stems.add(porter("number"));
    for (const t of f.tokens) {
      // "logged on" also reads as "logon", for a claim that writes it as one word.
      if (PARTICLES.has(t) && /^[a-z]{2,}$/.test(prev)) idx.stems.add(joinedStem(prev, t));
      prev = t;
      if (idx.tokens.has(t)) continue;
      idx.tokens.add(t);
      // Every word of a source counts for coverage and for names (stemmed, so "Kovac's"/"Kovac"; an irregular verb
      // also as its base form, so "drove" meets "drives" and "saw" meets "seen").
      if (/\d/.test(t)) continue;
      const stem = porter(t.includes("'") || t.includes("’") ? t.replace(/['’]/g, "") : t);
      idx.stems.add(stem);
      idx.stems.add(baseForm(stem));
    }
    idx.compact += text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ") + " ";
    idx.sentences.push(...f.sentences);
    if (f.sentences.some((x) => x.negated.length || x.hedged || x.question)) idx.qualified = true;
  }
  return idx;
}

/** Abbreviations of case records and the words a claim writes for them ("no." before a number is read apart). */
const ABBREVIATIONS: Record<string, string> = {
  tel: "telephone",
  dob: "date birth",
  acct: "account",
  ref: "reference",
  inv: "invoice",
  qty: "quantity",
  amt: "amount",
  reg: "registration registered",
  approx: "approximately",
  dept: "department",
  mgr: "manager",
  det: "detective",
  sgt: "sergeant",
  insp: "inspector",
  rd: "road",
  ave: "avenue",
};

type Has<T> = { has(value: T): boolean };
type SetKeys = "values" | "percents" | "dates" | "years" | "times" | "moments" | "loose" | "ids" | "tokens" | "stems" | "dated";
type SourceView = Omit<SourceIndex, SetKeys> & { [K in SetKeys]: Has<SourceIndex[K] extends Set<infer T> ? T : never> };

/** Several sources read as one, without copying their sets. */
function merge(parts: SourceIndex[]): SourceView {
  const any = <K extends SetKeys>(key: K) => ({ has: (v: never) => parts.some((p) => (p[key] as Set<unknown>).has(v)) });
  return {
    values: any("values"),
    percents: any("percents"),
    amounts: parts.flatMap((p) => p.amounts),
    dates: any("dates"),
    years: any("years"),
    times: any("times"),
    moments: any("moments"),
    loose: any("loose"),
    ids: any("ids"),
    phones: parts.flatMap((p) => p.phones),
    tokens: any("tokens"),
    stems: any("stems"),
    qualified: parts.some((p) => p.qualified),
    dated: any("dated"),
    texts: parts.flatMap((p) => p.texts),
    get compact() {
      return parts.map((p) => p.compact).join(" ");
    },
    get sentences() {
      return parts.flatMap((p) => p.sentences);
    },
  };
}

/** Words of the context that are names: node names, and capitalised words not at the start of a sentence. */
function properNounsOf(context: RawContext): Set<string> {
  const out = new Set<string>();
  for (const n of context.nodes) for (const w of namesIn(n.name, /\p{Lu}[\p{L}'’-]*/gu)) out.add(w);
  for (const s of context.evidenceSnippets) for (const w of namesIn(s.text, /(?<=[\p{L}\p{N},;)]\s+)\p{Lu}[\p{Ll}'’-]+/gu)) out.add(w);
  return out;
}

const namesMemo = boundedMemo<string[]>(1_000);

/** Capitalised words of a text (lower-cased), memoised by text. */
function namesIn(text: string, re: RegExp): string[] {
  return namesMemo(`${re.source}\u0000${text}`, () => [
    ...new Set(
      [...text.matchAll(re)].map((m) => m[0].replace(/['’]s$/u, "").toLowerCase()).filter((w) => w.length > 1 && !STOP_NAMES.has(w)),
    ),
  ]);
}

const STOP_NAMES = new Set([
  "the",
  "a",
  "an",
  "this",
  "that",
  "these",
  "those",
  "he",
  "she",
  "it",
  "they",
  "we",
  "i",
  "his",
  "her",
  "their",
  "on",
  "in",
  "at",
  "of",
  "and",
  "or",
  "but",
]);

/** Node labels of those who act: a claim that puts one's act on another is checked (actors.ts). */
const PARTY_LABEL = /^(?:person|organi[sz]ation|company|business)$/i;

function aliasesOf(n: ContextNode): string[] {
  return Object.entries(n.properties)
    .filter(([k]) => /alias|aka|nickname|also_known/i.test(k))
    .flatMap(([, v]) => (Array.isArray(v) ? v : [v]))
    .map(String);
}

function nameText(n: ContextNode): string {
  return [n.name, ...aliasesOf(n)].join(". ") + ".";
}

function propertyTexts(props: Record<string, unknown>): string[] {
  return Object.entries(props).map(([k, v]) => `${words(k)}: ${(Array.isArray(v) ? v : [v]).map(String).join(", ")}.`);
}

/** "MET_WITH" → "met with", "interview_transcript" → "interview transcript". */
function words(s: string): string {
  return s.replace(/[_-]+/g, " ").toLowerCase();
}

function spelledOut(compact: string, raw: string): boolean {
  const parts = raw
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return parts.length > 1 && compact.includes(` ${parts.join(" ")} `);
}

/** The claim's word for a stem: a content word as written, or the name it is part of ("Luis Ortega"). */
function wordOf(f: Facts, stem: string): string {
  const i = f.stems.indexOf(stem);
  if (i >= 0) return f.stemWords[i];
  return f.entities.find((e) => e.tokens.some((t) => porter(t) === stem))?.raw ?? stem;
}

const round = (x: number) => Math.round(x * 1e6) / 1e6;
