// What a question asks (issue 13 §2): its type (who / when / where / how much / how many / which / why / yes-no…),
// the kind of answer it expects (a person or organisation, a date or time, a place, an amount, a count, an
// identifier, a named thing), the case entities it names (by name, alias, id or identifier property) and its focus —
// the words that say what is asked about them ("cause", "death" in "What was the cause of death of Raymond Dunn?").
// Also: whether a sentence holds a value of the expected answer type that the question does not already give.
// Pure and deterministic; used by the offline answerer, usable by any other.
import nlp from "compromise";
import { dateKeys, extractFacts, idKey, MONTHS, porter, WEEKDAYS, type Facts } from "./facts";
import { boundedMemo } from "./memo";
import { escapeRegExp, isIdLike, isStopword, words } from "./text";
import type { ContextNode, RawContext } from "./types";

export type QuestionKind = "who" | "when" | "where" | "how_much" | "how_many" | "which" | "what" | "why" | "how" | "yes_no" | "other";

/** The kind of value an answer must contain; `any` when the question asks for an explanation or a description. */
export type AnswerType = "agent" | "time" | "place" | "amount" | "count" | "identifier" | "entity" | "role" | "any";

export interface LinkedEntity {
  id: string;
  label: string;
  /** The node's name. */
  name: string;
  /** Lower-cased forms that name it in text: the name, aliases, a person's surname, identifier-like properties. */
  names: string[];
  /** Identifier keys (idKey) of its id-like names and properties: "HBR-4471" and "hbr 4471" meet. */
  idKeys: string[];
  /** The form the question used. */
  matched: string;
}

export interface QuestionAnalysis {
  kind: QuestionKind;
  expects: AnswerType;
  subjects: LinkedEntity[];
  /** Stems of the question's content words that are not part of a name it mentions nor the answer type's own word. */
  focus: string[];
  /**
   * Stems of focus words that qualify rather than name what is asked — adverbs ("actually", "originally"), comparisons
   * ("cheapest", "better"), light verbs ("put in", "came in", "meant to") and vague adjectives ("the real owner"):
   * evidence that answers rarely repeats them.
   */
  weak: string[];
  /** Stems of all of the question's content words. */
  stems: string[];
  /** The facts the question states itself (dates, times, numbers, ids): a value it gives is not an answer to it. */
  given: Facts;
  /** The question's own words, lower-cased, to tell a name it mentions from a name an answer adds. */
  lower: string;
  /** "Which vehicle…" where the case graph has Vehicle nodes: the answer names a node of that label. */
  label?: string;
  /** Stems of the words that qualify what is asked ("firewall rule" in "which firewall rule number"): an answer names them. */
  required: string[];
  /** Months the question names on their own ("the June parcel", "the July entry"), 1–12. */
  months: number[];
  /** The stem of the noun that set the answer type ("value" in "What customs value…"), which a field line names. */
  measure?: string;
  /** Asks for several ("each", "all", "both", "every", "list"): more than one claim may answer. */
  plural: boolean;
  /** Names the question writes with a number ("8 Quarry Lane", "Pier 9"): lower-cased words and the number. */
  numbered: Array<{ phrase: string; number: string }>;
  /** Asks who runs or is behind an organisation it names: its register or a record about it answers, not a passing mention. */
  control: boolean;
  /**
   * The noun that names the kind of thing asked for, when no label of the graph is it and it sets no answer type
   * ("university" in "Which university did he attend?"): a node that answers must say it.
   */
  kindNoun?: string;
  /** Stems of the phrase after "what"/"which" that names the kind of answer asked ("reason", "relationship", "final score"). */
  asksFor: string[];
  /** Stems of the common nouns the question uses ("name" in "Has Pell used any other name?"). */
  nouns: string[];
  /** Places the answer must be other than ("Where did he live before Port Ellery?"), lower-cased. */
  excludedPlaces: string[];
  /** Stems of the verbs in the past that name what happened ("arrested", "paid", "changed"; not "was", "did"). */
  events: string[];
  /** The noun of "date of birth", "time of the arrest": which date is asked for (stem). */
  dated?: string;
}

/** The label of a date of birth, just before the date ("DOB 02/07/2001", "born on 3 May 1990", "Date of birth:"). */
const BIRTH_LABEL = /\b(?:dob|d\.o\.b\.?|born(?:\s+on)?|date\s+of\s+birth|birth\s*date)\s*[:.-]?\s*$/i;

/** Words that ask for a sum of money. */
const MONEY =
  /\b(?:price[sd]?|cost(?:s|ing)?|fees?|paid|pay(?:s|ing|ment|ments)?|worth|spen[dt]|charg(?:e|ed|es|ing)|deposit(?:s|ed)?|invoiced?|bribes?|kickbacks?|salary|wages?|ransom|loans?|debts?|owed?|money|cash|value)\b/;

const PHRASAL_MEANING: Array<[RegExp, string]> = [
  [/^set/i, "established"],
  [/^(?:get|got|gets|getting)/i, "arrived"],
  [/^(?:show|turn)/i, "arrived"],
];
const PHRASAL = /\b(?:set(?:s|ting)? up|(?:get|got|gets|getting) to|(?:show|turn)(?:s|ed|ing)? up)\b/gi;

const ORGANISATION_LABEL = /organi[sz]ation|company|business|firm|corporat/i;
const CONTROL = { runs: "director", behind: "controls" };
const RUNS = /\b(?:runs?|ran|running)\b/gi;
const BEHIND = /\b(?:is|are|was|were)\s+(?:really\s+)?behind\b/gi;

/** A cryptocurrency after a figure ("4 bitcoin", "3.85 BTC"): a sum paid, though no ISO currency names it. */
const CRYPTO_UNIT = /^\s?(?:BTC|XBT|bitcoins?|ETH|ether|XMR|monero|USDT|tether|LTC|litecoin)\b/i;

/** Funds moved: a wire, a remittance, or a transfer to or from an account ("transfer into Tolland's account"). */
const MOVED_FUNDS =
  /\b(?:wire[sd]?|wiring|remit(?:s|ted|tance)?)\b|\btransfer\w*\b(?=.*\b(?:account|bank)s?\b)|\b(?:account|bank)s?\b.*\btransfer/;

/** Verbs whose object is a sum of money. */
const MONEY_VERB =
  /\b(?:charg(?:e|ed|es)|pa(?:y|ys|id)|costs?|spen[dt]|owe[ds]?|earn(?:ed|s)?|(?:sell|sells|sold|go|goes|went)\s+for|fetch(?:ed|es)?)\b/;

/** A month's full name ("may" included), not an abbreviation. */
const isMonthName = (lower: string) => MONTHS[lower] !== undefined && (lower.length > 4 || /^(?:may|june|july)$/.test(lower));
/** The months (1–12) named by these words: "June", "mid-August", "SEP" (an abbreviation in capitals); "May", not "may". */
export function monthsNamed(ws: ReturnType<typeof words>): number[] {
  const out = new Set<number>();
  for (const w of ws) {
    const lower = w.lower.replace(PART_OF, "");
    const full = isMonthName(lower);
    if (!(full ? lower !== "may" || /^M/.test(w.raw) : w.raw === w.raw.toUpperCase() && /\p{L}/u.test(w.raw))) continue;
    if (MONTHS[lower] !== undefined) out.add(MONTHS[lower]);
  }
  return [...out];
}

/** "mid-August", "early-March": a part of a month narrows when as the month does. */
const PART_OF = /^(?:mid|early|late)-/;

/** Words that name the answer type rather than what is asked ("what *time*", "which *person*"). */
const TYPE_WORDS = new Set(
  (
    "time date day hour year month name names person people individual organisation organization company address place location " +
    "amount sum total number count figure value kind type sort morning afternoon evening night midnight noon " +
    // A month or weekday on its own narrows when, like a date the question gives; it is not what is asked about.
    "january february march april may june july august september october november december " +
    "monday tuesday wednesday thursday friday saturday sunday week weekend"
  ).split(" "),
);

/**
 * Type words that are what a question is about when it asks for no type of answer: "What did she say about the
 * count?", "… about the address?" (not "the night", which narrows when).
 */
