// Follow-up questions in a thread (issue 18). Pure and deterministic: no I/O, no model.
//
// - What a turn was about, as ids: the entities its question named (subjects) and the entities its answer named or its
//   steps cited (answers), and the evidence and relationships it cited (`turnMentions`). The thread keeps these ids,
//   never context text, and every later turn re-checks them through the policy gate before using them.
// - Rewriting a follow-up (`resolveFollowUp`): pronouns ("he", "her", "they", "it") and references such as "that
//   number", "the company", "this car" are replaced by the name of the entity an earlier turn cited that fits them —
//   the most recent turn first, in it what the answer named before what the question named. Only entities the asker
//   may see now are candidates. The offline answerer reads the rewritten question; retrieval seeds from it for every
//   model.
// - Re-filtering an earlier turn (`refilterAnswer`): claims, steps and unknowns that rest on anything the asker can no
//   longer see are replaced by "no longer visible to you" — for the thread view and for the conversation a generative
//   model is shown.
// - Bounding the conversation (`boundConversation`): the last N turns within a token budget; what the bound cut is
//   reported as an unknown.
import { stripMarkers } from "./claims";
import { containsPhrase, linkEntities, namesOf, PLACE_LABEL } from "./question";
import type { Answer, ContextNode, RawContext } from "./types";
import { escapeRegExp } from "./text";

/** What replaces anything of an earlier turn the asker can no longer see. */
export const NO_LONGER_VISIBLE = "no longer visible to you";

/** The conversation bound: how many earlier turns, and how many tokens of them, a follow-up may draw on. */
export interface ConversationLimits {
  maxTurns: number;
  tokenBudget: number;
}

export const DEFAULT_CONVERSATION_LIMITS: ConversationLimits = { maxTurns: 5, tokenBudget: 2_000 };

/** An earlier turn as the rewriting sees it: only entities that passed the policy gate for this request. */
export interface PriorTurn {
  turn: number;
  /** The entities its question named, in the question's order. */
  subjects: ContextNode[];
  /** The entities its answer's claims named, in the answer's order; none of the subjects. */
  answers: ContextNode[];
  /** Further entities its explanation steps cited (named by neither the question nor the claims). */
  cited?: ContextNode[];
  /**
   * The entities its own references were read as (it was a follow-up too): the thread's topic. A pronoun keeps to the
   * topic ("Who called him?" → "Where was his car found?": still him), before what the answer named.
   */
  topics?: ContextNode[];
  /**
   * Its question as asked (none when only hashes are kept): the things it names in common nouns ("the rails and
   * planks") are what a later "them" means, though no entity of the graph is them.
   */
  question?: string | null;
  /** Whether its answer gave anything (false: it found nothing, or was refused); undefined when not known. */
  answered?: boolean;
}

export interface FollowUpReference {
  /** The words of the follow-up that were replaced ("he", "that number"). */
  phrase: string;
  nodeId: string;
  name: string;
  /** The earlier turn the entity came from. */
  turn: number;
  /** Other entities of that turn that would have fitted as well, by name (the reading is then a guess). */
  alternatives: string[];
}

export interface ResolvedFollowUp {
  /** The question with its references replaced; the question itself when nothing was resolved. */
  question: string;
  references: FollowUpReference[];
  /**
   * References that mean what an earlier turn asked for and did not find ("Under whose login …?" → nothing → "Where
   * was he that day?"): whom or what they mean is unknown, and no answer may guess it.
   */
  unread?: UnreadReference[];
}

export interface UnreadReference {
  /** The words of the follow-up ("he", "that number"). */
  phrase: string;
  /** The turn that asked for it and found nothing, and its question. */
  turn: number;
  question: string;
  /** Whether it means a person ("he", after "Who …?"). */
  person: boolean;
}

// ---------------------------------------------------------------------------------------------------------------
// What an entity may be called

type Family = "person" | "agent" | "thing" | "phone" | "vehicle" | "organisation" | "place" | "meeting" | "account" | "weapon" | "device";

const PERSON_LABEL = /person|people|suspect|victim|witness|officer|individual/i;
const LABELS: Record<Exclude<Family, "person" | "agent" | "thing">, RegExp> = {
  phone: /phone|msisdn|sim\b/i,
  vehicle: /vehicle|car\b|van\b|truck/i,
  organisation: /organi[sz]ation|company|business|group|gang|agency|firm|bank/i,
  place: PLACE_LABEL,
  meeting: /meeting|event|incident/i,
  account: /account/i,
  weapon: /weapon|firearm|gun/i,
  device: /device|host|machine|server|workstation|laptop/i,
};

