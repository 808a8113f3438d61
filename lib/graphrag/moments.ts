// Which day each time of day in a source falls on. A log, a call record or a statement gives times under dates
// ("12 Apr 2025. 06:18 dispatched … 06:24 on scene"; "04/05 | 10:30 …" then "05/05 | 22:30 …"): a claim that pairs a
// time with a date must find them paired in what it cites — "seen at 10:30 on 5 May" is not supported by a source
// that has 10:30 on 4 May and 22:30 on 5 May, though each value is there. Likewise a day must be the day of what the
// claim says happened on it (misdatedDays).
import { dateKeys, extractFacts, figureTags, porter, type DateFact, type Facts, type TimeFact } from "./facts";
import { isStopword, sentenceSpans } from "./text";

export interface Moments {
  /** `${dateKey}@${minutes}` for every time and each date it falls under. */
  moments: Set<string>;
  /** Times with an occurrence no date governs: never judged. */
  loose: Set<number>;
}

/** Words that move the day on or back from the last date given. */
const RELATIVE_DAY =
  /\b(?:next|following|previous|preceding)\s+(?:day|morning|afternoon|evening|night)|\bday\s+(?:after|before)|\b(?:overnight|midnight|tomorrow|yesterday|the\s+night\s+before|that\s+night|later\s+that\s+week|earlier\s+that\s+week|days?\s+later|hours?\s+later)\b/iu;

/**
 * The dates each time of `text` falls under, as a reader of a log or a statement takes them:
 * - a date right after it ("at 22:30 on 5 May", "03:18Z, 14 May", "01:22-03:36 UTC on 03 Mar");
 * - else the nearest date before it in its own sentence or line ("04/05/2025 | 10:30", "On 4 May, at 10:30");
 * - else a date just after it in its sentence ("10:30 that Friday, 5 May");
 * - else, its line naming no day, every date before it: a heading's, an interview's, one its dialogue mentions —
 *   which of them is not said, so only a day named after the time, or never, is ruled out.
 * A time with no date before it, or counted on from its date ("the next morning at 06:18"), is loose: never judged.
 */
export function momentsOf(text: string, facts: Pick<Facts, "dates" | "times">): Moments {
  const out: Moments = { moments: new Set(), loose: new Set() };
  if (!facts.times.length) return out;
  const spans = sentenceSpans(text);
  const sentenceAt = (at: number) => spans.findIndex((x) => at < x.end);
  const dates = facts.dates.map((d) => ({ keys: d.readings.flatMap(dateKeys), at: d.at, sentence: sentenceAt(d.at) }));
  for (const t of facts.times) {
    const end = t.at + t.raw.length;
    const sentence = sentenceAt(t.at);
    const own = dates.filter((d) => d.sentence === sentence);
    const next = own.find((d) => d.at >= end);
    const previous = own.filter((d) => d.at <= t.at).pop();
    const earlier = dates.filter((d) => d.at < t.at);
    const governing =
      next && SAME_MOMENT.test(text.slice(end, next.at))
        ? [next]
        : previous
          ? [previous]
          : next && next.at - end <= NEAR
            ? [next]
            : // Its line names no day: any day named before it may be its day (a log's heading, an interview's date,
              // a day its dialogue mentions); only one named after it, or never, is ruled out.
              earlier;
    // "The next morning at 06:18": a day counted from the date, not the date itself.
    const from = governing.length ? Math.max(...governing.map((d) => d.at)) : t.at;
    if (!governing.length || RELATIVE_DAY.test(text.slice(Math.min(from, t.at), Math.max(from, t.at)))) {
      out.loose.add(t.minutes);
      continue;
    }
    for (const d of governing) for (const k of d.keys) out.moments.add(`${k}@${t.minutes}`);
  }
  return out;
}

/** What stands between a time and the date it is on: "22:30 on 5 May", "03:18Z, 14 May", "01:22-03:36 UTC on 03 Mar". */
const SAME_MOMENT =
  /^\s*(?:(?:-|–|—|to|and|until|till)\s*\d{1,2}[:.h]?\d{2}(?::\d{2})?\s*)?(?:(?:hrs?|h|z|utc|gmt|local(?:\s+time)?|am|pm)\b\.?\s*)?(?:,\s*)?(?:(?:on|of)\s+)?(?:the\s+)?$/iu;
/** How far after a time a date of its sentence may still be its day ("between 02:41 and 03:18 on 14 May"). */
const NEAR = 20;

type Has<T> = { has(value: T): boolean };

/**
 * The claim's times that its source has, but never on the claim's date. Judged only when the claim names one date
 * (with two, which time goes with which is the claim's own reading), the claim puts the time on it (the date is in the
 * time's clause or before it: "10:20 engine room …; the alarm log's last entry 19 Feb." dates the entry, not 10:20) and
 * every occurrence of the time in the source falls under some date.
 */