const TOPIC_WORDS = new Set(["count", "number", "figure", "total", "sum", "amount", "value", "name", "address", "company"]);

const IDENTIFIER_NOUNS =
  /^(?:phone|telephone|mobile|cell|number|plate|registration|account|iban|serial|ip|imei|imsi|device|host|hostname|id|identifier|email|e-mail|handle|hash|domain|url)$/;
const PLACE_NOUNS = /^(?:address|place|location|street|city|town|building|site|venue|bar|club|restaurant|premises|house|flat|room|area)$/;
const TIME_NOUNS = /^(?:time|date|day|hour|year|month|night|morning|evening|when)$/;
/** "What role does Pip Dorrance hold at Tarawhiti?", "What is Delaney's job?": the answer is a role or title. */
const ROLE_NOUNS = /^(?:role|roles|job|jobs|occupation|profession|position)$/;
/** The verbs a question about a role asks it with ("hold", "have"): the evidence states the role, not the verb. */
const ROLE_VERB =
  /^(?:hold|holds|held|holding|have|has|had|play|plays|played|fill|fills|filled|occupy|occupies|occupied|serve|serves|served)$/;
/** "What does Pip Dorrance do at Tarawhiti?", "What did he do for a living?" ask a role too. */
const DOES_FOR_WORK = /^what (?:(?:does|do) .+ do(?: at .+| for .+)?|did .+ do for (?:a living|work))\?*$/;
/** How far (in characters) a role may stand from the name it is the role of. */
const ROLE_REACH = 40;
/**
 * Words that name a role, title or occupation in an organisation or a case ("Director: Phillipa Rose DORRANCE",
 * "Frank Delaney, Port Authority foreman"): what a question about someone's role is answered with.
 */
const ROLE_WORD = new RegExp(
  String.raw`\b(?:(?:managing |executive |non-executive |finance |operations |sales |site |project |general |company |deputy |assistant |vice[- ])?` +
    String.raw`(?:director|president|secretary|treasurer|chair(?:man|woman|person)?|ceo|cfo|coo|cto|owner|co-owner|proprietor|founder|co-founder|` +
    String.raw`partner|shareholder|manager|supervisor|foreman|forewoman|superintendent|officer|chief|head of [a-z]+|team leader|leader|clerk|` +
    String.raw`accountant|bookkeeper|auditor|controller|administrator|coordinator|analyst|engineer|technician|driver|operator|nurse|doctor|` +
    String.raw`pharmacist|surgeon|inspector|constable|detective|sergeant|captain|master|chief mate|mate|bosun|cook|steward|pilot|agent|broker|` +
    String.raw`lawyer|solicitor|barrister|attorney|counsel|trustee|executor|guardian|employee|worker|labourer|laborer|contractor|subcontractor|` +
    String.raw`apprentice|trainee|intern|consultant|advis[eo]r|representative|spokesperson|bartender|barman|guard|receptionist|cashier|courier|` +
    String.raw`dispatcher|planner|scheduler|buyer|landlord|caretaker|scaffolder|plumber|electrician|carpenter|builder|mechanic|teacher|` +
    String.raw`registrar|notary|banker|dealer|trader|importer|exporter|principal|associate|secretary-general)s?)\b`,
  "gi",
);
const AGENT_NOUNS =
  /^(?:person|people|man|woman|individual|suspect|witness|officer|owner|driver|company|organisation|organization|firm|bank|employer|group|gang|user|username|account|login|member)$/;
// A measurement ("the dissolved oxygen level", "the water temperature") is a number too.
const AMOUNT_NOUNS =
  /^(?:amount|sum|total|figure|price|value|cost|fee|payment|salary|wages?|rent|income|earnings|balance|level|reading|concentration|temperature|rate|speed|depth|length|weight|quantity|volume|duration|distance|size|percentage|percent|proportion|ratio|share)$/;

/** Analyses `question` against the nodes of the context it will be answered from. */
export function analyseQuestion(question: string, context: Pick<RawContext, "nodes">): QuestionAnalysis {
  const q = question.normalize("NFKC").trim();
  const lower = q.toLowerCase();
  const ws = words(q);
  const classified = classify(ws.map((w) => w.lower));
  const { kind } = classified;
  let { expects } = classified;
  const head = classified.head;
  // "Which vehicle…": a head noun that names a label of the case graph asks for a node of that label.
  const label = head && (kind === "which" || kind === "what") ? labelNamed(head, context.nodes) : undefined;
  if (label && (expects === "entity" || expects === "any")) expects = "entity";
  const given = extractFacts(q, { claim: true });
  // "What did the courier charge…?", "What was paid for…?": what is asked is a sum of money.
  // (Not when the question gives the sum: "What did Northgate spend $26,500 on?" asks what it bought.)
  if (kind === "what" && expects === "any" && MONEY_VERB.test(lower) && !given.numbers.some((n) => n.kind === "amount")) expects = "amount";
  const subjects = linkEntities(q, context.nodes);
  if (kind === "what" && expects === "any" && DOES_FOR_WORK.test(lower) && subjects.some((e) => isPersonLabel(e.label))) expects = "role";
  // A role is a person's ("the ship's position" is where she was; "the role the company played" is no title).
  const roleless = expects === "role" && !subjects.some((e) => isPersonLabel(e.label));
  if (roleless) expects = "any";
  const typedByHead = classified.typedByHead && !roleless;
  // "account ACC-7731", "the vessel Orion Vale": the kind written before a name it links names that subject too.
  const kindBefore = (s: LinkedEntity) => {
    const at = phraseAt(lower, s.matched);
    return words(s.label).filter((w) => at > 0 && new RegExp(`\\b${escapeRegExp(w.lower)}\\s+$`).test(lower.slice(0, at)));
  };
  const nameStems = new Set(subjects.flatMap((s) => [...s.names.flatMap((n) => words(n)), ...kindBefore(s)].map((w) => porter(w.lower))));
  // Who runs a company is its director; who is behind it, whoever controls it (a register's "person with significant
  // control"). Only of an organisation: "Who ran the red light?" asks something else.
  const ofOrganisation = kind === "who" && subjects.some((s) => ORGANISATION_LABEL.test(s.label));
  const asked = ofOrganisation ? q.replace(RUNS, CONTROL.runs).replace(BEHIND, CONTROL.behind) : q;
  const control = asked !== q;
  // …and the answer says so in its own words: "Director: CHEN, Wei-Ming", not a line of the register's item.
  const controlWords = control ? Object.values(CONTROL).filter((w) => new RegExp(`\\b${w}\\b`).test(asked)) : [];
  // Phrasal verbs say in two light words what evidence says in one ("set up" a company, "got to" the scene).
  const phrased = words(asked.replace(PHRASAL, (m) => PHRASAL_MEANING.find(([re]) => re.test(m))![1]));
  const content = phrased.filter((w) => !isStopword(w.lower) && w.lower.length > 1);
  const stems = [...new Set(content.map((w) => porter(w.lower)))];
  const givenAt = new Set(
    [...given.dates, ...given.times, ...given.numbers, ...given.ids].flatMap((f) => words(f.raw).map((w) => w.lower)),
  );
  const partOfMonth = new Set(phrased.filter((w, i) => /^(?:early|mid|late)$/.test(w.lower) && isMonthName(phrased[i + 1]?.lower ?? "")));
  const focus = [
    ...new Set(
      content
        // "How much … altogether" asks for a sum, as "how much" asks for an amount: the answer type, not a word to match.
        .filter(
          (w) =>
            (!TYPE_WORDS.has(w.lower.replace(PART_OF, "")) || (expects === "any" && TOPIC_WORDS.has(w.lower))) &&
            !givenAt.has(w.lower) &&
            !/^(?:how|much|many|altogether)$/.test(w.lower),
        )
        // "early September": a part of a month narrows when as the month does.
        .filter((w) => !partOfMonth.has(w))
        // The head noun that set the answer type is checked by the type ("which *bar*" wants a place).
        .filter((w) => !(w.lower === head && (label || typedByHead)))
        // "What tool was used to exfiltrate the archive?": what it was used for says what is asked, not "used".
        .filter((w) => !(/^(?:use|used|uses|using)$/.test(w.lower) && phrased[w.index + 1]?.lower === "to"))
        // "What role does she hold?": the verb that asks for a role is not said where the role is.
        .filter((w) => !(expects === "role" && (ROLE_VERB.test(w.lower) || /^(?:living|work)$/.test(w.lower))))
        .map((w) => porter(w.lower))
        .filter((t) => !nameStems.has(t)),
    ),
  ];
  const plural = /\b(?:each|all|both|every|list|which ones)\b/.test(lower);
  const required = [...new Set([...(classified.modifiers ?? []), ...controlWords].map((w) => porter(w)).filter((t) => !nameStems.has(t)))];
  // "How long / often / far …" names the measure asked for ("14 km long" says it; "4 minutes 10 seconds" does not).
  const terms = taggedTerms(q);
  // …and the verb of a relative clause ("the dock where Dunn was found"), which the evidence may not repeat.
  const described = relativeVerb(terms);
  const weak = [
    ...weakWords(terms),
    ...(classified.measure ? [porter(classified.measure)] : []),
    ...(described >= 0 ? [stemOf(terms[described])] : []),
  ].filter((t) => focus.includes(t));
  const measure = typedByHead && head ? porter(head) : undefined;
  // A month of a year ("in November 2023") narrows as a month on its own does.
  const monthsOfYear = given.dates.flatMap((d) => d.readings.flatMap((r) => (r.m !== undefined && r.d === undefined ? [r.m] : [])));
  const months = [...new Set([...monthsNamed(ws.filter((w) => !givenAt.has(w.lower))), ...monthsOfYear])];
  const numbered = numberedNames(q);
  const dated = datedEvent(lower);
  return {
    kind,
    expects,
    subjects,
    focus,
    weak,
    months,
    stems,
    given,
    lower,
    label,
    plural,
    required,
    numbered,
    control,
    events:
      expects === "time"
        ? [...new Set([...eventVerbs(terms, described), ...misreadEvent(terms, nameStems)])]
        : eventVerbs(terms, described),
    asksFor: (classified.typePhrase ?? []).map((w) => porter(w)),
    nouns: terms
      .filter(({ tags = [] }) => tags.includes("Noun") && !tags.some((t) => t === "ProperNoun" || t === "Pronoun" || t === "Verb"))
      .map(stemOf),
    excludedPlaces: expects === "place" ? placesExcluded(lower) : [],
    ...(dated ? { dated } : {}),
    ...(measure ? { measure } : {}),
    // (Only after "which": "what" also heads open questions — "What is his relationship to Voss?")
    ...(head && !label && !typedByHead && kind === "which" && !TYPE_WORDS.has(head) ? { kindNoun: head } : {}),
  };
}

