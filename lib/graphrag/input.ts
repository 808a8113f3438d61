// Step 1 — Input: caseId + question (≤ 2,000 characters, trimmed, control characters rejected) and optional limits
// within the hard maxima. Anything else is a coded error. Also the request's scope: questions about the case are answered; requests
// to act, or for data outside the case graph, are refused before anything is retrieved (seed 000 §3.4).
import nlp from "compromise";
import { z } from "zod";
import { hiddenCharacters } from "../domain/display-text";
import { CasegraphError, type FailureIssue } from "../domain/failure-codes";
import { HARD_LIMITS, type Limits } from "./types";

export interface AnswerInput {
  caseId: string;
  question: string;
  /** Limits asked for by the client (validated against HARD_LIMITS). */
  limits: Partial<Limits>;
  /** The thread this question continues (issue 18); null: a new thread. */
  threadId: string | null;
}

// Control characters other than tab and line breaks, plus the invisible characters that can disguise text or carry
// text no one sees (display-text.ts).
const CONTROL = hiddenCharacters("u");
const CONTROL_ALL = hiddenCharacters("gu");

/**
 * What a refused request sent, as the ledger may keep it: a string, trimmed, at most `max` characters, control
 * characters replaced by U+FFFD (a NUL cannot even be stored in PostgreSQL text, and the rest must not reach a
 * reviewer's screen as controls). Anything that is not a non-empty string is null.
 */
export function auditableText(value: unknown, max: number): string | null {
  if (typeof value !== "string") return null;
  return [...value.replace(CONTROL_ALL, "\uFFFD").trim()].slice(0, max).join("") || null;
}

const bodySchema = z.object({
  caseId: z.string({ error: "must be a string" }),
  question: z.string({ error: "must be a string" }),
  hops: z.number().int().optional(),
  maxNodes: z.number().int().optional(),
  maxSnippets: z.number().int().optional(),
  threadId: z.string({ error: "must be a string" }).max(200, "must be a thread id").nullish(),
});

export function parseInput(raw: unknown): AnswerInput {
  const parsed = bodySchema.safeParse(raw);
  if (!parsed.success) {
    const issues: FailureIssue[] = parsed.error.issues.map((i) => ({
      path: "$" + i.path.map((p) => `.${String(p)}`).join(""),
      message: i.message,
    }));
    throw new CasegraphError("CG-INPUT-001", undefined, issues);
  }
  const body = parsed.data;
  const caseId = body.caseId.trim();
  if (!caseId || caseId.length > 200 || CONTROL.test(caseId) || /[\r\n\t]/.test(caseId)) {
    throw new CasegraphError("CG-INPUT-001", undefined, [{ path: "$.caseId", message: "must be a case id (1–200 printable characters)" }]);
  }
  const question = body.question.normalize("NFC").trim();
  if (!question) throw new CasegraphError("CG-INPUT-002");
  if ([...question].length > HARD_LIMITS.maxQuestionChars) {
    throw new CasegraphError(
      "CG-INPUT-003",
      `The question is too long (${[...question].length} characters; at most ${HARD_LIMITS.maxQuestionChars}).`,
    );
  }
  if (CONTROL.test(question)) throw new CasegraphError("CG-INPUT-004");

  const limits: Partial<Limits> = {};
  const range = (name: "hops" | "maxNodes" | "maxSnippets", value: number | undefined, min: number, max: number) => {
    if (value === undefined) return;
    if (value < min || value > max) {
      throw new CasegraphError("CG-INPUT-005", `${name} must be between ${min} and ${max}.`, [
        { path: `$.${name}`, message: `must be between ${min} and ${max}` },
      ]);
    }
    limits[name] = value;
  };
  range("hops", body.hops, 0, HARD_LIMITS.hops);
  range("maxNodes", body.maxNodes, 1, HARD_LIMITS.maxNodes);
  range("maxSnippets", body.maxSnippets, 1, HARD_LIMITS.maxSnippets);
  // Any other string is looked up like an id; one that names no thread of the asker's is CG-THREAD-001.
  const threadId = body.threadId?.trim() || null;
  return { caseId, question, limits, threadId };
}

// ---------------------------------------------------------------------------------------------------------------
// Scope: is this a question about the case, a request to act, or a request for data outside the graph?

export type RequestScope = { kind: "question" } | { kind: "action"; verb: string } | { kind: "out_of_graph"; what: string };

