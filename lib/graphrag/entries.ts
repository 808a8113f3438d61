// A record kept as timed entries (a surveillance log, a call record, a patrol log) tells each event in its own entry:
// "20:12 grey BMW X5 MRC-7700 parks …; Victor Marchetti enters. 20:19 black Tahoe HBR-4471 arrives; Dmitri Kovac
// enters." A claim that takes the plate from one entry and the person from another ("Kovac arrived in MRC-7700"), or
// a number from one call and the time of another ("called +1-555-0143 at 01:22"), holds every value of its source and
// is still wrong. This splits such a record into its header and its entries; ground.ts checks which entry holds each
// of a claim's values. Pure.
import { sentenceSpans } from "./text";

export interface TimedRecord {
  /** What comes before the first entry (the record's title, target, team): told of every entry. */
  header: string;
  /** Each entry: a sentence opening with a time (a date may come first) and the sentences up to the next one. */
  entries: string[];
}

/** A sentence that opens an entry: "20:12 …", "11:14-11:52 …", "12 Apr 2025 01:22:40 …", "2025-04-12 06:24 …". */
const ENTRY_START =
  /^(?:(?:\d{1,2}\s+\p{L}{3,9}\.?(?:\s+\d{4})?|\p{L}{3,9}\.?\s+\d{1,2}(?:,\s*\d{4})?|\d{4}-\d{2}-\d{2}|\d{1,2}\/\d{1,2}(?:\/\d{2,4})?)[\s,T]+)?(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?\b/u;

/** The record's entries, or null when fewer than two sentences open with a time (prose, a statement, a report). */
export function timedEntries(text: string): TimedRecord | null {
  const spans = sentenceSpans(text);
  const starts = spans.filter((s) => ENTRY_START.test(text.slice(s.start, s.end)));
  if (starts.length < 2) return null;
  const entries = starts.map((s, i) => text.slice(s.start, i + 1 < starts.length ? starts[i + 1].start : text.length).trim());
  return { header: text.slice(0, starts[0].start).trim(), entries };
}

/** The first time an entry gives ("01:22:40"), as written. */
export function firstTime(entry: string): string | undefined {
  return TIME.exec(entry)?.[0];
}

const TIME = /\b(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?\b/;
