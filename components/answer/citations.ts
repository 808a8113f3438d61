// Inline citation markers → segments, and where a cited passage sits in an evidence text. Pure functions: the renderer
// (citation-text.tsx) turns segments into React elements, so no text from evidence or the model is ever parsed as HTML.
//
// Marker grammar (seed 002, as validation normalises it): `[evidence: EV-ID]` or `[evidence: EV-ID, claim: CLM-ID]`.
// A marker whose evidence id is not among the ids the caller knows (the answer's citations that are in its context)
// is inert: it stays plain text and gets no chip, so an invented id can never be followed.

export type Segment =
  | { kind: "text"; text: string }
  | {
      kind: "cite";
      raw: string;
      evidenceId: string;
      claimId: string | null;
      /** The sentence the marker supports (text since the previous sentence end or marker). */
      claim: string;
    };

const MARKER = /\[\s*evidence\s*:\s*([^\]\s,]{1,200})\s*(?:,\s*claim\s*:\s*([^\]\s,]{1,200})\s*)?\]/g;

/** Splits text into plain runs and citation markers. Markers with unknown evidence ids stay in the text runs. */
export function parseCitations(text: string, isKnown: (evidenceId: string) => boolean): Segment[] {
  const out: Segment[] = [];
  let last = 0;
  let claimStart = 0;
  const pushText = (t: string) => {
    if (!t) return;
    const prev = out[out.length - 1];
    if (prev && prev.kind === "text") prev.text += t;
    else out.push({ kind: "text", text: t });
  };
  for (const m of text.matchAll(MARKER)) {
    const at = m.index ?? 0;
    const evidenceId = m[1];
    if (!isKnown(evidenceId)) continue; // inert: left for the next text run
    pushText(text.slice(last, at));
    out.push({ kind: "cite", raw: m[0], evidenceId, claimId: m[2] ?? null, claim: claimBefore(text, claimStart, at) });
    last = at + m[0].length;
    // Adjacent markers after one sentence support the same sentence.
    if (!/^\s*\[\s*evidence\s*:/.test(text.slice(last))) claimStart = last;
  }
  pushText(text.slice(last));
  return out;
}

/** The sentence ending at `end`: from the last sentence end (or `from`) up to the marker, markers removed. */
function claimBefore(text: string, from: number, end: number): string {
  const span = text.slice(from, end).replace(MARKER, " ");
  let cut = 0;
  for (const m of span.matchAll(/[.!?]["'”’)]*\s+/g)) {
    const after = (m.index ?? 0) + m[0].length;
    if (span.slice(after).trim()) cut = after;
  }
  return span.slice(cut).replace(/\s+/g, " ").trim();
}

/** Evidence ids cited inline, in order of first appearance (known ids only). */
export function citedIds(text: string, isKnown: (id: string) => boolean): string[] {
  const ids: string[] = [];
  for (const s of parseCitations(text, isKnown)) if (s.kind === "cite" && !ids.includes(s.evidenceId)) ids.push(s.evidenceId);
  return ids;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
const STOP = new Set([
  "the",
  "and",
  "for",
  "that",
  "with",
  "was",
  "were",
  "from",
  "this",
  "his",
  "her",
  "has",
  "had",
  "are",
  "not",
  "but",
  "they",
  "their",
  "states",
  "said",
  "evidence",
]);

function words(s: string): string[] {
  return (s.toLowerCase().match(WORD) ?? []).filter((w) => w.length > 2 && !STOP.has(w));
}

/** Sentence spans of a text: [start, end) offsets. */
export function sentenceSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  const re = /[^.!?\n]+(?:[.!?]+["'”’)]*|\n|$)/g;
  for (const m of text.matchAll(re)) {
    const raw = m[0];
    const lead = raw.length - raw.trimStart().length;
    const start = (m.index ?? 0) + lead;
    const end = (m.index ?? 0) + raw.trimEnd().length;
    if (end > start) spans.push([start, end]);
  }
  return spans;
}

/**
 * Where the cited claim sits in the evidence text: the claim itself when it is quoted verbatim, otherwise the sentence
 * (or two adjacent sentences) sharing the most words with it. Null when nothing shares at least two words.
 */
export function locatePassage(content: string, claim: string): { start: number; end: number } | null {
  const trimmed = claim
    .replace(/^EV-[^\s]+ \([^)]*\) states:\s*/u, "")
    .replace(/[.!?]+$/, "")
    .trim();
  if (trimmed.length >= 12) {
    const at = content.toLowerCase().indexOf(trimmed.toLowerCase());
    if (at >= 0) return { start: at, end: at + trimmed.length };
  }
  const want = new Set(words(trimmed));
  if (want.size === 0) return null;
  const spans = sentenceSpans(content);
  let best: { start: number; end: number; score: number } | null = null;
  const consider = (start: number, end: number, penalty: number) => {
    const got = new Set(words(content.slice(start, end)));
    let hit = 0;
    for (const w of want) if (got.has(w)) hit++;
    const score = hit - penalty;
    if (hit >= 2 && (!best || score > best.score)) best = { start, end, score };
  };
  spans.forEach(([s, e], i) => {
    consider(s, e, 0);
    if (i + 1 < spans.length) consider(s, spans[i + 1][1], 0.5);
  });
  const found = best as { start: number; end: number; score: number } | null;
  return found ? { start: found.start, end: found.end } : null;
}

/** Explanation-step citations: evidence ids, node ids, and edges written `source:TYPE:target`. */
export function classifyStepCitations(
  ids: readonly string[],
  known: { evidence: (id: string) => boolean; node: (id: string) => boolean; edge: (key: string) => boolean },
): { evidence: string[]; nodes: string[]; edges: string[]; unknown: string[] } {
  const out = { evidence: [] as string[], nodes: [] as string[], edges: [] as string[], unknown: [] as string[] };
  for (const id of ids) {
    if (known.evidence(id)) out.evidence.push(id);
    else if (known.node(id)) out.nodes.push(id);
    else if (known.edge(id)) out.edges.push(id);
    else out.unknown.push(id);
  }
  return out;
}