/** Verbs that change the world or a system. Matched as a request, not as a word in a question ("Who killed …?"). */
const ACTION_VERBS = [
  "arrest",
  "detain",
  "apprehend",
  "charge",
  "indict",
  "prosecute",
  "raid",
  "board",
  "impound",
  "confiscate",
  "sanction",
  "fine",
  "suspend",
  "shut",
  "evacuate",
  "search the premises",
  "seize",
  "freeze",
  "delete",
  "remove",
  "erase",
  "wipe",
  "purge",
  "destroy",
  "redact",
  "modify",
  "edit",
  "alter",
  "update",
  "change",
  "overwrite",
  "block",
  "unblock",
  "ban",
  "blacklist",
  "whitelist",
  "allowlist",
  "quarantine",
  "isolate",
  "contain",
  "disable",
  "enable",
  "shut down",
  "shutdown",
  "reboot",
  "restart",
  "kill",
  "terminate",
  "revoke",
  "reset",
  "lock",
  "unlock",
  "grant",
  "approve",
  "authorise",
  "authorize",
  "release",
  "dispose of",
  "deny",
  "close",
  "reopen",
  "escalate",
  "assign",
  "send",
  "email",
  "e-mail",
  "message",
  "text",
  "notify",
  // Writing to or telling someone outside the assistant is acting ("Write to the bid manager and tell her…"); telling
  // the asker ("Tell me who…") is a question.
  "write to",
  "reply to",
  "respond to",
  "reach out to",
  "get in touch with",
  "inform",
  "remind",
  "tell(?!\\s+(?:me|us)\\b)",
  "alert",
  "contact",
  "call",
  "phone",
  "warn",
  "tip off",
  "forward",
  "publish",
  "post",
  "share",
  "leak",
  "upload",
  "export",
  "download",
  "execute",
  "run",
  "launch",
  "deploy",
  "install",
  "uninstall",
  "patch",
  "trigger",
  "invoke",
  "schedule",
  "book",
  "order",
  "pay",
  "transfer",
  "issue",
  "file",
  "submit",
  "sign",
  "mark",
  "flag",
  "insert",
  "configure",
  "hack",
  "exploit",
  "attack",
  "track",
  "surveil",
  "wiretap",
  "tap",
  // Legal process and investigative steps: requesting them is asking Casegraph to act (seed 000 §3.1).
  "subpoena",
  "serve",
  "summon",
  "obtain",
  "apply for",
  "requisition",
  "interview",
  "interrogate",
  "monitor",
  "intercept",
  "reimage",
  "rotate",
];

