// How the claim checks judge claims built from the evidence itself, over every workspace in the repository (the demo
// and the eval sets): each evidence sentence cited for itself (faithful), two adjacent sentences joined as a model
// joins them (faithful), a "He …"/"She …" sentence re-written with the name it refers to (faithful), and a sentence
// naming one person with that person swapped for another the same item names (wrong), two entries of a timed record (a
// log, a call record) joined, each with its time (faithful), and the opening sentence of an entry given the time of
// another entry (wrong), and a count of things written the other way ("two bags" / "2 bags", faithful) or changed by
// one ("three bags", wrong), and each call of a call record said as "A called B" (faithful) and the other way round
// (wrong), and a sentence with the negation after its auxiliary dropped (wrong), and a sentence given another day its
// item gives (wrong), and two adjacent sentences with a day joined by a bare "and" (faithful), and a sentence with a
// state said as its opposite ("westbound" for "eastbound", "witnessed" for "unwitnessed", wrong), and two entries of a
// log told with "before" / "after" in their order (faithful) and the other way round (wrong). Counts are printed, never
// asserted: a faithful claim not `supported` is a false alarm, a swap `supported` is a miss.
//
//   npm run bench -- claims
import { readdirSync, readFileSync } from "node:fs";
import { PartyReader } from "../lib/graphrag/actors";
import { callsInWords } from "../lib/graphrag/calls";
import { oppositeOf } from "../lib/graphrag/contradictions";
import { firstTime, timedEntries } from "../lib/graphrag/entries";
import { extractFacts } from "../lib/graphrag/facts";
import { SupportChecker } from "../lib/graphrag/ground";
import { escapeRegExp, splitSentences, words } from "../lib/graphrag/text";
import type { ContextNode, RawContext } from "../lib/graphrag/types";
import { printTable } from "./support";

interface WorkspaceCase {
  nodes: Array<{ id: string; label: string; name?: string; properties?: Record<string, unknown> }>;
  edges?: Array<{ id?: string; source: string; target: string; type: string; properties?: Record<string, unknown> }>;
  evidence: Array<{ id: string; type: string; sourceSystem: string; collectedAt: string; content: string; nodes?: string[] }>;
}

