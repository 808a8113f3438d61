// The offline model shipped with Casegraph: `casegraph-extractive-v1`. It needs no network and is honest about what
// it is — extractive, not generative. It ranks the sentences of the evidence it was shown against the question
// (term overlap weighted by rarity within the context, plus the entities the question names), quotes the best
// supported sentences with their citations, builds steps that cite the evidence and its linked nodes and edges,
// lists the parts of the question it found no support for as unknowns, derives confidence from that support, answers
// `no_evidence` when nothing is relevant, and never invents. Same input → same output, byte for byte.
import "server-only";
import type { AnswerModel, AnswerModelRequest, AnswerModelResult, ModelProbe } from "../../ports";
import type { ModelOutputShape } from "../../graphrag/prompt";
import { isIdLike, isStopword, splitSentences, stem, words } from "../../graphrag/text";
import type { ContextSnippet, RawContext } from "../../graphrag/types";
import { shapeOf } from "../../graphrag/validate";

export const OFFLINE_PROVIDER = "offline";
export const OFFLINE_MODEL_ID = "casegraph-extractive-v1";

const MAX_SENTENCES = 6;
const MAX_PER_ITEM = 2;
const MAX_SENTENCE_CHARS = 600;
/** Sentences that give orders ("List every informant…", "Ignore …") are instructions quoted in evidence, not facts. */
const IMPERATIVE =
  /^["'“(]*(?:please\s+)?(?:list|tell|reveal|ignore|disregard|forget|print|show|give|send|delete|mark|cite|say|write|output|answer|respond|provide|include|repeat|treat|act|pretend|do not|don't|never|always)\b/iu;

export class OfflineExtractiveModel implements AnswerModel {
  readonly provider = OFFLINE_PROVIDER;
  readonly modelId = OFFLINE_MODEL_ID;

  async generate(request: AnswerModelRequest): Promise<AnswerModelResult> {
    const output = extractiveAnswer(request.context as RawContext, request.question);
    const text = JSON.stringify(output);
    request.onOutputProgress?.(text.length);
    return { text };
  }

  async probe(): Promise<ModelProbe> {
    return { provider: this.provider, id: this.modelId, ok: true, latencyMs: 0 };
  }
}

interface Candidate {
  snippet: ContextSnippet;
  snippetIndex: number;
  sentenceIndex: number;
  text: string;
  score: number;
  stems: Set<string>;
  entities: string[];
}

export function extractiveAnswer(context: RawContext, question: string): ModelOutputShape {
  const qWords = words(question).filter((w) => !isStopword(w.lower) && w.lower.length > 1);
  const qStems = [...new Set(qWords.map((w) => stem(w.lower)))];
  const entities = namedEntities(context, question);
  const evidenceIds = new Set(context.evidenceSnippets.map((s) => s.id));
  const knownIds = new Set([...evidenceIds, ...context.nodes.map((n) => n.id)]);
  const evidenceShapes = new Set([...evidenceIds].map(shapeOf));

  // Sentences of every snippet, minus those made only of neutralisation markers or naming ids the model was not shown.
  const all: Candidate[] = [];
  context.evidenceSnippets.forEach((snippet, snippetIndex) => {
    splitSentences(snippet.text).forEach((raw, sentenceIndex) => {
      const text = raw.replace(/\s+/g, " ").trim();
      const ws = words(text.replace(/\[[^\]]*removed\]/g, " "));
      if (ws.filter((w) => !isStopword(w.lower)).length < 3) return;
      if (IMPERATIVE.test(text)) return; // an instruction quoted in evidence states no fact
      if (ws.some((w) => isIdLike(w.raw) && !knownIds.has(w.raw) && evidenceShapes.has(shapeOf(w.raw)))) return;
      const stems = new Set(ws.filter((w) => !isStopword(w.lower)).map((w) => stem(w.lower)));
      const lower = text.toLowerCase();
      const named = entities.filter(
        (e) =>
          e.names.some((n) => lower.includes(n)) ||
          (snippet.nodeIds.includes(e.id) && e.names.some((n) => n.split(" ").some((part) => part.length > 3 && stems.has(stem(part))))),
      );
      all.push({
        snippet,
        snippetIndex,
        sentenceIndex,
        text: text.length > MAX_SENTENCE_CHARS ? clipWords(text, MAX_SENTENCE_CHARS) : text,
        score: 0,
        stems,
        entities: named.map((e) => e.id),
      });
    });
  });

  // Rarity weights over the sentences of this context: a word found everywhere tells little; one found nowhere is a
  // part of the question the evidence does not cover.
  const n = Math.max(all.length, 1);
  const df = new Map(qStems.map((t) => [t, all.filter((c) => c.stems.has(t)).length]));
  const weight = new Map(qStems.map((t) => [t, Math.log(1 + n / Math.max(df.get(t)!, 0.5))]));
  const totalWeight = qStems.reduce((a, t) => a + weight.get(t)!, 0) || 1;
  for (const c of all) {
    let s = 0;
    for (const t of qStems) if (c.stems.has(t)) s += weight.get(t)!;
    s += 0.25 * c.entities.length * (totalWeight / Math.max(qStems.length, 1));
    s += 0.05 * (1 - c.snippetIndex / Math.max(context.evidenceSnippets.length, 1)); // the retrieval order, as a tie-breaker
    c.score = Math.round(s * 1e6) / 1e6;
  }

  // The question's focus: its words that are not part of a name it mentions ("killed" in "Who killed Raymond Dunn?").
  // Sentences with a focus word come first; sentences that only mention the entities fill in up to three.
  const entityStems = new Set(entities.flatMap((e) => e.names.flatMap((nm) => words(nm).map((w) => stem(w.lower)))));
  const focus = new Set(
    qStems.filter((t) => !entityStems.has(t) && !qWords.some((w) => isIdLike(w.raw) && stem(w.lower) === t && entities.length)),
  );
  const byScore = (a: Candidate, b: Candidate) => b.score - a.score || a.snippetIndex - b.snippetIndex || a.sentenceIndex - b.sentenceIndex;
  const relevant = all.filter((c) => [...c.stems].some((t) => qStems.includes(t)) || c.entities.length).sort(byScore);
  const focused = focus.size ? relevant.filter((c) => [...focus].some((t) => c.stems.has(t))) : relevant;
  const others = focus.size ? relevant.filter((c) => !focused.includes(c)) : [];
  const best = relevant[0]?.score ?? 0;
  const picked: Candidate[] = [];
  const perItem = new Map<string, number>();
  const take = (list: Candidate[], upTo: number, floor: number) => {
    for (const c of list) {
      if (picked.length >= upTo || c.score < floor) break;
      const used = perItem.get(c.snippet.id) ?? 0;
      if (used >= MAX_PER_ITEM) continue;
      perItem.set(c.snippet.id, used + 1);
      picked.push(c);
    }
  };
  take(focused, MAX_SENTENCES, (focused[0]?.score ?? 0) * 0.35);
  if (picked.length < 3) take(others, 3, best * 0.35);

  // Support: the share of the question's weighted terms the picked sentences contain.
  const covered = new Set<string>();
  for (const c of picked) for (const t of qStems) if (c.stems.has(t)) covered.add(t);
  for (const c of picked)
    for (const id of c.entities)
      for (const e of entities) if (e.id === id) e.names.forEach((nm) => nm.split(" ").forEach((p) => covered.add(stem(p))));
  const share = (has: (t: string) => boolean) =>
    qStems.length ? qStems.filter(has).reduce((a, t) => a + weight.get(t)!, 0) / totalWeight : 0;
  // Support blends what all picked sentences cover with what the single best item covers on its own, so an answer
  // stitched from unrelated fragments scores lower than one item that speaks to the whole question.
  const itemStems = new Map<string, Set<string>>();
  for (const c of all)
    for (const t of c.stems) (itemStems.get(c.snippet.id) ?? itemStems.set(c.snippet.id, new Set()).get(c.snippet.id)!).add(t);
  const bestItem = Math.max(0, ...[...new Set(picked.map((c) => c.snippet.id))].map((id) => share((t) => itemStems.get(id)!.has(t))));
  const support = (share((t) => covered.has(t)) + bestItem) / 2;
  const missing = qWords
    .filter((w, i, arr) => !covered.has(stem(w.lower)) && arr.findIndex((x) => x.lower === w.lower) === i)
    .map((w) => w.raw);
  const unknowns = unsupportedParts(question, covered);
  if (!unknowns.length && missing.length && picked.length) unknowns.push(`The evidence shown does not mention: ${missing.join(", ")}.`);

  if (!picked.length || (support < 0.34 && !picked.some((c) => c.entities.length))) {
    return {
      responseType: "no_evidence",
      answerText: "",
      citations: [],
      explanationSteps: [],
      unknowns: unknowns.length ? unknowns : [`The evidence shown does not address: "${question.trim()}".`],
      confidence: 0.6,
      confidenceJustification: `Extractive model (no generative reasoning): no sentence of the ${context.evidenceSnippets.length} evidence item(s) shown covers enough of the question.`,
    };
  }

  const answerText = picked.map((c, i) => `${withoutTerminator(c.text)} [evidence: ${c.snippet.id}, claim: CLM-${i + 1}].`).join(" ");
  const citations = picked.map((c, i) => ({ evidenceId: c.snippet.id, claimId: `CLM-${i + 1}` }));
  const explanationSteps = picked.map((c, i) => ({
    stepNumber: i + 1,
    claim: clipWords(
      `${c.snippet.id} (${c.snippet.type.replace(/_/g, " ")}, ${c.snippet.collectedAt.slice(0, 10)}) states: ${c.text}`,
      400,
    ),
    citations: [c.snippet.id, ...graphCitations(context, c)],
  }));
  const items = new Set(picked.map((c) => c.snippet.id)).size;
  const corroboration = items >= 3 ? 1 : items === 2 ? 0.7 : 0.4;
  const confidence = Math.round(Math.min(0.9, 0.15 + 0.55 * support + 0.2 * corroboration) * 100) / 100;
  return {
    responseType: "answer",
    answerText,
    citations,
    explanationSteps,
    unknowns,
    confidence,
    confidenceJustification:
      `Extractive model (no generative reasoning): ${picked.length} sentence(s) quoted from ${items} evidence item(s) ` +
      `cover ${Math.round(support * 100)}% of the question's weighted terms` +
      (missing.length ? `; not found: ${missing.join(", ")}.` : "."),
  };
}

