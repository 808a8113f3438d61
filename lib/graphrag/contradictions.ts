// What a cited source says against a claim whose words, names and figures it has (issue 13 §1): the opposite of one of
// its words ("unlocked" where the claim says "locked"), a part where the claim says all ("two of the four" for "all
// four"), a figure with another unit ("14 seconds" for "14 minutes"), and another count of the same things ("three
// shell casings" where the source has "two 9mm shell casings"), and two figures compared the wrong way round ("0.71 was
// above the threshold of 0.80"). Word overlap cannot see these — the words are there. A state is read clause by clause
// against the sentence each clause rests on; a quantifier against the sentences the whole claim shares most words with.
// Pure.
import { countOf, porter, type NumberFact } from "./facts";
import { boundedMemo } from "./memo";
import { isStopword, splitSentences, words } from "./text";

export interface Contradiction {
  kind: "opposite" | "quantifier" | "quantity" | "count" | "comparison";
  /** The claim's words. */
  said: string;
  /** What the source says instead. */
  told: string;
}

/**
 * Pairs of words for states that exclude each other: a claim's "locked" is contradicted by a cited "unlocked". Not the
 * converses of a relation ("before"/"after", "bought"/"sold", "incoming"/"outgoing", "inbound"/"outbound", "more"/"less",
 * "above"/"below", "upstream"/"downstream", "north"/"south", "inside"/"outside"): "B arrived after A left" is "A left before
 * B arrived", a call outgoing from one phone is incoming on the other, and the point upstream of the outfall has the
 * outfall downstream of it. A heading ("eastbound") is one movement's own, as a contributor's share ("major") is.
 */
const OPPOSITES: ReadonlyArray<readonly [string, string]> = [
  ["increased", "decreased"],
  ["rose", "fell"],
  ["arrived", "departed"],
  ["arrival", "departure"],
  ["entered", "exited"],
  ["enters", "exits"],
  ["positive", "negative"],
  ["opened", "closed"],
  ["locked", "unlocked"],
  ["present", "absent"],
  ["alive", "dead"],
  ["armed", "unarmed"],
  ["conscious", "unconscious"],
  ["eastbound", "westbound"],
  ["northbound", "southbound"],
  ["major", "minor"],
  ["male", "female"],
  ["intact", "broken"],
  ["intact", "damaged"],
  ["genuine", "fake"],
  ["genuine", "forged"],
  ["genuine", "counterfeit"],
  ["accepted", "rejected"],
  ["accepted", "declined"],
  ["approved", "rejected"],
  ["approved", "declined"],
  ["granted", "refused"],
  ["passed", "failed"],
  ["succeeded", "failed"],
  ["successful", "failed"],
  ["guilty", "innocent"],
  ["empty", "full"],
  ["stationary", "moving"],
  // Negative prefixes other than "un-" and "non-" (below), which make false friends too often to be read as a rule
  // ("inform", "import", "inpatient").
  ["legal", "illegal"],
  ["valid", "invalid"],
  ["consistent", "inconsistent"],
  ["correct", "incorrect"],
  ["accurate", "inaccurate"],
  ["complete", "incomplete"],
  ["conclusive", "inconclusive"],
  ["active", "inactive"],
  ["sufficient", "insufficient"],
  ["possible", "impossible"],
  ["regular", "irregular"],
  ["proper", "improper"],
  ["direct", "indirect"],
  ["formal", "informal"],
  ["admissible", "inadmissible"],
  ["eligible", "ineligible"],
  ["legible", "illegible"],
  ["compatible", "incompatible"],
  ["solvent", "insolvent"],
];
const OPPOSITE = new Map<string, Set<string>>();
for (const [a, b] of OPPOSITES)
  for (const [x, y] of [
    [a, b],
    [b, a],
  ])
    OPPOSITE.set(x, new Set([...(OPPOSITE.get(x) ?? []), y]));
/** Words that begin like a negative prefix and are not one ("understood", "unique", "until"). */
const NOT_PREFIXED = /^(?:under|unit|union|uniq|unison|univers|uniform|unanim|unless|until|unto|unravel|nonce|nonsense|nonetheless)/;
/** Bases that are other words too: "unwell" is not the opposite of "as well". */
const FALSE_BASES = new Set(["well"]);

/** A word a negative prefix may be put on: "witnessed" (→ "unwitnessed"), not "well" or "was". */
const negatable = (w: string) => /^\p{L}{4,}$/u.test(w) && !isStopword(w) && !FALSE_BASES.has(w);

