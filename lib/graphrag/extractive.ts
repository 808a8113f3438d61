// The graph-aware extractive answerer behind the offline model `casegraph-extractive-v2` (issue 13 §2). It answers like
// a careful analyst who may only quote: it reads what the question asks (question.ts), gathers candidate facts — the
// graph's relationships around the entities the question names, said in plain words and cited with the evidence
// linked to both ends, and evidence sentences about those entities that hold a value of the expected answer type —
// ranks them (BM25 over the context's sentences, plus how much of the question's focus they cover), and gives the
// smallest set that answers, usually one to three claims. When no candidate holds the expected answer for the named
// subject it answers `no_evidence` and says what is missing. Every claim it gives passes the claim checks (ground.ts)
// before it is given. Same input → same output, byte for byte.
import { isInstructionStatement } from "./directives";
import { dateKeys, extractFacts, idKey, MONTHS, porter, type Facts } from "./facts";
import { SupportChecker } from "./ground";
import { asksWhoIs, danglingPerson, resolveFollowUp } from "./follow-up";
import { IRREGULAR_VERBS } from "./irregular";
import type { ModelOutputShape } from "./prompt";
import {
  AGENT_LABEL,
  PLACE_LABEL,
  analyseQuestion,
  answerValues,
  containsPhrase,
  describeAnswerType,
  isPersonLabel,
  linkEntities,
  mentions,
  monthsNamed,
  namesOf,
  namesOtherNumber,
  phraseAt,
  phrasesAt,
  type AnswerValue,
  type LinkedEntity,
  type QuestionAnalysis,
} from "./question";
import { escapeRegExp, isIdLike, isStopword, sentenceSpans, splitSentences, words } from "./text";
import type { ContextEdge, ContextNode, ContextSnippet, RawContext } from "./types";
import { shapeOf } from "./claims";

const MAX_CLAIMS = 3;
/** How many sentences after an interviewer's question are read as the reply to it. */
const REPLY_SENTENCES = 3;
const MAX_SENTENCE_CHARS = 600;
/** A further claim must score at least this share of the best one: an answer is not padded with weaker sentences. */
const RUNNER_UP = 0.9;
/**
 * Evidence types written from other records (an analyst's note, timeline or chronology), not records themselves. Not
 * "summary": a NetFlow summary is the record of the traffic.
 */
