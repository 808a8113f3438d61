// Step 5 — Context: serialise only what passed the policy filter, minimally (ids, labels, the properties that matter,
// snippet text), within a token budget met by narrowing (fewer hops, then fewer snippets, then fewer nodes), never by
// cutting an item in half. Evidence text is untrusted (seed 004): injection phrases, role prefixes, fake system
// blocks, markup that could close our fences and embedded citation tokens are neutralised in the copy the model sees,
// and every directive the detector finds (directives.ts: text addressed to an automated reader, instructions about
// what to report or ignore, …) is replaced by a label; the stored original is never touched.
import { HIDDEN_CHARACTERS } from "../domain/display-text";
import { findDirectives, removeDirectives } from "./directives";
import { renderEdge, renderNode, renderSnippet, CONTEXT_OVERHEAD_CHARS } from "./prompt";
import type { QuestionAnalysis, Retrieved } from "./retrieve";
import { sentenceSpans, stem, words, isStopword } from "./text";
import type { ContextEdge, ContextNode, ContextSnippet, ContextValue, Limits, RawContext } from "./types";

/** Evidence longer than this is shown as an excerpt of its most relevant whole sentences. */
export const MAX_SNIPPET_CHARS = 1_500;
const MAX_PROPERTIES = 12;
const MAX_PROPERTY_CHARS = 200;
const MAX_ARRAY_ITEMS = 10;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

// ---------------------------------------------------------------------------------------------------------------
// Neutralising untrusted text

export type NeutralisedKind = "citation_token" | "injection_phrase" | "role_prefix" | "markup" | "control_chars" | "directive";

/** Invisible and control characters, and private-use ones (they render as nothing or as a vendor's glyph). */
const HIDDEN = `${HIDDEN_CHARACTERS}|[\\ue000-\\uf8ff]`;