export const ACTION_VERB_PATTERN = ACTION_VERBS.map((v) => v.replace(/[-\s]/g, (c) => (c === "-" ? "-?" : "\\s+"))).join("|");
const SUBJECT = String.raw`(?:we|i|you|u|they|the police|police|investigators|officers|detectives|the team|analysts)`;
const POLITE = String.raw`(?:(?:please|kindly|now|immediately|quickly|go ahead and|just|then|also)\s+)*`;
const BOUNDARY = String.raw`(?:^|[.!?;\n]\s*|,\s*(?:and\s+)?(?:then\s+)?|\band\s+(?:then\s+)?)`;
// "Can you arrest …", "I want you to delete …", "Should we block …", "Is it time to raid …".
const ASKED = new RegExp(
  String.raw`${BOUNDARY}${POLITE}(?:(?:can|could|would|will)\s+(?:you|u)|(?:i|we)\s+(?:want|need|would like)\s+(?:you\s+)?to|you\s+(?:must|should|need to|have to)|let'?s|(?:should|shall|must|ought)\s+${SUBJECT}(?:\s+(?:now|immediately|also))?(?:\s+to)?|is it (?:ok|okay|wise|time|a good idea|advisable) to)\s+${POLITE}(${ACTION_VERB_PATTERN})\b`,
  "iu",
);
// A bare imperative: "Arrest Kovac.", "Please delete EV-C-012", "Block 203.0.113.47 now".
const IMPERATIVE = new RegExp(String.raw`${BOUNDARY}(please\s+|kindly\s+|go ahead and\s+)?(${ACTION_VERB_PATTERN})\b\s*(\S*)`, "iu");
// "Who should we arrest?", "Which IP should I block first?"
const WH_ACTION = new RegExp(
  String.raw`\b(?:who|whom|which|what|when|where)\b[^.?!]{0,60}?\b(?:should|shall|must|ought)\s+${SUBJECT}\s+(?:to\s+)?(?:\w+\s+){0,2}?(${ACTION_VERB_PATTERN})\b`,
  "iu",
);
// "Draft a search warrant for …", "Could you prepare the charge sheet?", "Write an e-mail to the suspect": producing
// the instrument of an action is acting. (A summary, timeline or list of what the evidence shows is a question.)
const INSTRUMENT = new RegExp(
  String.raw`${BOUNDARY}${POLITE}(?:(?:can|could|would|will)\s+(?:you|u)\s+|(?:i|we)\s+(?:want|need|would like)\s+(?:you\s+)?to\s+)?${POLITE}` +
    String.raw`((?:draft|prepare|compose|write(?:\s+up)?|produce|generate|fill\s+(?:in|out)|complete|file)\s+(?:(?:me\s+)?(?:a|an|the|up)\s+)?` +
    String.raw`(?:[\p{L}'’-]+\s+){0,3}?(?:warrants?|subpoenas?|affidavits?|applications?\s+(?:for|to)|charge\s+sheets?|charges\s+against|indictments?|` +
    String.raw`summons(?:es)?|(?:production|court|restraining|freezing|arrest)\s+orders?|letters?\s+to|e-?mails?\s+to|messages?\s+to|` +
    String.raw`notices?\s+to|press\s+releases?|referrals?\s+to|requests?\s+to|arrest\s+plans?|(?:operational|search|raid)\s+plans?))\b`,
  "iu",
);
// "What should we do next?", "Recommend a course of action."; and "Should we …?" with any verb, which asks for a
// recommendation the assistant never gives.
const ADVICE =
  /^(?:should|shall|ought)\s+(?:we|i|the team|investigators|the police|police|officers)\s+\p{L}|\b(?:what\s+(?:should|shall|must)\s+(?:we|i|the police|investigators)\s+do\b|(?:recommend|suggest|advise)\s+(?:an?\s+|the\s+|some\s+)?(?:action|actions|next steps?|course of action|remediation|response|measures))/iu;
// Words after a leading verb that show it is a noun ("Call records …", "Order of events", "Transfer of funds").
const NOUN_FOLLOWERS =
  /^(?:of|between|from|to|for|in|on|at|by|with|and|or|is|was|were|are|records?|logs?|details?|history|data|patterns?|times?|dates?|volumes?|counts?|chains?|amounts?|ids?|numbers?)$/i;