/** "8 Quarry Lane", "Pier 9", "Unit no. 12": capitalised words with a number before or after them (not a date). */
function numberedNames(text: string): QuestionAnalysis["numbered"] {
  const out: QuestionAnalysis["numbered"] = [];
  const name = String.raw`((?:\p{Lu}[\p{L}'’-]*)(?:\s+\p{Lu}[\p{L}'’-]*){0,2})`;
  for (const m of text.matchAll(
    new RegExp(String.raw`(?<![\p{L}\p{N}])(\d+[a-z]?)\s+${name}|${name}\s+(?:no\.?\s*)?(\d+[a-z]?)(?![\p{L}\p{N}])`, "gu"),
  )) {
    const phrase = (m[2] ?? m[3]).toLowerCase();
    const first = words(phrase)[0]?.lower ?? "";
    if (MONTHS[first] !== undefined || WEEKDAYS.has(first)) continue;
    out.push({ phrase, number: (m[1] ?? m[4]).toLowerCase() });
  }
  return out;
}

/** Whether a text names one of the question's numbered names with other numbers only ("4 Quarry Lane" for "8 Quarry Lane"). */
export function namesOtherNumber(lowerText: string, numbered: QuestionAnalysis["numbered"]): boolean {
  return numbered.some(({ phrase, number }) => {
    const seen = numbersBeside(lowerText, phrase);
    return seen.length > 0 && !seen.includes(number);
  });
}

function labelNamed(head: string, nodes: readonly ContextNode[]): string | undefined {
  const h = porter(head);
  return nodes
    .map((n) => n.label)
    .find((l) => porter(l.toLowerCase()) === h || (LABEL_WORDS[l.toLowerCase()] ?? []).some((w) => porter(w) === h));
}

/** Common words for the things graph labels name ("which ships" asks for Vessel nodes). */
const LABEL_WORDS: Record<string, string[]> = {
  vessel: ["ship", "boat", "tanker", "trawler", "yacht"],
  vehicle: ["car", "van", "truck", "lorry", "suv", "motorbike", "motorcycle", "trailer"],
  weapon: ["gun", "firearm", "pistol", "rifle", "knife"],
  phone: ["handset", "mobile", "telephone"],
};

/** How many words open a request for information ("please give me", "list", "tell us"); 0 when none does. */
function requestLength(lw: string[]): number {
  let i = /^(?:please|kindly)$/.test(lw[0] ?? "") ? 1 : 0;
  if (!/^(?:give|tell|show|get|find|provide|list|name|identify|state)$/.test(lw[i] ?? "")) return 0;
  i++;
  return /^(?:me|us)$/.test(lw[i] ?? "") ? i + 1 : i;
}

/** "… before Port Ellery", "other than the marina": a place the answer must be other than. */
function placesExcluded(lower: string): string[] {
  return [
    ...lower.matchAll(
      /\b(?:before|prior to|other than|apart from|besides|except)\s+(?:(?:moving|coming|going)\s+to\s+|living\s+in\s+)?(?:the\s+)?([^,;?]+?)(?=\s*(?:[,;?]|$)|\s+(?:and|or)\s)/g,
    ),
  ]
    .map((m) => m[1].trim())
    .filter((x) => /^\p{L}/u.test(x) && !CALENDAR.test(x));
}

/** Auxiliaries other than "be": after "what"/"which" they make the next noun phrase the clause's subject. */
const AUXILIARY = /^(?:did|does|do|has|have|had|will|would|can|could|should|may|might|must)$/;