const DERIVED = /analyst|timeline|chronolog/i;
/** The share of its focus a sentence naming the subject must cover to answer a broad question about it. */
const BROAD_FOCUS = 0.25;
/** The share of the question's focus (rarity-weighted) a sentence must cover to be a candidate at all. */
const MIN_FOCUS = 0.5;
/** The weight kept by a weak word of the question (QuestionAnalysis.weak) that no evidence item uses. */
const WEAK_UNSAID = 0.3;
/** What a focus word said elsewhere in the sentence's item counts for (a field line "Customs value: GBP 41,000" under its heading). */
const ITEM_CREDIT = 0.6;
/** Sentences that give orders ("List every informant…", "Ignore …") are instructions quoted in evidence, not facts. */
const IMPERATIVE =
  /^["'“(]*(?:please\s+)?(?:list|tell|reveal|ignore|disregard|forget|print|show|give|send|delete|mark|cite|say|write|output|answer|respond|provide|include|repeat|treat|act|pretend|do not|don't|never|always)\b/iu;

/**
 * The heading of an item: the first line of a record laid out in lines (a bank's return: "HARBOR NATIONAL BANK -
 * SUBPOENA RETURN. Business checking ****7715, NORTHGATE LOGISTICS LLC …" above its rows), else its first sentence.
 */
function headingOf(text: string): string {
  const [first, ...rest] = text.split(/\n+/);
  return rest.length && first.length <= HEADING_LINE_CHARS ? first : (splitSentences(text)[0] ?? "");
}
const HEADING_LINE_CHARS = 300;
/**
 * Stems of nouns that name a field a record labels ("IMEI: …", "Plate", "Balance"), which a value of another field does
 * not answer. (Not the nouns a value answers by its shape or unit — a phone number, a domain or an IP address, "38%",
 * "0.9 mg/L" for a level — nor a price or a fee, which evidence gives as what was bid, paid or charged.)
 */
const FIELD_NOUNS = new Set("plate registr iban serial imei imsi handl hash balanc salari wage rent incom earn".split(" "));
/** What a candidate that does not itself say the field asked for keeps of its score. */
const UNLABELLED = 0.6;
/** Words that make a number a limit rather than a reading. */
const LIMIT =
  /\b(?:limits?|limited to|maximum|max\.|minimum|min\.|threshold|must not exceed|not to exceed|permitted|allowance|ceiling|cap of)\b/i;

/** A question for an amount per period ("per fortnight", "an hour", "his hourly rate", "annual salary"). */
const RATE_ASKED =
  /\b(?:per|each|every)\s+(?:hour|day|night|week|fortnight|month|quarter|year|annum|shift)\b|\ban?\s+(?:hour|day|night|week|fortnight|month|year)\b(?!\s+(?:ago|later|earlier|before|after))|\b(?:hourly|daily|weekly|fortnightly|monthly|annual|yearly)\s+(?:rate|pay|salary|wages?|fees?|rent|income|payments?)\b/u;
/** A sentence that gives an amount for a period. */
const RATE_SAID =
  /\b(?:per|an?|each|every(?:\s+(?:second|other))?)\s+(?:hours?|days?|nights?|weeks?|fortnights?|months?|quarters?|years?|annum|shifts?|(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b|\b(?:hourly|daily|nightly|weekly|fortnightly|monthly|quarterly|yearly|annual(?:ly)?|p\.a\.|pcm|salary|wages?)\b|\/\s?(?:h|hr|hour|day|wk|week|fortnight|month|mth|yr|year)\b/iu;
/**
 * A question for the sum of several ("in total", "altogether", "in all", "combined"). An extractive answer cannot add
 * up: one payment of several is not what was paid altogether.
 */
const TOTAL_ASKED = /\b(?:in total|altogether|in all|all told|combined|in sum)\b/i;
/** A sentence (or its table's header) that states a sum of several: "a total of", "in all", "came to", "in two transfers". */
const TOTAL_SAID =
  /\b(?:total(?:s|l?ed|l?ing)?|altogether|in all|all told|combined|aggregate|cumulative(?:ly)?|overall|sum of|(?:came|come|comes|coming|amount(?:s|ed|ing)?) to)\b|\bin\s+(?:\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+(?:separate\s+)?\p{L}+s\b/iu;
const asksTotal = (a: QuestionAnalysis) => TOTAL_ASKED.test(a.lower);
const statesTotal = (text: string) => TOTAL_SAID.test(text);
/** An answer to "how much altogether" whose claims each give one amount: it says so rather than pass one off as the sum. */
const totalUnstated = (a: QuestionAnalysis, claims: readonly { text: string }[]) =>
  a.expects === "amount" && asksTotal(a) && !claims.some((c) => statesTotal(c.text));
const TOTAL_UNSTATED = "No visible evidence states a total: the answer gives the amounts the evidence lists, which may not be all of them.";
/** A question about what someone knew, said or thought: a statement of not knowing may answer it. */
const ASKS_WHAT_WAS_SAID =
  /\b(?:know|knew|known|aware|realis|realiz|say|said|tell|told|explain|claim|think|thought|believ|answer|repl(?:y|ie)|respond|admit|den(?:y|ie)|interview)(?:e|es|ed|d|s|ing|ted|ation)?\b/u;
/**
 * A statement that the speaker or the record does not know: "I don't know", "no idea", "not known", "whereabouts
 * unknown" — not "unknown" describing a thing ("transfers to unknown recipients").
 */
const IGNORANCE =
  /\b(?:(?:do|did|does)(?: not|n['’]t)|don['’]t|didn['’]t|doesn['’]t)\s+(?:know|remember|recall)\b|\b(?:can['’]t|cannot|could(?: not|n['’]t))\s+(?:know|remember|recall|say|see|tell)\b|\bno idea\b|\bnot known\b|\b(?:is|are|was|were|remains?|remained)\s+unknown\b|\bunknown\b(?!\s+\p{L})/iu;

/**
 * A refusal to answer: "A: No comment", "Thereafter no comment to all questions, including about the meeting",
 * "declined to answer" — it names what was asked and says nothing of it.
 */
const NO_COMMENT =
  /\bno comment\b|\b(?:declined?|declines|refused?|refuses)\s+to\s+(?:answer|comment|say|respond|reply)\b|\bmade no (?:comment|reply)\b/i;

/** A line of what a record has still to find out or do: "Open questions:", "To do:", "Next steps:". */
const OPEN_LINE =
  /^\s*(?:(?:open|outstanding|unresolved|unanswered|remaining)\s+(?:questions?|issues?|points?|enquiries|lines of enquiry)|to[ -]do|next steps?|outstanding|unknowns?)\s*:/i;

/**
 * Words that name the same thing in case records ("registered"/"registration", "phone"/"mobile"): each stem maps to
 * its group's first. General English, not any workspace's vocabulary.
 */
const CONCEPTS: string[][] = [
  ["kill", "murder", "shoot", "shot", "homicide", "slay"],
  ["die", "dead", "death", "deceased", "decedent"],
  ["birth", "born", "dob"],
  ["phone", "telephone", "mobile", "cell", "handset", "msisdn"],
  ["car", "vehicle", "auto", "van", "truck", "suv"],
  // Who owns or controls a company: its register names a shareholder or a "person with significant control".
  ["own", "owner", "ownership", "shareholder", "proprietor", "control"],
  ["arrive", "arrival", "respond", "response", "scene", "attend"],
  ["money", "cash", "fund", "funds", "payment", "paid", "pay"],
  ["meet", "met", "meeting"],
  ["call", "called", "rang", "ring", "dial", "dialled", "incoming", "outgoing"],
  ["meal", "lunch", "dinner", "breakfast", "restaurant", "grill", "cafe", "diner", "bistro"],
  ["send", "sent", "transfer", "transferred", "wire", "wired", "exfiltrate", "upload"],
  // Not "located": "is located at 1147 Larchmont Avenue" gives an address, not what was found there.
  ["find", "found", "recover", "recovered", "seize", "seized", "discover", "discovered", "discovery"],
  ["buy", "bought", "purchase", "purchased", "buyer", "purchaser"],
  ["sell", "sold", "sale", "seller", "vendor", "dealer"],
  ["work", "employ", "employed", "employee", "employer", "job"],
  ["live", "reside", "residence", "resident", "home"],
  ["nickname", "alias", "aka", "moniker"],
  ["say", "said", "tell", "told", "state", "stated", "remark"],
  ["close", "closed", "dismiss", "dismissed", "resolve", "resolved"],
  ["contain", "isolate", "isolated", "quarantine", "contained"],
  ["enter", "entered", "walk", "walked", "went"],
  // Distinct offices are not one another ("site manager" is not "director"); words for leading a group are one.
  ["role", "position"],
  ["leader", "head", "boss", "lead", "leads", "led"],
  ["ring", "gang", "network", "crew", "organisation", "organization", "syndicate", "cartel"],
  ["drug", "narcotic", "fentanyl", "heroin", "cocaine", "methamphetamine", "opioid", "powder"],
  ["launder", "laundering", "laundromat", "structuring", "shell"],
  ["hide", "conceal", "concealed", "stash", "stashed"],
  ["establish", "incorporate", "incorporated", "incorporation", "founded", "formed", "formation"],
  ["metre", "meter", "metres", "meters"],
  ["litre", "liter"],
  // A road collision is told in any of these words ("she hit the Vauxhall", "Impact.", "ran into the back of it").
  ["collision", "collide", "crash", "impact", "hit", "struck", "strike", "rear-ended"],
  ["speed", "fast", "velocity"],
  // A rate by its period: "hourly rate" is a rate "per hour".
  ["hour", "hourly"],
  ["day", "daily"],
  ["week", "weekly"],
  ["fortnight", "fortnightly"],
  ["month", "monthly"],
  ["year", "yearly", "annual", "annually", "annum"],
];
const CONCEPT = new Map<string, string>();
for (const group of [...CONCEPTS, ...IRREGULAR_VERBS])
  for (const w of group) if (!CONCEPT.has(porter(w))) CONCEPT.set(porter(w), porter(group[0]));

/** Unit symbols and the words they stand for ("m3" is "cubic metres"), so either form meets the other. */
const UNITS: Record<string, string[]> = {
  m3: ["cubic", "metre"],
  m2: ["square", "metre"],
  km: ["kilometre"],
  kg: ["kilogram"],
  mg: ["milligram"],
  nm: ["nautical", "mile"],
  kn: ["knot"],
  kt: ["knot"],
  mph: ["mile", "hour"],
  "mg/l": ["milligram", "litre"],
  ppm: ["part", "million"],
};
const conceptOf = (t: string) => CONCEPT.get(t) ?? t;

/** Suffixes that make a noun of a word ("shipment", "percentage", "bidder", "arrival"), as the stemmer leaves them. */
const DERIVATION = /^(?:ment|ag|er|or|al|ion|anc|enc|ship)$/;

/**
 * A stem of `known` that `t` derives from or that derives from `t` ("shipment" ↔ "ship", "bidder" ↔ "bid",
 * "percentag" ↔ "percent"), the longest first; none when the words only share letters.
 */
function derivedFrom(t: string, known: ReadonlySet<string>): string | undefined {
  const related = (long: string, short: string) => {
    if (short.length < 3 || !long.startsWith(short)) return false;
    const rest = long.slice(short.length);
    // A doubled final consonant ("bid" → "bidder").
    // The stemmer's own leftovers on longer words ("identifi" / "identif").
    if (short.length >= 5 && /^[ie]$/.test(rest)) return true;
    return DERIVATION.test(rest) || (rest[0] === short[short.length - 1] && DERIVATION.test(rest.slice(1)));
  };
  return [...known].filter((u) => related(t, u) || related(u, t)).sort((x, y) => y.length - x.length || (x < y ? -1 : 1))[0];
}
const stemsOf = (text: string) =>
  new Set(
    words(text.replace(IN_CHARGE, " supervising ").replace(RUNNING, " cumulative $1 "))
      .filter((w) => !isStopword(w.lower) && w.lower.length > 1)
      .flatMap((w) => UNITS[w.lower] ?? [w.lower])
      .map((w) => conceptOf(porter(w))),
  );

/** The officer "in charge" of a search is not charged with anything (and "supervising" names no concept of the case). */
const IN_CHARGE = /\b(?:in|took|take|takes|taking) charge\b/gi;
/** A "running total" is a sum kept so far: nobody runs anything ("Who runs the home?"). */
const RUNNING = /\brunning (total|balance|tally|sum|count)\b/gi;

interface Sentence {
  snippet: ContextSnippet;
  snippetIndex: number;
  sentenceIndex: number;
  text: string;
  stems: Set<string>;
  /** The words of the question this sentence answers, in an interview transcript. */
  asked?: Set<string>;
  /** That question as written, speaker label aside. */
  question?: string;
  /**
   * What the interviewer put, when this is the first sentence of the reply to it ("MK: The account is in the name
   * Deirdre Kinsella."): the put's values answer only quoted with the reply they drew.
   */
  put?: { text: string; facts: Facts };
  facts: Facts;
}

interface Candidate extends Sentence {
  /** Subjects the sentence names. */
  names: LinkedEntity[];
  /**
   * 1 when the sentence names a subject, 0.75 when the heading or line of its record does, 0.5 when only its item does
   * (or is linked to it), 0 otherwise.
   */
  subjectHit: number;
  values: AnswerValue[];
  /** The values are the interviewer's put's (`Sentence.put`), so the claim quotes the put with this reply. */
  framed?: boolean;
  coverage: number;
  /** The share of the focus the sentence's own words cover (not its question's, nor its item's). */
  own: number;
  score: number;
}

/** What composing an answer works from: the context, the question's analysis and focus, the ranked candidates. */
interface Composition {
  context: RawContext;
  a: QuestionAnalysis;
  focus: string[];
  candidates: Candidate[];
  checker: SupportChecker;
  /** Every item's stems, read once per question. */
  itemStems: ReadonlyMap<string, Set<string>>;
}

interface Claim {
  text: string;
  evidenceId: string;
  /** Node and edge ids for the explanation step. */
  graph: string[];
  /** How the step describes where the claim comes from. */
  step: string;
  score: number;
  coverage: number;
  /** The records an analyst's restatement rests on, cited beside it. */
  sources?: string[];
}

/** `followUp`: the question follows earlier turns of a thread, whose entities and evidence are in the context. */
export function extractiveAnswer(context: RawContext, question: string, { followUp = false } = {}): ModelOutputShape {
  const sentences = sentencesOf(context);
  const idf = idfOver(sentences);
  const itemStems = itemStemsOf(context);
  // A compound question ("Where was X found and which lab matched the casings?") is answered part by part.
  // A later part keeps the months the first names ("How many sets came in on the July entry, and at what price each?"
  // asks the price of the July entry's sets), and is answered from the records the earlier parts were answered from
  // when they speak to it.
  const parts: Array<{ part: string } & ReturnType<typeof answerPart>> = [];
  for (const asked of questionParts(question)) {
    const answer = (part: string) =>
      answerPart(
        context,
        part,
        sentences,
        idf,
        itemStems,
        parts[0]?.a.months,
        new Set(parts.flatMap((p) => p.claims.map((c) => c.evidenceId))),
      );
    // "Who employed Jayden, and what was his hourly rate?": a later part's "his", "it", "the company" are read as
    // what the first part named, as a thread's follow-up is read against the turn before it. A name put for a pronoun
    // is met by any sentence naming it, so the reading stands only when what it finds says all the part asks;
    // otherwise the part is answered as written.
    const resolved = parts.length ? referencesResolved(asked, parts[0], context) : asked;
    let answered = answer(resolved);
    if (resolved !== asked && answered.missing.length) {
      answered = answer(asked);
      // As written, "… and what reason was he given for it?" names no one: it is still about whom its pronoun meant,
      // so a line from a record that never names them (an insurer's note of another party's reason) does not answer it.
      const meant = PERSONAL_PRONOUN.test(asked) ? firstPartNodes(parts[0], context).subjects.filter((n) => isPersonLabel(n.label)) : [];
      if (meant.length) answered.claims = answered.claims.filter((c) => recordNames(context, c.evidenceId, meant));
    }
    // A later part that names nothing of its own asks about what the first part does: when the evidence does not answer
    // the first, the later is not answered on its own. So "… and at what price each?" (it would quote another entry's
    // price), and "Who owns the car wash, and what is his phone number?" ("his" can only mean the owner no record names).
    const unansweredFirst = parts.length > 0 && !parts[0].claims.length;
    if (
      unansweredFirst &&
      !answered.a.subjects.length &&
      (AFTER_PREPOSITION.test(asked) || meansTheUnknownAnswer(asked, parts[0], context))
    )
      answered.claims = [];
    parts.push({ part: asked, ...answered });
  }
  // "What was found at his home?" asked on its own, naming no one: any answer would guess whose. (A follow-up's
  // context holds what the thread was about, whether or not its references could be read.)
  const who =
    !followUp &&
    danglingPerson(
      question,
      parts.flatMap((p) => p.a.subjects),
    );
  if (who) return cannotTellWho(who, parts[0].a);
  const claims: Claim[] = [];
  for (const p of parts)
    for (const c of p.claims) if (!claims.some((o) => o.evidenceId === c.evidenceId && o.text === c.text)) claims.push(c);
  const first = parts.find((p) => p.claims.length) ?? parts[0];
  if (!claims.length) {
    const out = abstain(context, first.a, question, first.candidates);
    if (parts.length > 1) out.unknowns = parts.map((p) => abstain(context, p.a, p.part, p.candidates).unknowns[0]);
    return out;
  }
  const unknowns: string[] = [];
  for (const p of parts) {
    if (!p.claims.length) unknowns.push(`The evidence shown does not address: "${p.part}".`);
    else if (p.missing.length) unknowns.push(`The evidence quoted does not mention: ${p.missing.join(", ")}.`);
    if (p.claims.length && totalUnstated(p.a, p.claims)) unknowns.push(TOTAL_UNSTATED);
  }
  const items = new Set(claims.map((c) => c.evidenceId)).size;
  const best = first.claims[0];
  const confidence = round(
    Math.min(0.9, 0.3 + 0.4 * best.coverage + 0.15 * Math.min(best.score, 1) + (items > 1 ? 0.05 : 0) - 0.1 * unknowns.length),
    2,
  );
  const { a } = first;
  return {
    responseType: "answer",
    answerText: claims.map((c, i) => `${withoutTerminator(c.text)} ${markersOf(c, i)}.`).join(" "),
    citations: claims.flatMap((c, i) => citedBy(c).map((evidenceId) => ({ evidenceId, claimId: `CLM-${i + 1}` }))),
    explanationSteps: claims.map((c, i) => ({ stepNumber: i + 1, claim: clipWords(c.step, 400), citations: [...citedBy(c), ...c.graph] })),
    unknowns,
    confidence: Math.max(0.1, confidence),
    confidenceJustification:
      `Extractive model (no generative reasoning): the question asks for ${describeAnswerType(a.expects)}` +
      (a.subjects.length ? ` about ${a.subjects.map((s) => s.name).join(", ")}` : "") +
      `; ${claims.length} claim(s) from ${items} evidence item(s) state it and cover ${Math.round(best.coverage * 100)}% of what is asked` +
      (unknowns.length ? ", not all of it." : "."),
  };
}

/**
 * Everything each item says, its questions included (what a claim's item speaks to, not what it states) — but not a
 * refusal to answer nor a line of what it has still to find out: "no comment to all questions, including about the
 * phone found in his garage" does not make the record's other lines speak of the garage. The same for every part of a
 * question, so read once per answer.
 */
function itemStemsOf(context: RawContext): Map<string, Set<string>> {
  return new Map(
    context.evidenceSnippets.map((s) => [
      s.id,
      stemsOf(
        splitSentences(s.text)
          .filter((x) => !NO_COMMENT.test(x) && !OPEN_LINE.test(x))
          .join(" "),
      ),
    ]),
  );
}

/** One question (or one part of a compound question): its analysis, the claims that answer it, what they leave out. */
function answerPart(
  context: RawContext,
  question: string,
  sentences: Sentence[],
  idf: (t: string) => number,
  itemStems: ReadonlyMap<string, Set<string>>,
  months: number[] = [],
  answeredFrom: ReadonlySet<string> = new Set(),
): { a: QuestionAnalysis; claims: Claim[]; candidates: number; missing: string[] } {
  const a = analyseQuestion(question, context);
  if (!a.months.length) a.months = months;
  const anywhere = new Set([...itemStems.values()].flatMap((set) => [...set]));
  // A focus word no item uses may be there in another form of the same word ("shipment" / "shipped").
  const asUsed = (t: string) => (anywhere.has(t) ? t : (derivedFrom(t, anywhere) ?? t));
  // "According to the seized notebook, …": the record the question names as its source answers it, and the words
  // that name it are said by the record as a whole (its type, source, heading), not by the sentence that answers.
  const sourceNoun = sourceNamed(a);
  const sources = new Set(
    sourceNoun
      ? context.evidenceSnippets
          .filter((s) => sourceNoun.kinds.some((kind) => [...kind].every((t) => sourceStems(s).has(t))))
          .map((s) => s.id)
      : [],
  );
  const sourceWords = sources.size && sourceNoun ? stemsOf(sourceNoun.phrase) : new Set<string>();
  const asked = [...new Set(a.focus.map(conceptOf).map(asUsed))];
  // ("What does the typed sheet from the cabin say?" asks for the record itself: its words stay the focus.)
  const unsourced = asked.filter((t) => !sourceWords.has(t));
  // "Why did Whitfield say she approved both invoices?": asked why, where, when or who by someone's account, the verb
  // of saying only attributes it — a line of hers that says "said" is not therefore an answer. ("What did Vlachos say
  // about …" asks for the saying itself, which a record's "Vlachos said …" reports.)
  const speaker = spokenBy(a);
  const spoken = speaker && ["why", "where", "when", "who"].includes(a.kind) ? unsourced.filter((t) => !SAYING.has(t)) : unsourced;
  const focus = spoken.length ? spoken : asked;
  const qStems = [...new Set(a.stems.map(conceptOf))];
  // The question's verbs in the past ("arrested"; "network-contained" is "contained").
  const events = a.events.map((t) => asUsed(conceptOf(t.split("-").pop() ?? t)));
  const dated = a.dated && asUsed(conceptOf(a.dated));
  // A name the question uses that is none of the subjects it links to ("the Tradix account", "send to Cyprus") says
  // which record answers: a sentence whose item never says it is about something else. (Not an acronym, which the
  // evidence may spell out, nor a name no item uses.)
  const subjectWords = new Set(a.subjects.flatMap((e) => [...e.names, e.matched].flatMap((n) => words(n).map((w) => w.lower))));
  const qWords = words(question);
  const namedWords = [
    ...new Set(
      a.given.entities
        .flatMap((e) => e.tokens)
        .filter((t) => !subjectWords.has(t) && qWords.some((w) => w.lower === t && !/^[\p{Lu}\d]+$/u.test(w.raw)))
        .map((t) => conceptOf(porter(t)))
        .filter((t) => anywhere.has(t)),
    ),
  ];
  // Verbs in the past or progressive ("logged", "fired") say less about what is asked than nouns ("weather", "birth").
  const predicates = new Set(qWords.filter((w) => /(?:ed|ing)$/.test(w.lower) && !w.capitalised).map((w) => conceptOf(porter(w.lower))));
  // A word no evidence item uses weighs most by rarity, yet no sentence can cover it: when it is a weak word of the
  // question ("actually", "put in"), the evidence answers in other words and it weighs little; a content word
  // ("ransom", "hospital") keeps its full weight, so a question about something the evidence never mentions abstains.
  const weak = new Set(a.weak.map(conceptOf));
  // In "who …?" the verb is what is asked ("Who signed the receipt?"): it keeps its full weight.
  // Asked what someone said, the verb of saying is met by every line of theirs (below): it says nothing of which line
  // answers, and weighs as a weak word, so a question about something none of their lines mentions still abstains.
  const focusWeight = (t: string) =>
    idf(t) *
    (predicates.has(t) && a.kind !== "who" ? 0.5 : 1) *
    (anywhere.has(t) || !weak.has(t) ? 1 : WEAK_UNSAID) *
    (speaker && SAYING.has(t) ? WEAK_UNSAID : 1);
  // The values the question gives (an alert number, a date, an address) anchor it as focus words do.
  // A code inside a name the question links (the postcode of "27 Tanner's Row, Hexford HX2 6JL", put there for "the
  // house" by a follow-up; "outfall OF-2") helps name that subject: a sentence that holds it is credited once, as for one
  // value, and one that does not (the postcode left out) is not asked for it. (A house number still is: "the house at
  // 14 Gull Lane" is not answered from a line about another house.)
  const spans = a.subjects.map((e) => ({ at: phraseAt(a.lower, e.matched), e })).filter((x) => x.at >= 0);
  const inName = (v: { at: number; raw: string }) =>
    spans.some((x) => v.at >= x.at && v.at < x.at + x.e.matched.length && x.e.matched.trim() !== v.raw.toLowerCase());
  const given = valueKeys({ ...a.given, ids: a.given.ids.filter((i) => !inName(i)) });
  const nameValues = valueKeys({ ...a.given, ids: a.given.ids.filter(inName), numbers: [], times: [], dates: [] }).filter(
    (k) => !given.includes(k),
  );
  // The sums of money a question about a payment gives ("What was the $26,500 for?"): each names one payment (an
  // identifier recurs across a case's records; "Who set the price of £185,000?" asks for a person, whom a sentence
  // holding the sum need not name).
  const anchors = ["any", "entity"].includes(a.expects)
    ? given.filter((k) => a.given.numbers.some((n) => n.kind === "amount" && k === `n:${n.value}`))
    : [];
  const givenWeight = idf("") * 0.75;
  const totalFocus = focus.reduce((s, t) => s + focusWeight(t), 0) + given.length * givenWeight;
  // The question's content words that some visible item uses, when another ("tracker", "urine") is used by none. (Not
  // the words naming the kind of answer — "What reason…", "What colour…" — which the answer need not repeat, nor the
  // word it opens with, which asks rather than names: "Summarise the e-mail…".)
  const asksFor = new Set([...a.asksFor, porter(qWords[0]?.lower ?? "")].map(conceptOf));
  const content = focus.filter((t) => !weak.has(t) && !asksFor.has(t));
  const unsaidBeside = content.some((t) => !anywhere.has(t)) ? content.filter((t) => anywhere.has(t)) : [];
  const rarest = [...focus].sort((x, y) => focusWeight(y) - focusWeight(x) || (x < y ? -1 : 1))[0];
  const maxBm25 = qStems.reduce((s, t) => s + idf(t), 0) || 1;
  const avgLen = sentences.reduce((s, c) => s + c.stems.size, 0) / Math.max(sentences.length, 1) || 1;
  const givenDates = new Set(a.given.dates.flatMap((d) => d.readings.flatMap(dateKeys)));
  // "How much cash was taken out of the account on 6 March 2025?": a statement's row of that day ("06/03/2025 | CASH
  // WITHDRAWAL … | 10,000.00") is the line asked about when it says some of the question, though only the statement's
  // heading names the account. (The day in full: year, month and day.)
  const askedDays = new Set([...givenDates].filter((k) => /^\d{4}-\d+-\d+$/.test(k)));
  const onAskedDay = (s: Sentence) => s.facts.dates.some((d) => d.readings.flatMap(dateKeys).some((k) => askedDays.has(k)));

  const subjectIds = new Set(a.subjects.map((e) => e.id));
  const subjectLabels = new Set(a.subjects.map((e) => e.label));
  // Only things and places: another person in the sentence may be who answers it.
  const siblings = context.nodes
    .filter(
      (n) => subjectLabels.has(n.label) && !subjectIds.has(n.id) && n.label !== a.label && !fitsExpected(n, { ...a, expects: "agent" }),
    )
    .map((n) => namesOf(n));
  const siblingNames = siblings.flatMap((n) => n.names).filter((n) => n.length > 2);
  // The people the question asks about, and the names of everyone else in the case graph.
  const people = a.subjects.filter((e) => isPersonLabel(e.label));
  const otherPeople = context.nodes
    .filter((n) => isPersonLabel(n.label) && !subjectIds.has(n.id))
    .flatMap((n) => namesOf(n).names)
    .filter((n) => n.length > 2);
  const siblingIds = new Set(siblings.flatMap((n) => n.ids.map(idKey)));
  // The things of the case graph other than the subjects, people, organisations and places: what something happens to,
  // not who does it or where.
  const things = context.nodes
    .filter((n) => !subjectIds.has(n.id) && !AGENT_LABEL.test(n.label) && !PLACE_LABEL.test(n.label))
    .map((n) => namesOf(n));
  const otherThings = things.flatMap((n) => n.names).filter((n) => n.length > 2);
  const otherThingIds = new Set(things.flatMap((n) => n.ids.map(idKey)));
  // Whether a sentence names another thing before it refers to anyone and before the date or time it gives.
  const thingFirst = (s: Sentence) => {
    const lower = s.text.toLowerCase();
    const at = Math.min(
      ...otherThings.map((n) => phraseAt(lower, n)).filter((i) => i >= 0),
      ...s.facts.ids.filter((f) => otherThingIds.has(f.key)).map((f) => f.at),
    );
    const pronoun = /\b(?:he|she|his|her|him|they|their|i|my|we|our)\b/.exec(lower)?.index ?? Infinity;
    return at < Math.min(pronoun, ...[...s.facts.dates, ...s.facts.times].map((f) => f.at));
  };
  // Two things of one kind the question names (two vessels, two accounts), the first it names being its topic.
  const rival = (() => {
    const things = distinctSubjects(a.subjects).filter((e) => !AGENT_LABEL.test(e.label) && !PLACE_LABEL.test(e.label));
    const [topic, other] = [...things].sort((x, y) => a.lower.indexOf(x.matched) - a.lower.indexOf(y.matched));
    return topic && other && topic.label === other.label && topic.id !== other.id && topic.matched !== other.matched
      ? { topic, other }
      : undefined;
  })();
  // What each item states (values, dates), read once per item, not once per sentence of it.
  const factsOf = perItem((snippet) => extractFacts(snippet.text, { source: true }));
  const askedTimes = new Set(a.given.times.map((t) => t.minutes));
  const tellsOfMoment = perItem((snippet) => {
    const f = factsOf(snippet);
    return (
      f.times.some((t) => askedTimes.has(t.minutes)) || f.dates.some((d) => d.readings.flatMap(dateKeys).some((k) => givenDates.has(k)))
    );
  });
  const namesSibling = (text: string, facts: Facts) =>
    siblingNames.some((n) => containsPhrase(text.toLowerCase(), n)) || facts.ids.some((f) => siblingIds.has(f.key));
  // The people and organisations the question names, when it names more than one: a payment or a call between them.
  // ("Vance's car" may be Gregor's or Elena's: one party, either of them.)
  // (Not one named only as a record's source, before the record's noun: "the customs entry", "the council inspection".)
  const parties: LinkedEntity[][] = [];
  for (const e of distinctSubjects(a.subjects).filter((x) => AGENT_LABEL.test(x.label) && !namesRecordOnly(a.lower, x.matched))) {
    const group = parties.find((g) => g[0].matched === e.matched);
    if (group) group.push(e);
    else parties.push([e]);
  }
  // The months each item speaks of, read once per item.
  const monthsOf = perItem((snippet) => monthsIn(snippet.text, factsOf(snippet)));
  // "How much did Northgate bid on the 2023 contract?": an item that speaks only of other years is about another.
  const askedYears = bareYears(question);
  const yearsOf = perItem((snippet) => yearsIn(snippet.text));
  // Who tells each item in the first person ("Witness statement of Alison GREAVES …": her "I" and "my"), and whether
  // it is an interview, where only the replies are the narrator's words (the questions are the interviewer's).
  const narrationOf = perItem((snippet) => ({
    narrator: narratorAmong(a.subjects, context.nodes, snippet.text),
    interview: snippet.text.includes("?"),
  }));
  // Whether the heading of a sentence's item, or the line it is on, names a subject (each read once per item).
  const headingText = perItem((snippet) => headingOf(snippet.text));
  const headingNames = perItem((snippet) => a.subjects.some((e) => mentions(e, headingText(snippet))));
  const headingStems = perItem((snippet) => stemsOf(headingText(snippet)));
  const linesOf = perItem((snippet) => snippet.text.split(/\n+/).map((line) => line.replace(/\s+/g, " ")));
  // The line of its item (an entry of a register, a row of a log) that holds a sentence.
  const lineOf = (s: Sentence) => linesOf(s.snippet).find((line) => line.includes(s.text.slice(0, 60))) ?? "";
  // The header of the table a row belongs to ("date | description | debit | credit | balance"); none for prose.
  const columnsOf = (s: Sentence) => {
    const lines = linesOf(s.snippet);
    let at = lines.indexOf(lineOf(s));
    if (at < 0 || !lines[at].includes("|")) return "";
    while (at > 0 && lines[at - 1].includes("|")) at--;
    return lines[at];
  };
  const entryNames = (s: Sentence) => headingNames(s.snippet) || a.subjects.some((e) => mentions(e, lineOf(s)));
  const interviewAsked = INTERVIEWED.test(question);
  const intervieweeOf = perItem((snippet) => narratorAmong(a.subjects, context.nodes, snippet.text, { firstLine: true }));
  // "What did Norsk Petrosea say about …?", "According to Marlowe, …": the subject whose words are asked for.
  const inWordsOf = (e: LinkedEntity, s: Sentence, told: LinkedEntity | undefined) => {
    const heading = headingText(s.snippet);
    // A document's words ("According to the Auberval letter") are the items the case links to it.
    if (/document/i.test(e.label)) return s.snippet.nodeIds.includes(e.id);
    // (The heading of their interview record is the recorder's words: "Interviewee: Ilse MARTEN, 12/06/2025.")
    return (!heading.includes(s.text) && (mentions(e, heading) || intervieweeOf(s.snippet) === e)) || told === e || speaksIt(e, s.text);
  };
  const candidates: Candidate[] = [];
  // Asked what someone said, a line they speak says it: "said" in a record's "Marlowe said he …" is no better an
  // answer than a reply in his interview, and "I have nothing more to say" is none.
  const saying = speaker ? focus.filter((t) => SAYING.has(t)) : [];
  for (const sentence of sentences) {
    const narration = FIRST_PERSON.test(sentence.text) ? narrationOf(sentence.snippet) : undefined;
    const told = narration && (sentence.asked || !narration.interview) ? narration.narrator : undefined;
    // Asked for someone's words, a reply in their interview is theirs whether or not it says "I" ("A: It was a loan").
    const replied = speaker && sentence.asked && intervieweeOf(sentence.snippet) === speaker ? speaker : undefined;
    const spoken = saying.length && speaker && (replied || told === speaker || speaksIt(speaker, sentence.text));
    const s = spoken ? { ...sentence, stems: new Set([...sentence.stems, ...saying]) } : sentence;
    const lower = s.text.toLowerCase();
    // A reply to what the interviewer put is about whom the put names ("MK: The account … is in the name Deirdre
    // Kinsella. DM: It's mine.").
    const names = a.subjects.filter(
      (e) =>
        e === told ||
        e === replied ||
        mentions(e, s.text) ||
        (s.put !== undefined && mentions(e, s.put.text)) ||
        s.facts.ids.some((f) => e.idKeys.includes(f.key)),
    );
    const itemLower = s.snippet.text.toLowerCase();
    const itemNames = a.subjects.some((e) => s.snippet.nodeIds.includes(e.id) || mentions(e, s.snippet.text));
    // A sentence that names another person by the subject's surname ("Connor PRUITT" for Darren Pruitt) is about them.
    // (Not for "who": a relative who shares the name may be the answer — "Lydia Dunn, sister of the deceased".)
    const namesake = a.expects !== "agent" && !names.length && a.subjects.some((e) => e.names.some((n) => containsPhrase(lower, n)));
    // A row of a record whose heading names the subject ("CDR extract, target +1-555-0178 …") is about it.
    const subjectHit = names.length ? 1 : itemNames && !namesake ? (entryNames(s) ? 0.75 : 0.5) : 0;
    // A number or date in a sentence that names another thing of the subject's kind instead of the subject (the
    // sister ship, another sampling point), or whose item names only such a thing, is that thing's. (For "which …"
    // the other thing may be the answer.)
    if (
      subjectHit > 0 &&
      subjectHit < 1 &&
      ["amount", "count", "time"].includes(a.expects) &&
      (namesSibling(s.text, s.facts) ||
        (!a.subjects.some((e) => e.names.some((n) => containsPhrase(itemLower, n))) && namesSibling(s.snippet.text, factsOf(s.snippet))))
    )
      continue;
    // A question about two parties ("How much did Redline pay Vickers?") is answered where both are named; a sum
    // between them, by a sentence that names one of them — a total in a letter that names both ("Total paid across
    // the six: GBP 96,410") is not what one paid the other.
    if (
      parties.length > 1 &&
      (!parties.every((group) => group.some((e) => names.includes(e) || s.snippet.nodeIds.includes(e.id) || mentions(e, s.snippet.text))) ||
        (a.expects === "amount" && !names.some((e) => parties.some((group) => group.includes(e)))))
    )
      continue;
    // "8 Quarry Lane": a sentence, or the item of a sentence that does not say, naming it only with other numbers
    // ("4 Quarry Lane") is about another place.
    if (
      namesOtherNumber(lower, a.numbered) ||
      (!a.numbered.some((n) => lower.includes(n.phrase)) && namesOtherNumber(itemLower, a.numbered))
    )
      continue;
    // "The June parcel": an item that speaks only of other months is about another one; so is a sentence dated only
    // in other months ("06/03/2023 admitted" does not say whether she left in October), unless it spans the month.
    if (a.months.length && (otherMonths(monthsOf(s.snippet), a.months) || otherMonths(monthsIn(s.text, s.facts), a.months))) continue;
    // So is an item that speaks only of other years than the one the question names ("the 2023 contract").
    if (askedYears.length && yearsOf(s.snippet).length && !yearsOf(s.snippet).some((y) => askedYears.includes(y))) continue;
    if (a.subjects.length && !subjectHit) continue;
    // "At which port did the Karavan load the crude she passed to the Orion Vale?": of two things of one kind (not
    // people), the question is about the one it names first; a line about only the other tells of that one.
    if (
      rival &&
      ["place", "time", "amount", "count", "identifier", "entity"].includes(a.expects) &&
      names.includes(rival.other) &&
      !names.includes(rival.topic) &&
      !mentions(rival.topic, s.snippet.text)
    )
      continue;
    // "The syringe from the 02:04 waste on 15 February": a question that names a moment by its clock time asks about
    // what happened then; an item that gives neither that time nor that day tells of something else.
    if (askedTimes.size && a.expects !== "time" && !tellsOfMoment(s.snippet)) continue;
    // "What did Colby say when he was interviewed?" is answered from the record of his interview or his statement,
    // not from a sentence about him in a record of something else (or in another person's statement).
    if (interviewAsked && a.subjects.length && !intervieweeOf(s.snippet)) continue;
    // What someone said is answered from what they wrote or told (below the heading of an item headed with their
    // name: their letter, their interview, their register entry) or a line they speak ("KOVAC: …"), not from another's
    // account of it nor from the heading that names them.
    if (speaker && !inWordsOf(speaker, s, told)) continue;
    if (sources.size && !sources.has(s.snippet.id)) continue;
    // Who runs or is behind a company: a sentence naming it, or a record about it (its heading, or the entry the
    // sentence is part of, names it) — not an item that mentions it in passing (a chat that speaks of Kairos once).
    if (a.control && !names.length && !entryNames(s)) continue;
    // "I don't know who made that flange" names what is asked and answers nothing.
    // "Oriel had not sent the certificate" does not say when it was sent ("not until 9 May" does).
    if (
      a.expects !== "any" &&
      !a.given.negations.length &&
      !/\b(?:until|till)\b/i.test(s.text) &&
      deniedVerbs(s.text).some((t) => focus.includes(t))
    )
      continue;
    // Nor does "I don't know anything about Pellworth" say what Pellworth paid — only what someone knew or said.
    // Nor does "no comment to all questions, including about the garage" say what was in the garage. (A reply of "No
    // comment" to a put is quoted with the put, as the interviewer's assertion it left unanswered.)
    const noComment = s.put === undefined && NO_COMMENT.test(s.text);
    if ((IGNORANCE.test(s.text) || noComment) && (a.expects !== "any" || !ASKS_WHAT_WAS_SAID.test(a.lower))) continue;
    // "Open questions: who 'Darren Colby' is; …", "Next steps: request … accounts": what a record has yet to find out or
    // do is not what it found — unless that is what is asked ("What are the open questions?").
    const open = OPEN_LINE.exec(s.text);
    if (open && ![...stemsOf(open[0])].some((t) => a.stems.includes(t))) continue;
    // "What is her net pay per fortnight?": a total is no rate; the sentence gives an amount for some period.
    if (a.expects === "amount" && RATE_ASKED.test(a.lower) && !RATE_SAID.test(s.text)) continue;
    // "We applied to the Court for an order suspending the attorney", "he planned to sell": what was applied for,
    // asked for or planned is not when it happened.
    if (a.expects === "time" && intendedOnly(s.text, focus)) continue;
    // "When was the balance for the horns paid?": a date answers when a thing happened only beside the word for it
    // ("paid"), or, in other words ("the parcel came on 6 March", "Public opening of bids: 15 July"), beside all else
    // the question names — not a line that shares one noun with it ("Closing balance 30/09/2024").
    if (
      a.expects === "time" &&
      events.length &&
      !events.some((t) => s.stems.has(t) || s.asked?.has(t)) &&
      !focus.every((t) => events.includes(t) || weak.has(t) || s.stems.has(t) || s.asked?.has(t) || headingStems(s.snippet).has(t))
    )
      continue;
    // "What is his date of birth?": a date answers only beside the word for what it dates (the line, its question or
    // its table's column) — not the "Joined" date on a crew list row that names him.
    if (a.expects === "time" && dated && !s.stems.has(dated) && !s.asked?.has(dated) && !stemsOf(columnsOf(s)).has(dated)) continue;
    // "How much did Brannigan stake…?", "When was Heaney arrested?", "Where did Brennock live?": a sentence that names
    // another person and not the one asked about tells of the other ("Jade Pemberton … largest previous stake GBP 25",
    // "SALCEDO arrested 6:04 AM", "Holmgren lives aboard a cabin cruiser").
    if (
      people.length &&
      ["amount", "count", "time", "place"].includes(a.expects) &&
      !people.some((e) => names.includes(e)) &&
      otherPeople.some((n) => containsPhrase(lower, n))
    )
      continue;
    // "When was Dunn found?": a sentence about another thing — one it names before it refers to anyone ("Exhibit H-7:
    // Glock 19 … recovered by the dive team … on 20 Apr 2025") — and not about him dates what happened to that thing.
    if (people.length && ["time", "place"].includes(a.expects) && !people.some((e) => names.includes(e)) && thingFirst(s)) continue;
    const stated = answerValues(s.text, s.facts, a, context.nodes, told);
    const framed = !stated.length && s.put !== undefined;
    const values = framed ? answerValues(s.put!.text, s.put!.facts, a, context.nodes, told) : stated;
    if (!values.length) continue;
    const item = itemStems.get(s.snippet.id)!;
    if (namedWords.some((t) => !item.has(t))) continue;
    // "What is the IMEI of his iPhone?" asks for an IMEI, not whatever identifier the phone's record holds; "What was the
    // balance?" for a balance, not a stake. The noun that names what is asked is said where the answer is (the sentence
    // or its item: a field label, a column heading); a sentence that does not say it gives way to one that does.
    const field = a.measure && FIELD_NOUNS.has(a.measure) ? conceptOf(a.measure) : undefined;
    if (field && !item.has(field)) continue;
    // A sum is many things in one record (a stake, a return, a balance): "What was the balance?" is answered by a figure
    // its sentence or its table's column calls a balance. (An identifier beside the thing — "BMW X5 MRC-7700" — is the
    // plate whether or not the line says so.)
    if (field && a.expects === "amount" && !s.stems.has(field) && !stemsOf(columnsOf(s)).has(field)) continue;
    const inSentence = new Set(valueKeys(s.facts));
    const inItem = new Set(valueKeys(factsOf(s.snippet)));
    const named = nameValues.some((k) => inSentence.has(k)) ? givenWeight : 0;
    const total = totalFocus + named;
    const own = total
      ? (focus.reduce((sum, t) => sum + (s.stems.has(t) ? focusWeight(t) : 0), 0) +
          given.filter((k) => inSentence.has(k)).length * givenWeight +
          named) /
        total
      : 1;
    // A value answers only beside what it is of or whom it is about: the sentence (or the question it replies to) must
    // say some of the question or name the subject, not only its item — "pH 10.2" is not the dissolved oxygen, and the
    // "Interviewers: …" line of an interview that speaks of the AIS does not say who ordered it off. A field line names
    // what it measures with the question's own type word ("Customs value: GBP 41,000"). (Not a broad question, which
    // the sentences naming its subject answer.)
    const measured = a.measure !== undefined && s.stems.has(conceptOf(a.measure));
    // "Date and time: 13/11/2024, 10.41am" in the notification of the fall: a record's field whose label names what is
    // asked ("What time did Jayden fall?") answers it though the line says nothing else of the question.
    const labelled = a.measure !== undefined && stemsOf(fieldLabel(s.text)).has(conceptOf(a.measure));
    const said = total ? focus.reduce((sum, t) => sum + (s.stems.has(t) || s.asked?.has(t) ? focusWeight(t) : 0), 0) / total : 1;
    if (a.expects !== "any" && focus.length && said === 0 && !names.length && !measured) continue;
    let coverage = total
      ? (focus.reduce((sum, t) => sum + focusWeight(t) * (s.stems.has(t) || s.asked?.has(t) ? 1 : item.has(t) ? ITEM_CREDIT : 0), 0) +
          given.reduce((sum, k) => sum + givenWeight * (inSentence.has(k) ? 1 : inItem.has(k) ? ITEM_CREDIT : 0), 0) +
          named) /
        total
      : 1;
    // "What did Northgate spend $26,500 on?": a sentence holding every sum the question gives is about
    // what it asks, whatever words it uses ("CHECK #1004 ELLERY AUTO GROUP | $26,500.00").
    const anchored = anchors.length > 0 && anchors.every((k) => inSentence.has(k));
    if (anchored) coverage = Math.max(coverage, MIN_FOCUS);
    // "Is A part of B?": a sentence that names both says how they relate. (Two things the question names, not two
    // people one surname may be: "Has Mulqueen been charged?" names one of Deirdre and Cathal Mulqueen.)
    if (a.kind === "yes_no" && new Set(distinctSubjects(names).map((e) => e.matched)).size >= 2) coverage = Math.max(coverage, 0.75);
    // "Who goes by Spider?": a sentence giving the name beside the form the question used answers it.
    if (
      a.expects === "agent" &&
      names.some(
        (e) => e.names.includes(e.matched) && !e.name.toLowerCase().includes(e.matched) && containsPhrase(lower, e.name.toLowerCase()),
      )
    )
      coverage = Math.max(coverage, 0.75);
    // A broad question about a named subject ("What is X's role?", "How did X get in?") is answered from the
    // sentences that name it even when they share few of its words — flagged by low confidence and the unknowns. Not
    // when it asks of something no visible item mentions ("What did the GPS tracker on it record?", the tracker's
    // data hidden from the asker) and the sentence's item does not say all the rest: a line that names the subject is
    // then a near match, not the answer.
    const broad =
      a.expects === "any" &&
      a.kind !== "yes_no" &&
      subjectHit === 1 &&
      unsaidBeside.every((t) => s.stems.has(t) || s.asked?.has(t) || item.has(t));
    // "Name: Gwen Alys PRITCHARD" names the subject and says nothing about them ("Director: Phillipa DORRANCE" says
    // her role).
    if (a.expects !== "agent" && a.expects !== "role" && namesOnly(s.text, names)) continue;
    if (coverage < (broad ? BROAD_FOCUS : MIN_FOCUS)) continue;
    // A sentence that does not itself name the subject must speak to more of the question, or hold its rarest word or
    // the field it asks for ("IMEI 356789104512345" under a heading that names whose phone it is), or the sum it
    // gives.
    if (
      subjectHit < 1 &&
      a.subjects.length &&
      coverage < 0.75 &&
      !(rarest && s.stems.has(rarest)) &&
      !(field && s.stems.has(field)) &&
      !labelled &&
      !anchored &&
      !(said > 0 && onAskedDay(s))
    )
      continue;
    if (a.required.some((t) => !s.stems.has(conceptOf(t)))) continue;
    // BM25 (k1 1.2, b 0.75; a sentence holds a word once), over the question's words, normalised to 0…1.
    const bm25 =
      qStems.reduce((sum, t) => (s.stems.has(t) ? sum + (idf(t) * 2.2) / (1 + 1.2 * (0.25 + (0.75 * s.stems.size) / avgLen)) : sum), 0) /
      maxBm25;
    const datesMatch = givenDates.size && s.facts.dates.some((d) => d.readings.flatMap(dateKeys).some((k) => givenDates.has(k))) ? 0.1 : 0;
    const score =
      0.45 * Math.min(bm25, 1) +
      0.35 * coverage +
      0.2 * subjectHit +
      datesMatch -
      0.01 * (s.snippetIndex / Math.max(context.evidenceSnippets.length, 1));
    // An item's heading ("Incident ticket INC-2025-0521 (P4), WS-HR-0112 encoded PowerShell.") names what the item is
    // about, which is why it matches; it rarely states the answer. It gives way to a sentence that does.
    const heading =
      s.sentenceIndex === 0 && !/\b(?:is|was|are|were|has|had|have|did|does|said|says|shows?|states?|[a-z]{3,}ed)\b/i.test(s.text);
    // A value in a heading ("Interview of Arno Kade") answers "who/when/where …" only when the heading itself says
    // what is asked: matching on the rest of its item, it would name whoever the item is about.
    if (heading && a.expects !== "any" && own < 0.5) continue;
    // A limit is not a reading ("Limits at OF-2: free cyanide 0.05 mg/L" is not the level found there, nor a speed
    // limit the speed): a sentence that sets one gives way to one that measures, unless a limit is what is asked.
    const limit = (a.expects === "amount" || a.expects === "count") && LIMIT.test(s.text) && !LIMIT.test(a.lower);
    // "How much did he send altogether?": a line giving one payment of several gives way to a sentence that states the
    // sum (the answer then says that no total was found: `totalUnstated`).
    const single = a.expects === "amount" && asksTotal(a) && !statesTotal(s.text) && !statesTotal(columnsOf(s));
    // A value of an item that labels the field asked for elsewhere (a table's header line, another sentence) is a
    // weaker answer than the value beside the label.
    const unlabelled = field !== undefined && !s.stems.has(field) ? UNLABELLED : 1;
    candidates.push({
      ...s,
      names,
      subjectHit,
      values,
      ...(framed ? { framed } : {}),
      coverage,
      own,
      score: round((heading || limit || single ? score * 0.8 : score) * unlabelled),
    });
  }
  // "When was Vlachos arrested?" where his record says "He has not been arrested or charged": no date answers it
  // unless a sentence says the thing was done — a date beside something else would answer a question the evidence
  // says has no answer.
  if (
    a.expects === "time" &&
    events.length &&
    !candidates.some((c) => events.some((t) => c.stems.has(t))) &&
    sentences.some((s) => entryNames(s) && deniedVerbs(s.text).some((t) => events.includes(t)))
  )
    candidates.length = 0;
  preferRecords(candidates, context.nodes);
  candidates.sort((x, y) => y.score - x.score || x.snippetIndex - y.snippetIndex || x.sentenceIndex - y.sentenceIndex);
  // The later part of a compound question is about the record the earlier part was answered from, when it speaks to it.
  const fromAnswered = candidates.filter((c) => answeredFrom.has(c.snippet.id));
  if (fromAnswered.length) candidates.splice(0, candidates.length, ...fromAnswered);

  const checker = new SupportChecker(context);
  const composition: Composition = { context, a, focus, candidates, checker, itemStems };
  // A role is said in a sentence ("Director: Phillipa Rose DORRANCE"); the graph's employment edge is the fall-back.
  const [first, second] = a.expects === "role" ? [sentenceClaims, relationClaims] : [relationClaims, sentenceClaims];
  const firstClaims = first(composition);
  const claims: Claim[] = firstClaims.length ? firstClaims : second(composition);

  if (!claims.length) return { a, claims, candidates: candidates.length, missing: [] };
  claims.forEach((c, i) => {
    const sources = restatedFrom(context, c, a.subjects, candidates, factsOf);
    // Where the record has a line of its own that answers with every value the note restates, that line is the
    // answer and the note gives way to it; otherwise the record is cited beside the note.
    const line = sources.length ? recordLine(c, sources[0], sentences) : undefined;
    if (line && !claims.some((o) => o.evidenceId === line.snippet.id))
      claims[i] = claimOf(context, { ...line, names: [], subjectHit: 0, values: [], coverage: c.coverage, own: 1, score: c.score });
    else c.sources = sources;
  });
  const covered = new Set<string>();
  for (const c of claims) stemsOf(c.text).forEach((t) => covered.add(t));
  for (const e of a.subjects) e.names.forEach((n) => words(n).forEach((w) => covered.add(conceptOf(porter(w.lower)))));
  // What someone said is answered only from their words, which say it ("say" is not missing from his reply).
  saying.forEach((t) => covered.add(t));
  const missingStems = focus.filter((t) => !covered.has(t) && !weak.has(t) && !(itemStems.get(claims[0].evidenceId)?.has(t) ?? false));
  const missing = [
    ...new Set(
      words(question)
        .filter((w) => missingStems.includes(conceptOf(porter(w.lower))))
        .map((w) => w.raw),
    ),
  ];
  return { a, claims, candidates: candidates.length, missing };
}

/**
 * An analyst's note or timeline restates the records it was written from. Where a record itself gives the
 * same answer and says as much of what is asked, the record is the evidence to cite: the restatement gives way to it
 * (as a heading does). What only the note says — the analyst's own finding — it still answers.
 */
function preferRecords(candidates: Candidate[], nodes: readonly ContextNode[]): void {
  const restated = candidates.filter((c) => DERIVED.test(c.snippet.type));
  if (!restated.length) return;
  const keysOf = answerKeys(nodes);
  const records = candidates.filter((c) => !DERIVED.test(c.snippet.type)).map((c) => ({ c, keys: keysOf(c.values) }));
  for (const d of restated) {
    const keys = keysOf(d.values);
    if (records.some((r) => r.c.own >= d.own && r.keys.some((k) => keys.includes(k)))) d.score = round(d.score * 0.8);
  }
}

/**
 * The record an analyst's restated claim comes from: one that holds every value the claim gives (its dates, times,
 * amounts, identifiers) — two at least, or one and a subject the claim names. "14 men found living there on
 * 02/07/2024" in a timeline rests on the inspection record of 02/07/2024 that found 14 occupants; the answer cites
 * the record beside the note (or a line of the record in its stead: `recordLine`), the best-ranked when several qualify.
 */
function restatedFrom(
  context: RawContext,
  claim: Claim,
  subjects: LinkedEntity[],
  candidates: Candidate[],
  factsOf: (snippet: ContextSnippet) => Facts,
): string[] {
  const item = context.evidenceSnippets.find((s) => s.id === claim.evidenceId);
  if (!item || !DERIVED.test(item.type)) return [];
  const keys = claimValues(claim);
  const named = subjects.filter((e) => mentions(e, claim.text));
  if (!keys.length || (keys.length < 2 && !named.length)) return [];
  const rank = (s: ContextSnippet) => candidates.find((c) => c.snippet.id === s.id)?.score ?? -1;
  const [source] = context.evidenceSnippets
    .filter((s) => s.id !== item.id && !DERIVED.test(s.type))
    .filter((s) => {
      const held = new Set(valueKeys(factsOf(s)));
      return keys.every((k) => held.has(k)) && (keys.length >= 2 || named.some((e) => mentions(e, s.text)));
    })
    .sort((x, y) => rank(y) - rank(x));
  return source ? [source.id] : [];
}

/** The values a claim gives (its dates, times, amounts, identifiers), as keys. */
const claimValues = (claim: Claim) => valueKeys(extractFacts(claim.text, { source: true }));

/**
 * The line of record `source` that holds every value `claim` (a note's restatement) gives: a row of its table or one of
 * its fields ("Admitted: 06/03/2023"), which states the fact in the record's own form. (A sentence of prose with the
 * same values may tell something else of them: "remote WMI process creation …" is not the logon the note speaks of.)
 */
function recordLine(claim: Claim, source: string, sentences: Sentence[]): Sentence | undefined {
  const keys = claimValues(claim);
  return sentences.find((s) => s.snippet.id === source && RECORD_LINE.test(s.text) && keys.every((k) => valueKeys(s.facts).includes(k)));
}
// A table row, or a field whose label is words only (unlike `fieldLabel`, not the hour of "01:42: remote WMI …").
const RECORD_LINE = /\|.*\||^[\p{L} /&'’()-]{1,40}:\s/u;

/** `read` of an evidence item, computed once per item (per question: the reads depend on the question's subjects). */
function perItem<T>(read: (snippet: ContextSnippet) => T): (snippet: ContextSnippet) => T {
  const done = new Map<string, T>();
  return (snippet) => {
    if (!done.has(snippet.id)) done.set(snippet.id, read(snippet));
    return done.get(snippet.id) as T;
  };
}

/** The evidence a claim cites: its own item, then the records it restates. */
const citedBy = (c: Claim) => [c.evidenceId, ...(c.sources ?? [])];
const markersOf = (c: Claim, i: number) =>
  citedBy(c)
    .map((id) => `[evidence: ${id}, claim: CLM-${i + 1}]`)
    .join(" ");

/**
 * Keys that say when two values are the same answer: the node a name belongs to ("Kovac", "Dima" → p-kovac), the
 * normalised value of a date, time, amount or identifier ("06:00Z" = "06:00"), else the words as written.
 */
function answerKeys(nodes: readonly ContextNode[]): (values: AnswerValue[]) => string[] {
  const owners = new Map<string, string[]>();
  for (const n of nodes) for (const name of namesOf(n).names) owners.set(name, [...(owners.get(name) ?? []), n.id]);
  return (values) => {
    const keys = new Set<string>();
    for (const v of values) {
      const raw = v.raw.toLowerCase().trim();
      if (!raw) continue;
      const owner = owners.get(raw);
      const facts = valueKeys(extractFacts(v.raw, { source: true }));
      if (owner?.length === 1) keys.add(`node:${owner[0]}`);
      else if (facts.length) facts.forEach((k) => keys.add(k));
      else keys.add(`raw:${raw}`);
    }
    return [...keys];
  };
}

/** The months a text speaks of, by date or by name ("09 SEP 2024", "the July entry"). */
function monthsIn(text: string, facts: Facts): number[] {
  return [...facts.dates.flatMap((d) => d.readings.flatMap((r) => (r.m === undefined ? [] : [r.m]))), ...monthsNamed(words(text))];
}

/** Four-digit years written in `text` ("in 2023", "15 Jan 2025", "03/02/2021", "2025-04-12") — not inside an id ("PW-2024-117"). */
function yearsIn(text: string): number[] {
  return [...text.matchAll(/(?<![\p{L}\p{N}-])((?:19|20)\d{2})(?:(?=-\d{2}-\d{2})|(?![\p{L}\p{N}-]))/gu)].map((m) => Number(m[1]));
}
/** The years a question names on their own ("the 2023 salt contract"), not as part of a day it gives ("12 April 2025"). */
function bareYears(question: string): number[] {
  return [...question.matchAll(/(?<![\p{L}\p{N}\/.-])((?:19|20)\d{2})(?![\p{L}\p{N}-])/gu)]
    .filter((m) => !MONTH_BEFORE.test(question.slice(0, m.index)))
    .map((m) => Number(m[1]));
}
/** A month, and a day after it, just before a year: "April 2025", "Apr. 12, 2025". */
const MONTH_BEFORE = new RegExp(String.raw`\b(?:${Object.keys(MONTHS).join("|")})\.?,?\s+(?:\d{1,2}(?:st|nd|rd|th)?,?\s+)?$`, "i");
/** Months that are all other than those asked about and do not run from before them to after them. */
function otherMonths(months: number[], asked: number[]): boolean {
  if (!months.length || months.some((m) => asked.includes(m))) return false;
  return !(months.some((m) => m < Math.min(...asked)) && months.some((m) => m > Math.max(...asked)));
}

/**
 * Concepts of the words a sentence denies with "not" or "never" ("Oriel had not sent the certificate" → send). "No oily
 * waste" is not one: it states an amount, none.
 */
function deniedVerbs(text: string): string[] {
  const ws = words(text);
  const out: string[] = [];
  ws.forEach((w, i) => {
    if (!/^(?:not|never)$|n['’]t$/.test(w.lower)) return;
    const next = ws.slice(i + 1, i + 4).find((x) => !isStopword(x.lower) && !/^(?:been|be|yet|ever|even|actually)$/.test(x.lower));
    if (next) out.push(conceptOf(porter(next.lower)));
  });
  return out;
}

/** Words that put what follows them, to the end of the clause, as applied for, asked for, planned or expected. */
const INTENT =
  /\b(?:appl(?:y|ies|ied|ying)|application|request(?:s|ed|ing)?|plan(?:s|ned|ning)?|intend(?:s|ed|ing)?|intention|propos(?:e|es|ed|ing|al)|seek(?:s|ing)?|sought|(?:due|scheduled|expected|hoping|hopes?|hoped|wants?|wanted) to)\b[^.;:\n]*/giu;

/** Whether every word of the question's focus that the sentence says, it says only as applied for, asked for or planned. */
function intendedOnly(text: string, focus: readonly string[]): boolean {
  const inside = new Set<string>();
  for (const m of text.matchAll(INTENT)) stemsOf(m[0].replace(/^\S+/, "")).forEach((t) => inside.add(t));
  if (!inside.size) return false;
  // The applying, asking or planning itself did happen: "When did they apply…" is answered by it.
  const outside = stemsOf(text.replace(INTENT, (m) => ` ${m.split(/\s+/)[0]} `));
  const said = focus.filter((t) => inside.has(t) || outside.has(t));
  return said.length > 0 && said.every((t) => !outside.has(t));
}

/**
 * Whose words a question asks for: "according to X", "what did X say", X's own account of something ("How did X
 * explain the £12,000?", "What reason did X give for …?") and what X claimed ("Why did X say she approved both
 * invoices?", "Where does X say he was?") — answered from what X said, not from others' records.
 */
const ATTRIBUTED =
  /\baccording to (?:the )?(.+?)(?:,|\?|$)|\bwhat did (?:the )?(.+?) (?:say|tell|report|state|write|confirm|claim|admit)\b|\bhow (?:did|does|do|has|have|had|would) (?:the )?(.+?) (?:explain|account for|justify|excuse)\b|\bwhat (?:reason|explanation|excuse|justification) (?:did|does|has|had) (?:the )?(.+?) (?:give|offer|provide)\b|\b(?:why|how|when|where|who|whom) (?:did|does|do|has|have|had|would) (?:the )?(.+?) (?:say|claim|admit|state)\b/;

/** The verbs ATTRIBUTED attributes words with, as focus terms. */
const SAYING = new Set(
  ["say", "tell", "report", "state", "write", "confirm", "claim", "admit", "explain"].map((w) => conceptOf(porter(w))),
);

function spokenBy(a: QuestionAnalysis): LinkedEntity | undefined {
  const m = ATTRIBUTED.exec(a.lower);
  const phrase = m?.slice(1).find((p) => p !== undefined);
  return phrase ? a.subjects.find((e) => containsPhrase(phrase, e.matched)) : undefined;
}

/**
 * The record a question names as its source when it names no case entity: "According to the seized notebook, …",
 * "…, according to the registrar?", "In the e-mails, …", "What does the Oil Record Book record for 2 March?", "Which
 * terminal do the bill of lading and the certificate of origin say …": the words before a preposition ("the messages
 * between the two directors") say what kind of record it is; records joined by "and" are each a source.
 */
function sourceNamed(a: QuestionAnalysis): { phrase: string; kinds: Array<Set<string>> } | undefined {
  if (spokenBy(a)) return undefined;
  const m =
    /\baccording to (?:the |his |her |their |its )?([^,?]{1,80})|^in (?:the|his|her|their|its) ([^,?]{1,60}),|\b(?:do|does|did) (?:the|his|her|their|its|that|this|these|those) ([^,?]{1,60}?) (says?|shows?|records?|notes?|states?|lists?|gives?|describes?|mentions?|reads?|reveals?|indicates?|contains?)\b/.exec(
      a.lower,
    );
  const record = (m?.[1] ?? m?.[2] ?? m?.[3])?.trim();
  if (!record) return undefined;
  const kinds: Array<Set<string>> = [];
  for (const part of record.split(/\s(?:and|or)\s(?:the |his |her |their |its )?/)) {
    const named = part.split(new RegExp(String.raw`\s(?:${PREPOSITION}|between|of|about)\s`))[0];
    if (/\b(?:him|her|them|me|us|you|it)$/.test(named)) return undefined;
    // Whose record it is ("the boss's notebook") and its year are for the record to say, not its kind.
    const kind = recordWords(named.replace(/\S+'s\b/g, " ").replace(/\d+/g, " "));
    if (kind.size) kinds.push(kind);
  }
  // The record's verb ("say", "show") is the record speaking, not what is asked.
  return kinds.length ? { phrase: m?.[4] ? `${record} ${m[4]}` : record, kinds } : undefined;
}

/** What says where an item comes from: its type, its source system and its heading. */
const sourceStems = (snippet: ContextSnippet) =>
  recordWords(`${snippet.type.replace(/[_-]+/g, " ")} ${snippet.sourceSystem.replace(/[_-]+/g, " ")} ${headingOf(snippet.text)}`);
/** The words that name a kind of record ("e-mails" and "email_extract" are one word). */
const recordWords = (text: string) => stemsOf(text.replace(/\be-(?=mail)/gi, "e"));

/**
 * Whether `e` speaks in a line: a transcript's or chat's speaker label that names them, opening the line ("KOVAC: …",
 * "09:12 Fenny: …") or introducing a quotation ('Voice identified as Dmitri Kovac: "It's done."'), or a report of
 * what they said.
 */
function speaksIt(e: LinkedEntity, text: string): boolean {
  const opening = /^(?:[\d/:., -]*(?:AM|PM)?\s*)?([\p{L}][\p{L}\p{M}.' -]{0,40}?):\s/iu.exec(text);
  if (opening && mentions(e, opening[1])) return true;
  if ([...text.matchAll(/([\p{L}][\p{L}\p{M}.' -]{0,40}?):\s*["“]/gu)].some((m) => mentions(e, m[1]))) return true;
  // Reported speech with them as its speaker: "Kovac told Ortega to move the van", "Marlowe later said he …".
  const lower = text.toLowerCase();
  return e.names.some((n) => n.length > 2 && new RegExp(`\\b${escapeRegExp(n)}\\b(?:\\s+\\S+){0,2}?\\s+${SPEECH_VERB}`, "u").test(lower));
}
/** Verbs that report what someone said or wrote. */
const SPEECH_VERB =
  "(?:said|says|told|tells|stated|states|admitted|admits|claimed|claims|wrote|writes|replied|explained|confirmed|denied)\\b";

/** A question about what was said in interview, under caution or when questioned. */
const INTERVIEWED = /\b(?:interview(?:s|ed)?|under caution|(?:was|were|when|being) (?:questioned|spoken to))\b/i;
/** Documents in one person's own words (a bank, card or completion statement is an account, not anyone's words). */
const NARRATED =
  /\b(?:(?<!\b(?:bank|account|card|financial|credit|mortgage|billing|completion|annual|tax|vat|payroll|earnings|salary)\s)statement|interview|declaration|affidavit|deposition|testimony)\b/i;
/** The narrator speaking ("I", "my", "me"); a capital "I" alone, so not the letter of a list. */
const FIRST_PERSON = /\b(?:I|[Mm]y|[Mm]e|[Mm]ine|[Mm]yself)\b(?![.)])/;

/** A line that, past a field label ("Name:", "Account holder:"), holds nothing but the names of these subjects. */
function namesOnly(text: string, subjects: LinkedEntity[]): boolean {
  if (!subjects.length) return false;
  const nameWords = new Set(subjects.flatMap((e) => [e.name.toLowerCase(), ...e.names].flatMap((n) => words(n).map((w) => w.lower))));
  const rest = words(text.slice(fieldLabel(text).length)).filter((w) => !isStopword(w.lower) && w.lower.length > 1);
  return rest.length > 0 && rest.every((w) => nameWords.has(w.lower) || /^(?:mr|mrs|ms|miss|dr|prof|sir|dame)$/.test(w.lower));
}

/** The label a record's field line opens with ("Date and time: " in "Date and time: 13/11/2024, 10.41am"), or "". */
function fieldLabel(text: string): string {
  return /^[^:\n]{1,40}:\s*/.exec(text)?.[0] ?? "";
}

/**
 * The subject an item is told by: its heading says it is a statement or interview, and of the people it names the
 * first, before any "by" (whoever took it), is that subject — "Witness statement of Alison GREAVES, taken … by DC T.
 * Varga". A person is placed by the earliest of their names, so "Connor PRUITT" is Connor, not his uncle Darren Pruitt.
 */
export function narratorAmong(
  subjects: LinkedEntity[],
  nodes: ContextNode[],
  text: string,
  { firstLine = false }: { firstLine?: boolean } = {},
): LinkedEntity | undefined {
  const first = splitSentences(text)[0] ?? "";
  if (!NARRATED.test(first)) return undefined;
  // `firstLine`: read on through the heading's first line ("RECORD OF TAPED INTERVIEW UNDER CAUTION. Interviewee:
  // Gavin Paul THORNBURY. …") — for whose interview an item records, not for whose "I" its sentences are.
  return narratorIn(first, subjects, nodes) ?? (firstLine ? narratorIn(text.split("\n")[0].slice(0, 300), subjects, nodes) : undefined);
}

function narratorIn(heading: string, subjects: LinkedEntity[], nodes: ContextNode[]): LinkedEntity | undefined {
  const by = heading.search(/\b(?:by|[Ii]nterviewer)\b/);
  const named = by < 0 ? heading : heading.slice(0, by);
  const lower = named.toLowerCase();
  let first: { id: string; at: number; length: number } | undefined;
  for (const n of nodes.filter((x) => isPersonLabel(x.label))) {
    const { names } = namesOf(n);
    // As a question's subject is matched: a surname after someone else's given name is not this person.
    if (!mentions({ label: n.label, name: n.name, names }, named)) continue;
    for (const name of names) {
      const at = phraseAt(lower, name);
      if (at >= 0 && (!first || at < first.at || (at === first.at && name.length > first.length)))
        first = { id: n.id, at, length: name.length };
    }
  }
  return first && subjects.find((e) => e.id === first.id);
}

/** Every sentence of every snippet that could state a fact: not instructions, not neutralisation residue, not ids the context lacks. */
function sentencesOf(context: RawContext): Sentence[] {
  const knownIds = new Set([...context.evidenceSnippets.map((s) => s.id), ...context.nodes.map((n) => n.id)]);
  const evidenceShapes = new Set(context.evidenceSnippets.map((s) => shapeOf(s.id)));
  const out: Sentence[] = [];
  context.evidenceSnippets.forEach((snippet, snippetIndex) => {
    // In an interview the answer follows the question: "REYES: When did you last speak to Raymond? L. DUNN: Friday."
    let asked: { stems: Set<string>; text: string; left: number; put: boolean } | undefined;
    // What an interviewer puts ("KM: Tell me about the AIS on the 12th.", "Q: The letter is on paper made after
    // 2003.") is put, not found: it frames the reply after it, as a question does. A turn runs to the end of its line.
    const interviewers = interviewerLabels(snippet.text);
    let interviewerTurn = false;
    let framedLast = false;
    sentenceSpans(snippet.text).forEach(({ start, end }, sentenceIndex) => {
      const text = snippet.text.slice(start, end).replace(/\s+/g, " ").trim();
      // After an excerpt's elision mark ("… KM: …") whose turn a sentence continues is not known.
      const elided = ELISION.test(text);
      const opens = opensInterviewerTurn(text.replace(ELISION, ""), interviewers);
      const opensLine = elided || /(?:^|\n)[ \t]*$/.test(snippet.text.slice(0, start));
      interviewerTurn = opens ?? (opensLine ? false : interviewerTurn);
      const ws = words(text.replace(/\[[^\]]*removed\]/g, " "));
      // A reply runs on for a few sentences ("I did. The Chief told me to."); the first is its direct answer.
      const previous = asked && asked.left > 0 ? asked : undefined;
      if (asked) asked = { ...asked, left: asked.left - 1 };
      // A question states no fact; what it asks frames the answer after it.
      const question = /\?["'”’)]*$/u.test(text);
      if (question || interviewerTurn) {
        // A turn of several sentences ("KM: I'm showing you JT/1. Is that your photo?") frames its reply as a whole.
        const said = text.replace(ELISION, "").replace(SPEAKER, "").replace(QUESTION_TURN, "");
        const put = interviewerTurn && !question;
        asked =
          framedLast && interviewerTurn && opens === undefined && asked
            ? {
                stems: new Set([...asked.stems, ...stemsOf(text)]),
                text: `${asked.text} ${said}`,
                left: REPLY_SENTENCES,
                put: asked.put || put,
              }
            : { stems: stemsOf(text), text: said, left: REPLY_SENTENCES, put };
        framedLast = true;
        return;
      }
      framedLast = false;
      const answersPut = previous?.put === true && previous.left === REPLY_SENTENCES;
      // A short reply ("VILLAFLOR: I did.") states a fact only with the question it answers; a bare one ("It's mine.",
      // "Yes.") only with what the interviewer put.
      if (!answersPut && ws.filter((w) => !isStopword(w.lower)).length < (previous ? 1 : 2)) return;
      if (/\[[^\]]*removed\]/.test(text)) return; // what is left of a neutralised instruction states no fact
      if (IMPERATIVE.test(text) || isInstructionStatement(text)) return;
      // An evidence-shaped id the context does not hold is a citation token planted in the text.
      if (ws.some((w) => isIdLike(w.raw) && !knownIds.has(w.raw) && evidenceShapes.has(shapeOf(w.raw)))) return;
      const clipped = text.length > MAX_SENTENCE_CHARS ? clipWords(text, MAX_SENTENCE_CHARS) : text;
      out.push({
        snippet,
        snippetIndex,
        sentenceIndex,
        text: clipped,
        stems: stemsOf(clipped),
        ...(previous ? { asked: previous.stems, ...(previous.left === REPLY_SENTENCES ? { question: previous.text } : {}) } : {}),
        ...(answersPut ? { put: { text: previous.text, facts: extractFacts(previous.text, { source: true }) } } : {}),
        facts: extractFacts(clipped, { source: true }),
      });
    });
  });
  return out;
}

/** Inverse document frequency over the context's sentences; a word found in none weighs most. */
function idfOver(sentences: Sentence[]): (t: string) => number {
  const df = new Map<string, number>();
  for (const s of sentences) for (const t of s.stems) df.set(t, (df.get(t) ?? 0) + 1);
  const n = sentences.length;
  return (t) => Math.log(1 + (n - (df.get(t) ?? 0) + 0.5) / ((df.get(t) ?? 0) + 0.5));
}

/**
 * The best sentence; more only when the question asks for several, or when one nearly as good from another item
 * covers part of the question the best one does not. Each must pass the claim checks.
 */
function sentenceClaims({ context, a, focus, candidates, checker }: Composition): Claim[] {
  const out: Claim[] = [];
  const covered = new Set<string>();
  const top = candidates[0]?.score ?? 0;
  for (const c of candidates) {
    if (out.length >= MAX_CLAIMS || c.score < top * RUNNER_UP) break;
    if (out.some((o) => o.evidenceId === c.snippet.id || o.text === c.text)) continue;
    if (out.length && !a.plural && !focus.some((t) => c.stems.has(t) && !covered.has(t))) continue;
    // A further claim from another item must itself name who or what the question is about.
    if (out.length && a.subjects.length && c.subjectHit < 1) continue;
    const claim = claimOf(context, c);
    if (checker.claim(claim.text, [c.snippet.id]).support === "unsupported") continue;
    // A reply covers what its question asked.
    [...c.stems, ...(c.asked ?? [])].forEach((t) => covered.add(t));
    out.push(claim);
  }
  return out;
}

function claimOf(context: RawContext, c: Candidate): Claim {
  const text = c.question && (c.own < 0.5 || c.framed) ? reply(c.question, c.text) : c.text;
  return {
    text,
    evidenceId: c.snippet.id,
    graph: graphCitations(context, c),
    step: `${c.snippet.id} (${c.snippet.type.replace(/_/g, " ")}, ${c.snippet.collectedAt.slice(0, 10)}) states: ${text}`,
    score: c.score,
    coverage: c.coverage,
  };
}

/** A transcript's speaker label ("MOREAU: ", "Q: "). */
const SPEAKER = /^\s*[\p{Lu}][\p{L}\p{M}.' -]{0,40}?:\s+/u;
/** An interviewer's turn marked "Q. …" ("Q: …" is a SPEAKER label like the others, and "q" an interviewer's). */
const QUESTION_TURN = /^\s*Q\s*\.\s/;
/** The mark an excerpt puts where it left sentences out (context.ts, excerptOf). */
const ELISION = /^…\s*/u;
/** How far into a record its heading may name the interviewers. */
const HEADING_SEARCH_CHARS = 600;
/** A record's sentence naming who put the questions: "Interviewer: Federal Agent Kit Mowbray (KM)". */
const INTERVIEWERS_LINE = /(?:^|[….!?])[ \t]*Interviewers?\s*(?:\(s\))?\s*[:-]/imu;

/**
 * The speaker labels an interview record gives its interviewers: always "Q", and for each one its heading names, the
 * initials it puts in brackets and the surname ("Interviewers: Senior Federal Agent L. Quartermaine (LQ), DC Amy
 * Reyes" → q, lq, quartermaine, reyes).
 */
function interviewerLabels(text: string): Set<string> {
  const labels = new Set(["q"]);
  const head = text.slice(0, HEADING_SEARCH_CHARS);
  const found = INTERVIEWERS_LINE.exec(head);
  // The names run to the end of that sentence ("… (CF). Solicitor present: …" names the solicitor, not an interviewer).
  const line = found ? (splitSentences(head.slice(found.index + found[0].length))[0] ?? "") : "";
  for (const who of line.split(/[,;&]|\band\b|\b(?:also present|present)\b/i)) {
    const initials = /\(([\p{Lu}]{1,4})\)/u.exec(who)?.[1];
    if (initials) labels.add(initials.toLowerCase());
    const surname = lastWord(who.replace(/\([^)]*\)/g, " "));
    if (/^[\p{Lu}][\p{L}'-]+$/u.test(surname)) labels.add(surname.toLowerCase());
  }
  return labels;
}

/** The last word of a name, without the stop or comma after it ("DS Paul Okafor." → "Okafor"). */
const lastWord = (name: string) =>
  name
    .split(/[\s.,:;]+/)
    .filter(Boolean)
    .pop() ?? "";

/** Whether a sentence opens an interviewer's turn ("KM: …", "DC REYES: …", "Q. …"); undefined when it opens none. */
function opensInterviewerTurn(text: string, interviewers: Set<string>): boolean | undefined {
  if (QUESTION_TURN.test(text)) return true;
  const label = SPEAKER.exec(text)?.[0].replace(/:\s*$/, "").trim().toLowerCase();
  if (!label) return undefined;
  return interviewers.has(label) || interviewers.has(lastWord(label));
}

/** A reply quoted with the question it answers: `Asked "Who connected…?", VILLAFLOR answered "I did."`. */
function reply(question: string, quoted: string): string {
  const answer = quoted.replace(ELISION, "");
  const speaker = SPEAKER.exec(answer);
  const who = speaker ? speaker[0].replace(/:\s*$/, "").trim() : "";
  const said = speaker ? answer.slice(speaker[0].length) : answer;
  const by = who && !/^(?:a|r|answer|reply)$/i.test(who) ? `${who} answered` : "the answer was";
  // A put of several sentences is quoted a sentence at a time ("Asked "… mobile", then "Is it your account?", …"), so
  // the claim stays one sentence for the checks.
  const put = splitSentences(question)
    .map((q) => `"${q.replace(/\.$/, "")}"`)
    .join(", then ");
  return `Asked ${put}, ${by} "${said.trim()}"`;
}

/** Keys of the checkable values in `facts`: identifiers, numbers, times of day and dates. */
function valueKeys(f: Facts): string[] {
  return [
    ...new Set([
      ...f.ids.map((i) => `id:${i.key}`),
      ...f.numbers.filter((n) => n.kind !== "number" || n.value >= 10).map((n) => `n:${n.value}`),
      ...f.times.map((t) => `t:${t.minutes}`),
      ...f.dates.map((d) => `d:${d.readings.flatMap(dateKeys)[0] ?? d.raw}`),
    ]),
  ];
}

/** Record nouns a source's name may stand before ("the customs entry", "the bank statement", "the police report"). */
const RECORD_NOUN =
  /^\s+(?:entry|entries|declaration|form|statement|report|record|records|return|returns|log|file|certificate|inspection|audit|register|filing|notice|letter|extract|printout)\b/;

/** Whether every mention of `matched` in the question is a record's source before its noun ("the customs entry"). */
function namesRecordOnly(lowerQuestion: string, matched: string): boolean {
  const mentions = phrasesAt(lowerQuestion, matched);
  return mentions.length > 0 && mentions.every((at) => RECORD_NOUN.test(lowerQuestion.slice(at + matched.length)));
}

/** Subjects that are different things, not one name inside another ("SSH brute force" within "SSH brute force against…"). */
function distinctSubjects(subjects: LinkedEntity[]): LinkedEntity[] {
  return subjects.filter((e) => !subjects.some((o) => o !== e && o.matched.length > e.matched.length && o.matched.includes(e.matched)));
}

/**
 * Relationships of the graph that answer the question: an edge at a named subject whose type is what is asked
 * ("associate" for ASSOCIATE_OF) and whose other end is of the expected kind, said in plain words and cited with the
 * evidence linked to both ends (the best-scoring such item).
 */
function relationClaims({ context, a, focus, candidates, checker, itemStems }: Composition): Claim[] {
  if (!a.subjects.length || !["agent", "place", "entity", "role", "any"].includes(a.expects) || a.kind === "why" || a.kind === "how")
    return [];
  const nodes = new Map(context.nodes.map((n) => [n.id, n]));
  const subjectIds = new Set(a.subjects.map((s) => s.id));
  // "What is Foyle's relationship to Dee Mulqueen?", "Who is Mortimer to her?": whatever edge joins two things it names.
  const between = RELATION_ASKED.test(a.lower) && distinctSubjects(a.subjects).length >= 2;
  // The question's common nouns that are not weak words: besides the relationship's own words, the node it leads to
  // must say them (read once per question, not once per edge).
  const nouns = new Set(a.nouns.map(conceptOf));
  const weakWords = new Set(a.weak.map(conceptOf));
  const namedBeside = focus.filter((t) => nouns.has(t) && !weakWords.has(t));
  const out: Claim[] = [];
  for (const e of [...context.edges].sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))) {
    const at = subjectIds.has(e.source) ? e.source : subjectIds.has(e.target) ? e.target : null;
    if (!at) continue;
    const other = nodes.get(at === e.source ? e.target : e.source);
    const source = nodes.get(e.source);
    const target = nodes.get(e.target);
    if (!other || !source || !target) continue;
    const typeStems = [...stemsOf(e.type.replace(/_/g, " "))];
    if (between) {
      if (!subjectIds.has(other.id) || source.id === target.id) continue;
    } else if (a.expects === "role") {
      // Whom someone works for is what the graph can say of their role ("is employed by Corvane Logistics Group").
      if (subjectIds.has(other.id) || !typeStems.some((t) => EMPLOYMENT.has(t))) continue;
    } else {
      if (subjectIds.has(other.id) || containsPhrase(a.lower, other.name.toLowerCase())) continue;
      if (a.excludedPlaces.some((x) => containsPhrase(other.name.toLowerCase(), x))) continue;
      if (!typeStems.length || !typeStems.every((t) => focus.includes(t))) continue;
      // The relationship must be most of what is asked: "home" in "What condition did she put on selling her home?"
      // does not make RESIDENT_OF the answer.
      if (typeStems.length < focus.length * MIN_FOCUS) continue;
      if (!fitsExpected(other, a)) continue;
      // "Which university did he attend?": a meeting he attended is not one.
      if (a.kindNoun && !saysKind(other, a.kindNoun)) continue;
      // "Has Pell used any other name?": the phone he uses is not a name — every other common noun of the question
      // is said by the node the relationship leads to (its label, name or properties).
      const told = nodeStems(other);
      if (namedBeside.some((t) => !typeStems.includes(t) && !told.has(t))) continue;
    }
    const support = context.evidenceSnippets.filter((s) => s.nodeIds.includes(e.source) && s.nodeIds.includes(e.target));
    if (!support.length) continue;
    // Items that name both ends first, then those that say the relationship in its own words ("Director: CHEN,
    // Wei-Ming" for DIRECTOR_OF, not a log that names both), then the best-scoring.
    const namesBoth = (s: ContextSnippet) =>
      [source, target].every((n) => namesOf(n).names.some((name) => containsPhrase(s.text.toLowerCase(), name))) ? 1 : 0;
    // The kind of tie the graph records on the edge ("relation: partner") is what a relationship question asks.
    const kind = between ? relationKind(e) : undefined;
    const said = kind ? [...stemsOf(kind)] : typeStems;
    const saysIt = (s: ContextSnippet) => (said.every((t) => itemStems.get(s.id)?.has(t)) ? 1 : 0);
    const text = `${source.name} ${relationPhrase(e)} ${target.name}${kind ? ` (${kind})` : ""}`;
    const [first] = support
      .map((s) => ({ s, both: namesBoth(s), says: saysIt(s), best: candidates.find((c) => c.snippet.id === s.id)?.score ?? -1 }))
      .sort(
        (x, y) =>
          y.both - x.both ||
          y.says - x.says ||
          y.best - x.best ||
          context.evidenceSnippets.indexOf(x.s) - context.evidenceSnippets.indexOf(y.s),
      )
      .filter((r) => checker.claim(text, [r.s.id]).support === "supported");
    if (!first) continue;
    const evidenceId = first.s.id;
    out.push({
      text,
      evidenceId,
      graph: [e.source, e.target, `${e.source}:${e.type}:${e.target}`],
      // The step says the relationship itself and cites the item and the graph's edge and ends: a step that spoke of
      // "the case graph" would hold words no source has, and the checks would remove it.
      step: text,
      score: 1,
      coverage: 1,
    });
    if (out.length >= MAX_CLAIMS) break;
  }
  return out;
}

/** What an edge's properties call the tie ("relation": "partner"), if they do. */
function relationKind(e: ContextEdge): string | undefined {
  const [, value] =
    Object.entries(e.properties).find(([k, v]) => /^(?:relation|relationship|role|nature)$/i.test(k) && typeof v === "string") ?? [];
  return typeof value === "string" && value.length <= 40 ? value : undefined;
}

/** Edge types that say whom someone works for or holds office in (stems). */
const EMPLOYMENT = new Set(["employ", "work", "director", "officer", "manag", "staff", "hire", "serv", "member"]);

/** A question about how two named things are related. */
const RELATION_ASKED =
  /\b(?:relationship|relation|related|connection|connected|link|linked|tie|ties)\b|\bwho (?:is|was|are|were) [^?,]+? to (?:him|her|them|[^?,]+)\s*(?:[?,]|$)/;

/** The stems of a node's label, name and property values. */
function nodeStems(n: ContextNode): Set<string> {
  return new Set([n.label.replace(/_/g, " "), n.name, ...Object.values(n.properties).map(String)].flatMap((t) => [...stemsOf(t)]));
}

/** Whether a node's label, name or properties say the kind of thing asked for ("university"). */
function saysKind(n: ContextNode, kindNoun: string): boolean {
  return nodeStems(n).has(conceptOf(porter(kindNoun)));
}

function fitsExpected(n: ContextNode, a: QuestionAnalysis): boolean {
  if (a.expects === "agent")
    return /person|people|suspect|victim|witness|officer|organi[sz]ation|company|business|bank|group|gang|agency|user/i.test(n.label);
  if (a.expects === "place") return PLACE_LABEL.test(n.label);
  return true;
}

/** "EMPLOYED_BY" → "is employed by"; "OWNS" → "owns". */
function relationPhrase(e: ContextEdge): string {
  const phrase = e.type.toLowerCase().replace(/_/g, " ");
  // A verb in the present ("resides at", "works at", "holds account") reads as it is; "associate of" and "employed by" take "is".
  if (/^[a-z]+[^s\s]s\b/.test(phrase)) return phrase;
  return /\b(?:of|to|by|with|in|for|from|at|on)$/.test(phrase) ? `is ${phrase}` : phrase;
}

/** How much of a question an unknown quotes back. */
const MAX_QUOTED_QUESTION = 160;

function abstain(context: RawContext, a: QuestionAnalysis, question: string, candidates: number): ModelOutputShape {
  const about = a.subjects.length ? a.subjects.map((s) => s.name).join(", ") : null;
  const what = a.expects === "amount" && asksTotal(a) ? "a total amount" : describeAnswerType(a.expects);
  // The question in its own words says what is missing; its content words alone ("gave order switch") do not read.
  const asked = question.trim().replace(/\s+/g, " ");
  const quoted = asked.length > MAX_QUOTED_QUESTION ? `${asked.slice(0, MAX_QUOTED_QUESTION - 1).trimEnd()}…` : asked;
  const none = `: none of the ${context.evidenceSnippets.length} evidence item(s) shown does.`;
  const unknown =
    a.expects === "any"
      ? `No visible evidence${about ? ` about ${about}` : ""} answers "${quoted}"${none}`
      : `No visible evidence states ${what}${about ? ` about ${about}` : ""} in answer to "${quoted}"${none}`;
  return noEvidence(
    unknown,
    `the question asks for ${describeAnswerType(a.expects)}` +
      (about ? ` about ${about}` : "") +
      `; ${candidates ? "no sentence that holds one covers what is asked" : "no sentence holds one"}.`,
  );
}

function cannotTellWho(pronoun: string, a: QuestionAnalysis): ModelOutputShape {
  return noEvidence(
    `Whom "${pronoun}" means is unknown: the question names no one it could be.`,
    `the question asks for ${describeAnswerType(a.expects)} about a person it does not name; answering would be a guess at whom.`,
  );
}

/** The extractive model's "no evidence": one unknown, and why. */
function noEvidence(unknown: string, why: string): ModelOutputShape {
  return {
    responseType: "no_evidence",
    answerText: "",
    citations: [],
    explanationSteps: [],
    unknowns: [unknown],
    confidence: 0.6,
    confidenceJustification: `Extractive model (no generative reasoning): ${why}`,
  };
}

const PREPOSITION = String.raw`(?:at|on|in|by|to|from|for|with)`;
/** A wh-phrase, with the preposition before it ("by whom", "at what time"). */
const WH_PHRASE = new RegExp(
  String.raw`^(?:${PREPOSITION}\s+)?(?:who|whom|whose|when|where|why|(?:which|what)(?:\s+(?:time|date|day|year))?|how(?:\s+(?:much|many|long|often|far))?)\b`,
  "i",
);
const AFTER_PREPOSITION = new RegExp(String.raw`^${PREPOSITION}\s`, "i");
/** Where a compound question's parts meet: "… and where …", "…, and at what daily rate?". */
const PART_BREAK = new RegExp(
  String.raw`[?;]|\s+(?:and|but|also)\s+(?=(?:who|whom|whose|what|when|where|why|how|which|whether|did|does|do|is|was|were|are|has|had|have)\b|${PREPOSITION}\s+(?:whom|who|what|which)\b)`,
  "i",
);

/** A part of a question that says whose account it asks for. */
const OWN_SOURCE = /\b(?:says?|said|told|tells|claims?|claimed|states?|stated|according to)\b/i;

/** A clause framing the whole question before its wh-word: "According to the registrar, …", "In the e-mails, …". */
const FRAME = new RegExp(
  String.raw`^((?:according to|in|from|on|as per)\s[^,?]{1,80}),\s+(?=(?:who|whom|whose|what|when|where|why|how|which)\b|${PREPOSITION}\s+(?:whom|who|what|which)\b)`,
  "i",
);

/**
 * The parts of a compound question ("… and where did it go?"); the question itself when it has one part. A part that is
 * only a wh-phrase asks it of the other part: "Who formed Northgate LLC and when?" is also "when formed Northgate
 * LLC", "When and where did he meet Alcott?" also "When did he meet Alcott", "How much was she paid, and by whom?" also
 * "by whom was she paid".
 */
function questionParts(question: string): string[] {
  // "According to the Auberval letter, where and from whom …", "In the e-mails, how did Pell want the shipment
  // described, and how was the payment to be made?": the framing clause belongs to every part — but a later part that
  // names whose account it asks for ("… and how does that compare with what Rusu says he paid him?") has its own.
  const frame = FRAME.exec(question);
  const split = question
    .slice(frame ? frame[0].length : 0)
    .split(PART_BREAK)
    .map((p) => p.trim().replace(/^[,\s]+|[,\s]+$/g, ""))
    .filter(Boolean);
  const bare = split.map((p) => WH_PHRASE.test(p) && p.replace(WH_PHRASE, "").trim() === "");
  const full = split.filter((p, i) => !bare[i] && stemsOf(p).size > 0);
  const framed = (part: string, from: string) => (frame && (from === full[0] || !OWN_SOURCE.test(part)) ? `${frame[1]}, ${part}` : part);
  const parts = split.flatMap((p, i) => {
    if (!bare[i]) return full.includes(p) ? [framed(p, p)] : [];
    // The nearest full part, after a leading bare phrase ("When and where …") or before a trailing one ("… and when?").
    const other = (i === 0 ? split.slice(1) : split.slice(0, i).reverse()).find((x) => full.includes(x));
    return other ? [framed(`${p} ${other.replace(WH_PHRASE, "").trim()}`, other)] : [];
  });
  return parts.length > 1 ? parts : [question];
}

/**
 * A later part of a compound question with its references read against the first part. A pronoun keeps to the first
 * part's subjects, or to whom its answer names when it asked who did something ("Who took the rails out, and why did he
 * need them?") — not when it asked who someone is ("Who is Kovac, and what car does he drive?": still Kovac).
 */
function referencesResolved(part: string, first: FirstPart, context: RawContext): string {
  const { subjects, asksWho } = firstPartNodes(first, context);
  const answers = asksWho
    ? nodesIn(context, linkEntities(first.claims.map((c) => c.text).join(" "), context.nodes)).filter((n) => !subjects.includes(n))
    : [];
  return resolveFollowUp(part, [{ turn: 1, subjects, answers }]).question;
}

/**
 * A later part that is about whom the first part asked for: it has a personal pronoun, and none of its references is
 * one of the first part's subjects ("…, and how did he contact her?" is still about "her").
 */
function meansTheUnknownAnswer(part: string, first: FirstPart, context: RawContext): boolean {
  const { subjects, asksWho } = firstPartNodes(first, context);
  if (!asksWho || !PERSONAL_PRONOUN.test(part)) return false;
  return resolveFollowUp(part, [{ turn: 1, subjects, answers: [] }]).references.length === 0;
}

type FirstPart = { part: string; a: QuestionAnalysis; claims: Claim[] };
const PERSONAL_PRONOUN = /\b(?:he|him|his|she|her|hers|they|them|their)\b/i;

function firstPartNodes(first: FirstPart, context: RawContext): { subjects: ContextNode[]; asksWho: boolean } {
  const subjects = nodesIn(context, first.a.subjects);
  return { subjects, asksWho: first.a.kind === "who" && !asksWhoIs(first.part, subjects) };
}

/** Whether the evidence item is linked to one of `nodes` or names one of them. */
function recordNames(context: RawContext, evidenceId: string, nodes: readonly ContextNode[]): boolean {
  const item = context.evidenceSnippets.find((s) => s.id === evidenceId);
  if (!item) return false;
  const lower = item.text.toLowerCase();
  return nodes.some((n) => item.nodeIds.includes(n.id) || namesOf(n).names.some((name) => name.length > 2 && containsPhrase(lower, name)));
}

function nodesIn(context: RawContext, linked: readonly LinkedEntity[]): ContextNode[] {
  const byId = new Map(context.nodes.map((n) => [n.id, n]));
  return [...new Set(linked.map((e) => byId.get(e.id)).filter((n) => n !== undefined))];
}

/** The candidate's evidence-linked nodes in the context (the subjects it names first) and the edges between them. */
function graphCitations(context: RawContext, c: Candidate): string[] {
  const inContext = new Set(context.nodes.map((n) => n.id));
  const linked = c.snippet.nodeIds.filter((id) => inContext.has(id));
  const named = c.names.map((e) => e.id);
  const nodes = [...named.filter((id) => linked.includes(id)), ...linked.filter((id) => !named.includes(id))].slice(0, 3);
  const set = new Set(linked);
  const edges = context.edges
    .filter((e) => set.has(e.source) && set.has(e.target) && (nodes.includes(e.source) || nodes.includes(e.target)))
    .slice(0, 2)
    .map((e) => `${e.source}:${e.type}:${e.target}`);
  return [...nodes, ...edges];
}

function withoutTerminator(text: string): string {
  return text.replace(/\s*[.!?]+["'”’)]*\s*$/u, (m) => (/["'”’)]/.test(m) ? m.replace(/[.!?]+/g, "").trimEnd() : ""));
}

function clipWords(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const at = cut.lastIndexOf(" ");
  return (at > max / 2 ? cut.slice(0, at) : cut) + "…";
}

const round = (x: number, digits = 6) => Math.round(x * 10 ** digits) / 10 ** digits;
