// Text helpers shared by retrieval, context building, validation and the offline model: word extraction that keeps
// identifiers whole ("did:ws-fin-0231", "203.0.113.47", "svc_backup"), a stopword list, a light English stemmer and a
// sentence splitter that does not break inside dotted identifiers or common abbreviations. Pure and deterministic.

export interface Word {
  /** As written, without a trailing possessive. */
  raw: string;
  /** Lower-cased. */
  lower: string;
  /** Position among the words of the text. */
  index: number;
  /** Starts with an upper-case letter. */
  capitalised: boolean;
}

// A word starts and ends with a letter or digit; inside it may hold the punctuation identifiers use.
const WORD = /[\p{L}\p{N}](?:[\p{L}\p{N}_'’.:/@#+-]*[\p{L}\p{N}])?/gu;

export function words(text: string): Word[] {
  const out: Word[] = [];
  for (const m of text.matchAll(WORD)) {
    const raw = m[0].replace(/['’]s$/iu, "");
    if (!raw) continue;
    out.push({ raw, lower: raw.toLowerCase(), index: out.length, capitalised: /^\p{Lu}/u.test(raw) });
  }
  return out;
}

/** An identifier-like word: has a digit or identifier punctuation (did:ws-fin-0231, EV-C-012, svc_backup, p-dunn). */
export function isIdLike(word: string): boolean {
  return /[0-9]/.test(word) || /[-:_./@#]/.test(word);
}

export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a about above after again against all also am an and any are aren't as at be because been before being below " +
    "between both but by can cannot could couldn't did didn't do does doesn't doing don't down during each either else " +
    "ever every few for from further get gets got had hadn't has hasn't have haven't having he he'd he'll he's her here " +
    "here's hers herself him himself his how how's i i'd i'll i'm i've if in into onto is isn't it it's its itself just let's " +
    "may me might more most much must mustn't my myself no nor not now of off on once one only or other ought our ours " +
    "ourselves out over own please same shall shan't she she'd she'll she's should shouldn't so some such tell than that " +
    "that's the their theirs them themselves then there there's these they they'd they'll they're they've this those " +
    "through to too under until up upon us very was wasn't we we'd we'll we're we've were weren't what what's when " +
    "when's where where's which while who who's whom whose why why's will with won't would wouldn't yet you you'd " +
    "you'll you're you've your yours yourself yourselves know known anything something everything show give find " +
    "describe explain list many happened happen anyone someone whether really go goes going gone went getting per via " +
    "among amongst"
  ).split(/\s+/),
);

export function isStopword(lower: string): boolean {
  return STOPWORDS.has(lower);
}

/**
 * A light suffix stripper (plural, -ing, -ed, -ly …) so "killed"/"kill", "meetings"/"meeting", "laundered"/"laundering"
 * meet. Identifier-like words are left alone.
 */
export function stem(lower: string): string {
  if (isIdLike(lower) || lower.length <= 3) return lower;
  let w = lower;
  if (/^.{1,2}i(?:ed|es)$/.test(w)) return w.slice(0, -1); // died → die, ties → tie
  const rules: Array<[RegExp, string]> = [
    [/ies$/, "y"],
    [/ied$/, "y"],
    [/ier$/, "y"],
    [/(ss)es$/, "$1"],
    [/([^s])s$/, "$1"],
    [/eed$/, "ee"],
    [/(..[^aeiou])ed$/, "$1"],
    [/(..[^aeiou])ing$/, "$1"],
    [/(..)ly$/, "$1"],
  ];
  for (const [re, to] of rules) {
    if (re.test(w)) {
      w = w.replace(re, to);
      break;
    }
  }
  // "stopped" → "stopp" → "stop"; "running" → "runn" → "run".
  if (/([^aeiouslz])\1$/.test(w) && w.length > 3) w = w.slice(0, -1);
  return w;
}

const ABBREVIATIONS = new Set([
  "mr",
  "mrs",
  "ms",
  "dr",
  "st",
  "no",
  "nr",
  "approx",
  "e.g",
  "i.e",
  "etc",
  "vs",
  "inc",
  "co",
  "ltd",
  "jr",
  "sr",
  "det",
  "sgt",
  "lt",
  "capt",
  "insp",
  "ave",
  "rd",
  "blvd",
  "fig",
  "u.s",
  "a.m",
  "p.m",
  "dept",
  "corp",
  "est",
]);

/**
 * Splits text into sentences. A boundary is ".", "!" or "?" followed by whitespace (or a closing quote and
 * whitespace) or the end, or a line break; not after a known abbreviation or a single-letter initial.
 * Returns trimmed, non-empty sentences; joining them with spaces loses only whitespace.
 */
export function splitSentences(text: string): string[] {
  return sentenceSpans(text).map((s) => text.slice(s.start, s.end));
}

/** The sentences of `text` as [start, end) offsets into it, trimmed of surrounding whitespace (splitSentences' rule). */
export function sentenceSpans(text: string): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  let start = 0;
  const push = (end: number) => {
    let a = start,
      b = end;
    while (a < b && /\s/.test(text[a])) a++;
    while (b > a && /\s/.test(text[b - 1])) b--;
    if (b > a) out.push({ start: a, end: b });
    start = end;
  };
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\n") {
      push(i + 1);
      continue;
    }
    if (ch !== "." && ch !== "!" && ch !== "?") continue;
    let j = i + 1;
    while (j < text.length && /[.!?]/.test(text[j])) j++;
    while (j < text.length && /["'”’)\]]/.test(text[j])) j++;
    if (j < text.length && !/\s/.test(text[j])) continue;
    if (ch === ".") {
      const before = /([\p{L}.]+)\.*$/u.exec(text.slice(Math.max(0, i - 12), i));
      const token = before ? before[1].toLowerCase() : "";
      // "Dr. Holt", "J. Smith": an initial is followed by a name; "… 14.1 °C. 09:40 …" ends a sentence.
      const digitNext = /^\s+\d/.test(text.slice(j, j + 3));
      if (ABBREVIATIONS.has(token) || (/^\p{L}$/u.test(token) && !digitNext)) continue;
    }
    push(j);
    i = j - 1;
  }
  push(text.length);
  return out;
}

/** Lower-case words and numbers only, punctuation and spacing aside ("I'm done." → "i m done"): for word-for-word comparison. */
export function wordsOnly(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Collapses runs of whitespace (not line breaks) and trims. */
export function squash(text: string): string {
  return text
    .replace(/[^\S\n]+/g, " ")
    .replace(/ *\n */g, "\n")
    .trim();
}

/** `text` with the characters a regular expression reads as syntax escaped, to match it literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