function classify(lw: string[]): {
  kind: QuestionKind;
  expects: AnswerType;
  head?: string;
  typedByHead?: boolean;
  modifiers?: string[];
  measure?: string;
  typePhrase?: string[];
} {
  const at = lw.findIndex((w) => WH_WORD.test(w));
  // A request for something ("Give me the full account number …", "List the calls …") asks what it is.
  const request = requestLength(lw);
  if (at < 0 && request && request < lw.length) return classify(["what", "is", ...lw.slice(request)]);
  const first = lw[0] ?? "";
  if (at < 0 || (at > 0 && /^(?:is|was|were|are|did|does|do|has|had|have|can|could|will|would|should)$/.test(first))) {
    return /^(?:is|was|were|are|did|does|do|has|had|have|can|could|will|would|should)$/.test(first)
      ? { kind: "yes_no", expects: "any" }
      : { kind: "other", expects: "any" };
  }
  const wh = lw[at];
  const next = lw.slice(at + 1, at + 4);
  switch (wh) {
    case "who":
    case "whom":
    case "whose":
      return { kind: "who", expects: "agent" };
    case "when":
      return { kind: "when", expects: "time" };
    case "where":
      return { kind: "where", expects: "place" };
    case "why":
      return { kind: "why", expects: "any" };
    case "how":
      if (next[0] === "much") return { kind: "how_much", expects: "amount" };
      if (next[0] === "many") return { kind: "how_many", expects: "count" };
      if (/^(?:long|often|large|big|far|old|fast|quick|quickly|heavy|tall|high|wide|deep|hot|cold|late|early|soon)$/.test(next[0] ?? ""))
        return { kind: "how_much", expects: "amount", measure: next[0] };
      return { kind: "how", expects: "any" };
    default: {
      // which / what: the noun after it (skipping "was the", "is", "kind of"…) says what is expected.
      // The noun phrase after it ("which firewall rule number"): its head is its last word that names an answer type,
      // else its first word; the other words of the phrase must be found beside the answer (required).
      const start = lw.slice(at + 1).findIndex((w) => !isStopword(w) || /^(?:time|date|day)$/.test(w));
      const phrase: string[] = [];
      for (let i = at + 1 + Math.max(start, 0); start >= 0 && i < lw.length && phrase.length < 4; i++) {
        if (isStopword(lw[i]) && !/^(?:time|date|day)$/.test(lw[i])) break;
        phrase.push(lw[i]);
      }
      const typedWords = phrase.filter((w) =>
        [TIME_NOUNS, IDENTIFIER_NOUNS, PLACE_NOUNS, AGENT_NOUNS, AMOUNT_NOUNS, ROLE_NOUNS].some((re) => re.test(w)),
      );
      const head = typedWords[typedWords.length - 1] ?? phrase[0] ?? "";
      const modifiers = phrase.slice(0, phrase.indexOf(head)).filter((w) => !TYPE_WORDS.has(w) && !typedWords.includes(w));
      const kind: QuestionKind = wh === "which" ? "which" : "what";
      // "What reason…", "What is the relationship…": the phrase names the kind of answer, not what it is about — unless an
      // auxiliary makes it the clause's subject ("What did the DFIR report find…").
      const typePhrase = AUXILIARY.test(next[0] ?? "") ? [] : phrase;
      const typed = (expects: AnswerType) => ({ kind, expects, head, typedByHead: true, modifiers, typePhrase });
      if (TIME_NOUNS.test(head)) return typed("time");
      if (IDENTIFIER_NOUNS.test(head)) return typed("identifier");
      if (PLACE_NOUNS.test(head)) return typed("place");
      if (ROLE_NOUNS.test(head)) return typed("role");
      // "Which crew member…": the modifier says what kind of person; the sentence naming them rarely repeats it.
      // "What did the driver tell them?": after an auxiliary other than "be" the person is who acts, not what is asked.
      if (AGENT_NOUNS.test(head))
        return AUXILIARY.test(next[0] ?? "")
          ? { kind, expects: "any", head, modifiers: [], typePhrase }
          : { ...typed("agent"), modifiers: [] };
      if (AMOUNT_NOUNS.test(head)) return typed("amount");
      // "What is the (real) name of the Second Officer?" asks who.
      // The words after "of" say whose name: the sentence that gives it says them too.
      const name = phrase.find((w) => /^names?$/.test(w));
      if (name && lw[lw.indexOf(name) + 1] === "of")
        return { ...typed("agent"), head: name, modifiers: lw.slice(lw.indexOf(name) + 2).filter((w) => !isStopword(w)) };
      return { kind, expects: wh === "which" ? "entity" : "any", head, modifiers, typePhrase };
    }
  }
}

/** Verbs that carry little meaning of their own ("put in a bid", "came in", "was meant to ship", "set up"). */
const LIGHT_VERBS = new Set("be have do put set come go get make take give mean place keep let become bring happen fall turn".split(" "));
/** Their forms the tagger may not read as verbs ("the parcel that turned out…", "when was the scan done"). */
const LIGHT_FORMS = new Set(
  "put puts set sets came comes meant means placed done did made took taken gave given kept became brought happened fell fallen turned".split(
    " ",
  ),
);
/** Adjectives that qualify without naming anything ("the real owner", "the actual price", "so far"). */
const VAGUE = new Set("real actual exact precise whole overall particular specific certain main far behind beyond according".split(" "));

const WH_WORD = /^(?:who|whom|whose|when|where|which|what|why|how)$/;

interface TaggedTerm {
  normal?: string;
  root?: string;
  tags?: string[];
}

/** The question's words with their parts of speech (compromise's tagger, offline). */
function taggedTerms(question: string): TaggedTerm[] {
  const doc = nlp(question);
  doc.compute("root");
  return doc.json().flatMap((s: { terms: TaggedTerm[] }) => s.terms);
}

/** Stems of the question's weak words (QuestionAnalysis.weak), by part of speech. */
function weakWords(terms: TaggedTerm[]): string[] {
  return terms
    .filter(({ normal = "", root, tags = [] }) => {
      if (tags.some((t) => t === "Adverb" || t === "Superlative" || t === "Comparative" || t === "Preposition")) return true;
      if (LIGHT_FORMS.has(normal) || VAGUE.has(normal)) return true;
      return tags.includes("Verb") && LIGHT_VERBS.has(root ?? normal);
    })
    .map(stemOf);
}

const isEvent = ({ normal = "", tags = [] }: TaggedTerm) =>
  tags.includes("Verb") &&
  (tags.includes("PastTense") || tags.includes("Participle")) &&
  !tags.includes("Copula") &&
  !tags.includes("Auxiliary") &&
  !/^(?:did|done|had|been|got|made)$/.test(normal);

/**
 * The verb of a relative clause, which says which thing is meant ("the dry dock where Dunn was found", "the van that
 * was stolen"), not what happened that is asked about; -1 when there is none.
 */
function relativeVerb(terms: TaggedTerm[]): number {
  const asking = terms.findIndex(({ normal = "" }) => WH_WORD.test(normal));
  const relative = terms.findIndex(
    ({ normal = "" }, i) =>
      asking >= 0 &&
      i > asking &&
      (/^(?:where|which|who|whom|whose)$/.test(normal) ||
        (normal === "that" && (terms[i + 1]?.tags ?? []).some((t) => t === "Verb" || t === "Auxiliary" || t === "Copula"))),
  );
  return relative < 0 ? -1 : terms.findIndex((t, i) => i > relative && isEvent(t));
}

/**
 * "When did the beacon on PL-T4471 last report?": after "did", what happened is a verb in its base form, which the tagger
 * sometimes reads as a noun after a name or an adverb ("last report"). When it read no verb there, the event is the last
 * word after "did" that reads as a verb in "they did …", a closing phrase that only places it ("… from the scaffold")
 * aside. (Where the tagger did read a verb — "did Chen send" — nothing is added: the evidence often says it in other
 * words, "hand back" as "give back".)
 */
function misreadEvent(terms: TaggedTerm[], names: ReadonlySet<string>): string[] {
  const aux = terms.findIndex(({ normal = "" }) => normal === "did");
  if (aux < 0) return [];
  let after = terms.slice(aux + 1);
  if (after.some((t) => (t.tags ?? []).includes("Verb"))) return [];
  // Each word is tagged once, however often the loop below looks at it again.
  const tagged = new Map<string, boolean>();
  const readsAsVerb = (w: string) => {
    if (!tagged.has(w)) tagged.set(w, (nlp(`they did ${w}`).json()[0]?.terms?.[2]?.tags ?? []).includes("Verb"));
    return tagged.get(w)!;
  };
  const verbish = (t: TaggedTerm) => {
    const w = (t.normal ?? "").replace(/[^\p{L}-]/gu, "");
    if (w.length < 3 || isStopword(w) || names.has(stemOf(t)) || (t.tags ?? []).some((x) => x === "ProperNoun" || x === "Preposition"))
      return false;
    return readsAsVerb(w);
  };
  for (;;) {
    const p = after.findLastIndex((t) => (t.tags ?? []).includes("Preposition"));
    if (p < 0 || after.slice(p + 1).some(verbish)) break;
    after = after.slice(0, p);
  }
  const verb = after.findLast(verbish);
  return verb && !LIGHT_VERBS.has(verb.normal ?? "") ? [stemOf(verb)] : [];
}

/** Stems of the question's verbs in the past, copulas, auxiliaries and the relative clause's verb (at `described`) aside. */
function eventVerbs(terms: TaggedTerm[], described: number): string[] {
  return terms.filter((t, i) => i !== described && isEvent(t)).map(stemOf);
}

/** "date of birth", "time of the arrest": the noun says which date is asked, as an event verb does. */
function datedEvent(lower: string): string | undefined {
  const m = /\b(?:date|time|day|year|hour)\s+of\s+(?:(?:the|his|her|their|its)\s+)?([a-z-]{3,})/.exec(lower);
  return m && !isStopword(m[1]) ? porter(m[1]) : undefined;
}