function fits(node: ContextNode, family: Family): boolean {
  if (family === "person") return PERSON_LABEL.test(node.label);
  if (family === "agent") return PERSON_LABEL.test(node.label) || LABELS.organisation.test(node.label);
  if (family === "thing") return !PERSON_LABEL.test(node.label);
  return LABELS[family].test(node.label);
}

/** Nouns a demonstrative ("that number", "the company") may refer with, by family; longest first. */
const NOUNS: Array<[string, Family]> = [
  ["phone number", "phone"],
  ["telephone number", "phone"],
  ["mobile number", "phone"],
  ["cell phone", "phone"],
  ["number", "phone"],
  ["phone", "phone"],
  ["telephone", "phone"],
  ["mobile", "phone"],
  ["handset", "phone"],
  ["line", "phone"],
  ["car", "vehicle"],
  ["vehicle", "vehicle"],
  ["van", "vehicle"],
  ["truck", "vehicle"],
  ["suv", "vehicle"],
  ["company", "organisation"],
  ["firm", "organisation"],
  ["organisation", "organisation"],
  ["organization", "organisation"],
  ["business", "organisation"],
  ["employer", "organisation"],
  ["gang", "organisation"],
  ["crew", "organisation"],
  ["group", "organisation"],
  ["place", "place"],
  ["location", "place"],
  ["address", "place"],
  ["building", "place"],
  ["venue", "place"],
  ["bar", "place"],
  ["premises", "place"],
  ["warehouse", "place"],
  ["house", "place"],
  ["meeting", "meeting"],
  ["event", "meeting"],
  ["incident", "meeting"],
  ["account", "account"],
  ["weapon", "weapon"],
  ["gun", "weapon"],
  ["pistol", "weapon"],
  ["firearm", "weapon"],
  ["device", "device"],
  ["host", "device"],
  ["machine", "device"],
  ["workstation", "device"],
  ["server", "device"],
  ["laptop", "device"],
  ["person", "person"],
  ["man", "person"],
  ["woman", "person"],
  ["suspect", "person"],
  ["victim", "person"],
  ["witness", "person"],
];

const PRONOUNS: Record<string, { family: Family; possessive: boolean; plural?: true }> = {
  he: { family: "person", possessive: false },
  him: { family: "person", possessive: false },
  himself: { family: "person", possessive: false },
  his: { family: "person", possessive: true },
  she: { family: "person", possessive: false },
  herself: { family: "person", possessive: false },
  hers: { family: "person", possessive: false },
  her: { family: "person", possessive: false }, // possessive when a noun follows (decided below)
  they: { family: "agent", possessive: false, plural: true },
  them: { family: "agent", possessive: false, plural: true },
  themselves: { family: "agent", possessive: false, plural: true },
  their: { family: "agent", possessive: true, plural: true },
  it: { family: "thing", possessive: false },
  its: { family: "thing", possessive: true },
};

const GENDER: Record<string, "m" | "f"> = { he: "m", him: "m", himself: "m", his: "m", she: "f", her: "f", hers: "f", herself: "f" };

/** Words after "her" that show it is an object ("called her on…"), not a possessive ("her phone"). */
const AFTER_OBJECT =
  /^(?:on|at|in|to|from|with|about|and|or|but|before|after|during|since|until|when|where|that|last|first|again|yesterday|today|twice|once|the|a|an|\d)/i;
/** What separates two clauses of a question: punctuation, a conjunction, a subordinator or a relative pronoun. */
const CLAUSE_BOUNDARY = /[,;:]|\b(?:and|but|or|so|when|while|after|before|because|since|until|if|that|who|whom|which|where)\b/i;
/** "It" that refers to nothing: "is it true that…", "it is possible…". */
const EXPLETIVE_IT = /^\s+(?:(?:is|was)\s+)?(?:true|possible|likely|unlikely|clear|known|certain|the case|that|to be|mean)\b/i;
/**
 * After "the <noun>": the phrase names something itself ("the company Bayline", "the number of calls", "the house on
 * Gull Lane"); a date after it does not ("the number on 12 April").
 */
