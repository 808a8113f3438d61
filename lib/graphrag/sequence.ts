// The order of two events (issue 13 §1): "Kovac returns to the Tahoe before the van parks alongside" holds every word
// of a surveillance log that has the van park at 22:41 and Kovac return at 22:50, so word overlap passes it. This reads
// a claim that relates two events with "before" or "after", finds the entry of a timed record (entries.ts) that tells
// each, and reports the claim when both the record's order and its times put them the other way round. Pure.
import { firstTime } from "./entries";
import { porter } from "./facts";
import { baseForm } from "./irregular";
import { isStopword, words } from "./text";

/** An entry of a timed record, as ground.ts indexes it. */
export interface OrderedEntry {
  text: string;
  index: { stems: ReadonlySet<string> };
}

export interface Misorder {
  /** The claim's two events as it orders them: `first` before `then`. */
  first: string;
  then: string;
  /** The times the record gives them, in the claim's order ("22:50", "22:41"). */
  firstAt: string;
  thenAt: string;
}

/** A claim that orders two events: checked only then. */
export const ORDERS = /\b(?:before|after)\b/i;

/** How much of an event's words the entry that tells it must hold (at least two). */
const TOLD_SHARE = 0.5;

/**
 * The claim's two events, when it orders them and the record's entries tell them the other way round: each event's
 * entry holds at least half of its words (two or more) and more of them than any other entry; the entries differ, and
 * both their order in the record and their times (minutes of the day, so a log that runs past midnight is left alone)
 * contradict the claim. Each "before" and "after" of the claim is tried as the relation (an entry may hold one of its
 * own: "two cartons moved to the van before the main unload begins"); the claim is misordered only when one reading is
 * and none is in order. Undefined when the claim orders nothing or the record does not place both events ("before
 * 21:30" places no event: an event needs two words an entry holds).
 */
export function misordered(claim: string, entries: readonly OrderedEntry[]): Misorder | undefined {
  if (entries.length < 2 || !ORDERS.test(claim)) return undefined;
  const text = claim.trim().replace(/[.;]+$/, "");
  let found: Misorder | undefined;
  for (const m of text.matchAll(/\b(before|after)\b/giu)) {
    const [left, right] = [text.slice(0, m.index), text.slice(m.index + m[0].length)];
    // "Before B, A" / "A before B" (and "after" the other way): [earlier, later].
    const comma = right.indexOf(",");
    const [a, b] = left.trim() ? [left, right] : comma > 0 ? [right.slice(comma + 1), right.slice(0, comma)] : ["", ""];
    const events = m[1].toLowerCase() === "before" ? [a, b] : [b, a];
    const order = orderOf(events, entries);
    if (order === "in order") return undefined;
    found ??= order;
  }
  return found;
}

/** Whether the record tells the two events ([earlier, later] as the claim has them) in that order. */
function orderOf(events: string[], entries: readonly OrderedEntry[]): Misorder | "in order" | undefined {
  const [earlier, later] = events.map((e) => entryTelling(e, entries));
  if (earlier === undefined || later === undefined || earlier === later) return undefined;
  const at = (k: number) => minutesOf(firstTime(entries[k].text));
  const [t1, t2] = [at(earlier), at(later)];
  if (t1 === undefined || t2 === undefined) return undefined;
  if (earlier < later && t1 <= t2) return "in order";
  if (!(earlier > later && t1 > t2)) return undefined;
  return {
    first: events[0].trim().replace(/^,\s*/, ""),
    then: events[1].trim().replace(/^,\s*/, ""),
    firstAt: firstTime(entries[earlier].text)!,
    thenAt: firstTime(entries[later].text)!,
  };
}

/** The one entry that tells an event: it holds the most of its words, at least half and two of them, alone. */
function entryTelling(event: string, entries: readonly OrderedEntry[]): number | undefined {
  const stems = [
    ...new Set(
      words(event)
        .filter((w) => !isStopword(w.lower) && !/^\d/.test(w.lower))
        .map((w) => porter(w.lower)),
    ),
  ];
  const held = entries.map((e) => stems.filter((t) => e.index.stems.has(t) || e.index.stems.has(baseForm(t))).length);
  const best = Math.max(...held);
  if (best < 2 || best < stems.length * TOLD_SHARE || held.filter((h) => h === best).length > 1) return undefined;
  return held.indexOf(best);
}

function minutesOf(time: string | undefined): number | undefined {
  const m = time && /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(time);
  return m ? +m[1] * 60 + +m[2] + (m[3] ? +m[3] / 60 : 0) : undefined;
}