const stemOf = (t: TaggedTerm) => porter((t.normal ?? "").replace(/[^\p{L}\p{N}-]/gu, ""));

/** A month or weekday: "on Monday" and "in March" say when, not where. */
const CALENDAR =
  /^(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/i;

/**
 * Whether the words of a name, where the question says them, run on into a capitalised word the name does not have
 * ("Harbor Road" is not "Harbor Kings", "Marchetti Street" not Victor Marchetti) — the question names something else.
 * A possessive ("Marchetti's BMW") or any other word after it ("the Marchetti BMW") does not count, nor does a word
 * before it (a first name the graph does not hold: "Tom Delahunt" for Thomas Delahunt).
 */
function partOfOtherName(question: string, matched: string, nameWords: readonly string[]): boolean {
  const at = phraseAt(question.toLowerCase(), matched);
  if (at < 0) return false;
  const after = /^\s+(\p{Lu}[\p{L}-]*)/u.exec(question.slice(at + matched.length))?.[1];
  return after !== undefined && NAME_HEAD.test(after) && !nameWords.includes(after.toLowerCase());
}
/** Words that end the name of a street, a place or a firm ("Harbor Road", "Kovac Holdings"), not a person's. */
const NAME_HEAD =
  /^(?:Street|St|Lane|Ln|Road|Rd|Row|Avenue|Ave|Drive|Dr|Way|Close|Court|Place|Square|Boulevard|Blvd|Terrace|Crescent|Quay|Dock|Pier|Wharf|Park|Bridge|Hill|Bay|Point|Harbor|Harbour|Port|Station|Airport|Hotel|House|Hall|Centre|Center|Estate|Market|Ltd|Limited|LLC|Inc|Holdings|Group|Company|Co|Corp|Trust|Partners|Associates|Bank|School|Hospital|Clinic|Church)$/;

/** Context nodes the question names: by id, whole name, alias, most words of the name, or an identifier it carries. */
export function linkEntities(question: string, nodes: readonly ContextNode[]): LinkedEntity[] {
  const lower = question.toLowerCase();
  const qWords = words(question);
  const qLower = new Set(qWords.filter((w) => !isStopword(w.lower)).map((w) => w.lower));
  const qIdKeys = new Set([
    ...qWords.filter((w) => isIdLike(w.raw)).map((w) => idKey(w.raw)),
    ...extractFacts(question, { claim: true }).ids.map((f) => f.key),
  ]);
  // Strength: 3 a name or alias as written, 2 the node's own id or identifier, 1 an identifier inside its name
  // ("Beaconing from WS-FIN-0231" for WS-FIN-0231), or most words of its name. A weak link stands only when no
  // stronger one shares what matched.
  const found: Array<LinkedEntity & { strength: number; key: string; alias?: boolean }> = [];
  for (const node of nodes) {
    const forms = namesOf(node);
    const idKeys = linkKeys(node);
    const own = new Set([idKey(node.id), idKey(node.name), ...propertyIds(node).map(idKey)]);
    const ownWords = words(node.name).map((w) => w.lower);
    // (A one-word form — a surname, an alias, not an id — that runs on into another name is not this one: "Marchetti
    // Street".)
    const name = forms.names.find(
      (f) => f.length > 2 && containsPhrase(lower, f) && (!/^\p{L}+$/u.test(f) || !partOfOtherName(question, f, ownWords)),
    );
    const key = idKeys.find((k) => qIdKeys.has(k));
    // `alias`: the form matched is a name the node goes by in text though its names do not list it (a first name).
    let hit: { matched: string; strength: number; key: string; alias?: boolean } | null = null;
    if (name) hit = { matched: name, strength: 3, key: idKey(name) };
    else if (key) hit = { matched: key, strength: own.has(key) ? 2 : 1, key };
    else {
      // Most of the words of a multi-word name ("Kovac" for "Dmitri Kovac", "Bayline" for "Bayline Seafood Co.").
      const nameWords = words(node.name)
        .map((w) => w.lower)
        .filter((w) => !isStopword(w) && w.length > 2);
      const hits = nameWords.filter((w) => qLower.has(w));
      const capitalisedHit = hits.some((h) => qWords.some((w) => w.lower === h && w.capitalised));
      // The words must stand together in the question ("Aurelia Crest", not "oil … Aurelia Crest" for "Oil Record
      // Book, MV Aurelia Crest"); a last word alone names a person by surname, not an event by its place.
      const together = hits.length > 0 && containsPhrase(lower, hits.join(" "));
      const surname = isPersonLabel(node.label) && hits.includes(nameWords[nameWords.length - 1]);
      // A first name alone names a person only when no other person in the context has it ("Gavin's business
      // partner"; "Lydia" with Lydia Dunn and Lydia Marsh both in the case names neither).
      const byFirstName = isPersonLabel(node.label) && hits.length === 1 && hits[0] === nameWords[0] && nameWords.length > 1 && !surname;
      const firstName = byFirstName && !nodes.some((o) => o !== node && isPersonLabel(o.label) && words(o.name)[0]?.lower === hits[0]);
      if (byFirstName && !firstName) hits.length = 0;
      if (
        hits.length &&
        capitalisedHit &&
        together &&
        (hits.length / nameWords.length >= 0.5 || surname || firstName) &&
        !partOfOtherName(question, hits.join(" "), nameWords)
      ) {
        hit = { matched: hits.join(" "), strength: 1, key: hits.join(" "), alias: firstName };
      }
    }
    if (hit && !otherNumber(lower, hit.matched, [node.name.toLowerCase(), ...forms.names]))
      found.push({
        id: node.id,
        label: node.label,
        name: node.name,
        names: [...new Set([...forms.names, ...(hit.alias ? [hit.matched] : [])])],
        idKeys,
        ...hit,
      });
  }
  return found
    .filter((f) => f.strength > 1 || !found.some((g) => g.strength > f.strength && (g.key === f.key || g.matched.includes(f.matched))))
    .filter((f) => !found.some((g) => g.matched.length > f.matched.length && containsPhrase(g.matched, f.matched)))
    .map(({ strength: _s, key: _k, alias: _a, ...e }) => e);
}

/**
 * "8 Quarry Lane" is not "4 Quarry Lane", nor "Pier 9" "Pier 7": the question writes a number beside the words it
 * matched, and the node's names write those words only with other numbers.
 */
function otherNumber(lowerQuestion: string, matched: string, nodeNames: string[]): boolean {
  const asked = numbersBeside(lowerQuestion, matched);
  if (!asked.length) return false;
  const known = nodeNames.flatMap((n) => numbersBeside(n, matched));
  return known.length > 0 && !asked.some((n) => known.includes(n));
}

/** The numbers written just before or after a phrase ("8" in "8 quarry lane", "9" in "pier 9", "pier no. 9"). */
function numbersBeside(lowerText: string, phrase: string): string[] {
  const p = escapeRegExp(phrase).replace(/\s+/g, "\\s+");
  // (Not the end of a time, a date or a decimal: "05:50 Unit 7 arrived" names Unit 7 only.)
  const re = new RegExp(
    String.raw`(?<![\p{L}\p{N}:.,/-])(\d+[a-z]?)\s+${p}(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])${p}\s+(?:no\.?\s*)?(\d+[a-z]?)(?![\p{L}\p{N}])`,
    "gu",
  );
  return [...lowerText.matchAll(re)].map((m) => m[1] ?? m[2]);
}

/** Identifier-like property values (plate, serial, phone…), not identifiers mentioned in its name. */
function propertyIds(node: ContextNode): string[] {
  const name = words(node.name).map((w) => w.raw);
  return namesOf(node).ids.filter((id) => !name.includes(id));
}

/** Identifier keys of a node: its id, and its identifier-like name words and properties. */
function linkKeys(node: ContextNode): string[] {
  return [...new Set([node.id, ...namesOf(node).ids].map(idKey).filter((k) => k.length >= 4))];
}

/** The lower-cased names a node goes by in text, and its identifier-like values. */
export function namesOf(node: ContextNode): { names: string[]; ids: string[] } {
  const names = new Set<string>([node.name.toLowerCase()]);
  const ids: string[] = [];
  for (const [key, value] of Object.entries(node.properties)) {
    const values = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === "string");
    if (/^(?:aliases?|aka|nicknames?|also_?known_?as|names?|handle)$/i.test(key)) values.forEach((v) => names.add(v.toLowerCase()));
    else if (/^(?:plate|registration|vin|serial|number|phone|msisdn|imei|account|iban|ip|hostname|host|email|domain|handle)$/i.test(key))
      values.forEach((v) => ids.push(v));
  }
  if (isPersonLabel(node.label)) {
    const parts = words(node.name).filter((w) => w.capitalised);
    const surname = parts.length > 1 ? parts[parts.length - 1].lower : "";
    if (surname.length > 3) names.add(surname);
  }
  for (const w of words(node.name)) if (/\d/.test(w.raw) && /[\p{L}\-:_./@#+]/u.test(w.raw)) ids.push(w.raw);
  return { names: [...names].filter((n) => n.length > 1), ids };
}

/** Agents that have a name of their own: people and organisations, not accounts or user ids. */
const NAME_HOLDER_LABEL = /person|people|suspect|victim|witness|officer|organi[sz]ation|company|business|bank|group|gang|agency/i;
export const AGENT_LABEL = new RegExp(`${NAME_HOLDER_LABEL.source}|user|account`, "i");
/** Labels of the nodes that are places: where something happened or someone lives. */
export const PLACE_LABEL = /location|place|address|site|building|premises|venue|area|city|street|country|region|zone|\bport\b/i;
export const isPersonLabel = (label: string) => /person|people|suspect|victim|witness|officer/i.test(label);

/** Words before a surname that do not make it someone else's ("Mr Pruitt", "Det. Reyes", "uncle Pruitt"). */
const TITLES =
  /^(?:mr|mrs|ms|miss|mx|dr|sir|dame|det|detective|officer|sgt|sergeant|lt|lieutenant|capt|captain|insp|inspector|pc|dc|ds|di|prof|judge|agent|chief|constable|uncle|aunt|dear)$/;

/**
 * Whether `text` names the linked entity. A person's surname alone does not where a different given name stands
 * before every occurrence of it: "CONNOR PRUITT: …" is not Darren Pruitt.
 */
export function mentions(e: Pick<LinkedEntity, "name" | "names" | "label">, text: string): boolean {
  const lower = text.toLowerCase();
  // Given and middle names, and their initials ("E C NWOSU" is Emeka Chukwudi Nwosu).
  const given = e.name.toLowerCase().split(/\s+/).slice(0, -1);
  return e.names.some((n) => {
    if (!containsPhrase(lower, n)) return false;
    if (n.includes(" ") || !isPersonLabel(e.label) || !e.name.toLowerCase().endsWith(` ${n}`)) return true;
    for (let i = lower.indexOf(n); i >= 0; i = lower.indexOf(n, i + 1)) {
      if (!standsAlone(lower, n, i)) continue;
      // The capitalised words just before the surname: another given name is another person ("Connor PRUITT" for
      // Darren Pruitt), unless one of them is the subject's ("Phillipa Rose DORRANCE": a middle name between).
      const run = (/(?:[\p{L}][\p{L}'’-]*\.?\s+){1,3}$/u.exec(text.slice(Math.max(0, i - 40), i))?.[0] ?? "").trim().split(/\s+/);
      const givenBefore: string[] = [];
      for (const raw of run.reverse()) {
        const word = raw.replace(/\.$/, "").toLowerCase();
        if (!/^\p{Lu}/u.test(raw) || isStopword(word) || TITLES.test(word)) break;
        givenBefore.push(word);
      }
      const ownGiven = (word: string) => given.some((g) => g === word || (word.length === 1 && g.startsWith(word)));
      if (!givenBefore.length || givenBefore.some(ownGiven)) return true;
    }
    return false;
  });
}

/** `phrase` as whole words in `lowerText`. */
export function containsPhrase(lowerText: string, phrase: string): boolean {
  return phraseAt(lowerText, phrase) >= 0;
}

/** Whether `phrase` stands as whole words in `lowerText` within `reach` characters of position `at`. */
function phraseNear(lowerText: string, phrase: string, at: number, reach: number): boolean {
  for (let i = lowerText.indexOf(phrase); i >= 0; i = lowerText.indexOf(phrase, i + 1))
    if (standsAlone(lowerText, phrase, i) && (i >= at ? i - at : at - (i + phrase.length)) <= reach) return true;
  return false;
}

/** Whether `phrase`, found at `i` in `lowerText`, stands there as whole words (no letter or digit either side). */
function standsAlone(lowerText: string, phrase: string, i: number): boolean {
  return !/[\p{L}\p{N}]/u.test(lowerText[i - 1] ?? " ") && !/[\p{L}\p{N}]/u.test(lowerText[i + phrase.length] ?? " ");
}

/** Where `phrase` first stands as whole words in `lowerText`; -1 when it does not. */
export function phraseAt(lowerText: string, phrase: string): number {
  return phrasesAt(lowerText, phrase, 1)[0] ?? -1;
}

/** Where `phrase` stands alone in `lowerText`, every place (at most `max`). */
export function phrasesAt(lowerText: string, phrase: string, max = Infinity): number[] {
  const out: number[] = [];
  if (!phrase) return out;
  for (let i = lowerText.indexOf(phrase); i >= 0 && out.length < max; i = lowerText.indexOf(phrase, i + 1))
    if (standsAlone(lowerText, phrase, i)) out.push(i);
  return out;
}

const ADDRESS_NOUN = porter("address");
/** A street address: a house number, one to three capitalised words and the kind of street ("415 Wrenfield Road"). */
const ADDRESS =
  /\b\d+[A-Za-z]?\s+(?:[A-Z][\p{L}'-]+\s+){1,3}(?:Street|St|Lane|Ln|Road|Rd|Row|Avenue|Ave|Drive|Dr|Way|Quay|Dock|Boulevard|Blvd|Court|Ct|Place|Pl|Square|Terrace|Parade|Close|Crescent)\b/gu;
/** The same, in any case (a node's names are lower-cased). */
const ANY_ADDRESS = new RegExp(ADDRESS.source, "iu");

export interface AnswerValue {
  type: AnswerType;
  /** The value as written in the sentence. */
  raw: string;
}

/**
 * Values of the expected type that `sentence` holds and the question does not already give — what would answer it.
 * `nodes` lets names of people, organisations and places count as such.
 */
export function answerValues(
  sentence: string,
  facts: Facts,
  a: QuestionAnalysis,
  nodes: readonly ContextNode[],
  /** Who tells the sentence in the first person ("I found an ad for a … Associate"), when a subject does. */
  told?: LinkedEntity,
): AnswerValue[] {
  const lower = sentence.toLowerCase();
  const givenDates = new Set(a.given.dates.flatMap((d) => d.readings.flatMap(dateKeys)));
  const givenTimes = new Set(a.given.times.map((t) => t.minutes));
  const givenNumbers = new Set(a.given.numbers.map((n) => n.value));
  const givenIds = new Set(a.given.ids.map((i) => i.key));
  const newName = (name: string) => name.length > 2 && containsPhrase(lower, name) && !containsPhrase(a.lower, name);
  const nodesLike = (re: RegExp) =>
    nodes
      .filter((n) => re.test(n.label))
      .flatMap((n) =>
        namesOf(n)
          .names.filter(newName)
          .map((raw) => ({ type: a.expects, raw })),
      );
  switch (a.expects) {
    case "any":
      return [{ type: "any", raw: "" }];
    case "role": {
      // A role beside the person asked about ("Director: Phillipa Rose DORRANCE", "signed by Pip Dorrance, Director"),
      // not another person's in the same line.
      const people = a.subjects.filter((e) => isPersonLabel(e.label));
      const near = (at: number) =>
        (told !== undefined && people.includes(told)) ||
        people.some((e) => e.names.some((n) => n.length > 2 && phraseNear(lower, n, at, ROLE_REACH)));
      return [...sentence.matchAll(ROLE_WORD)]
        .filter((m) => !a.lower.includes(m[0].toLowerCase()) && near(m.index))
        .map((m) => ({ type: "role", raw: m[0] }));
    }
    case "time": {
      const times = facts.times.filter((t) => !givenTimes.has(t.minutes)).map((t) => t.raw);
      // A date of birth dates nothing else: "Deceased: Jayden TUHORO, DOB 02/07/2001" does not say when he fell.
      const birthAsked = /\b(?:born|birth|birthday|dob|age|aged|old)\b/.test(a.lower);
      const dates = facts.dates
        .filter((d) => !d.readings.flatMap(dateKeys).some((k) => givenDates.has(k)))
        .filter((d) => birthAsked || !BIRTH_LABEL.test(sentence.slice(Math.max(0, d.at - 24), d.at)))
        .map((d) => d.raw);
      // "What time…" wants a time of day; "when" or "what date" takes either.
      const wantsClock = /\bwhat time\b|\bat what time\b/.test(a.lower);
      // Spoken forms count too: "Friday the 11th, around nine", "that night", "at noon".
      const spoken = [
        ...sentence.matchAll(
          /\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|the \d{1,2}(?:st|nd|rd|th)|(?:at|around|about|before|after) (?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|noon|midnight)|(?:last|that) (?:night|morning|evening|week))\b/giu,
        ),
      ]
        .map((m) => m[0])
        .filter((x) => !a.lower.includes(x.toLowerCase()));
      return (wantsClock ? times : [...dates, ...times, ...spoken]).map((raw) => ({ type: "time", raw }));
    }
    case "amount": {
      // A question about money ("What price…", "How much was paid…") is answered by a sum of money, not by how many
      // of something there were ("300 bicycles"): a currency, or a figure written in thousands.
      const money = MONEY.test(a.lower) || MOVED_FUNDS.test(a.lower);
      return facts.numbers
        .filter(
          (n) => !givenNumbers.has(n.value) && (n.kind !== "number" || !(n.value >= 1900 && n.value <= 2100 && Number.isInteger(n.value))),
        )
        .filter(
          (n) =>
            !money ||
            n.kind === "amount" ||
            (n.kind === "number" && (/\d,\d{3}/.test(n.raw) || CRYPTO_UNIT.test(sentence.slice(n.at + n.raw.length)))),
        )
        .map((n) => ({ type: "amount", raw: n.raw }));
    }
    case "count": {
      // A house number counts nothing ("415 Wrenfield Road").
      const housed = new Set([...sentence.matchAll(ADDRESS)].map((m) => m.index));
      return facts.numbers
        .filter((n) => n.kind === "number" && !givenNumbers.has(n.value) && !housed.has(n.at))
        .map((n) => ({ type: "count", raw: n.raw }));
    }
    case "identifier":
      return [
        ...facts.ids.filter((i) => !givenIds.has(i.key)).map((i) => ({ type: "identifier" as const, raw: i.raw })),
        // A run of eight or more digits is a number that identifies (an IMEI, an account number), not a quantity.
        ...facts.numbers
          .filter((n) => n.kind === "number" && /^\d{8,}$/.test(n.raw) && !givenNumbers.has(n.value))
          .map((n) => ({ type: "identifier" as const, raw: n.raw })),
      ];
    case "place": {
      const places = nodesLike(PLACE_LABEL);
      const addresses = [...sentence.matchAll(ADDRESS)].map((m) => m[0]).filter((x) => !a.lower.includes(x.toLowerCase()));
      // "in the Pier 9 office", "at Gate C": a locative preposition before a capitalised name, with its place noun.
      const located = [
        ...sentence.matchAll(
          /\b(?:at|in|on|near|inside|outside|behind|beside|under|into|from|to)\s+(?:the\s+)?((?:\p{Lu}[\p{L}'’-]*|\d+[A-Za-z]?)(?:\s+(?:\p{Lu}[\p{L}'’-]*|\d+[A-Za-z]?))*(?:\s+(?:office|room|warehouse|building|house|flat|apartment|street|lane|road|dock|pier|bar|garage|yard|store|shop|station|port|harbour|harbor|hotel|bank|restaurant|gate|lot|depot))?)/gu,
        ),
      ]
        .map((m) => m[1])
        .filter((x) => /\p{Lu}/u.test(x[0]) && !CALENDAR.test(x) && newName(x.toLowerCase()));
      // "found wrapped in rags behind the auxiliary boiler feed tank": where a thing is, said in common nouns.
      const spatial = [
        ...sentence.matchAll(
          /\b(?:behind|beneath|underneath|under|inside|beside|next to|on top of|at the back of|at the bottom of|in the back of)\s+(?:the|a|an|his|her|their|its)\s+((?:[\p{L}-]+\s+){0,4}[\p{L}-]+)/giu,
        ),
      ]
        .map((m) => m[0])
        .filter((x) => newName(x.toLowerCase()));
      // "Where did he live before Port Ellery?": an address in Port Ellery ("1840 Whitmore Ave, Apt 3B, Port Ellery") is
      // where he lives now — the place with the rest of its clause.
      const withTown = (raw: string) => {
        const at = lower.indexOf(raw.toLowerCase());
        return at < 0 ? raw.toLowerCase() : lower.slice(at, at + raw.length + 60).split(/[.;]|\s(?:and|but|since|until|from)\s/)[0];
      };
      const elsewhere = (values: AnswerValue[]) => values.filter((v) => !a.excludedPlaces.some((x) => containsPhrase(withTown(v.raw), x)));
      // "What address does Northgate give?": a street address, not any place a sentence names ("from Harbor National").
      if (a.measure === ADDRESS_NOUN)
        return elsewhere([...places.filter((p) => ANY_ADDRESS.test(p.raw)), ...addresses.map((raw) => ({ type: "place" as const, raw }))]);
      return elsewhere([...places, ...[...addresses, ...located, ...spatial].map((raw) => ({ type: "place" as const, raw }))]);
    }
    case "agent": {
      // "Whose name is on the account?", "In what name was it booked?": a person's or organisation's name, not an
      // account or user id (which answer "Which account logged on…?").
      const asksName = /\b(?:whose|what|which)\s+names?\b/.test(a.lower);
      const agents = nodesLike(asksName ? NAME_HOLDER_LABEL : AGENT_LABEL);
      // Names the case graph does not hold count too ("the fitter, Marlon Cruz"); a source's facts carry none.
      const entities = facts.entities.length ? facts.entities : extractFacts(sentence, { properNouns: properNounsOf(nodes) }).entities;
      // Not a place, a vessel or a thing the graph knows by that name, nor a place by its form; one word only when
      // the graph knows it as part of a person's name ("Gareth told me…").
      const others = otherNamesOf(nodes);
      // A name this sentence adds that the graph does not hold as a place, a vessel or a thing.
      const unknownName = (raw: string) => newName(raw) && !others.has(raw);
      const people = personWordsOf(nodes);
      // A name the graph does not know ("Silver Toyota Camry" reads like one) counts when written as a person's is:
      // after a title or as an apposition to a role ("the fitter, Marlon Cruz").
      const introduced = (at: number) =>
        /(?:\b(?:[Mm]r|[Mm]rs|[Mm]s|[Mm]x|[Dd]r|[Ss]ir)\.?|\b\p{Ll}[\p{Ll}-]+,|\b\p{Lu}\p{Ll}*(?:er|or|ist|ian|ant|ent|man|woman|chief|master),)\s*$/u.test(
          sentence.slice(Math.max(0, at - 30), at),
        );
      const named = entities
        .filter((e) => e.tokens.some((t) => people.has(t)) || (e.tokens.length >= 2 && introduced(e.at)) || TITLED_NAME.test(e.raw))
        .filter((e) => !e.tokens.some((t) => PLACE_WORDS.test(t)))
        .map((e) => e.raw.toLowerCase())
        .filter(unknownName);
      // "diver M. Okoro recovers …": an initial and a surname are written only of a person — who answers "who …?", not
      // "which patient …?"; nor does a record's author in brackets ("Note (J. Tarrant): …").
      const initialled = [...(a.kind === "who" ? sentence.matchAll(INITIALLED) : [])].map((m) => m[0].toLowerCase()).filter(unknownName);
      // "Which ransomware group claimed it?": a name written with the noun asked for ("the note identifies the attackers as
      // the BLACKWELT group"), though the graph does not hold it.
      const kindNamed = (a.measure ? namedWithNoun(sentence, a.lower, a.measure) : []).filter(unknownName);
      // "Who called +1-555-0888?": about a number or an account, the answer is the other number or account — not when
      // the question asks for a name ("Whose name is on the account that received it?").
      const ids =
        a.subjects.some((e) => /^\S+$/.test(e.name) && /\d/.test(e.name)) && !asksName
          ? facts.ids.filter((i) => !givenIds.has(i.key)).map((i) => i.raw)
          : [];
      // Who the question is about is not who answers it; a transcript's speaker answers "who" only when speaking of
      // what they did themselves ("VILLAFLOR: I did."), not of what they do not know or of someone else.
      // A subject named by an alias ("Who goes by Spider?") or by a surname another person shares is not excluded.
      const subjectNames = new Set(
        a.subjects
          .filter((e) => e.matched === e.name.toLowerCase() || (e.matched.includes(" ") && e.name.toLowerCase().includes(e.matched)))
          .flatMap((e) => e.names),
      );
      const speaker = /^\s*([\p{Lu}][\p{Lu}\p{M}.' -]{0,40}?):\s+(.*)$/u.exec(sentence);
      const self = speaker && /^(?:(?:yes|yeah|yep),?\s+)?(?:I|we|me|myself|us)\b/i.test(speaker[2]) && !hasNegation(speaker[2]);
      const label = speaker && !self ? speaker[1].toLowerCase() : null;
      const utterance = speaker ? speaker[2].toLowerCase() : lower;
      // "The Chief told me to", "the Second bolted it": a crew member or officer named by rank.
      const ranks = [...sentence.matchAll(RANK)].map((m) => m[1].toLowerCase()).filter(newName);
      const answers = (raw: string) => !subjectNames.has(raw) && !(label && containsPhrase(label, raw) && !containsPhrase(utterance, raw));
      return [
        ...agents,
        ...[...named, ...initialled, ...kindNamed, ...ids, ...ranks].map((raw) => ({ type: "agent" as const, raw })),
      ].filter((v) => answers(v.raw));
    }
    case "entity": {
      if (a.label) {
        const ids = new Set(facts.ids.map((i) => i.key));
        return nodes
          .filter((n) => n.label === a.label)
          .filter((n) => namesOf(n).names.some(newName) || linkKeys(n).some((k) => ids.has(k) && !givenIds.has(k)))
          .map((n) => ({ type: "entity" as const, raw: n.name }));
      }
      const any = nodes.flatMap((n) => namesOf(n).names.filter(newName));
      const named = facts.entities.map((e) => e.raw.toLowerCase()).filter(newName);
      const ids = facts.ids.filter((i) => !givenIds.has(i.key)).map((i) => i.raw);
      return [...any, ...named, ...ids].map((raw) => ({ type: "entity", raw }));
    }
  }
}

const RANK =
  /\b[Tt]he\s+((?:Chief|Master|Captain|Skipper|Bosun|Foreman|Supervisor|Manager|Director|Sergeant|Inspector|Superintendent|Commander|Second|Third|First)(?:\s+(?:Engineer|Officer|Mate))?)\b/gu;

/**
 * Names a sentence writes with the noun (stem `noun`) a question uses for what it asks: "the BLACKWELT group", "a crew
 * known as the Ravens" — lower-cased, without the article.
 */
function namedWithNoun(sentence: string, question: string, noun: string): string[] {
  const patterns = nounPatterns(question, noun);
  if (!patterns) return [];
  return [...sentence.matchAll(patterns.before), ...sentence.matchAll(patterns.after)]
    .map((m) => m[1].replace(/^(?:The|A|An)\s+/, "").toLowerCase())
    .filter((raw) => raw.length > 1 && !isStopword(raw));
}

/** The patterns of `namedWithNoun`, built once per question (every sentence of the context is read with them). */
const nounPatternMemo = boundedMemo<{ before: RegExp; after: RegExp } | null>(1000);
function nounPatterns(question: string, noun: string): { before: RegExp; after: RegExp } | null {
  return nounPatternMemo(`${noun}\u0000${question}`, () => buildNounPatterns(question, noun));
}
function buildNounPatterns(question: string, noun: string): { before: RegExp; after: RegExp } | null {
  const forms = [
    ...new Set(
      words(question)
        .filter((w) => porter(w.lower) === noun)
        .map((w) => w.lower),
    ),
  ];
  const nounRe = forms.map((f) => `[${f[0].toUpperCase()}${f[0]}]${escapeRegExp(f.slice(1))}s?`).join("|");
  const NAME = String.raw`\p{Lu}[\p{L}\p{N}&'’-]*(?:\s+\p{Lu}[\p{L}\p{N}&'’-]*){0,2}`;
  return forms.length
    ? {
        before: new RegExp(String.raw`(?<![\p{L}\p{N}])(${NAME})\s+(?:${nounRe})\b`, "gu"),
        after: new RegExp(String.raw`\b(?:${nounRe})\s+(?:called|named|known as)\s+(?:the\s+)?(${NAME})`, "gu"),
      }
    : null;
}

/** An initial and a surname: "M. Okoro". */
const INITIALLED = /(?<![\p{L}.(])\p{Lu}\.\s?\p{Lu}\p{Ll}[\p{Ll}'’-]*\b/gu;
/** A role or rank, then a given name and a surname: "Oiler Joel Macaraeg", "Chief Engineer Dragan Petrović", "Lt Cdr Nils Halvorsen". */
const TITLED_NAME =
  /^(?:(?:Chief|Senior|Junior|Second|Third|First|Lt|Lieutenant)\s+)?(?:\p{Lu}\p{Ll}+(?:er|or|ist|ian|ant|ent|man|woman)|Captain|Master|Cdr|Capt|Sgt|Det|Insp|Supt|DC|DS|DI|PC|Prof)\s+\p{Lu}[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]+){1,2}$/u;

const hasNegation = (text: string) => /\b(?:not|never|no|nobody|none)\b|n['’]t\b/i.test(text);

/** Words that make a name a place's or a document's ("Quarry Lane Industrial Estate", "MARPOL Annex I"). */
const PLACE_WORDS =
  /^(?:street|st|lane|road|rd|avenue|ave|drive|way|quay|dock|estate|park|industrial|unit|bridge|creek|river|harbour|harbor|port|bay|cape|island|annex|article|section|report|form|register|book|code)$/;

/** A word set computed once per context's node list (the same nodes are read for every sentence). */
function perNodes(of: (nodes: readonly ContextNode[]) => string[]): (nodes: readonly ContextNode[]) => ReadonlySet<string> {
  const memo = new WeakMap<readonly ContextNode[], ReadonlySet<string>>();
  return (nodes) => {
    let set = memo.get(nodes);
    if (!set) memo.set(nodes, (set = new Set(of(nodes))));
    return set;
  };
}

/** Names of nodes that are not people or organisations (places, vessels, things, events). */
const otherNamesOf = perNodes((nodes) => nodes.filter((n) => !AGENT_LABEL.test(n.label)).flatMap((n) => namesOf(n).names));

/** Lower-cased words of people's names in the graph. */
const personWordsOf = perNodes((nodes) => nodes.filter((n) => isPersonLabel(n.label)).flatMap((n) => words(n.name).map((w) => w.lower)));

/** Lower-cased words of the context's node names: a sentence-initial one is a name ("Gareth told me…"). */
const properNounsOf = perNodes((nodes) =>
  nodes.flatMap((n) => namesOf(n).names.flatMap((name) => words(name).map((w) => w.lower))).filter((w) => !isStopword(w)),
);

/** How the expected answer type reads in a sentence ("a date or time"). */
export function describeAnswerType(t: AnswerType): string {
  return {
    agent: "a person or organisation",
    time: "a date or time",
    place: "a place",
    amount: "an amount",
    count: "a count",
    identifier: "an identifier",
    role: "a role or position",
    entity: "which one",
    any: "an answer",
  }[t];
}
