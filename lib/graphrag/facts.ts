// The checkable parts of a piece of text, for the claim-level support checks (ground.ts): numbers, amounts,
// percentages, dates, times, identifiers (phone numbers, IP addresses, plates, account/device/case ids), named
// entities, negations and stemmed content words. Pure and deterministic; the same extractor reads a claim and the
// evidence it cites, so both sides are normalised the same way.
//
// Normalisation (documented in README "How answers are checked"):
// - Amounts: "$48,500" = "48,500 USD" = "USD 48500" = "48.5k dollars" → 48500 (USD). A bare "48500" in the source
//   supports any of them; two different currencies for the same value do not match.
// - Percentages: "12%" = "12 percent" = "12 per cent".
// - Dates: ISO "2026-03-18" (with or without a time), "18 March 2026", "18th of March 2026", "March 18, 2026",
//   "Mar 18 2026", "2026/03/18" and numeric "18/03/2026", "18.03.2026", "18-03-26". Numeric day/month dates are read
//   day first; when both readings are valid dates (03/04/2026) either reading may match. A date without a year
//   ("18 March") matches any year; a full date is supported by the same day and month when the source also names
//   the year. "March 2026" matches any date in that month.
// - Times: "06:18" = "6:18 am" = "0618 hrs"; "10:10 pm" = "22:10"; "6 pm" = "18:00"; noon, midnight.
// - Identifiers compare case-insensitively, ignoring separators and a scheme prefix ("did:ws-fin-0231" =
//   "WS-FIN-0231"); phone numbers compare by digits, a shorter number matching the end of a longer one (7+ digits, so
//   "555-0178" = "+1-555-0178").
import { stemmer } from "stemmer";
import { isStopword } from "./text";

export interface NumberFact {
  kind: "amount" | "percent" | "number";
  value: number;
  currency?: string;
  raw: string;
  at: number;
}
export interface YMD {
  y?: number;
  m?: number;
  d?: number;
}
export interface DateFact {
  readings: YMD[];
  raw: string;
  at: number;
}
export interface TimeFact {
  minutes: number;
  raw: string;
  at: number;
}
export interface IdFact {
  kind: "phone" | "ip" | "id";
  key: string;
  raw: string;
  at: number;
}
export interface EntityFact {
  tokens: string[];
  raw: string;
  at: number;
}

export interface Facts {
  numbers: NumberFact[];
  dates: DateFact[];
  times: TimeFact[];
  ids: IdFact[];
  entities: EntityFact[];
  /** Negation words, in order ("not", "never", "didn't"). */
  negations: string[];
  /** Per negation, the stem of what it denies (deniedWord), for finding the source sentence that denies it too. */
  denied: Array<string | null>;
  /** Lower-cased words (hyphenated words also by part), for entity matching. */
  tokens: string[];
  /** Porter stems of the content words that are not part of an entity, number or identifier. */
  stems: string[];
  /** The word each stem came from (same order as `stems`), for reasons. */
  stemWords: string[];
  /** Claims only: a stem followed by a particle, and the stem of the two written as one word ("logged on" → logon). */
  joined: Map<string, string>;
  /**
   * Sources only: per sentence, its stems, the words of its figures ("305", "18:40"), per negation the stem of the next
   * content word (or the stems of what it denies together, space-separated: "have arriv"), whether it reports an
   * assertion rather than a fact ("alleged", "reportedly"), and whether it is a question.
   */
  sentences: Array<{ stems: Set<string>; figures: Set<string>; negated: Array<string | null>; hedged: boolean; question: boolean }>;
  /** The text reports an assertion rather than a fact somewhere ("Delaney alleged that…"). */
  hedged: boolean;
}

