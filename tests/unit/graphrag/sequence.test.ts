// The order of two events a claim relates with "before" / "after", against the entries of a timed record (sequence.ts).
import { describe, expect, it } from "vitest";
import { timedEntries } from "@/lib/graphrag/entries";
import { porter } from "@/lib/graphrag/facts";
import { misordered } from "@/lib/graphrag/sequence";
import { words } from "@/lib/graphrag/text";

const entriesOf = (text: string) =>
  timedEntries(text)!.entries.map((e) => ({ text: e, index: { stems: new Set(words(e).map((w) => porter(w.lower))) } }));
const LOG = entriesOf(
  "Gate log, 3 May 2025. 21:05 the grey van enters the yard. 21:20 Marta Quinn unlocks the workshop door. 21:48 the grey van leaves the yard.",
);

describe("misordered", () => {
  it("names the two events and their times when the record tells them the other way round", () => {
    expect(misordered("Marta Quinn unlocks the workshop door before the grey van enters the yard", LOG)).toEqual({
      first: "Marta Quinn unlocks the workshop door",
      then: "the grey van enters the yard",
      firstAt: "21:20",
      thenAt: "21:05",
    });
    expect(misordered("After the grey van leaves the yard, Marta Quinn unlocks the workshop door.", LOG)).toMatchObject({
      firstAt: "21:48",
      thenAt: "21:20",
    });
  });

  it("leaves alone a claim in order, a time bound, an event no entry tells alone, and a claim that orders nothing", () => {
    for (const claim of [
      "Marta Quinn unlocks the workshop door after the grey van enters the yard",
      "Before the grey van leaves the yard, Marta Quinn unlocks the workshop door",
      "Marta Quinn unlocks the workshop door before 21:30",
      "Marta Quinn unlocks the workshop door after midnight",
      // "the grey van" is in two entries as much as in any: it places nothing.
      "Marta Quinn unlocks the workshop door before the grey van",
      // One word places no event ("leaving": whose?).
      "Marta Quinn unlocks the workshop door after leaving",
      // An entry that holds under half of what the claim says of the event does not tell it.
      "Marta Quinn unlocks the workshop door before the grey van enters the red-brick warehouse by the canal at speed",
      "Marta Quinn unlocks the workshop door",
    ])
      expect(misordered(claim, LOG), claim).toBeUndefined();
  });
});