/**
 * What each word of a source states the opposite of: its listed opposites, and the same word with or without "un-" or
 * "non-" ("unwitnessed" against "witnessed", "compliant" against "non-compliant"). Keyed by the claim's word, read once
 * per source text, so a claim's words are looked up rather than turned into their opposites one by one.
 */
const opposedIn = boundedMemo<Map<string, string[]>>(1_000);
function opposedBy(text: string): Map<string, string[]> {
  return opposedIn(text, () => {
    const out = new Map<string, string[]>();
    const add = (claimWord: string, sourceWord: string) => out.set(claimWord, [...(out.get(claimWord) ?? []), sourceWord]);
    for (const s of new Set(words(text).map((w) => w.lower))) {
      for (const o of OPPOSITE.get(s) ?? []) add(o, s);
      // "off" in a source may state the opposite of a claim's "on" (read with the word before it, oppositeStates).
      const particle = PARTICLE_OPPOSITE.get(s);
      if (particle) add(particle, s);
      for (const prefix of ["un", "non-", "non"]) if (unprefixed(prefix + s) === s) add(prefix + s, s);
      const base = /^(?:un|non-?)(.+)$/u.exec(s)?.[1];
      if (base && negatable(base)) add(base, s);
    }
    return out;
  });
}
/** The word a negative prefix was put on ("unwitnessed" → "witnessed"). */
function unprefixed(w: string): string | undefined {
  const base = NOT_PREFIXED.test(w) ? undefined : /^(?:un|non-?)(\p{L}{4,})$/u.exec(w)?.[1];
  return base && !isStopword(base) && !FALSE_BASES.has(base) ? base : undefined;
}

/** A word's opposite when it is listed or carries a negative prefix: what a model turning a state round would write. */
export function oppositeOf(w: string): string | undefined {
  return OPPOSITE.get(w)?.values().next().value ?? unprefixed(w);
}

/** A light switched "on" or "off": the word before the particle says what. */
const PARTICLE_OPPOSITE = new Map([
  ["on", "off"],
  ["off", "on"],
]);
/** Where a claim's clause ends: a comma, semicolon or full stop, or a conjunction between two clauses or two events. */
const CLAUSE_BREAK = /[,;.]\s|\s(?:and|but|while|whereas|then|before|after|until|because|although)\s/giu;

/** "All four", "every one of", "both": the claim speaks of the whole. */
const WHOLE = /\b(?:all|every one of|each of|both)\b/i;
/** "Two of the four", "some of the", "most of those": the source speaks of a part. */
const PART =
  /\b(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|some|several|most|few|many|half|none|neither|only one|only two)\s+of\s+(?:the|these|those|his|her|their|its|our|all)(?:\s+[\p{L}\p{N}]+)?/iu;

/** Units a figure is measured in, by their written forms: "14 minutes" and "14 min" are one quantity. */
const UNIT_FORMS: Record<string, string[]> = {
  second: ["s", "sec", "secs", "second", "seconds"],
  minute: ["min", "mins", "minute", "minutes"],
  hour: ["h", "hr", "hrs", "hour", "hours"],
  day: ["day", "days"],
  week: ["week", "weeks"],
  month: ["month", "months"],
  year: ["year", "years", "yr", "yrs"],
  mg: ["mg", "milligram", "milligrams", "milligramme", "milligrammes"],
  g: ["g", "gram", "grams", "gramme", "grammes"],
  kg: ["kg", "kgs", "kilo", "kilos", "kilogram", "kilograms", "kilogramme", "kilogrammes"],
  tonne: ["t", "tonne", "tonnes", "ton", "tons"],
  mm: ["mm", "millimetre", "millimetres", "millimeter", "millimeters"],
  cm: ["cm", "centimetre", "centimetres", "centimeter", "centimeters"],
  m: ["m", "metre", "metres", "meter", "meters"],
  km: ["km", "kilometre", "kilometres", "kilometer", "kilometers"],
  mile: ["mile", "miles", "mi"],
  mph: ["mph"],
  kmh: ["km/h", "kph", "kmh"],
  ml: ["ml", "millilitre", "millilitres", "milliliter", "milliliters"],
  l: ["l", "litre", "litres", "liter", "liters"],
  knot: ["knot", "knots", "kn", "kt"],
};
const UNIT = new Map(Object.entries(UNIT_FORMS).flatMap(([unit, forms]) => forms.map((f) => [f, unit] as const)));
const QUANTITY = /(?<![\p{L}\p{N}.,:])(\d+(?:,\d{3})*(?:\.\d+)?)\s?(km\/h|[a-z]+)\b/giu;

