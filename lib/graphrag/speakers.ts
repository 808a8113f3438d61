// Who said it (issue 13 §1): in a transcript every word of "REYES: Your Tahoe went through Gate C at 01:29." is in the
// source, so word overlap passes "Kovac admitted his Tahoe went through Gate C at 01:29" — though it is the detective
// who says it, and Kovac only answers "People borrow it." This reads who a claim says spoke, finds the transcript
// lines that say what the claim reports, and reports the claim when those lines are all someone else's. A claim that
// the person denied, admitted or confirmed something reads a reply with the question it answers ("REYES: Did you kill
// Dunn? KOVAC: No." is Kovac denying killing Dunn); one that they said it needs their own words. Pure.
import { porter } from "./facts";
import { boundedMemo } from "./memo";
import { isStopword, words } from "./text";

/** A transcript line: a speaker label in capitals, a colon, what they said ("L. DUNN:", "IO MWANGI:", "DS BRENNAN:"). */
const LINE = /^\s*([\p{Lu}][\p{Lu}\p{M}.' -]{0,40}?)\s*:\s+(\S.*)$/u;
/** Verbs that report an answer: what they report may be in the question answered ("Kovac denied killing Dunn"). */
const ANSWERED =
  /^(?:admitted|admits|confirmed|confirms|denied|denies|replied|replies|answered|answers|conceded|concedes|acknowledged|acknowledges)$/;
/** Verbs that report speech: the claim's subject before one is who it says spoke. */
const SAID =
  /\b(?:said|says|told|tells|stated|states|admitted|admits|claimed|claims|confirmed|confirms|explained|explains|insisted|insists|replied|replies|answered|answers|denied|denies|maintained|maintains|conceded|concedes|acknowledged|acknowledges|described|describes|alleged|alleges)\b/u;
/** Labels that are roles in a transcript, not a person: never compared with a name. */
const ROLE_LABEL = /^(?:q|a|question|answer|interviewer|interviewee|witness|suspect|officer|note|notes|source|subject)$/i;
/** Labels of a question-and-answer statement: the questions are whoever took it, the answers the person who gave it. */
const ASKER_LABEL = /^(?:q|question|interviewer)$/i;
const ANSWERER_LABEL = /^(?:a|answer|interviewee|witness|suspect)$/i;

/**
 * Who gave and who took a statement, from its heading ("Statement of Kiril Dimov, Third Engineer, 07 Mar 2025, taken
 * by Agent Kwame Osei"; "Statement of a crew member (Oiler Joel Macaraeg) … by SA Claire Moreau"): the words of each.
 */
function statementParties(text: string): { answerer: string[]; asker: string[] } {
  const heading = text.split("\n")[0] ?? "";
  const of =
    /\b(?:statement|interview|declaration|deposition|testimony|affidavit)\s+(?:under caution\s+)?(?:of|by|with|from|[-–—])\s+([^,;]*?(?:\([^)]*\))?)(?=,|;|\.\s|\s+(?:taken|recorded|given|made|at|on)\b|$)/i.exec(
      heading,
    );
  const by = /\b(?:taken|recorded|conducted|interviewed)\b[^.;]*?\bby\s+([^,;.]+?)(?=,|;|\.|$)|\binterviewers?\s*:\s*([^,;.]+)/i.exec(
    heading,
  );
  const wordsOf = (phrase?: string) =>
    phrase
      ? words(phrase)
          .map((w) => w.lower)
          .filter((w) => w.length > 2 && !isStopword(w))
      : [];
  return { answerer: wordsOf(of?.[1]), asker: wordsOf(by?.[1] ?? by?.[2]) };
}

/** A name the claim gives: as written, and its words lower-cased. */
type Name = { raw: string; tokens: string[] };

interface Line {
  /** The label's words, lower-cased ("io", "mwangi"). */
  speaker: string[];
  stems: Set<string>;
  /** A reply's stems with those of the question it answers. */
  answered: Set<string>;
}

const stemsOf = (text: string) =>
  new Set(
    words(text)
      .filter((w) => !isStopword(w.lower) && w.lower.length > 1 && !/^\d/.test(w.lower))
      .map((w) => porter(w.lower)),
  );

/** The labelled lines of a transcript, each reply with the stems of the question before it; none when it is not one. */
export function transcriptLines(text: string): Line[] {
  return linesMemo(text, () => readLines(text));
}
const linesMemo = boundedMemo<Line[]>(1_000);

function readLines(text: string): Line[] {
  const out: Line[] = [];
  const parties = statementParties(text);
  let question: { speaker: string; stems: Set<string> } | undefined;
  for (const raw of text.split("\n")) {
    const m = LINE.exec(raw);
    const label = m?.[1].trim() ?? "";
    // "Q:" and "A:" are the people the heading names as taking and giving the statement, when it names them.
    const role = ASKER_LABEL.test(label) ? parties.asker : ANSWERER_LABEL.test(label) ? parties.answerer : null;
    if (!m || (ROLE_LABEL.test(label) && !role?.length)) {
      question = undefined;
      continue;
    }
    const speaker = role?.length ? role.join(" ") : label.toLowerCase();
    const stems = stemsOf(m[2]);
    const asked = question && question.speaker !== speaker ? question.stems : undefined;
    out.push({ speaker: words(speaker).map((w) => w.lower), stems, answered: asked ? new Set([...stems, ...asked]) : stems });
    question = /\?\s*$/.test(m[2]) ? { speaker, stems } : undefined;
  }
  return out.length >= 2 ? out : [];
}

/** Who a claim says spoke ("Kovac admitted …", "According to Dunn, …"): the words of that name, lower-cased. */
function attributedTo(claim: string, names: readonly Name[]): { who: string[]; name: string; said: string; answer?: boolean } | null {
  const according = /\b[Aa]ccording to\s+((?:[\p{Lu}][\p{L}'’-]*\s*){1,3}),?\s*(.*)$/u.exec(claim);
  if (according) return { who: words(according[1]).map((w) => w.lower), name: according[1].trim(), said: according[2] };
  const verb = SAID.exec(claim);
  // "Kovac was told …" is someone speaking to him.
  if (!verb || /\b(?:was|were|is|are|be|been|being)\s+$/i.test(claim.slice(0, verb.index))) return null;
  const before = claim.slice(0, verb.index);
  // The last name the claim gives before the verb ("In interview, Dmitri Kovac told detectives …").
  const lower = before.toLowerCase();
  const named = names
    .map((n) => ({ n, at: lower.lastIndexOf(n.raw.toLowerCase()) }))
    .filter((x) => x.at >= 0)
    .sort((x, y) => y.at - x.at || y.n.raw.length - x.n.raw.length)[0];
  const said = claim.slice(verb.index + verb[0].length);
  const answer = ANSWERED.test(verb[0]);
  if (named) return { who: named.n.tokens, name: named.n.raw, said, answer };
  // A name the case does not hold, written as one right before the verb ("Reyes said", "Det. Reyes told").
  const written = /((?:[\p{Lu}][\p{L}'’-]*\.?\s+){0,2}[\p{Lu}][\p{L}'’-]*)\s+$/u.exec(before);
  return written ? { who: words(written[1]).map((w) => w.lower), name: written[1], said, answer } : null;
}

/**
 * The speaker a claim wrongly credits with what it reports, or null. `names` are the names the claim gives.
 * Judged only when the named person speaks in the transcript, what the claim reports shares at least two words with
 * some line, and every line that shares the most is another speaker's.
 */
export function misattributed(claim: string, names: readonly Name[], sourceTexts: readonly string[]): { said: string; by: string } | null {
  const who = attributedTo(claim, names);
  if (!who) return null;
  const said = stemsOf(who.said);
  const person = new Set(who.who.filter((t) => t.length > 2));
  let wrong: { said: string; by: string } | null = null;
  for (const text of sourceTexts) {
    const lines = transcriptLines(text);
    const theirs = (l: Line) => l.speaker.some((t) => person.has(t));
    if (!lines.some(theirs)) continue;
    // "Said" reports the speaker's own words; "denied", "admitted" may report the question they answer.
    const overlap = (l: Line) => [...said].filter((t) => (who.answer ? l.answered : l.stems).has(t)).length;
    const best = Math.max(0, ...lines.map(overlap));
    if (best < 2) continue;
    const top = lines.filter((l) => overlap(l) === best);
    // One transcript in which the person says it is enough.
    if (top.some(theirs)) return null;
    wrong ??= { said: who.name, by: top[0].speaker.join(" ").toUpperCase() };
  }
  return wrong;
}
