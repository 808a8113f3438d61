// Who did what to whom (issue 13 §1, a swapped entity): "Marchetti paid Delaney" cited to a source that says "Delaney
// paid Marchetti" has every word, name and figure of its source, so word overlap passes it. This reads the order of two
// named parties around the verb between them — in the claim and in each source sentence that names both — and reports
// the claim when its sources tell the same act only the other way round. The passive is read for what it says ("B was
// paid by A", "B employed by A" are A paying, employing B); acts that go both ways ("met", "spoke with", "A and B …") are not compared. Pure.
import { MONTHS, porter } from "./facts";
import { isStopword, splitSentences, words, type Word } from "./text";

/** An act between two named parties: who did it, to whom, and the stem of the verb that says it. */
export interface Act {
  agent: number;
  patient: number;
  verb: string;
  /** The verb as written. */
  word: string;
}

/** Acts that go both ways or say nothing of direction: their order is not compared. */
const MUTUAL = new Set(
  "meet met speak spoke spoken talk chat marri marry argu fight fought collid contact know knew join accompani partner share sat sit work live stai stay ride rode travel".split(
    " ",
  ),
);
/** Words that join the two names as equals, or as places to each other, rather than as one acting on the other. */
const BETWEEN_EQUALS =
  /^(?:and|or|nor|with|between|among|amongst|both|together|each|other|plus|versus|vs|next|beside|near|opposite|alongside)$/;
/** Past forms that do not end in "-ed" ("paid", "sold"): with those, what reads as a verb between two names. */
const IRREGULAR_PAST = new Set(
  "paid sold bought gave sent shot hit told took made lent struck stole threw brought drove led caught fed beat bit hid rang wrote forgave overtook fired".split(
    " ",
  ),
);
const COPULA = /^(?:is|are|was|were|be|been|being|am)$/;
/** At most this many words between the two names for the words between to be the act that joins them. */
const MAX_GAP = 10;
/** What follows a company's name without naming another party ("Bayline Seafood Co.", "Quayside Laundromat LLC"). */
const COMPANY_SUFFIX = /^(?:co|corp|inc|ltd|llc|llp|plc|sa|ag|gmbh|bv|nv|pty|limited|company)$/;

/**
 * The acts between the named parties in `text`: for each pair of names next to each other in a sentence, the first
 * content word between them is the verb; "by" after it makes the second name the one who did it.
 * `parties` are the parties' names as lower-case word lists ("victor marchetti"); a party is mentioned by any of its
 * words of four letters or more (a surname alone, "Marchetti").
 */
export function actsIn(text: string, parties: readonly string[][]): Act[] {
  // A word two parties share ("Dunn" of Raymond and Lydia Dunn) names neither.
  const shared = (t: string) => parties.filter((p) => p.includes(t)).length > 1;
  const keys = parties.map((p) => new Set(p.filter((t) => t.length >= 4 && !shared(t))));
  const out: Act[] = [];
  for (const sentence of splitSentences(text)) {
    const ws = words(sentence);
    const mentions: Array<{ party: number; from: number; to: number }> = [];
    ws.forEach((w, i) => {
      const party = keys.findIndex((k) => k.has(w.lower));
      if (party < 0) return;
      const last = mentions[mentions.length - 1];
      if (last && last.party === party && last.to >= i - 1) {
        last.to = Math.max(last.to, i);
        return;
      }
      // A mention spans the party's other words beside it ("Victor Marchetti", "Lydia Dunn").
      let from = i,
        to = i;
      while (from > 0 && from - 1 > (last?.to ?? -1) && parties[party].includes(ws[from - 1].lower)) from--;
      while (to + 1 < ws.length && (parties[party].includes(ws[to + 1].lower) || COMPANY_SUFFIX.test(ws[to + 1].lower))) to++;
      mentions.push({ party, from, to });
    });
    for (let m = 1; m < mentions.length; m++) {
      const a = mentions[m - 1],
        b = mentions[m];
      if (a.party === b.party) continue;
      const act = actBetween(ws.slice(a.to + 1, b.from), a.party, b.party);
      if (act) out.push(act);
    }
  }
  return out;
}

function actBetween(between: Word[], first: number, second: number): Act | null {
  if (!between.length || between.length > MAX_GAP) return null;
  // A capitalised word between is a third party ("A told Kovac B…"); currency codes and months are not.
  if (between.some((w) => BETWEEN_EQUALS.test(w.lower) || (/^\p{Lu}\p{Ll}/u.test(w.raw) && MONTHS[w.lower] === undefined))) return null;
  // The verb: the first past form, or present form ("owns", "pays") not after "is" or an article — "is an associate
  // of" is a relationship named by a noun, and goes both ways as often as not. Words before it belong to the first
  // party ("Bayline's operating account ...2207 sent …").
  const isVerb = (w: Word, i: number) =>
    !isStopword(w.lower) &&
    !/\d/.test(w.raw) &&
    (/ed$/.test(w.lower) ||
      IRREGULAR_PAST.has(w.lower) ||
      (/[^s]s$/.test(w.lower) && !between.slice(0, i).some((x) => COPULA.test(x.lower) || /^(?:a|an|the)$/.test(x.lower))));
  const verb = between.find(isVerb);
  if (!verb) return null;
  const stem = porter(verb.lower);
  if (MUTUAL.has(stem) || MUTUAL.has(verb.lower)) return null;
  // "B was paid by A", and without the copula as a record or a relationship writes it ("Dunn EMPLOYED BY Bayline").
  const next = between[between.indexOf(verb) + 1]?.lower;
  const passive =
    next === "by" ||
    (between.some((w) => w.lower === "by") && between.some((w) => COPULA.test(w.lower) || /^(?:got|gets?)$/.test(w.lower)));
  return passive
    ? { agent: second, patient: first, verb: stem, word: verb.raw }
    : { agent: first, patient: second, verb: stem, word: verb.raw };
}

/**
 * The acts of the claim that its sources state only the other way round. None when a source states the act as the
 * claim does, or never states it (then the other checks decide).
 */
export function reversedActs(claim: string, sources: readonly string[], parties: readonly string[][]): Act[] {
  const stated = actsIn(claim, parties);
  if (!stated.length) return [];
  const told = sources.flatMap((s) => actsIn(s, parties));
  const tells = (agent: number, patient: number, verb: string) =>
    told.some((t) => t.verb === verb && t.agent === agent && t.patient === patient);
  return stated.filter((c) => !tells(c.agent, c.patient, c.verb) && tells(c.patient, c.agent, c.verb));
}