/** The figures of `text` with the units they are measured in: "14 minutes" → "14 minute". */
function quantities(text: string): Array<{ value: number; unit: string; raw: string }> {
  return [...text.matchAll(QUANTITY)].flatMap((m) => {
    const unit = UNIT.get(m[2].toLowerCase());
    return unit ? [{ value: Number(m[1].replace(/,/g, "")), unit, raw: m[0] }] : [];
  });
}

/** Plurals without an "s". */
const PLURALS = new Set(["men", "women", "people", "children", "police", "staff", "crew", "sheep", "fish", "feet", "teeth", "mice"]);
/** How many words may describe the things counted ("two 9mm shell casings"). */
const COUNT_REACH = 3;

/**
 * The counts of `text`: a count ("20", "two"), up to two words that describe, and the things counted in the plural
 * ("20 glassine bags" → 20 "bag"); a unit ("14 minutes") is a quantity, not a count. Read within a line and a sentence
 * ("36,122.90.\nBags seized: 15" counts no bags).
 */
function counts(text: string): Array<{ value: number; thing: string; raw: string }> {
  return text.split(/\n|[.!?;](?=\s|$)/u).flatMap(countsIn);
}

function countsIn(text: string): Array<{ value: number; thing: string; raw: string }> {
  const ws = words(text);
  const out: Array<{ value: number; thing: string; raw: string }> = [];
  ws.forEach((w, i) => {
    const value = countOf(w.lower);
    if (value === undefined) return;
    for (const next of ws.slice(i + 1, i + 1 + COUNT_REACH)) {
      const lower = next.lower;
      if (isStopword(lower) || countOf(lower) !== undefined || UNIT.has(lower)) return;
      if (PLURALS.has(lower) || (/^\p{Ll}{3,}s$/u.test(lower) && !/(?:ss|us|is)$/.test(lower))) {
        out.push({
          value,
          thing: porter(lower),
          raw: ws
            .slice(i, next.index + 1)
            .map((x) => x.raw)
            .join(" "),
        });
        return;
      }
    }
  });
  return out;
}

/** A source sentence: its text, its words, and its words in order between spaces (" headlights off "). */
type SourceSentence = { text: string; words: Set<string>; sequence: string };
// The same evidence is read for every claim that cites it: its sentences and figures are kept by text.
const sentencesOf = boundedMemo<SourceSentence[]>(1_000);
const quantitiesOf = boundedMemo<ReturnType<typeof quantities>>(1_000);
const countsOf = boundedMemo<ReturnType<typeof counts>>(1_000);
const readSource = (text: string) =>
  sentencesOf(text, () =>
    splitSentences(text).map((t) => {
      const ws = words(t).map((w) => w.lower);
      return { text: t, words: new Set(ws), sequence: ` ${ws.join(" ")} ` };
    }),
  );

/**
 * What the sources say against the claim. `claimStems` are the stems the claim is aligned by (its content words and
 * names); a source sentence aligns when it shares the most of them.
 */
export function contradictions(claim: string, claimStems: ReadonlySet<string>, sources: readonly string[]): Contradiction[] {
  const whole = WHOLE.exec(claim);
  const measured = quantities(claim);
  const counted = counts(claim);
  const out: Contradiction[] = oppositeStates(claim, sources);
  if (!whole && !measured.length && !counted.length) return out;
  const sentences = sources.flatMap(readSource);

  const overlap = (ws: Set<string>) => [...ws].filter((w) => claimStems.has(porter(w))).length;
  const best = Math.max(0, ...sentences.map((s) => overlap(s.words)));
  const aligned = best > 0 ? sentences.filter((s) => overlap(s.words) === best) : [];
  if (whole && aligned.length && aligned.every((s) => !WHOLE.test(s.text))) {
    const part = aligned.map((s) => PART.exec(s.text)).find((m) => m);
    if (part) out.push({ kind: "quantifier", said: whole[0], told: part[0] });
  }
  // A figure's unit is read over all of the source: "2 minutes 14 seconds" has 14 only in seconds.
  const told = sources.flatMap((t) => quantitiesOf(t, () => quantities(t)));
  for (const q of measured) {
    if (told.some((t) => t.value === q.value && t.unit === q.unit)) continue;
    const other = told.find((t) => t.value === q.value);
    if (other) out.push({ kind: "quantity", said: q.raw, told: other.raw });
  }
  // A count is read over all of the source too: the things counted are somewhere counted otherwise, nowhere so.
  const tallied = sources.flatMap((t) => countsOf(t, () => counts(t)));
  for (const c of counted) {
    const same = tallied.filter((t) => t.thing === c.thing);
    if (same.length && !same.some((t) => t.value === c.value)) out.push({ kind: "count", said: c.raw, told: same[0].raw });
  }
  return out;
}