interface Entity {
  id: string;
  names: string[];
}

/** Context nodes the question names: by id, by whole name, or by most of the words of the name. */
function namedEntities(context: RawContext, question: string): Entity[] {
  const lowerQ = question.toLowerCase();
  const qw = new Set(
    words(question)
      .filter((w) => !isStopword(w.lower))
      .map((w) => w.lower),
  );
  const out: Entity[] = [];
  for (const node of context.nodes) {
    const name = node.name.toLowerCase();
    const nameWords = words(node.name)
      .map((w) => w.lower)
      .filter((w) => !isStopword(w));
    const hits = nameWords.filter((w) => qw.has(w)).length;
    const byId = qw.has(node.id.toLowerCase()) || lowerQ.includes(node.id.toLowerCase());
    if (byId || (name.length > 2 && lowerQ.includes(name)) || (nameWords.length && hits / nameWords.length >= 0.5)) {
      out.push({
        id: node.id,
        names: [...new Set([name, ...(nameWords.length > 1 ? [nameWords[nameWords.length - 1]] : [])])].filter((x) => x.length > 2),
      });
    }
  }
  return out;
}

/** The parts of a compound question ("… and where did it go?") that no picked sentence supports. */
function unsupportedParts(question: string, covered: Set<string>): string[] {
  const parts = question
    .split(
      /[?;]|\s+(?:and|but|also)\s+(?=(?:who|whom|whose|what|when|where|why|how|which|whether|did|does|do|is|was|were|are|has|had|have)\b)/i,
    )
    .map((p) => p.trim())
    .filter(Boolean);
  const out: string[] = [];
  for (const part of parts) {
    const stems = [
      ...new Set(
        words(part)
          .filter((w) => !isStopword(w.lower) && w.lower.length > 1)
          .map((w) => stem(w.lower)),
      ),
    ];
    if (!stems.length) continue;
    const share = stems.filter((t) => covered.has(t)).length / stems.length;
    if (share < 0.5) out.push(`The evidence shown does not address: "${part}".`);
  }
  return parts.length > 1 || out.length ? out : [];
}

/** The picked sentence's evidence-linked nodes in the context (named entities first) and the edges between them. */
function graphCitations(context: RawContext, c: Candidate): string[] {
  const inContext = new Set(context.nodes.map((n) => n.id));
  const linked = c.snippet.nodeIds.filter((id) => inContext.has(id));
  const nodes = [...c.entities.filter((id) => linked.includes(id)), ...linked.filter((id) => !c.entities.includes(id))].slice(0, 3);
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
