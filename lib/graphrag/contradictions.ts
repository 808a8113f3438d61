// What a cited source says against a claim whose words, names and figures it has (issue 13 §1): the opposite of one of
// its words ("unlocked" where the claim says "locked"), a part where the claim says all ("two of the four" for "all
// four"), a figure with another unit ("14 seconds" for "14 minutes"), and another count of the same things ("three
// shell casings" where the source has "two 9mm shell casings"). Word overlap cannot see these — the words are there.
// The claim is read against the source sentences it shares the most words with. Pure.
import { countOf, porter } from "./facts";
import { boundedMemo } from "./memo";
import { isStopword, splitSentences, words } from "./text";

export interface Contradiction {
  kind: "opposite" | "quantifier" | "quantity" | "count";
  /** The claim's words. */
  said: string;
  /** What the source says instead. */
  told: string;
}

/**
 * Pairs of words for states that exclude each other: a claim's "locked" is contradicted by a cited "unlocked". Not the
 * converses of a relation ("before"/"after", "bought"/"sold", "incoming"/"outgoing", "more"/"less", "above"/"below",
 * "upstream"/"downstream", "north"/"south"): "B arrived after A left" is "A left before B arrived", a call outgoing from
 * one phone is incoming on the other, and the point upstream of the outfall has the outfall downstream of it.
 */
const OPPOSITES: ReadonlyArray<readonly [string, string]> = [
  ["increased", "decreased"],
  ["rose", "fell"],
  ["arrived", "departed"],
  ["arrival", "departure"],
  ["positive", "negative"],
  ["opened", "closed"],
  ["locked", "unlocked"],
  ["present", "absent"],
  ["alive", "dead"],
  ["armed", "unarmed"],
  ["conscious", "unconscious"],
];
const OPPOSITE = new Map(OPPOSITES.flatMap(([a, b]) => [[a, b] as const, [b, a] as const]));

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
 * ("20 glassine bags" → 20 "bag"); a unit ("14 minutes") is a quantity, not a count.
 */
function counts(text: string): Array<{ value: number; thing: string; raw: string }> {
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

type SourceSentence = { text: string; words: Set<string> };
// The same evidence is read for every claim that cites it: its sentences and figures are kept by text.
const sentencesOf = boundedMemo<SourceSentence[]>(1_000);
const quantitiesOf = boundedMemo<ReturnType<typeof quantities>>(1_000);
const countsOf = boundedMemo<ReturnType<typeof counts>>(1_000);
const readSource = (text: string) =>
  sentencesOf(text, () => splitSentences(text).map((t) => ({ text: t, words: new Set(words(t).map((w) => w.lower)) })));

/**
 * What the sources say against the claim. `claimStems` are the stems the claim is aligned by (its content words and
 * names); a source sentence aligns when it shares the most of them.
 */
export function contradictions(claim: string, claimStems: ReadonlySet<string>, sources: readonly string[]): Contradiction[] {
  const claimWords = [...new Set(words(claim).map((w) => w.lower))];
  const opposites = claimWords.filter((w) => OPPOSITE.has(w));
  const whole = WHOLE.exec(claim);
  const measured = quantities(claim);
  const counted = counts(claim);
  if (!opposites.length && !whole && !measured.length && !counted.length) return [];

  const sentences = sources.flatMap(readSource);
  const overlap = (ws: Set<string>) => [...ws].filter((w) => claimStems.has(porter(w))).length;
  const best = Math.max(0, ...sentences.map((s) => overlap(s.words)));
  const aligned = best > 0 ? sentences.filter((s) => overlap(s.words) === best) : [];
  const out: Contradiction[] = [];

  for (const w of opposites) {
    const other = OPPOSITE.get(w)!;
    if (aligned.some((s) => s.words.has(other)) && !aligned.some((s) => s.words.has(w)))
      out.push({ kind: "opposite", said: w, told: other });
  }
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