export function misdatedTimes(
  claim: string,
  facts: Pick<Facts, "dates" | "times">,
  src: { moments: Has<string>; loose: Has<number>; times: Has<number> },
): TimeFact[] {
  const days = new Set(facts.dates.map((d) => d.raw));
  if (days.size !== 1 || !facts.times.length) return [];
  // A day is compared as a day: "5 May 2025" is not met by a time under 4 May because both are in May 2025.
  const keys = facts.dates.flatMap((d) =>
    d.readings.flatMap((r) => dateKeys(r).filter((k) => r.d === undefined || k.split("-").length > 2)),
  );
  const onDate = (t: TimeFact) => facts.dates.some((d) => d.at < t.at || clauseSpan(claim, d.at).start === clauseSpan(claim, t.at).start);
  return facts.times.filter(
    (t) => src.times.has(t.minutes) && !src.loose.has(t.minutes) && onDate(t) && !keys.some((k) => src.moments.has(`${k}@${t.minutes}`)),
  );
}

/** Where a claim's clause ends: "; ", ". ", ", and …", ", but …". */
const CLAUSE_END = /;\s|\.\s|,\s+(?:and|but|while|whereas|then)\s/giu;
/** A sentence's date that names a day, among its figures (facts.ts figureTags). */
const DAY_TAG = /^date (?:--\d+-\d+|\d+-\d+-\d+)$/;

/**
 * The claim's days that its source gives only to another event. The sentence that says most of what the claim's
 * clause says beside that day (its words and figures, names aside) gives another day and not this one, and no sentence
 * that gives this day says what that sentence leaves out: "An outgoing wire of $450,000 on 2 May 2025" where the wire's
 * sentence says 15 May and 2 May is a balance's. Judged only when that sentence holds half the clause's words and two
 * at least; a sentence that gives no day leaves the day to what is around it (a heading, the sentence before).
 */
export function misdatedDays(
  claim: string,
  facts: Pick<Facts, "dates">,
  sentences: Facts["sentences"],
  dated: { has(tag: string): boolean },
): DateFact[] {
  const out: DateFact[] = [];
  for (const d of facts.dates) {
    const days = figureTags(d).filter((t) => DAY_TAG.test(t));
    // The day an item is dated by, given by a claim about the item, goes with anything it says.
    if (!days.length || days.some((t) => dated.has(t))) continue;
    const clause = clauseAt(claim, d.at);
    const f = extractFacts(clause, { claim: true });
    // Its words (framing words too: "reported 29/01/2025" is what is dated), names aside, and its figures.
    const names = new Set(f.entities.flatMap((e) => e.tokens));
    const words = f.tokens.filter((t) => !/\d/.test(t) && !isStopword(t) && !names.has(t)).map(porter);
    const said = [...new Set([...words, ...f.tokens.filter((t) => /\d/.test(t)), ...[...f.times, ...f.numbers].flatMap(figureTags)])];
    if (said.length < 2) continue;
    const holds = (s: Facts["sentences"][number], w: string) => s.stems.has(w) || s.figures.has(w);
    const scores = sentences.map((s) => said.filter((w) => holds(s, w)).length);
    const top = Math.max(0, ...scores);
    if (top < 2 || top * 2 < said.length) continue;
    const aligned = sentences.filter((_, i) => scores[i] === top);
    const gives = (s: Facts["sentences"][number]) => days.some((t) => s.figures.has(t));
    const givesAnother = (s: Facts["sentences"][number]) => [...s.figures].some((t) => DAY_TAG.test(t));
    // A sentence that gives the day and says what the closest sentence does not may be where the day comes from
    // ("submitted 13/01/2025 and reported 29/01/2025": two clauses one "and" joins).
    const unexplained = said.filter((w) => !aligned.some((s) => holds(s, w)));
    if (!aligned.some(gives) && aligned.some(givesAnother) && !sentences.some((s) => gives(s) && unexplained.some((w) => holds(s, w))))
      out.push(d);
  }
  return out;
}

/** The clause of `text` around position `at`. */
function clauseAt(text: string, at: number): string {
  const { start, end } = clauseSpan(text, at);
  return text.slice(start, end);
}

function clauseSpan(text: string, at: number): { start: number; end: number } {
  let start = 0;
  let end = text.length;
  for (const m of text.matchAll(CLAUSE_END)) {
    const i = m.index ?? 0;
    if (i + m[0].length <= at) start = i + m[0].length;
    else if (i >= at) {
      end = i;
      break;
    }
  }
  return { start, end };
}
