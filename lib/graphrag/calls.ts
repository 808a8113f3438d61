// Who called whom, as a call record says it (issue 13 §1, two parties the other way round): a call detail record
// writes a call on its target's line as "incoming from +1-555-0178 (Dmitri Kovac)" or "outgoing to +1-555-0190 (Raymond
// Dunn)", never "Kovac called Dunn" — so roles.ts, which reads who did what to whom from the words between two names,
// cannot see that "Dunn called Kovac" has the call the wrong way round. This writes each call of a timed record
// (entries.ts) whose header names one party as its target in the words roles.ts reads: "Dmitri Kovac called Raymond
// Dunn." Pure.
import type { TimedRecord } from "./entries";

/** How a call may be said in a claim: each is a sentence of its own for roles.ts. */
const CALL_VERBS = ["called", "phoned", "rang", "dialled", "texted", "messaged"];
/**
 * A call as a record writes it: its direction, then the number at the other end, then the rest of its clause, where
 * the number's holder is named ("incoming from +1-555-0178 (Dmitri Kovac), 2m14s"). "Order placed" and "report
 * received" are not calls: the direction word must stand before "from" or "to" and a number.
 */
const CALL =
  /\b(incoming|inbound|missed|outgoing|outbound)(?:\s+(?:call|sms|text|voice call))?\s+(from|to)\s+\+?\d[\d ()-]{5,}\d([^.;\n]*)/gi;

/**
 * The calls of `record` in plain words, one sentence per way of saying it. `principal` names the party a text names
 * most fully (undefined when none, or when two tie), `except` aside.
 */
export function callsInWords(record: TimedRecord, principal: (text: string, except?: string) => string | undefined): string[] {
  const target = principal(record.header);
  if (!target) return [];
  return record.entries.flatMap((entry) =>
    [...entry.matchAll(CALL)].flatMap((m) => {
      const incoming = /^(?:incoming|inbound|missed)$/i.test(m[1]);
      if (incoming !== (m[2].toLowerCase() === "from")) return [];
      const other = principal(m[3], target);
      if (!other) return [];
      const [caller, called] = incoming ? [other, target] : [target, other];
      // By full name and by last name: roles.ts reads a name by the claim's words for it, and a first name the claim
      // does not give reads as a third party between the two ("Kovac called Raymond Dunn" for a claim naming "Dunn").
      const last = (name: string) => name.split(/\s+/).pop()!;
      return CALL_VERBS.flatMap((verb) => [`${caller} ${verb} ${called}.`, `${last(caller)} ${verb} ${last(called)}.`]);
    }),
  );
}