const RULES: Array<{ kind: NeutralisedKind; re: RegExp; to: string }> = [
  // Invisible and control characters first, so they cannot split a phrase to dodge the rules below.
  {
    kind: "control_chars",
    re: new RegExp(HIDDEN, "gu"),
    to: "",
  },
  // Citation tokens embedded in evidence ("[evidence: EV-Y-999]", "[EVID:…]", "[source: …]") — citation laundering.
  {
    kind: "citation_token",
    re: /\[\s*(?:evidence|evid|ev|citation|cite|source|claim)\s*[:=#][^\]\n]{0,200}\]/giu,
    to: "[citation token removed]",
  },
  { kind: "citation_token", re: /【[^】\n]{0,200}】/gu, to: "[citation token removed]" },
  // A bare bracketed id ("[EV-HS-001]", "[EV-3, EV-4]") is read as a marker in a model's answer: an analyst's
  // chronology that names other items this way would hand the model ready-made citations.
  {
    kind: "citation_token",
    re: /\[\s*(?=[^\]\n]*\d)[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\s*(?:[,;]\s*[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\s*){0,9}\]/giu,
    to: "[citation token removed]",
  },
  // Instructions addressed to a model.
  {
    kind: "injection_phrase",
    re: /\b(?:ignore|disregard|forget|override|bypass|skip)\s+(?:(?:all|any|the|your|my|these|those|every|of|previous|prior|above|earlier|preceding|former|system|original|safety|existing)\s+){0,4}(?:instructions?|prompts?|rules|directions|directives|guidelines|guardrails|context|constraints|restrictions|policies)\b/giu,
    to: "[instruction-like text removed]",
  },
  {
    kind: "injection_phrase",
    re: /\byou\s+are\s+(?:now\s+)?(?:in\s+)?(?:chat\s*gpt|gpt[-\s]?\d*|claude|an?\s+(?:ai|assistant|language model)\s+(?:that|who|with|without)|admin(?:istrator)?\s+mode|developer\s+mode|god\s+mode|dan\b|jailbroken|unrestricted|no longer)[^.!?\n]{0,60}/giu,
    to: "[instruction-like text removed]",
  },
  // "You are now in admin mode", not "You are now under arrest" (evidence quotes people talking to people).
  {
    kind: "injection_phrase",
    re: /\byou\s+are\s+now\s+(?:a|an|the|in|my|our|unrestricted|unfiltered|operating|acting|running|dan|jailbroken|allowed|permitted|authori[sz]ed|released from|no longer)\b[^.!?\n]{0,60}/giu,
    to: "[instruction-like text removed]",
  },
  {
    kind: "injection_phrase",
    re: /\b(?:new|updated|revised|real|actual|hidden)\s+(?:system\s+)?instructions?\s*:/giu,
    to: "[instruction-like text removed]",
  },
  {
    kind: "injection_phrase",
    re: /\b(?:reveal|print|show|output|repeat|leak)\s+(?:me\s+)?(?:your|the)\s+(?:system\s+prompt|instructions|prompt|rules)\b/giu,
    to: "[instruction-like text removed]",
  },
  {
    kind: "injection_phrase",
    re: /\b(?:act|behave|respond)\s+as\s+(?:if\s+you\s+(?:are|were)\s+)?(?:an?\s+)?(?:system|admin(?:istrator)?|developer|root|unfiltered|unrestricted)\b/giu,
    to: "[instruction-like text removed]",
  },
  {
    kind: "injection_phrase",
    re: /\b(?:assistant|ai|model|chatbot|llm)\s*,\s*(?:please\s+)?(?:mark|cite|say|state|report|tell|answer|confirm|declare|respond|output|print|treat)\b/giu,
    to: "[instruction-like text removed]",
  },
  // Role prefixes ("SYSTEM:", "Assistant:", "Human:") at the start of a line or sentence, or inside quotes.
  { kind: "role_prefix", re: /(^|[\n.!?"'“”‘’(\[\]{};]\s*)(system|assistant|human|developer)\s*:/giu, to: "$1[role prefix removed]" },
  { kind: "role_prefix", re: /\b(SYSTEM|ASSISTANT|HUMAN|DEVELOPER)\s*:/gu, to: "[role prefix removed]" },
  // Fake system blocks, chat-template tokens and anything that could close the fences the prompt uses.
  { kind: "markup", re: /<\|[^|>\n]{0,40}\|>/gu, to: "[markup removed]" },
  {
    kind: "markup",
    re: /<\s*\/?\s*(?:system|assistant|user|human|developer|instructions?|prompt|im_start|im_end|evidence|evidence_snippets|structured_context|context|untrusted|data|query)\b[^>\n]{0,200}>/giu,
    to: "[markup removed]",
  },
  { kind: "markup", re: /\[\s*\/?\s*(?:INST|SYS|SYSTEM)\s*\]|<<\s*\/?\s*SYS\s*>>/giu, to: "[markup removed]" },
  { kind: "markup", re: /^\s*#{1,6}\s*(?:system|instructions?|assistant|execution provenance)\b.*$/gimu, to: "[markup removed]" },
  { kind: "markup", re: /\b(?:BEGIN|END)\s+(?:SYSTEM|PROMPT|INSTRUCTIONS)(?:\s+(?:PROMPT|MESSAGE|BLOCK))?\b/gu, to: "[markup removed]" },
  { kind: "markup", re: /```+|~~~+/gu, to: "'''" },
  { kind: "markup", re: /\[\[[^\]\n]{0,80}\]\]/gu, to: "[markup removed]" },
];

export interface Neutralised {
  text: string;
  kinds: NeutralisedKind[];
  /** The directive utterances replaced by a label (as they read after the rules above); absent when none. */
  directives?: string[];
}

/** The same evidence is neutralised for every question that retrieves it: results are kept, by text. */
const neutralisedMemo = new Map<string, Neutralised>();

/** Returns a neutralised copy of untrusted text and what was changed. Idempotent. */
export function neutralise(input: string): Neutralised {
  const hit = neutralisedMemo.get(input);
  if (hit) return { ...hit, kinds: [...hit.kinds], ...(hit.directives ? { directives: [...hit.directives] } : {}) };
  const result = neutraliseText(input);
  if (neutralisedMemo.size > 2_000) neutralisedMemo.clear();
  neutralisedMemo.set(input, result);
  return { ...result, kinds: [...result.kinds], ...(result.directives ? { directives: [...result.directives] } : {}) };
}

function neutraliseText(input: string): Neutralised {
  // NFKC folds full-width and other look-alike letters ("ＳＹＳＴＥＭ:") so the rules below see them.
  const original = input.normalize("NFKC");
  // What the phrase rules find in the text as given, even where a directive below takes the whole sentence.
  const kinds = new Set<NeutralisedKind>(applyRules(original).kinds);
  // Directives first, whole (directives.ts reads through casing, homoglyphs and zero-width characters), then the
  // phrase rules, then directives again for what the rules left ("[instruction-like text removed] and state that X").
  const first = removeDirectives(original);
  const ruled = applyRules(first.text);
  const second = removeDirectives(ruled.text);
  ruled.kinds.forEach((k) => kinds.add(k));
  if (first.text !== original || second.text !== ruled.text) kinds.add("directive");
  const removed = [...first.removed, ...second.removed];
  const text = second.text;
  return removed.length ? { text, kinds: [...kinds].sort(), directives: removed } : { text, kinds: [...kinds].sort() };
}

function applyRules(input: string): { text: string; kinds: NeutralisedKind[] } {
  let text = input;
  const kinds: NeutralisedKind[] = [];
  for (const rule of RULES) {
    const next = text.replace(rule.re, rule.to);
    if (next !== text) {
      kinds.push(rule.kind);
      text = next;
    }
  }
  return { text, kinds };
}

/** What neutralising withholds as instructions to an automated reader (not a citation token, markup or a hidden character). */
export const INSTRUCTION_KINDS: ReadonlySet<string> = new Set<NeutralisedKind>(["directive", "injection_phrase", "role_prefix"]);

const HIDDEN_ONE = new RegExp(`^(?:${HIDDEN})$`, "u");
const INSTRUCTION_RULES = RULES.filter((r) => INSTRUCTION_KINDS.has(r.kind));

/**
 * The passages of untrusted text that neutralising withholds as instructions (directives and the instruction phrase
 * rules), in the text's own offsets, joined when only spaces or punctuation stand between them: what the evidence
 * panel marks, so that an answer saying "part of EV-X reads as instructions" always has a passage to show.
 */
export function instructionPassages(input: string): Array<{ start: number; end: number }> {
  const spans = findDirectives(input).map((h) => ({ start: h.start, end: h.end }));
  // The phrase rules read the text as neutralising does (hidden characters out, look-alikes folded by NFKC); `at`
  // maps each character of that reading back to where it stands in the input.
  let folded = "";
  const at: number[] = [];
  let i = 0;
  for (const ch of input) {
    if (!HIDDEN_ONE.test(ch)) {
      for (const c of ch.normalize("NFKC")) {
        folded += c;
        for (let k = 0; k < c.length; k++) at.push(i);
      }
    }
    i += ch.length;
  }
  at.push(input.length);
  for (const rule of INSTRUCTION_RULES) {
    for (const m of folded.matchAll(rule.re)) {
      // (A role prefix's rule takes the break before it: the passage starts at its first letter.)
      const lead = /^[^\p{L}\p{N}]*/u.exec(m[0])?.[0].length ?? 0;
      const last = m.index + m[0].length - 1;
      if (last < m.index + lead) continue;
      spans.push({ start: at[m.index + lead], end: at[last] + (input.codePointAt(at[last])! > 0xffff ? 2 : 1) });
    }
  }
  const out: Array<{ start: number; end: number }> = [];
  for (const span of spans.sort((x, y) => x.start - y.start || x.end - y.end)) {
    const prev = out[out.length - 1];
    if (prev && (span.start <= prev.end || !/[\p{L}\p{N}]/u.test(input.slice(prev.end, span.start))))
      prev.end = Math.max(prev.end, span.end);
    else out.push({ ...span });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// Building the context

export interface ContextBuild {
  rawContext: RawContext;
  estimatedTokens: number;
  budget: number;
  leftOut: {
    snippetsByCap: number;
    nodesByCap: number;
    edgesByCap: number;
    snippetsByBudget: number;
    nodesByBudget: number;
    edgesByBudget: number;
    /** Set when the budget forced the graph to fewer hops than requested. */
    hopsReducedTo: number | null;
  };
  excerpts: number;
  neutralisedSnippets: number;
  /**
   * The directives removed from the evidence shown (not part of rawContext: the model never sees them). Validation
   * drops any claim that repeats one, whichever model wrote it.
   */
  directives: string[];
}

interface Sized<T> {
  item: T;
  chars: number;
}

export function buildContext(retrieved: Retrieved, limits: Limits): ContextBuild {
  const q = retrieved.analysis;
  const leftOut = {
    snippetsByCap: 0,
    nodesByCap: 0,
    edgesByCap: 0,
    snippetsByBudget: 0,
    nodesByBudget: 0,
    edgesByBudget: 0,
    hopsReducedTo: null as number | null,
  };

  // Caps: the best snippets; seeds, then the nodes nearest and most linked to the chosen snippets; edges among them.
  const chosenEvidence = retrieved.evidence.slice(0, limits.maxSnippets);
  leftOut.snippetsByCap = retrieved.evidence.length - chosenEvidence.length;
  const linkCount = new Map<string, number>();
  for (const e of chosenEvidence) for (const id of e.nodeIds) linkCount.set(id, (linkCount.get(id) ?? 0) + 1);
  const seedIndex = new Map(retrieved.seedIds.map((id, i) => [id, i]));
  const orderedNodes = [...retrieved.nodes].sort(
    (a, b) =>
      (seedIndex.has(a.id) ? 0 : 1) - (seedIndex.has(b.id) ? 0 : 1) ||
      (seedIndex.get(a.id) ?? 0) - (seedIndex.get(b.id) ?? 0) ||
      a.hop - b.hop ||
      (linkCount.get(b.id) ?? 0) - (linkCount.get(a.id) ?? 0) ||
      cmp(a.id, b.id),
  );
  const chosenNodes = orderedNodes.slice(0, limits.maxNodes);
  leftOut.nodesByCap = orderedNodes.length - chosenNodes.length;
  const nodeIds = new Set(chosenNodes.map((n) => n.id));
  const candidateEdges = retrieved.edges
    .filter((e) => nodeIds.has(e.source) && nodeIds.has(e.target))
    .sort((a, b) => touchesSeed(b, seedIndex) - touchesSeed(a, seedIndex) || cmp(a.id, b.id));
  const chosenEdges = candidateEdges.slice(0, limits.maxEdges);
  leftOut.edgesByCap = candidateEdges.length - chosenEdges.length;

  // Serialise, sized by the exact text the prompt will carry.
  let nodes: Array<Sized<ContextNode> & { hop: number; seed: boolean }> = chosenNodes.map((n) => {
    const item = toContextNode(n);
    return { item, chars: renderNode(item).length + 1, hop: n.hop, seed: seedIndex.has(n.id) };
  });
  let edges: Array<Sized<ContextEdge>> = chosenEdges.map((e) => {
    const item = toContextEdge(e);
    return { item, chars: renderEdge(item).length + 1 };
  });
  let excerpts = 0;
  const removedDirectives = new Map<string, string[]>();
  let snippets: Array<Sized<ContextSnippet>> = chosenEvidence.map((e) => {
    const { snippet: item, directives } = toSnippet(e, q);
    if (directives.length) removedDirectives.set(item.id, directives);
    if (item.excerpt) excerpts++;
    return { item, chars: renderSnippet(item).length + 1 };
  });

  const total = () => CONTEXT_OVERHEAD_CHARS + sum(nodes) + sum(edges) + sum(snippets);
  const budgetChars = limits.tokenBudget * 4;
  while (total() > budgetChars) {
    const farthest = Math.max(0, ...nodes.filter((n) => !n.seed).map((n) => n.hop));
    if (farthest > 1) {
      const keep = nodes.filter((n) => n.seed || n.hop < farthest);
      leftOut.nodesByBudget += nodes.length - keep.length;
      nodes = keep;
      leftOut.hopsReducedTo = farthest - 1;
    } else if (snippets.length > 1) {
      snippets = snippets.slice(0, -1);
      leftOut.snippetsByBudget++;
    } else if (edges.length > 0) {
      edges = edges.slice(0, -1);
      leftOut.edgesByBudget++;
    } else if (nodes.length > 0) {
      nodes = nodes.slice(0, -1);
      leftOut.nodesByBudget++;
    } else {
      break; // A single excerpted snippet always fits the smallest allowed budget; nothing left to narrow.
    }
    const present = new Set(nodes.map((n) => n.item.id));
    const before = edges.length;
    edges = edges.filter((e) => present.has(e.item.source) && present.has(e.item.target));
    leftOut.edgesByBudget += before - edges.length;
  }

  // A snippet lists only the linked nodes that are in this context (never the ids of hidden or omitted nodes).
  const present = new Set(nodes.map((n) => n.item.id));
  const finalSnippets = snippets.map((s) => ({ ...s.item, nodeIds: s.item.nodeIds.filter((id) => present.has(id)) }));
  const rawContext: RawContext = { nodes: nodes.map((n) => n.item), edges: edges.map((e) => e.item), evidenceSnippets: finalSnippets };
  const chars =
    CONTEXT_OVERHEAD_CHARS +
    rawContext.nodes.reduce((a, n) => a + renderNode(n).length + 1, 0) +
    rawContext.edges.reduce((a, e) => a + renderEdge(e).length + 1, 0) +
    rawContext.evidenceSnippets.reduce((a, s) => a + renderSnippet(s).length + 1, 0);
  return {
    rawContext,
    estimatedTokens: Math.ceil(chars / 4),
    budget: limits.tokenBudget,
    leftOut,
    excerpts,
    neutralisedSnippets: finalSnippets.filter((s) => s.neutralised).length,
    directives: [...new Set(finalSnippets.flatMap((s) => removedDirectives.get(s.id) ?? []))],
  };
}

export function toContextNode(n: { id: string; label: string; name: string; properties: Record<string, unknown> }): ContextNode {
  return {
    id: n.id,
    label: n.label,
    name: clip(neutralise(n.name).text, MAX_PROPERTY_CHARS),
    properties: contextProperties(n.properties, ["name"]),
  };
}

function toContextEdge(e: { id: string; source: string; type: string; target: string; properties: Record<string, unknown> }): ContextEdge {
  return { id: e.id, source: e.source, type: e.type, target: e.target, properties: contextProperties(e.properties, []) };
}

/** Scalar properties (and short lists of scalars), sorted by key, text neutralised and clipped at a word boundary. */
export function contextProperties(props: Record<string, unknown>, skip: string[]): Record<string, ContextValue> {
  const out: Record<string, ContextValue> = {};
  const scalar = (v: unknown): string | number | boolean | undefined => {
    if (typeof v === "string") return v.trim() ? clip(neutralise(v).text, MAX_PROPERTY_CHARS) : undefined;
    if (typeof v === "number") return Number.isFinite(v) ? v : undefined;
    if (typeof v === "boolean") return v;
    return undefined;
  };
  for (const key of Object.keys(props).sort()) {
    if (skip.includes(key) || Object.keys(out).length >= MAX_PROPERTIES) continue;
    const v = props[key];
    if (Array.isArray(v)) {
      const items = v
        .slice(0, MAX_ARRAY_ITEMS)
        .map(scalar)
        .filter((x): x is string | number | boolean => x !== undefined);
      if (items.length) out[clip(key, 60)] = items;
    } else {
      const s = scalar(v);
      if (s !== undefined) out[clip(key, 60)] = s;
    }
  }
  return out;
}

function toSnippet(e: Retrieved["evidence"][number], q: QuestionAnalysis): { snippet: ContextSnippet; directives: string[] } {
  // Neutralise first, then excerpt, so the excerpt's own separators are not rewritten (NFKC turns "…" into "...").
  const n = neutralise(e.content);
  let excerpt = false;
  if (n.text.length > MAX_SNIPPET_CHARS) {
    n.text = excerptOf(n.text, q);
    excerpt = true;
  }
  const snippet: ContextSnippet = {
    id: e.id,
    type: e.type,
    sourceSystem: e.sourceSystem,
    collectedAt: e.collectedAt,
    nodeIds: [...e.nodeIds].sort(),
    text: n.text,
  };
  if (excerpt) snippet.excerpt = true;
  if (n.kinds.length) snippet.neutralised = n.kinds;
  return { snippet, directives: n.directives ?? [] };
}

/**
 * The most relevant whole sentences of a long text, in their original order. " … " marks where sentences were left
 * out or a line ended; neighbours on one line are joined by a space, so an interviewer's turn of two sentences still
 * reads as one turn.
 */
export function excerptOf(text: string, q: Pick<QuestionAnalysis, "contentStems">): string {
  const spans = sentenceSpans(text);
  const scored = spans.map(({ start, end }, i) => {
    const s = text.slice(start, end);
    const stems = new Set(
      words(s)
        .filter((w) => !isStopword(w.lower))
        .map((w) => stem(w.lower)),
    );
    let hits = 0;
    for (const t of q.contentStems) if (stems.has(t)) hits++;
    return { s, i, hits };
  });
  const picked: typeof scored = [];
  let used = 0;
  for (const c of [...scored].sort((a, b) => b.hits - a.hits || a.i - b.i)) {
    const len = Math.min(c.s.length, MAX_SNIPPET_CHARS);
    if (used + len + 3 > MAX_SNIPPET_CHARS && picked.length) continue;
    picked.push(c.s.length > MAX_SNIPPET_CHARS ? { ...c, s: clip(c.s, MAX_SNIPPET_CHARS - 3) } : c);
    used += len + 3;
  }
  picked.sort((a, b) => a.i - b.i);
  const sameLine = (a: number, b: number) => b === a + 1 && !text.slice(spans[a].end, spans[b].start).includes("\n");
  return picked.map((c, k) => (k === 0 ? c.s : sameLine(picked[k - 1].i, c.i) ? ` ${c.s}` : ` … ${c.s}`)).join("");
}

/** Cuts at a word boundary and marks the cut. Used for properties and over-long single sentences only. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const at = cut.lastIndexOf(" ");
  return (at > max / 2 ? cut.slice(0, at) : cut) + "…";
}

const sum = (items: Array<{ chars: number }>) => items.reduce((a, b) => a + b.chars, 0);
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const touchesSeed = (e: { source: string; target: string }, seeds: Map<string, number>) =>
  (seeds.has(e.source) ? 1 : 0) + (seeds.has(e.target) ? 1 : 0);