/** Whether a source sentence has these words in a row. */
const holds = (s: SourceSentence, phrase: readonly string[]) => s.sequence.includes(` ${phrase.join(" ")} `);

/**
 * A word of the claim whose opposite the source sentence its clause rests on says instead ("exited westbound" where the
 * sentence of the exit says "eastbound"). Each clause is read against its own sentence: "passed eastbound at 01:29 and
 * exited westbound at 01:47" joins two sentences that each say one of the headings.
 */
function oppositeStates(claim: string, sources: readonly string[]): Contradiction[] {
  const out: Contradiction[] = [];
  // Most claims hold no word whose opposite their sources use: the sources' sentences are read only for those that do.
  const opposed = sources.map(opposedBy);
  let sentences: SourceSentence[] | undefined;
  const read = () => (sentences ??= sources.flatMap(readSource));
  for (const clause of claim.split(CLAUSE_BREAK)) {
    const ws = words(clause).map((w) => w.lower);
    const found: Array<{ said: string[]; told: string[][] }> = [];
    ws.forEach((w, i) => {
      const particle = PARTICLE_OPPOSITE.get(w);
      // "headlights off": the particle with the word before it.
      if (particle) {
        const told = [ws[i - 1], particle];
        if (i > 0 && !isStopword(ws[i - 1]) && opposed.some((o) => o.has(w)) && read().some((s) => holds(s, told)))
          found.push({ said: [ws[i - 1], w], told: [told] });
      } else if (!isStopword(w)) {
        const told = [...new Set(opposed.flatMap((o) => o.get(w) ?? []))];
        if (told.length) found.push({ said: [w], told: told.map((t) => [t]) });
      }
    });
    if (!found.length) continue;
    // The clause's other words say which sentence it rests on; a state and its opposites do not.
    const states = new Set(found.flatMap((f) => (f.said.length > 1 ? [] : [f.said, ...f.told].flat())));
    const stems = new Set(ws.filter((w) => !isStopword(w) && !states.has(w)).map(porter));
    const overlap = (s: SourceSentence) => [...s.words].filter((w) => stems.has(porter(w))).length;
    const best = Math.max(0, ...read().map(overlap));
    if (!best) continue;
    const aligned = read().filter((s) => overlap(s) === best);
    const says = (phrase: string[]) => aligned.some((s) => holds(s, phrase));
    for (const f of found) {
      const told = f.told.find(says);
      if (told && !says(f.said)) out.push({ kind: "opposite", said: f.said.join(" "), told: told.join(" ") });
    }
  }
  return out;
}

/**
 * What joins two figures a claim compares ("0.71 was above the threshold of 0.80", "$4,000, more than the $3,500
 * deposit"): a linking verb at most, the comparison, and up to five words before the second figure. Not a figure that
 * counts what follows it ("3 calls of more than 10 minutes", "12 ampoules below 10 mg each": the words between are not a
 * link), nor "over" and "under", which say how long or where more often than they compare.
 */
const COMPARISON =
  /^\s*\)?\s*,?\s*\(?\s*(?:(?:is|was|were|are|be|been|being|remains|remained|stood|stands|stays|stayed)\s+)?(?:(?:well|far|just|slightly|much|still)\s+)?(above|below|exceed(?:s|ed|ing)?|(?:more|greater|higher|larger|bigger)\s+than|(?:less|fewer|lower|smaller)\s+than)\s+(?:[\p{L}'’-]+\s+){0,5}$/iu;

/**
 * Two figures of a claim compared the wrong way round, whatever the source says: "a score of 0.71 was above the
 * threshold of 0.80" is false by arithmetic. Figures of different kinds or currencies are not compared.
 */
export function misCompared(claim: string, numbers: readonly NumberFact[]): Contradiction | undefined {
  const figures = [...numbers].sort((x, y) => x.at - y.at);
  for (let i = 0; i + 1 < figures.length; i++) {
    const [a, b] = [figures[i], figures[i + 1]];
    if (a.kind !== b.kind || (a.currency && b.currency && a.currency !== b.currency)) continue;
    const m = COMPARISON.exec(claim.slice(a.at + a.raw.length, b.at));
    if (!m) continue;
    const greater = !/^(?:below|less|fewer|lower|smaller)/i.test(m[1]);
    if (greater ? a.value > b.value : a.value < b.value) continue;
    return { kind: "comparison", said: `${a.raw.trim()} ${m[1].toLowerCase()} ${b.raw.trim()}`, told: greater ? "less" : "more" };
  }
  return undefined;
}