const OUT_OF_GRAPH: Array<[RegExp, string]> = [
  [
    /\b(?:search|google|look\s+up|check|browse|consult|query|scan)\b[^.?!]{0,40}\b(?:internet|web|online|google|social media|twitter|facebook|linkedin|news|dark\s*web)\b/iu,
    "sources outside the case",
  ],
  [/\b(?:internet|web|online|social media|news)\s+(?:search|results|sources)\b/iu, "sources outside the case"],
  [/\b(?:other|another|all|every)\s+(?:cases?|tenants?|investigations?)\b/iu, "other cases"],
  [/\b(?:system\s+prompt|your\s+(?:instructions|prompt|rules|configuration)|hidden\s+instructions)\b/iu, "the assistant's instructions"],
  [/\b(?:passwords?|api\s*keys?|credentials|secrets?\s+key|access\s+tokens?|session\s+tokens?)\s+(?:for|of|to)\b/iu, "credentials"],
  [/\b(?:raw|full|entire|whole|complete)\s+(?:database|data\s*base|dump|table|export|ledger|audit\s+log)\b/iu, "raw data"],
  [/\b(?:dump|export|download)\s+(?:the\s+|all\s+)?(?:database|data|evidence|records|graph)\b/iu, "raw data"],
  [
    /\b(?:classified|restricted|hidden|filtered|redacted)\s+(?:evidence|items|sources|material|documents|files)\s+(?:i|that i|which i)\s+(?:can(?:no|')t|cannot|am not|may not)\b/iu,
    "items outside your permissions",
  ],
  [
    /\b(?:what(?:'s| is) the weather|stock price|write (?:me )?(?:a |an )?(?:poem|story|essay|song|code|script|program))\b/iu,
    "topics outside the case",
  ],
];

// The ways of asking what the evidence shows with a verb ("List the calls …", "Add up what went …", "Walk me
// through …"): every other request that opens with a verb asks Casegraph to act.
const ASKING =
  /^(?:tell|show|list|give|find|explain|describe|summari[sz]e|compare|identify|name|outline|count|trace|quote|cite|map|chart|plot|total|calculate|compute|determine|estimate|establish|confirm|check|verify|look|read|review|assess|evaluate|analy[sz]e|clarify|detail|recount|recap|reconstruct|rank|sort|group|highlight|state|say|answer|help|display|write|draw|create|make|build|produce|prepare|generate|compile|draft|select|extract|search|consider|assume|suppose|imagine)\b|^(?:take|walk|go|run)\s+(?:me\s+|us\s+)?through\b|^(?:add|sum|tot|tally)\s+(?:up|together)\b|^(?:work|figure|find|point|spell|set|lay|sort|pick)\s+out\b|^(?:break|narrow|boil|write)\s+(?:down|up)\b|^put\s+together\b|^let\s+(?:me|us)\s+(?:know|see)\b/i;
const OPENING_POLITE = /^(?:please|kindly|now|just|also|then|so|ok(?:ay)?|right)$/i;

/**
 * A request that opens with a verb in the imperative ("Put a PNC marker on YK70 RHL and circulate it to all forces.")
 * asks Casegraph to act, whatever the verb — no list of action verbs is complete, so the verb is refused unless it is a
 * way of asking (ASKING). Deny by default. A sentence ending in "?" is a question ("Have any of the consoles turned
 * up?"), unless the request says "please".
 */
function openingImperative(text: string): string | undefined {
  for (const sentence of nlp(text).json() as Array<{ text: string; terms: Array<{ normal?: string; tags?: string[] }> }>) {
    const terms = sentence.terms;
    let at = 0;
    while (at < terms.length - 1 && OPENING_POLITE.test(terms[at].normal ?? "")) at++;
    const polite = at > 0 && /^(?:please|kindly)$/i.test(terms[0].normal ?? "");
    const verb = terms[at];
    const tags = verb?.tags ?? [];
    if (!tags.includes("Verb") || !(tags.includes("Imperative") || tags.includes("Infinitive"))) continue;
    if (tags.some((t) => t === "Auxiliary" || t === "Copula" || t === "Modal")) continue;
    if (sentence.text.trim().endsWith("?") && !polite) continue;
    const rest = terms
      .slice(at)
      .map((t) => t.normal ?? "")
      .join(" ");
    if (ASKING.test(rest)) continue;
    return verb.normal;
  }
  return undefined;
}

/** Deterministic and conservative: clear requests are refused; questions about actions that happened are not. */
export function classifyRequest(question: string): RequestScope {
  const text = question.replace(/\s+/g, " ").trim();
  const asked = ASKED.exec(text) ?? WH_ACTION.exec(text);
  if (asked) return { kind: "action", verb: asked[1].toLowerCase() };
  if (ADVICE.test(text)) return { kind: "action", verb: "recommend actions" };
  const instrument = INSTRUMENT.exec(text);
  if (instrument) return { kind: "action", verb: instrument[1].toLowerCase() };
  const imperative = IMPERATIVE.exec(text);
  if (imperative) {
    const polite = Boolean(imperative[1]);
    const next = (imperative[3] ?? "").replace(/[^\p{L}\p{N}]/gu, "");
    const questionLike = text.endsWith("?");
    if (polite || (!questionLike && !NOUN_FOLLOWERS.test(next))) {
      return { kind: "action", verb: imperative[2].toLowerCase() };
    }
  }
  for (const [re, what] of OUT_OF_GRAPH) if (re.test(text)) return { kind: "out_of_graph", what };
  const opening = openingImperative(text);
  if (opening) return { kind: "action", verb: opening };
  return { kind: "question" };
}

export function refusalText(scope: Exclude<RequestScope, { kind: "question" }>): string {
  if (scope.kind === "action") {
    return (
      `Refused: this assistant only explains what the case evidence shows and never takes or recommends actions ` +
      `(the request asks to ${scope.verb}). Decisions and actions remain with authorised investigators.`
    );
  }
  return `Refused: this assistant answers only from the case graph and evidence you may see; it cannot provide ${scope.what}.`;
}