const TOLD_OF = "told of";
const SPELLED = "zero one two three four five six seven eight nine ten eleven twelve".split(" ");
/** A count of two to eleven things: "20 bags" is left alone (its digits are checked as a number already). */
const COUNT =
  /(?<![\p{L}\p{N}.,'"“‘-])(\d|1[01]|two|three|four|five|six|seven|eight|nine|ten|eleven|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten)\s+([a-z]{3,}s)\b/u;

/** A negation after an auxiliary ("was not", "did not", "have never", "hasn't"): dropped, it says the opposite. */
const DENIAL = /\b(is|was|were|are|did|does|do|has|have|had|could|would|will)(?: not|n't|n’t| never)\b/i;

/** An entry's opening without its date and time ("12 Apr 2025 01:22:40 outgoing to …" → "outgoing to …"). */
const untimed = (opening: string, time: string) => opening.slice(opening.indexOf(time) + time.length).replace(/^[\s,;:-]+/, "");

export default async function main() {
  const files = [
    "prisma/demo/workspace.json",
    ...readdirSync("eval")
      .filter((d) => d.endsWith("-domain"))
      .map((d) => `eval/${d}/workspace.json`),
  ];
  const tally = {
    sentence: { claims: 0, notSupported: 0, toldOf: 0 },
    joined: { claims: 0, notSupported: 0, toldOf: 0 },
    pronoun: { claims: 0, notSupported: 0, toldOf: 0 },
    swapped: { claims: 0, unsupported: 0, partial: 0, toldOf: 0 },
    entries: { claims: 0, notSupported: 0, toldOf: 0 },
    retimed: { claims: 0, unsupported: 0, partial: 0, toldOf: 0 },
    ordered: { claims: 0, notSupported: 0, toldOf: 0 },
    misordered: { claims: 0, unsupported: 0, partial: 0, toldOf: 0 },
    recounted: { claims: 0, notSupported: 0, toldOf: 0 },
    miscounted: { claims: 0, unsupported: 0, partial: 0, toldOf: 0 },
    called: { claims: 0, notSupported: 0, toldOf: 0 },
    reversed: { claims: 0, unsupported: 0, partial: 0, toldOf: 0 },
    undenied: { claims: 0, unsupported: 0, partial: 0, toldOf: 0 },
    reversedState: { claims: 0, unsupported: 0, partial: 0, toldOf: 0 },
    redated: { claims: 0, unsupported: 0, partial: 0, toldOf: 0 },
    anded: { claims: 0, notSupported: 0, toldOf: 0 },
  };
  for (const file of files) {
    for (const c of JSON.parse(readFileSync(file, "utf8")).cases as WorkspaceCase[]) {
      const context = contextOf(c);
      const checker = new SupportChecker(context);
      const people = context.nodes.filter((n) => n.label === "Person" && surname(n.name));
      const names = (text: string) => people.filter((p) => new RegExp(`\\b${escapeRegExp(surname(p.name)!)}\\b`).test(text));
      const judge = (claim: string, id: string) => {
        const v = checker.claim(claim, [id]);
        return { ...v, toldOf: v.reasons.some((r) => r.includes(TOLD_OF)) };
      };
      const reader = new PartyReader(
        context.nodes.filter((n) => /^(?:person|organi[sz]ation|company|business)$/i.test(n.label)).map((n) => ({ name: n.name })),
      );
      for (const e of context.evidenceSnippets) {
        // Each call of a call record said as "A called B" (faithful) and "B called A" (wrong, unless it has both).
        const record = timedEntries(e.text);
        const calls = record ? callsInWords(record, (t, x) => reader.principal(t, x)).filter((c) => / called /.test(c)) : [];
        for (const call of new Set(calls.filter((c) => c.split(" ").length > 3))) {
          const [caller, called] = call.replace(/\.$/, "").split(" called ");
          const f = judge(`${caller} called ${called}`, e.id);
          tally.called.claims++;
          if (f.support !== "supported") tally.called.notSupported++;
          if (calls.includes(`${called} called ${caller}.`)) continue;
          const w = judge(`${called} called ${caller}`, e.id);
          tally.reversed.claims++;
          if (w.support === "unsupported") tally.reversed.unsupported++;
          if (w.support === "partial") tally.reversed.partial++;
        }
        // Two entries' opening sentences joined, each with its time; each entry's opening sentence with the time of
        // the next entry (the last one's: of the one before).
        const entries = timedEntries(e.text)?.entries ?? [];
        const openings = entries.map((entry) => splitSentences(entry)[0].replace(/[.;]$/, ""));
        entries.forEach((_, i) => {
          const opening = openings[i];
          if (i + 1 < entries.length && opening.length + openings[i + 1].length <= 300) {
            const w = judge(`${opening}, and ${openings[i + 1]}.`, e.id);
            tally.entries.claims++;
            if (w.support !== "supported") tally.entries.notSupported++;
            if (w.toldOf) tally.entries.toldOf++;
          }
          // Two entries told with "before" and "after" in their order (faithful) and the other way round (wrong), each
          // without its time: the order of the record is what is checked.
          const next = openings[i + 1];
          const [at, nextAt] = [firstTime(opening), next && firstTime(next)];
          if (next && at && nextAt && at.slice(0, 5) < nextAt.slice(0, 5) && opening.length + next.length <= 300) {
            const [a, b] = [untimed(opening, at), untimed(next, nextAt)];
            for (const claim of [`${a} before ${b}.`, `${b} after ${a}.`]) {
              tally.ordered.claims++;
              if (judge(claim, e.id).support !== "supported") tally.ordered.notSupported++;
            }
            const w = judge(`${b} before ${a}.`, e.id);
            tally.misordered.claims++;
            if (w.support === "unsupported") tally.misordered.unsupported++;
            if (w.support === "partial") tally.misordered.partial++;
          }
          const own = firstTime(opening);
          const other = firstTime(openings[i + 1 < entries.length ? i + 1 : i - 1]);
          if (!own || !other || own.slice(0, 5) === other.slice(0, 5) || opening.length > 300) return;
          const w = judge(opening.replace(own, other), e.id);
          tally.retimed.claims++;
          if (w.support === "unsupported") tally.retimed.unsupported++;
          if (w.support === "partial") tally.retimed.partial++;
          if (w.toldOf) tally.retimed.toldOf++;
        });
        const sentences = splitSentences(e.text);
        const inItem = names(e.text);
        // The days the item gives, as written ("2 May 2025", "13/01/2025").
        const days = [
          ...new Set(
            extractFacts(e.text, { source: true })
              .dates.filter((d) => d.readings.some((r) => r.d !== undefined) && d.raw.length > 4)
              .map((d) => d.raw),
          ),
        ];
        const hasDay = (text: string) => days.some((d) => text.includes(d));
        sentences.forEach((s, i) => {
          if (s.length < 25 || s.length > 300) return;
          const v = judge(s, e.id);
          tally.sentence.claims++;
          if (v.support !== "supported") tally.sentence.notSupported++;
          if (v.toldOf) tally.sentence.toldOf++;

          const next = sentences[i + 1];
          if (
            next &&
            s.length <= 200 &&
            next.length >= 30 &&
            next.length <= 200 &&
            /\.$/.test(s) &&
            /^\p{Lu}\p{Ll}/u.test(next) &&
            !/[?:\n]/.test(s + next)
          ) {
            const lower = /^(?:The|A|An|It|This|That|There|These|Those|They|He|She|We|In|On|At|After|Before|When|His|Her|Our|Its)\b/.test(
              next,
            );
            const w = judge(`${s.slice(0, -1)}, and ${lower ? next[0].toLowerCase() + next.slice(1) : next}`, e.id);
            tally.joined.claims++;
            if (w.support !== "supported") tally.joined.notSupported++;
            if (w.toldOf) tally.joined.toldOf++;
          }

          // A denial with its negation dropped ("We have never worked for X" → "We have worked for X"): wrong, unless
          // the item also says it without the negation.
          const denial = /[?"“”]/.test(s) ? null : DENIAL.exec(s);
          if (denial) {
            const w = judge(s.replace(denial[0], denial[1]), e.id);
            tally.undenied.claims++;
            if (w.support === "unsupported") tally.undenied.unsupported++;
            if (w.support === "partial") tally.undenied.partial++;
          }

          // A state said as its opposite ("exits westbound" → "exits eastbound", "not verified" → "not unverified"):
          // wrong, unless the item also says it that way.
          const state = /[?"“”]/.test(s) ? undefined : words(s).find((w) => oppositeOf(w.lower) && !/^\p{Lu}/u.test(w.raw));
          const opposite = state && oppositeOf(state.lower)!;
          if (state && opposite && !new RegExp(`\\b${escapeRegExp(opposite)}\\b`, "i").test(e.text)) {
            const w = judge(s.replace(new RegExp(`\\b${escapeRegExp(state.raw)}\\b`), opposite), e.id);
            tally.reversedState.claims++;
            if (w.support === "unsupported") tally.reversedState.unsupported++;
            if (w.support === "partial") tally.reversedState.partial++;
          }

          // A sentence giving one of the item's days given another of them (wrong).
          const own = /[?"“”]/.test(s) ? [] : days.filter((d) => s.includes(d));
          const otherDay = own.length === 1 ? days.find((d) => d !== own[0] && !s.includes(d)) : undefined;
          if (otherDay) {
            const w = judge(s.replace(own[0], otherDay), e.id);
            tally.redated.claims++;
            if (w.support === "unsupported") tally.redated.unsupported++;
            if (w.support === "partial") tally.redated.partial++;
          }
          // Two adjacent sentences, one with a day at least, joined by "and" with no comma (faithful).
          if (next && s.length <= 200 && next.length <= 200 && /\.$/.test(s) && !/[?:\n"“]/.test(s + next) && (hasDay(s) || hasDay(next))) {
            const w = judge(`${s.slice(0, -1)} and ${next[0].toLowerCase() + next.slice(1)}`, e.id);
            tally.anded.claims++;
            if (w.support !== "supported") tally.anded.notSupported++;
            if (w.toldOf) tally.anded.toldOf++;
          }

          // A count of things: the same count in the other writing (faithful), one more (wrong).
          // (Not in a question or a quotation: those are checked word for word.)
          const count = /[?"“”]/.test(s) ? null : COUNT.exec(s);
          if (count) {
            const value = /\d/.test(count[1]) ? Number(count[1]) : SPELLED.indexOf(count[1].toLowerCase());
            if (value > 0 && value < SPELLED.length - 1) {
              const other = /\d/.test(count[1]) ? SPELLED[value] : String(value);
              const f = judge(s.replace(count[0], `${other} ${count[2]}`), e.id);
              tally.recounted.claims++;
              if (f.support !== "supported") tally.recounted.notSupported++;
              const w = judge(s.replace(count[0], `${/\d/.test(count[1]) ? value + 1 : SPELLED[value + 1]} ${count[2]}`), e.id);
              tally.miscounted.claims++;
              if (w.support === "unsupported") tally.miscounted.unsupported++;
              if (w.support === "partial") tally.miscounted.partial++;
            }
          }

          const here = names(s);
          if (here.length !== 1) return;
          const [person] = here;
          if (next && /^(?:He|She)\b/.test(next) && !names(next).length) {
            const w = judge(next.replace(/^(?:He|She)\b/, person.name), e.id);
            tally.pronoun.claims++;
            if (w.support !== "supported") tally.pronoun.notSupported++;
            if (w.toldOf) tally.pronoun.toldOf++;
          }
          const other = inItem.find((q) => q !== person);
          if (!other) return;
          const first = escapeRegExp(person.name.split(/\s+/)[0]);
          const w = judge(s.replace(new RegExp(`(?:${first}\\s+)?\\b${escapeRegExp(surname(person.name)!)}\\b`, "g"), other.name), e.id);
          tally.swapped.claims++;
          if (w.support === "unsupported") tally.swapped.unsupported++;
          if (w.support === "partial") tally.swapped.partial++;
          if (w.toldOf) tally.swapped.toldOf++;
        });
      }
    }
  }
  // A faithful claim not `supported` is a false alarm; a wrong one `supported` is a miss.
  const faithful = (claims: string, t: { claims: number; notSupported: number; toldOf: number }) => ({
    claims,
    n: t.claims,
    "not supported": t.notSupported,
    "told of another": t.toldOf,
  });
  const wrong = (claims: string, t: { claims: number; unsupported: number; partial: number; toldOf: number }) => ({
    claims,
    n: t.claims,
    "not supported": `${t.unsupported} removed, ${t.partial} partial`,
    "told of another": t.toldOf,
  });
  printTable(`Claims built from the evidence of ${files.length} workspaces`, [
    faithful("an evidence sentence, cited for itself", tally.sentence),
    faithful("two adjacent sentences joined with ', and'", tally.joined),
    faithful("'He/She …' with the name it refers to", tally.pronoun),
    wrong("a denial with its negation dropped", tally.undenied),
    wrong("a state said as its opposite", tally.reversedState),
    wrong("a sentence given another day of its item", tally.redated),
    faithful("two adjacent sentences, one with a day, joined by 'and'", tally.anded),
    wrong("a person swapped for another the item names", tally.swapped),
    faithful("two entries of a log joined, each with its time", tally.entries),
    faithful("a count of things written the other way (2 / two)", tally.recounted),
    wrong("a count of things changed by one", tally.miscounted),
    faithful("a call of a call record, 'A called B'", tally.called),
    wrong("a call of a call record the other way round", tally.reversed),
    wrong("an entry of a log given another entry's time", tally.retimed),
    faithful("two entries of a log told with 'before' / 'after' in their order", tally.ordered),
    wrong("two entries of a log told with 'before' in the other order", tally.misordered),
  ]);
}

function contextOf(c: WorkspaceCase): RawContext {
  return {
    nodes: c.nodes.map((n) => ({
      id: n.id,
      label: n.label,
      name: n.name ?? String(n.properties?.name ?? n.id),
      properties: (n.properties ?? {}) as ContextNode["properties"],
    })),
    edges: (c.edges ?? []).map((e, i) => ({
      id: e.id ?? `e${i}`,
      source: e.source,
      type: e.type,
      target: e.target,
      properties: (e.properties ?? {}) as ContextNode["properties"],
    })),
    evidenceSnippets: c.evidence.map((e) => ({
      id: e.id,
      type: e.type,
      sourceSystem: e.sourceSystem,
      collectedAt: e.collectedAt,
      nodeIds: e.nodes ?? [],
      text: e.content,
    })),
  };
}

/** A person's surname as written in evidence: the last capitalised word of four letters or more of the name. */
function surname(name: string): string | undefined {
  return name
    .split(/\s+/)
    .filter((w) => /^\p{Lu}\p{Ll}{3,}$/u.test(w))
    .pop();
}