const NAMED_AFTER =
  /^\s*(?:(?:of|that|which|who|whose|where|called|named)\b|(?:in|at|on|near|by|from|with)\s+(?:the\s+)?\p{Lu}|["'“\p{Lu}]|[\p{L}\p{N}+-]*\d)/u;

const REFERENCE = new RegExp(
  String.raw`\b(?:(that|this|these|those|the same|the)\s+(${NOUNS.map(([n]) => escapeRegExp(n).replace(/ /g, "\\s+")).join("|")})('s)?|(${Object.keys(PRONOUNS).join("|")}))\b`,
  "giu",
);

/**
 * Rewrites `question` against the entities earlier turns cited (`prior`, any order). Deterministic: the same question
 * and the same visible entities give the same rewrite. A reference with no fitting entity stays as written.
 */
export function resolveFollowUp(question: string, prior: readonly PriorTurn[]): ResolvedFollowUp {
  const turns = [...prior].sort((a, b) => b.turn - a.turn);
  if (!turns.length) return { question, references: [] };
  const references: FollowUpReference[] = [];
  // "he" and "she" in one question are two people: each gender keeps the entity it was read as, and the other may not
  // take it (the case data records no gender, so which person is "she" is only ever a guess).
  const byGender: Record<"m" | "f", string | null> = { m: null, f: null };
  // What the last subject pronoun ("he", "she", "they") was read as, and where it ended: "Where did he meet him?", "Why
  // did he pay them?" — an object pronoun in the same clause is someone else (not after a clause boundary: "Once he
  // left the bar, did anyone follow him?").
  let subject: { ids: string[]; end: number } | null = null;
  let out = "";
  let last = 0;
  const unread: UnreadReference[] = [];
  const unfound = unfoundAsk(turns[0]);
  for (const m of question.matchAll(REFERENCE)) {
    const at = m.index ?? 0;
    const whole = m[0];
    const after = question.slice(at + whole.length);
    const pronoun = m[4]?.toLowerCase() ?? "";
    let family: Family;
    let possessive: boolean;
    let plural = false;
    if (pronoun) {
      const p = PRONOUNS[pronoun];
      family = p.family;
      possessive = p.possessive;
      plural = Boolean(p.plural);
      if (pronoun === "her") possessive = /^\s+[\p{L}]/u.test(after) && !AFTER_OBJECT.test(after.trimStart());
      if (pronoun === "it" && EXPLETIVE_IT.test(after)) continue;
    } else {
      const determiner = m[1].toLowerCase().replace(/\s+/g, " ");
      const noun = m[2].toLowerCase().replace(/\s+/g, " ");
      family = NOUNS.find(([n]) => n === noun)![1];
      possessive = Boolean(m[3]);
      // "the company Bayline…", "the number of calls": the phrase names its own referent.
      if (determiner === "the" && NAMED_AFTER.test(after)) continue;
      if ((noun === "number" || noun === "line") && /^\s*of\b/i.test(after)) continue;
    }
    // "Who took the rails out of bay 14?" → "Why did he need them out?": "them" is the rails, not whom the answer named.
    if (pronoun === "them" && namesPluralThing(turns[0])) continue;
    // "Under whose login were they approved?" found no one → "Where was he that day?": "he" is whoever that was.
    if (unfound && unfound.family === family) {
      unread.push({ phrase: whole, turn: unfound.turn, question: unfound.question, person: family === "person" });
      continue;
    }
    const gender = pronoun ? GENDER[pronoun] : undefined;
    const other = gender ? byGender[gender === "m" ? "f" : "m"] : null;
    const sameClause: boolean = subject !== null && !CLAUSE_BOUNDARY.test(question.slice(subject.end, at));
    const objectOf: string[] = /^(?:him|her|them)$/.test(pronoun) && !possessive && sameClause ? subject!.ids : [];
    const mine = gender && !objectOf.length ? byGender[gender] : null;
    const order: Salience = !pronoun ? "answer" : family === "thing" ? "topic-subject" : "topic-answer";
    const pick = mine
      ? pickReferent(turns, family, false, order, (n) => n.id === mine)
      : pickReferent(turns, family, plural, order, (n) => n.id !== other && !objectOf.includes(n.id));
    if (!pick) continue;
    if (gender && !objectOf.length) byGender[gender] = pick.nodes[0].id;
    if (/^(?:he|she|they)$/.test(pronoun)) subject = { ids: pick.nodes.map((n) => n.id), end: at + whole.length };
    const name = pick.nodes.length === 1 ? pick.nodes[0].name : joinNames(pick.nodes.map((n) => n.name));
    const replacement = possessive ? `${name.replace(/\.$/, "")}'s` : name;
    out += question.slice(last, at) + replacement;
    last = at + whole.length;
    for (const node of pick.nodes)
      references.push({
        phrase: whole,
        nodeId: node.id,
        name: node.name,
        turn: pick.turn,
        alternatives: pick.alternatives.map((n) => n.name),
      });
  }
  const unknown = unread.length ? { unread } : {};
  if (!references.length) return { question, references: [], ...unknown };
  out += question.slice(last);
  return { question: out, references, ...unknown };
}

/** "What number …", "Which company …": the noun after the wh-word, one of the nouns a demonstrative may use. */
const ASKED_NOUN = new RegExp(
  String.raw`\b(?:what|which)\s+(?:[a-z-]+\s+)?(${NOUNS.map(([n]) => n.replace(/ /g, "\\s+")).join("|")})\b`,
  "i",
);

/** What a question asks for, by family: "Who …?", "Under whose login …?" a person; "What number did she ring?" a phone. */
function askedFamily(question: string): Family | undefined {
  // (Not a relative "who": "What did the man who called her say?")
  if (/(?:^|[.?!;,]\s*|\band\s+)(?:(?:by|to|from|with|for|under|on|of|in|at)\s+)?(?:who|whom|whose)\b/i.test(question.trim()))
    return "person";
  const noun = ASKED_NOUN.exec(question)?.[1];
  return noun ? NOUNS.find(([n]) => n === noun.toLowerCase().replace(/\s+/g, " "))?.[1] : undefined;
}

/**
 * The newest turn, when it asked for someone or something and found nothing (and was not itself about whom a pronoun of
 * its own meant: after "Who called him?" a later "he" may still be him). A later reference of that family means what
 * it asked for — which no visible evidence said.
 */
function unfoundAsk(t: PriorTurn | undefined): { family: Family; turn: number; question: string } | undefined {
  if (!t || t.answered !== false || !t.question || (t.topics ?? []).length) return undefined;
  if (asksWhoIs(t.question, t.subjects)) return undefined;
  const family = askedFamily(t.question);
  return family ? { family, turn: t.turn, question: t.question } : undefined;
}

/** A plural common noun after a determiner ("the rails", "his phones", "those calls"); not a span of time. */
const PLURAL_THING =
  /\b(?:[Tt]he|[Tt]hese|[Tt]hose|his|her|their|its|our|my|your|some|any|all)\s+(?:[a-z][a-z-]*\s+){0,2}([a-z][a-z-]*[^suiy'’\s]s)\b/g;
const NOT_A_THING = /^(?:seconds|minutes|hours|days|nights|weeks|months|years|times|others|ones)$/;

/**
 * Whether a turn's question names plural things in common nouns that are not part of an entity it names — and that
 * its answer does not name: in "Who are the directors?" the directors are whom the answer names.
 */
function namesPluralThing(t: PriorTurn): boolean {
  if (!t.question) return false;
  const question = t.question;
  const named = t.subjects.flatMap((n) => namesOf(n).names);
  return [...question.matchAll(PLURAL_THING)].some(
    (m) =>
      !NOT_A_THING.test(m[1]) &&
      !named.some((name) => containsPhrase(name, m[1])) &&
      !/^\s*(?:who|what|which)\s+(?:are|were)\s*$/i.test(question.slice(0, m.index)),
  );
}

/**
 * Which entities a reference takes first. A demonstrative ("that number") points at what the newest answer gave; a
 * pronoun keeps to the thread's topic — what the pronouns of earlier follow-ups were read as, newest first, across
 * turns — and otherwise takes what the newest answer named ("Who drives the Tahoe?" → "he"), or for "it" what the
 * newest question was about ("Who uses WS-FIN-0231?" → "it" is the device). Within a turn, entities only its
 * explanation steps cited come last.
 */
type Salience = "answer" | "topic-answer" | "topic-subject";

function groupsOf(turns: readonly PriorTurn[], order: Salience): Array<{ turn: number; nodes: ContextNode[] }> {
  const topics = order === "answer" ? [] : turns.map((t) => ({ turn: t.turn, nodes: t.topics ?? [] }));
  const within = (t: PriorTurn) => {
    const cited = t.cited ?? [];
    return order === "topic-subject" ? [t.subjects, t.answers, cited] : [t.answers, t.subjects, cited];
  };
  return [...topics, ...turns.flatMap((t) => within(t).map((nodes) => ({ turn: t.turn, nodes })))];
}

/** The first group (by salience; `turns` newest first) with a fitting entity. */
function pickReferent(
  turns: readonly PriorTurn[],
  family: Family,
  plural: boolean,
  order: Salience,
  allowed: (n: ContextNode) => boolean,
): { turn: number; nodes: ContextNode[]; alternatives: ContextNode[] } | null {
  for (const { turn, nodes: group } of groupsOf(turns, order)) {
    const fitting = dedupe(group.filter((n) => fits(n, family) && allowed(n)));
    if (!fitting.length) continue;
    if (plural) {
      // "they": the people (or organisations) of that answer together; one of them alone when only one fits.
      const people = fitting.filter((n) => PERSON_LABEL.test(n.label));
      const chosen = people.length >= 2 ? people : fitting.slice(0, 1);
      return { turn, nodes: chosen, alternatives: chosen.length > 1 ? [] : fitting.slice(1) };
    }
    return { turn, nodes: [fitting[0]], alternatives: fitting.slice(1) };
  }
  return null;
}

const dedupe = (nodes: ContextNode[]) => nodes.filter((n, i) => nodes.findIndex((m) => m.id === n.id) === i);

function joinNames(names: string[]): string {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

// ---------------------------------------------------------------------------------------------------------------
// What a turn was about

export interface TurnMentions {
  subjectNodeIds: string[];
  answerNodeIds: string[];
  citedNodeIds: string[];
  citedEvidenceIds: string[];
  citedEdgeIds: string[];
}

const MAX_MENTIONS = 10;

/**
 * The ids a delivered turn leaves for the next ones: the nodes its question names, the nodes its claims name (in the
 * answer's order), the further nodes its steps cite, the evidence and relationships it cites. Only items of its own
 * context.
 */
export function turnMentions(
  question: string,
  answer: Pick<Answer, "claims" | "citations" | "explanationSteps">,
  ctx: RawContext,
): TurnMentions {
  const subjects = inOrder(question, ctx.nodes);
  const subjectIds = new Set(subjects);
  const nodeIds = new Set(ctx.nodes.map((n) => n.id));
  const named = [...new Set(answer.claims.flatMap((c) => inOrder(c.text, ctx.nodes)))].filter((id) => !subjectIds.has(id));
  // After "Who is Kovac?" the others his description names are not whom a later "he" means: they rank as cited.
  const identity = asksWhoIs(
    question,
    ctx.nodes.filter((n) => subjectIds.has(n.id)),
  );
  const answers = identity ? [] : named;
  const stepNodes = [
    ...(identity ? named : []),
    ...new Set(answer.explanationSteps.flatMap((s) => s.citations).filter((id) => nodeIds.has(id))),
  ].filter((id, i, all) => !subjectIds.has(id) && !answers.includes(id) && all.indexOf(id) === i);
  const evidenceIds = new Set(ctx.evidenceSnippets.map((s) => s.id));
  const cited = [
    ...answer.citations.map((c) => c.evidenceId),
    ...answer.explanationSteps.flatMap((s) => s.citations).filter((id) => evidenceIds.has(id)),
  ];
  const edgeByRef = new Map(ctx.edges.flatMap((e) => [[e.id, e.id] as const, [`${e.source}:${e.type}:${e.target}`, e.id] as const]));
  const edges = answer.explanationSteps.flatMap((s) => s.citations.map((c) => edgeByRef.get(c))).filter((id): id is string => !!id);
  return {
    subjectNodeIds: subjects.slice(0, MAX_MENTIONS),
    answerNodeIds: answers.slice(0, MAX_MENTIONS),
    citedNodeIds: stepNodes.slice(0, MAX_MENTIONS),
    citedEvidenceIds: [...new Set(cited)].filter((id) => evidenceIds.has(id)),
    citedEdgeIds: [...new Set(edges)],
  };
}

/**
 * "Who is Kovac?", "Who was Lena Ortiz?": a question about who one of `subjects` is, not about who did something (nor
 * "Who is Kovac's sister?", which asks for someone else).
 */
export function asksWhoIs(question: string, subjects: readonly ContextNode[]): boolean {
  const rest = /^\s*who\s+(?:is|was|are|were)\s+(.*)$/is.exec(question)?.[1].toLowerCase();
  return (
    rest !== undefined &&
    subjects.some((n) => namesOf(n).names.some((name) => name && rest.startsWith(name) && /^\s*(?:[?,.;]|$)/.test(rest.slice(name.length))))
  );
}

/** "he", "his", "her", … — a person the question does not name. */
const PERSONAL = /\b(?:he|him|his|himself|she|her|hers|herself)\b/i;
/** What may come before such a pronoun when nothing before it could be whom it means: no name, no noun phrase. */
const BEFORE_DANGLING = /^(?:[a-z'’]+\s+){0,5}$/;
const NOUN_PHRASE_START = /\b(?:the|a|an|this|that|these|those|each|every|any|some|one|two|both)\s/;

/**
 * The personal pronoun of a question that names no one it could mean ("What was found at his home when it was
 * searched?", "Did his site induction cover working at height?") — after a follow-up's references were read, so one
 * still there has nothing in the thread either. A pronoun after a name or a noun phrase ("What did the foreman tell
 * him…", "Who employed Jayden, and what was his rate?") may mean it and is not one.
 */
export function danglingPerson(question: string, linked: ReadonlyArray<{ label: string }>): string | null {
  const m = PERSONAL.exec(question);
  // A person the question links may be whom it means, wherever it names them ("When his car was stopped, where was
  // Kovac going?").
  if (!m || linked.some((e) => PERSON_LABEL.test(e.label))) return null;
  const before = question.slice(0, m.index);
  const pronoun = m[0].toLowerCase();
  const after = question.slice(m.index + m[0].length);
  // "Who put his name to the contract?", "Who said she saw the van?": the pronoun is whoever the answer names (not
  // "Who called him?", whose object is someone else).
  const object = pronoun === "him" || (pronoun === "her" && !(/^\s+\p{L}/u.test(after) && !AFTER_OBJECT.test(after.trimStart())));
  if (/\bwho(?:m|se)?\b/i.test(before) && !object) return null;
  // The first word is capitalised as the start of the question; a capital after it is a name.
  const rest = before.replace(/^\s*\S+\s*/, "");
  if (/\p{Lu}|\d/u.test(rest) || NOUN_PHRASE_START.test(before.toLowerCase()) || !BEFORE_DANGLING.test(before.toLowerCase())) return null;
  return m[0];
}

/** Ids of the context nodes `text` names, in the order the text names them. */
function inOrder(text: string, nodes: readonly ContextNode[]): string[] {
  const lower = text.toLowerCase();
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const position = (id: string, matched: string) => {
    const forms = [matched, ...namesOf(byId.get(id)!).names, ...namesOf(byId.get(id)!).ids.map((x) => x.toLowerCase())];
    const found = forms.map((f) => (f && containsPhrase(lower, f) ? lower.indexOf(f) : -1)).filter((i) => i >= 0);
    return found.length ? Math.min(...found) : Number.MAX_SAFE_INTEGER;
  };
  return linkEntities(text, nodes)
    .map((e) => ({ id: e.id, at: position(e.id, e.matched) }))
    .sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((e) => e.id);
}

// ---------------------------------------------------------------------------------------------------------------
// Earlier turns, re-filtered for the asker as they are now

export interface Visibility {
  evidence(id: string): boolean;
  node(id: string): boolean;
  edge(id: string): boolean;
}

export interface RefilteredClaim {
  claimId: string;
  /** The claim, or NO_LONGER_VISIBLE when anything it cites is no longer visible. */
  text: string;
  /** Visible evidence only (empty when hidden). */
  evidenceIds: string[];
  support: string;
  hidden: boolean;
}

export interface RefilteredStep {
  stepNumber: number;
  claim: string;
  citations: string[];
  hidden: boolean;
}

export interface RefilteredAnswer {
  responseType: string;
  /** Claims in order; hidden ones say NO_LONGER_VISIBLE, citing nothing. */
  answerText: string;
  claims: RefilteredClaim[];
  steps: RefilteredStep[];
  unknowns: string[];
  confidence: number | null;
  needsReview: boolean;
  /** How many claims, steps and unknowns were replaced. */
  hiddenParts: number;
}

/**
 * An earlier turn's answer as the asker may see it now: a claim, step or unknown that rests on an item they can no
 * longer see (cites it, or names a node `hiddenNames` lists) is replaced by NO_LONGER_VISIBLE. Evidence is judged by
 * `v` (the policy gate and the active-evidence stores, now).
 */
export function refilterAnswer(answer: Answer, v: Visibility, hiddenNames: readonly string[] = []): RefilteredAnswer {
  const namesHidden = (text: string) => {
    const lower = text.toLowerCase();
    return hiddenNames.some((n) => n.length > 2 && containsPhrase(lower, n.toLowerCase()));
  };
  let hiddenParts = 0;
  const claims: RefilteredClaim[] = answer.claims.map((c) => {
    const hidden = c.evidenceIds.some((id) => !v.evidence(id)) || namesHidden(c.text);
    if (hidden) hiddenParts++;
    return {
      claimId: c.claimId,
      text: hidden ? NO_LONGER_VISIBLE : c.text,
      evidenceIds: hidden ? [] : c.evidenceIds,
      support: c.support,
      hidden,
    };
  });
  const steps: RefilteredStep[] = answer.explanationSteps.map((s) => {
    const hidden = s.citations.some((id) => !v.evidence(id) && !v.node(id) && !v.edge(id)) || namesHidden(s.claim);
    if (hidden) hiddenParts++;
    return { stepNumber: s.stepNumber, claim: hidden ? NO_LONGER_VISIBLE : s.claim, citations: hidden ? [] : s.citations, hidden };
  });
  const unknowns = answer.unknowns.map((u) => {
    if (!namesHidden(u)) return u;
    hiddenParts++;
    return NO_LONGER_VISIBLE;
  });
  const answerText =
    answer.responseType === "answer" && claims.length
      ? claims
          .map((c) =>
            c.hidden
              ? `[${NO_LONGER_VISIBLE}]`
              : `${c.text.replace(/[.!?]+$/u, "")} ${c.evidenceIds.map((id) => `[evidence: ${id}, claim: ${c.claimId}]`).join(" ")}.`,
          )
          .join(" ")
      : namesHidden(answer.answerText)
        ? NO_LONGER_VISIBLE
        : answer.answerText;
  return {
    responseType: answer.responseType,
    answerText,
    claims,
    steps,
    unknowns,
    confidence: typeof answer.confidence === "number" ? answer.confidence : null,
    needsReview: answer.needsReview === true,
    hiddenParts,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The conversation a generative model is shown

export interface ConversationTurn {
  turn: number;
  /** The asker's own question; null when it is not kept (hash-only audit, retention). */
  question: string | null;
  /** The earlier answer, re-filtered, markers removed. */
  answer: string;
}

export interface BoundedConversation {
  turns: ConversationTurn[];
  /** Earlier turns not considered: beyond the last N, or beyond the token budget. */
  leftOut: { byTurns: number; byBudget: number };
}

export function conversationTurnOf(turn: number, question: string | null, answer: RefilteredAnswer | null): ConversationTurn {
  const text = answer ? squash(stripMarkers(answer.answerText)) : "(no answer)";
  return { turn, question, answer: text };
}

/**
 * The newest turns that fit: at most `maxTurns`, and within `tokenBudget` tokens (a turn is kept whole or not at all).
 * `olderOmitted`: turns before `turns` the store did not even return (they count as left out by the turn bound).
 */
export function boundConversation(turns: readonly ConversationTurn[], limits: ConversationLimits, olderOmitted = 0): BoundedConversation {
  const newestFirst = [...turns].sort((a, b) => b.turn - a.turn);
  const kept: ConversationTurn[] = [];
  let tokens = 0;
  let byTurns = olderOmitted;
  let byBudget = 0;
  for (const t of newestFirst) {
    if (kept.length >= limits.maxTurns) {
      byTurns++;
      continue;
    }
    const cost = Math.ceil(renderTurn(t).length / 4); // context.ts estimateTokens: 4 characters a token
    if (byBudget || tokens + cost > limits.tokenBudget) {
      byBudget++;
      continue;
    }
    tokens += cost;
    kept.push(t);
  }
  return { turns: kept.reverse(), leftOut: { byTurns, byBudget } };
}

export function renderTurn(t: ConversationTurn): string {
  return `Turn ${t.turn}\nQuestion: ${JSON.stringify(t.question ?? "(question text not kept)")}\nAnswer: ${JSON.stringify(t.answer)}`;
}

const squash = (s: string) => s.replace(/\s+/g, " ").trim();