export const MONTHS: Record<string, number> = {
  jan: 1,
  january: 1,
  feb: 2,
  february: 2,
  mar: 3,
  march: 3,
  apr: 4,
  april: 4,
  may: 5,
  jun: 6,
  june: 6,
  jul: 7,
  july: 7,
  aug: 8,
  august: 8,
  sep: 9,
  sept: 9,
  september: 9,
  oct: 10,
  october: 10,
  nov: 11,
  november: 11,
  dec: 12,
  december: 12,
};
export const WEEKDAYS = new Set([
  "monday",
  "tuesday",
  "wednesday",
  "thursday",
  "friday",
  "saturday",
  "sunday",
  "mon",
  "tue",
  "tues",
  "wed",
  "thu",
  "thurs",
  "fri",
  "sat",
  "sun",
]);
const MONTH = String.raw`(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
const NUMBER_WORDS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  hundred: 100,
  dozen: 12,
  twice: 2,
  once: 1,
  single: 1,
  double: 2,
};
const UNIT_WORDS = Object.keys(NUMBER_WORDS).filter(
  (w) => NUMBER_WORDS[w] > 0 && NUMBER_WORDS[w] < 100 && w !== "dozen" && !/^(?:once|twice|single|double)$/.test(w),
);
const SCALES: Record<string, number> = { hundred: 100, thousand: 1_000, million: 1_000_000, billion: 1_000_000_000 };
const SPELLED_WORD = `(?:${UNIT_WORDS.join("|")}|${Object.keys(SCALES).join("|")})`;
/** Currencies named in words after a figure ("48.5k dollars", "85 pounds sterling"). */
const CURRENCY_WORDS = "US dollars|dollars?|euros?|pounds? sterling|pounds?";
/** After a number in words, speech's names for them too ("five quid", "twenty bucks"). */
const SPOKEN_CURRENCY = `${CURRENCY_WORDS}|quid|bucks`;
/** A run of number words ("twenty-two", "one hundred and five", "a thousand"), then perhaps a currency. */
const SPELLED = new RegExp(
  String.raw`\b((?:an?\s+(?=${SPELLED_WORD}\b))?${SPELLED_WORD}(?:(?:-|\s+and\s+|\s+)${SPELLED_WORD})*)\b(?:\s+(${SPOKEN_CURRENCY})\b)?`,
  "gi",
);
/** A cheap test for whether SPELLED can find anything: a multi-word number's parts, or a number word before a currency. */
const SPELLED_HINT = new RegExp(
  String.raw`(?:ty|teen|hundred|thousand|million|billion)\b|\b${SPELLED_WORD}\s+(?:${SPOKEN_CURRENCY})\b`,
  "i",
);

/** A count written as one word: "20", "two", "twenty-five" (undefined for anything else, "one" and "once" among them). */
export function countOf(word: string): number | undefined {
  if (/^\d{1,3}$/.test(word)) return Number(word);
  if (!/^[a-z]+(?:-[a-z]+)?$/.test(word) || /^(?:one|once|single|zero|twice|double)$/.test(word)) return undefined;
  return NUMBER_WORDS[word] ?? (word.includes("-") ? spelledValue(word) : undefined);
}

/**
 * The value of a run of number words, or undefined when they do not make one number ("two three" is two numbers):
 * units and tens add up below a hundred, "hundred" multiplies what is before it, a larger scale closes a group.
 */
function spelledValue(phrase: string): number | undefined {
  let total = 0;
  let group = 0;
  let last: "unit" | "ten" | "hundred" | "scale" | null = null;
  for (const w of phrase.toLowerCase().split(/[\s-]+/)) {
    if (w === "and") continue;
    if (w === "a" || w === "an") {
      group = 1;
      last = "unit";
      continue;
    }
    const n = NUMBER_WORDS[w];
    if (w === "hundred") {
      if (last === "hundred" || group >= 100) return undefined;
      group = (group || 1) * 100;
      last = "hundred";
    } else if (SCALES[w]) {
      total += (group || 1) * SCALES[w];
      group = 0;
      last = "scale";
    } else if (n !== undefined) {
      const ten = n >= 20;
      if (last === "unit" || (last === "ten" && (ten || n >= 10))) return undefined;
      group += n;
      last = ten ? "ten" : "unit";
    } else return undefined;
  }
  return total + group;
}
/** Number words a claim must back up ("one", "once", "single" are too often not counts). */
const CLAIM_NUMBER_WORDS = new Set(
  Object.keys(NUMBER_WORDS).filter((w) => !["one", "once", "single", "double", "zero", "hundred"].includes(w)),
);
const NEGATIONS = new Set(["not", "no", "never", "none", "nobody", "nothing", "neither", "nor", "without", "cannot", "nowhere"]);
/**
 * Verbs that deny what follows them ("Kovac denied killing Dunn", "refused to say", "ruled out Ortega"): a negation of
 * the next content word, as "not" is.
 */
const DENIALS = new Set(["deny", "denies", "denied", "denying", "refuse", "refuses", "refused", "refusing"]);
/** Before a denial verb, a word that makes it an adjective ("the denied claim was appealed"): no negation. */
const DETERMINER = /^(?:the|a|an|this|that|these|those|its|their|his|her|our|my|your|each|every|any)$/;
/** Words after a negation that say what is missing rather than what is denied ("no evidence that …", "ruled out"). */
const NEGATION_FILLER = new Set(["evidence", "sign", "signs", "indication", "record", "proof", "trace", "out", "suggestion"]);
/**
 * A statement reported as someone's assertion or as a possibility, not as fact ("Delaney alleged that…", "may have").
 * Not a word that qualifies only part of a sentence ("the alleged victim", "suspected of", "could be seen").
 */
const HEDGE =
  /\b(?:alleg(?:e|es|ed|ing) that|allegedly|purportedly|reportedly|rumou?red|supposedly|claim(?:s|ed) that|(?:may|might|could) have|possibly|probably|probable|(?:most |more )?likely|(?:appears?|appeared|seems?|seemed) to|(?:is|was|are|were) (?:believed|thought|understood) to|unconfirmed|unverified)\b/i;
const TITLES = new Set([
  "mr",
  "mrs",
  "ms",
  "mx",
  "dr",
  "det",
  "detective",
  "officer",
  "sgt",
  "sergeant",
  "lt",
  "lieutenant",
  "capt",
  "captain",
  "insp",
  "inspector",
  "agent",
  "judge",
  "prof",
  "professor",
  "sir",
  "madam",
  "constable",
  "pc",
  "chief",
  "deputy",
]);
const CONNECTORS = new Set(["of", "de", "van", "von", "der", "den", "da", "di", "du", "la", "le", "del", "al", "bin", "ibn"]);
/** Attribution, hedging and discourse words: how a claim is framed, not what it says. */
export const FRAMING_WORDS: ReadonlySet<string> = new Set([
  "according",
  "state",
  "states",
  "stated",
  "stating",
  "say",
  "says",
  "said",
  "saying",
  "shows",
  "showed",
  "shown",
  "indicate",
  "indicates",
  "indicated",
  "indicating",
  "suggest",
  "suggests",
  "suggested",
  "suggesting",
  "report",
  "reports",
  "reported",
  "reporting",
  "note",
  "notes",
  "noted",
  "mention",
  "mentions",
  "mentioned",
  "describe",
  "describes",
  "described",
  "document",
  "documents",
  "documented",
  "evidence",
  "item",
  "items",
  "source",
  "sources",
  "likely",
  "possibly",
  "probably",
  "apparently",
  "therefore",
  "thus",
  "hence",
  "however",
  "furthermore",
  "additionally",
  "moreover",
  "consistent",
  "respectively",
  "approximately",
  "roughly",
  "reportedly",
  "allegedly",
  "confirm",
  "confirms",
  "confirmed",
  "claim",
  "claims",
  "claimed",
  "per",
  "specifically",
  "namely",
  "including",
  "record",
  "records",
  "recorded",
  "noting",
  "reads",
  "read",
  "writes",
  "wrote",
  "written",
  "based",
  "cited",
  "cites",
  // How a quoted reply is framed (`Asked "…?", X answered "…"`).
  "asked",
  "answer",
  "answered",
  "replied",
]);

// ---------------------------------------------------------------------------------------------------------------

/**
 * Words the Porter stemmer folds into another word of a different sense that case records use: a payment's
 * "reference" is not "referred to MSET", an "authority" not an "author", the "executive" not "executed", "news" not
 * "new". Each keeps a stem of its own (its plural with it).
 */
const OVERSTEMMED: Record<string, string> = {
  reference: "referenc",
  references: "referenc",
  authority: "authoriti",
  authorities: "authoriti",
  executive: "executiv",
  executives: "executiv",
  community: "communiti",
  communities: "communiti",
  news: "news",
  general: "general",
};

/** Porter stem of a lower-cased word, cached (the same words recur across claims and evidence). */
const stemCache = new Map<string, string>();
export function porter(lower: string): string {
  let s = stemCache.get(lower);
  if (s === undefined) {
    s = OVERSTEMMED[lower] ?? stemmer(lower);
    if (stemCache.size > 50_000) stemCache.clear();
    stemCache.set(lower, s);
  }
  return s;
}

/** Particles that make one word with a verb before them: "logged on" / "logon", "signed in" / "sign-in", "set up" / "setup". */
export const PARTICLES = new Set(["on", "in", "up", "out", "off", "over", "down"]);

/** The stem of a verb and its particle written as one word: ("logged", "on") → porter("logon"). */
export function joinedStem(verb: string, particle: string): string {
  return porter(porter(verb) + particle);
}

/** Identifier comparison key: lower-case, no scheme prefix ("did:", "acct:"), letters and digits only. */
export function idKey(raw: string): string {
  return raw
    .toLowerCase()
    .replace(/^[a-z]{2,6}:(?!\d)/u, "")
    .replace(/[^\p{L}\p{N}]/gu, "");
}

export interface ExtractOptions {
  /** Capitalised words known as names in the context: a sentence-initial one is read as a name, not a common word. */
  properNouns?: ReadonlySet<string>;
  /** A claim (stricter: number words other than "one" are counts to check). Sources read every number word. */
  claim?: boolean;
  /** A source: named entities are not needed (its words are all indexed), and the result is memoised by text. */
  source?: boolean;
}

const MONTHS_RE = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)/i;
const RE = {
  url: /https?:\/\/[^\s<>"')\]]+/giu,
  email: /(?<![\p{L}\p{N}_.+-])[\p{L}\p{N}._+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu,
  scheme: /(?<![\p{L}\p{N}_])\p{L}[\p{L}\p{N}]*:[\p{L}\p{N}][\p{L}\p{N}_.:/@#+-]*[\p{L}\p{N}]/gu,
  snake: /(?<![\p{L}\p{N}])[\p{L}\p{N}]+(?:_[\p{L}\p{N}]+)+(?![\p{L}\p{N}])/gu,
  ip: /(?<![\p{L}\p{N}.])(?:\d{1,3}\.){3}\d{1,3}(?:\/\d{1,2})?(?![\p{N}]|\.\d)/gu,
  // A British registration mark is one identifier though it has a space: "KV19 OBX" is not "KV19 ODX", which shares
  // its first half (area and year) with every car registered there that half-year.
  ukPlate: /(?<![\p{L}\p{N}-])[A-Z]{2}\d{2} ?[A-Z]{3}(?![\p{L}\p{N}-])/gu,
  isoDate:
    /(?<![\p{L}\p{N}])(\d{4})[-/](\d{1,2})[-/](\d{1,2})(?:[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\p{L}\p{N}]|[-/]\d)/gu,
  numericDate: /(?<![\p{L}\p{N}/.-])(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})(?![\p{L}\p{N}]|[/.-]\d)/gu,
  // A day and its month on one line, the day not the decimals of a figure ("24,380.15\nFeb 2024" is no 15 February).
  dayMonth: new RegExp(
    String.raw`(?<![\p{L}\p{N}]|\p{N}[.,])(\d{1,2})(?:st|nd|rd|th)?(?:[^\S\n]+of)?[^\S\n]+${MONTH}(?:,?\s+(\d{4}))?(?![\p{L}\p{N}])`,
    "giu",
  ),
  monthDay: new RegExp(String.raw`(?<![\p{L}\p{N}])${MONTH}[^\S\n]+(\d{1,2})(?:st|nd|rd|th)?(?:,?\s+(\d{4}))?(?![\p{L}\p{N}]|:\d)`, "giu"),
  monthYear: new RegExp(String.raw`(?<![\p{L}\p{N}])${MONTH},?\s+(\d{4})(?![\p{L}\p{N}])`, "giu"),
  clock: /(?<![\p{L}\p{N}:.])([01]?\d|2[0-3]):([0-5]\d)(?::[0-5]\d)?(?:\s*([ap])\.?\s?m\b\.?)?(?![\p{N}]|:\d)/giu,
  clockDot: /(?<![\p{L}\p{N}:.])(1[0-2]|0?[1-9])[.h]([0-5]\d)\s*([ap])\.?\s?m\b\.?/giu,
  hourAmPm: /(?<![\p{L}\p{N}:.])(1[0-2]|0?[1-9])\s*([ap])\.?\s?m(?![\p{L}])\.?/giu,
  military: /(?<![\p{L}\p{N}])([01]\d|2[0-3])([0-5]\d)\s*(?:hrs|hours|h)(?![\p{L}])/giu,
  noon: /\b(noon|midday|midnight)\b/giu,
  moneyPrefix: moneyPattern("prefix", String.raw`US\$|USD|EUR|GBP|CAD|AUD|CHF|\$|€|£|¥`, "giu"),
  moneySuffix: moneyPattern("suffix", `USD|EUR|GBP|CAD|AUD|CHF|${CURRENCY_WORDS}`, "giu"),
  percent: /(?<![\p{L}\p{N}.])(\d+(?:\.\d+)?)\s?(%|percent(?![\p{L}])|per cent(?![\p{L}])|pct(?![\p{L}]))/giu,
  phonePlus: /(?<![\p{L}\p{N}+-])\+\d{1,3}(?:[\s.-]?\(?\d{1,4}\)?){2,5}(?![\p{L}\p{N}]|-\d)/gu,
  phone: /(?<![\p{L}\p{N}.-])(?:\(\d{2,4}\)\s?)?\d{2,4}(?:[.-]\d{2,4}){1,3}(?![\p{L}\p{N}]|[.-]\d)/gu,
  thousands: /(?<![\p{L}\p{N}.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\p{N}]|[.,]\d)/gu,
  word: /[\p{L}\p{N}](?:[\p{L}\p{N}_'’.:/@#+-]*[\p{L}\p{N}])?/gu,
  sentenceEnd: /[.!?]+["'”’)]*(?:\s+|$)|\n+/gu,
};

/** Sources are read again and again (every answer over the same evidence): their facts are kept, by text. */
const sourceMemo = new Map<string, Facts>();

export function extractFacts(input: string, options: ExtractOptions = {}): Facts {
  if (options.source) {
    const hit = sourceMemo.get(input);
    if (hit) return hit;
  }
  const text = /[^\x00-\x7f]/.test(input) ? input.normalize("NFKC") : input;
  // Consumed spans are blanked in `work` (offsets kept) so later patterns do not read them again.
  let work = text;
  const scan = (re: RegExp, fn: (m: RegExpExecArray) => boolean | void) => {
    re.lastIndex = 0;
    let out = "";
    let last = 0;
    for (let m = re.exec(work); m; m = re.exec(work)) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      if (fn(m) !== false) {
        out += work.slice(last, m.index) + " ".repeat(m[0].length);
        last = m.index + m[0].length;
      }
    }
    if (last) work = out + work.slice(last);
  };
  const f: Facts = {
    numbers: [],
    dates: [],
    times: [],
    ids: [],
    entities: [],
    negations: [],
    denied: [],
    tokens: [],
    stems: [],
    stemWords: [],
    joined: new Map(),
    sentences: [],
    hedged: false,
  };
  const hasDigit = /\d/.test(text);
  const id = (kind: IdFact["kind"]) => (m: RegExpExecArray) =>
    void f.ids.push({ kind, key: kind === "ip" ? m[0] : idKey(m[0]), raw: m[0], at: m.index });

  // 1. Compound identifiers: URLs, e-mail addresses, scheme-prefixed ids, snake_case names; IP addresses.
  if (text.includes("://")) scan(RE.url, id("id"));
  if (text.includes("@")) scan(RE.email, id("id"));
  if (text.includes(":")) scan(RE.scheme, id("id"));
  if (text.includes("_")) scan(RE.snake, id("id"));
  if (hasDigit) {
    if (/\d\.\d+\.\d+\.\d/.test(text)) scan(RE.ip, id("ip"));
    scan(RE.ukPlate, id("id"));
    // 2. Dates.
    if (/\d{4}[-/]\d/.test(text))
      scan(RE.isoDate, (m) => {
        const r = ymd(+m[1], +m[2], +m[3]);
        if (!r) return false;
        f.dates.push({ readings: [r], raw: m[0], at: m.index });
        if (m[4]) f.times.push({ minutes: +m[4] * 60 + +m[5], raw: m[0], at: m.index });
      });
    if (/\d[/.-]\d{1,2}[/.-]\d\d/.test(text))
      scan(RE.numericDate, (m) => {
        const y = m[4].length === 2 ? 2000 + +m[4] : +m[4];
        const readings = [ymd(y, +m[3], +m[1]), ymd(y, +m[1], +m[3])].filter((r): r is YMD => !!r);
        if (!readings.length) return false;
        f.dates.push({ readings: dedupeYmd(readings), raw: m[0], at: m.index });
      });
    if (MONTHS_RE.test(text)) {
      const monthOk = (word: string) => word.toLowerCase() !== "may" || word.startsWith("M");
      scan(RE.dayMonth, (m) => {
        if (!monthOk(m[2])) return false;
        const r = ymd(m[3] ? +m[3] : undefined, MONTHS[m[2].toLowerCase()], +m[1]);
        if (!r) return false;
        f.dates.push({ readings: [r], raw: m[0], at: m.index });
      });
      scan(RE.monthDay, (m) => {
        if (!monthOk(m[1])) return false;
        const r = ymd(m[3] ? +m[3] : undefined, MONTHS[m[1].toLowerCase()], +m[2]);
        if (!r) return false;
        f.dates.push({ readings: [r], raw: m[0], at: m.index });
      });
      scan(RE.monthYear, (m) => {
        if (!monthOk(m[1])) return false;
        f.dates.push({ readings: [{ y: +m[2], m: MONTHS[m[1].toLowerCase()] }], raw: m[0], at: m.index });
      });
    }
    // 3. Times.
    const ampm = (h: number, mer: string | undefined) => (mer ? (h % 12) + (/^p/i.test(mer) ? 12 : 0) : h);
    if (text.includes(":")) scan(RE.clock, (m) => void f.times.push({ minutes: ampm(+m[1], m[3]) * 60 + +m[2], raw: m[0], at: m.index }));
    if (/\d\s*[ap]\.?\s?m/i.test(text)) {
      scan(RE.clockDot, (m) => void f.times.push({ minutes: ampm(+m[1], m[3]) * 60 + +m[2], raw: m[0], at: m.index }));
      scan(RE.hourAmPm, (m) => void f.times.push({ minutes: ampm(+m[1], m[2]) * 60, raw: m[0], at: m.index }));
    }
    if (/\d\s*h/i.test(text)) scan(RE.military, (m) => void f.times.push({ minutes: +m[1] * 60 + +m[2], raw: m[0], at: m.index }));
    // 4. Amounts and percentages.
    const num = (int: string, frac: string | undefined, mult: string | undefined) =>
      Number(int.replace(/,/g, "") + (frac ? `.${frac}` : "")) * multiplier(mult);
    if (/[$€£¥]|USD|EUR|GBP|CAD|AUD|CHF/i.test(text))
      scan(
        RE.moneyPrefix,
        (m) => void f.numbers.push({ kind: "amount", value: num(m[2], m[3], m[4]), currency: currencyOf(m[1]), raw: m[0], at: m.index }),
      );
    if (/USD|EUR|GBP|CAD|AUD|CHF|dollar|euro|pound/i.test(text))
      scan(
        RE.moneySuffix,
        (m) => void f.numbers.push({ kind: "amount", value: num(m[1], m[2], m[3]), currency: currencyOf(m[4]), raw: m[0], at: m.index }),
      );
    // Any other ISO 4217 code, written in capitals ("KES 450,000", "450,000 INR"), or a currency sign.
    if (/\b[A-Z]{3}\b|[₹₦₩₱₽₺฿₫₪]/u.test(text)) {
      scan(
        ISO_PREFIX,
        (m) => void f.numbers.push({ kind: "amount", value: num(m[2], m[3], m[4]), currency: currencyOf(m[1]), raw: m[0], at: m.index }),
      );
      scan(
        ISO_SUFFIX,
        (m) => void f.numbers.push({ kind: "amount", value: num(m[1], m[2], m[3]), currency: m[4], raw: m[0], at: m.index }),
      );
    }
    if (/%|per ?cent|pct/i.test(text))
      scan(RE.percent, (m) => void f.numbers.push({ kind: "percent", value: Number(m[1]), raw: m[0], at: m.index }));
    // 5. Phone numbers: 7–15 digits with separators or a leading "+"; a year range ("1990-2005") is two numbers.
    const phone = (m: RegExpExecArray) => {
      const digits = m[0].replace(/\D/g, "");
      if (digits.length < 7 || digits.length > 15) return false;
      if (/^(19|20)\d\d[-–](19|20)\d\d$/.test(m[0])) return false;
      f.ids.push({ kind: "phone", key: digits, raw: m[0], at: m.index });
    };
    if (text.includes("+")) scan(RE.phonePlus, phone);
    if (/\d[.-]\d/.test(text)) scan(RE.phone, phone);
    // 6. Numbers written with thousands separators, before the word pass splits them at the comma.
    if (/\d,\d{3}/.test(text))
      scan(RE.thousands, (m) => void f.numbers.push({ kind: "number", value: Number(m[0].replace(/,/g, "")), raw: m[0], at: m.index }));
  }
  // 6b. Numbers written in words of more than one word ("eighty-five", "three hundred and forty"), and any number word
  //     before a currency ("five pounds"): one figure, as a transcript or a letter says an amount.
  if (SPELLED_HINT.test(text))
    scan(SPELLED, (m) => {
      const value = spelledValue(m[1]);
      if (value === undefined || (!m[2] && !/[\s-]/.test(m[1].trim()))) return false;
      if (m[2]) f.numbers.push({ kind: "amount", value, currency: currencyOf(m[2]), raw: m[0], at: m.index });
      else f.numbers.push({ kind: "number", value, raw: m[1], at: m.index });
    });
  if (/noon|midday|midnight/i.test(text))
    scan(RE.noon, (m) => void f.times.push({ minutes: /night/i.test(m[1]) ? 0 : 720, raw: m[0], at: m.index }));

  // 7. Words: numbers, identifiers, negations, entities, content.
  interface Tok {
    raw: string;
    lower: string;
    at: number;
    end: number;
    cap: boolean;
  }
  const toks: Tok[] = [];
  RE.word.lastIndex = 0;
  for (const m of work.matchAll(RE.word)) {
    const w = m[0];
    const raw = w.length > 2 && (w.endsWith("'s") || w.endsWith("’s") || w.endsWith("'S") || w.endsWith("’S")) ? w.slice(0, -2) : w;
    const at = m.index ?? 0;
    const lower = raw.toLowerCase();
    toks.push({ raw, lower, at, end: at + w.length, cap: raw[0] !== lower[0] });
  }
  const plain: Tok[] = [];
  for (const t of toks) {
    if (!/[\d_:@#/.-]/.test(t.raw)) plain.push(t);
    else if (/^\d+(?:\.\d+)?$/.test(t.raw)) f.numbers.push({ kind: "number", value: Number(t.raw), raw: t.raw, at: t.at });
    else if (/^\d+(?:st|nd|rd|th|s)$/iu.test(t.raw)) f.numbers.push({ kind: "number", value: parseInt(t.raw, 10), raw: t.raw, at: t.at });
    else if (/\d/.test(t.raw) || isIdentifier(t.raw)) f.ids.push({ kind: "id", key: idKey(t.raw), raw: t.raw, at: t.at });
    else plain.push(t);
  }

  // Named entities (claims only): runs of capitalised words (connectors like "of" inside), titles, months and
  // weekdays aside. A sentence-initial capital is grammar, not a name, unless the context knows the word as a name.
  const inEntity = new Set<Tok>();
  if (!options.source) {
    for (let i = 0; i < plain.length; i++) {
      if (!plain[i].cap) continue;
      const run: Tok[] = [plain[i]];
      let j = i + 1;
      while (j < plain.length) {
        const gap = text.slice(run[run.length - 1].end, plain[j].at);
        if (!/^\s+$/u.test(gap)) break;
        if (plain[j].cap) run.push(plain[j]);
        else if (CONNECTORS.has(plain[j].lower) && plain[j + 1]?.cap && /^\s+$/u.test(text.slice(plain[j].end, plain[j + 1].at)))
          run.push(plain[j]);
        else break;
        j++;
      }
      i = j - 1;
      let names = run;
      // "Raymond Dunn was…" vs "Yesterday Kovac…", "Officers found…".
      if (isInitial(text, names[0].at) && !options.properNouns?.has(names[0].lower)) names = names.slice(1);
      if (!names.length) continue;
      const tokens = names.filter(
        (t) =>
          !TITLES.has(t.lower) &&
          !MONTHS[t.lower] &&
          !WEEKDAYS.has(t.lower) &&
          !CONNECTORS.has(t.lower) &&
          t.raw !== "I" &&
          !isStopword(t.lower),
      );
      if (!tokens.length) continue;
      for (const t of tokens) inEntity.add(t);
      f.entities.push({ tokens: tokens.map((t) => t.lower), raw: text.slice(names[0].at, names[names.length - 1].end), at: names[0].at });
    }
  }

  for (const t of toks) {
    f.tokens.push(t.lower);
    if (t.lower.includes("-")) f.tokens.push(...t.lower.split("-").filter(Boolean));
  }
  // "No. 2", "no 4", "claim no. HM-CR-24-3318", a column headed "Staff no." abbreviate "number": not a negation.
  const numbered = (t: Tok) =>
    t.lower === "no" &&
    (/^\.?\s*#?\d/.test(text.slice(t.end, t.end + 4)) || /^\.\s*(?:[\p{L}/-]*\d|\|)/u.test(text.slice(t.end, t.end + 40)));
  for (const [i, t] of plain.entries()) {
    if (negationAt(plain, i) && !numbered(t)) {
      f.negations.push(t.lower);
      // A reply on its own ("A: No. Ori told me the history", "Nobody's.") denies nothing the next sentence says.
      f.denied.push(/^\s*[.!?]/.test(text.slice(t.end, t.end + 2)) ? null : deniedWord(plain.slice(i + 1)));
      continue;
    }
    const n = NUMBER_WORDS[t.lower];
    if (n !== undefined && (!options.claim || CLAIM_NUMBER_WORDS.has(t.lower))) {
      f.numbers.push({ kind: "number", value: n, raw: t.raw, at: t.at });
      continue;
    }
    // A source's words are all indexed by the caller; a claim's content words are what must be covered.
    if (options.source || inEntity.has(t) || (MONTHS[t.lower] && t.cap)) continue;
    for (const part of t.lower.split("-")) {
      if (part.length < 2 || isStopword(part) || FRAMING_WORDS.has(part) || /\d/.test(part)) continue;
      const w = part.replace(/['’]/g, "");
      f.stems.push(porter(w));
      f.stemWords.push(w);
    }
    const next = plain[i + 1];
    if (next && PARTICLES.has(next.lower) && f.stemWords.at(-1) === t.lower && /^\s+$/.test(text.slice(t.end, next.at)))
      f.joined.set(f.stems[f.stems.length - 1], joinedStem(t.lower, next.lower));
  }

  f.hedged = HEDGE.test(text);
  // Sentences of a source, for aligning a claim with the one it rests on (a negation or a hedge there is read against
  // the claim): one pass over the words. Every source's, so that a claim citing a plain statement and an allegation
  // rests on the statement.
  if (options.source)
    addSentences(
      f,
      text,
      plain.filter((t) => !numbered(t)),
      toks.filter((t) => /\d/.test(t.lower)),
    );
  for (const list of [f.numbers, f.dates, f.times, f.ids, f.entities] as Array<Array<{ at: number }>>) list.sort((a, b) => a.at - b.at);
  if (options.source) {
    if (sourceMemo.size > 1_000) sourceMemo.clear();
    sourceMemo.set(input, f);
  }
  return f;
}

function addSentences(f: Facts, text: string, plain: Array<{ lower: string; at: number }>, figures: Array<{ lower: string; at: number }>) {
  RE.sentenceEnd.lastIndex = 0;
  const bounds = [...text.matchAll(RE.sentenceEnd)].map((m) => (m.index ?? 0) + m[0].length);
  bounds.push(Infinity);
  let k = 0;
  let g = 0;
  const values = [...f.dates, ...f.times, ...f.numbers].sort((a, b) => a.at - b.at);
  let v = 0;
  // A question answered "No" ("REYES: Did you kill Raymond Dunn? KOVAC: No.") denies what it asks: its words are
  // negated, so a claim resting on the question ("Kovac killed Dunn") is read against the reply.
  let asked: Facts["sentences"][number] | undefined;
  for (let b = 0; b < bounds.length && k < plain.length; b++) {
    const inside: Array<{ lower: string; at: number }> = [];
    while (k < plain.length && plain[k].at < bounds[b]) inside.push(plain[k++]);
    const given = new Set<string>();
    while (g < figures.length && figures[g].at < bounds[b]) given.add(figures[g++].lower);
    // Its dates, times and amounts too, normalised: "on 14th March 2022" places a claim in the sentence that gives that
    // day.
    while (v < values.length && values[v].at < bounds[b]) figureTags(values[v++]).forEach((t) => given.add(t));
    if (!inside.length) continue;
    if (asked) {
      // Answered "No": denied; answered "Yes" ("KOVAC: Yes, about the money", "I did"): stated. Either way, no longer
      // only a question. An open question's reply ("Paperwork.") leaves its premise asked, not stated.
      const lead = inside.slice(0, 3);
      if (lead.some((_, i) => negationAt(inside, i))) asked.negated.push(...asked.stems);
      if (lead.some((t, i) => negationAt(inside, i) || YES.test(t.lower))) asked.question = false;
    }
    asked = undefined;
    const stems = new Set<string>();
    const negated: Array<string | null> = [];
    inside.forEach((t, i) => {
      if (negationAt(inside, i)) negated.push(deniedWord(inside.slice(i + 1)));
      else if (!isStopword(t.lower)) stems.add(porter(t.lower));
    });
    const sentence = text.slice(inside[0].at, bounds[b] === Infinity ? text.length : bounds[b]);
    const question = /\?["'”’)]*\s*$/u.test(sentence);
    const entry = { stems, figures: given, negated, hedged: HEDGE.test(sentence), question };
    f.sentences.push(entry);
    if (question) asked = entry;
  }
}

/** How a date, a time or a number is told among a sentence's figures, whichever way it is written. */
export function figureTags(m: DateFact | TimeFact | NumberFact): string[] {
  if ("minutes" in m) return [`time ${m.minutes}`];
  if ("readings" in m) return m.readings.flatMap(dateKeys).map((k) => `date ${k}`);
  return [`${m.kind} ${m.value}`];
}

/** The first words of a reply that say yes to the question before it. */
const YES = /^(?:yes|yeah|yep|yup|aye|correct|right|true|affirmative|indeed|did|do|does|was|were|am)$/;
const isNegation = (lower: string) => NEGATIONS.has(lower) || DENIALS.has(lower) || lower.endsWith("n't") || lower.endsWith("n’t");
/** A negation at word i, "ruled out" included (the verb, with "out" after it). */
const negationAt = (list: ReadonlyArray<{ lower: string }>, i: number) =>
  (isNegation(list[i].lower) && !(DENIALS.has(list[i].lower) && DETERMINER.test(list[i - 1]?.lower ?? ""))) ||
  (/^rul(?:e|es|ed|ing)$/.test(list[i].lower) && list[i + 1]?.lower === "out");

/**
 * The stem of the word a negation denies: the next content word. After "have" as a verb of its own, a preposition
 * ends the search: "he did not have it on arrival" denies having it on arrival — "have arriv", both words — not the
 * arrival ("did not have access" still denies the access).
 */
function deniedWord(after: ReadonlyArray<{ lower: string }>): string | null {
  let having = false;
  for (const [i, x] of after.entries()) {
    if (having && DENIAL_ENDS.has(x.lower)) {
      const object = after.slice(i + 1).find((y) => !isStopword(y.lower));
      return object ? `have ${porter(object.lower)}` : "have";
    }
    if (HAVE.test(x.lower)) having = true;
    else if (!isStopword(x.lower) && !isNegation(x.lower) && !AUXILIARIES.has(x.lower) && !NEGATION_FILLER.has(x.lower))
      return porter(x.lower);
  }
  return having ? "have" : null;
}
/** "Have" as a word of its own, in any person or tense: a negation may deny having. */
export const HAVE = /^(?:have|has|had)$/;
const DENIAL_ENDS = new Set("on at in to from by with for after before during upon into until since".split(" "));

const AUXILIARIES = new Set([
  "be",
  "been",
  "being",
  "is",
  "was",
  "were",
  "are",
  "do",
  "did",
  "does",
  "have",
  "has",
  "had",
  "could",
  "would",
  "should",
  "can",
  "will",
  "yet",
  "ever",
  "even",
  "also",
  "always",
]);

function isInitial(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 12), at);
  // "Det. Reyes", "Dr. Holt": the full stop of a title does not start a sentence.
  if (/(?:^|[^\p{L}])(?:mr|mrs|ms|mx|dr|det|sgt|lt|capt|insp|prof|st|no|pc|supt|cpl)\.\s+$/iu.test(before)) return false;
  return /(?:^|[.!?:;]["'”’)]*\s+|["“‘(\[]|\n)\s*$/u.test(before.slice(-6)) || /^\s*$/u.test(text.slice(0, at));
}

/** An identifier-like word: letters and digits mixed, or id punctuation, or an upper-case hyphenated code. */
function isIdentifier(raw: string): boolean {
  if (/\d/.test(raw) && /\p{L}/u.test(raw)) return true;
  if (/[_:@#/]/.test(raw)) return true;
  if (/^[\p{L}\d-]+(?:\.[\p{L}\d-]+)+$/u.test(raw)) {
    const parts = raw.split(".");
    return parts[parts.length - 1].length >= 2 && parts.some((p) => p.length >= 3); // a domain, not "e.g"
  }
  return /^[\p{Lu}\d]+(?:-[\p{Lu}\d]+)+$/u.test(raw) && /\p{Lu}{2}/u.test(raw);
}

function ymd(y: number | undefined, m: number, d: number): YMD | null {
  if (!(m >= 1 && m <= 12 && d >= 1 && d <= 31)) return null;
  if (y !== undefined && !(y >= 1000 && y <= 9999)) return null;
  return y === undefined ? { m, d } : { y, m, d };
}

function dedupeYmd(list: YMD[]): YMD[] {
  return list.filter((r, i) => list.findIndex((x) => x.y === r.y && x.m === r.m && x.d === r.d) === i);
}

function multiplier(word: string | undefined): number {
  switch (word?.toLowerCase()) {
    case "k":
    case "thousand":
      return 1e3;
    case "m":
    case "million":
      return 1e6;
    case "bn":
    case "billion":
      return 1e9;
    default:
      return 1;
  }
}

/** ISO 4217 codes the prefix and suffix patterns of RE do not already read, from the runtime's own list. */
// (Not the codes that are English words in capitals: "ALL 3 PUMPS", "TOP 10".)
const ISO_CODES = Intl.supportedValuesOf("currency").filter(
  (c) => !/^(?:USD|EUR|GBP|CAD|AUD|CHF|ALL|TOP|CUP|PEN|MOP|SOS|MAD|BAM|GEL|BOB|TRY)$/.test(c),
);
const SIGNS: Record<string, string> = {
  "₹": "INR",
  "₦": "NGN",
  "₩": "KRW",
  "₱": "PHP",
  "₽": "RUB",
  "₺": "TRY",
  "฿": "THB",
  "₫": "VND",
  "₪": "ILS",
};
// Case-sensitive: a code is written in capitals.
const ISO_PREFIX = moneyPattern("prefix", `${ISO_CODES.join("|")}|[${Object.keys(SIGNS).join("")}]`, "gu");
const ISO_SUFFIX = moneyPattern("suffix", ISO_CODES.join("|"), "gu");

/**
 * An amount with its currency before ("EUR 4,860,000", "$1.2m") or after ("48,500 USD", "3 million euros"). Groups,
 * prefix: currency, whole, fraction, scale; suffix: whole, fraction, scale, currency.
 */
function moneyPattern(side: "prefix" | "suffix", currencies: string, flags: string): RegExp {
  const figure = String.raw`(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?`;
  const scale = "(k|m|bn|thousand|million|billion)";
  return side === "prefix"
    ? new RegExp(String.raw`(?<![\p{L}\p{N}])(${currencies})\s?${figure}(?:\s?${scale}(?![\p{L}]))?`, flags)
    : new RegExp(String.raw`(?<![\p{L}\p{N}.,])${figure}(?:\s?${scale})?\s?(${currencies})(?![\p{L}])`, flags);
}

function currencyOf(word: string): string {
  if (SIGNS[word]) return SIGNS[word];
  const w = word.toLowerCase();
  if (w === "$" || w.startsWith("us") || w.startsWith("dollar")) return "USD";
  if (w === "€" || w.startsWith("eur")) return "EUR";
  if (w === "£" || w.startsWith("gbp") || w.startsWith("pound") || w === "quid") return "GBP";
  if (w === "bucks") return "USD";
  if (w === "¥") return "JPY";
  return w.toUpperCase();
}

/** Date keys a source offers: the full date, its day and month, its month and year. */
export function dateKeys(r: YMD): string[] {
  const keys: string[] = [];
  if (r.m !== undefined && r.d !== undefined) {
    keys.push(`--${r.m}-${r.d}`);
    if (r.y !== undefined) keys.push(`${r.y}-${r.m}-${r.d}`);
  }
  if (r.y !== undefined && r.m !== undefined) keys.push(`${r.y}-${r.m}`);
  return keys;
}
