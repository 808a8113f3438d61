// Step 3 — Retrieve (bounded). Seed nodes from the question (ids mentioned, whole names, name words), evidence by
// full-text search (OR-ed terms, ranked), a k-hop expansion from the seeds, and the evidence linked to the subgraph.
// Each store result passes the policy gate (step 4) before retrieval uses it, so only what the asker may see steers
// the next query; what is hidden only leaves counts in the gate.
import type {
  CaseGraphStore,
  CaseScope,
  EvidenceReadOptions,
  EvidenceRecord,
  EvidenceStore,
  GraphEdgeRecord,
  GraphNodeRecord,
  SeedCandidate,
} from "../ports";
import type { PolicyGate } from "./policy-filter";
import { isIdLike, isStopword, stem, words, type Word } from "./text";
import type { Limits } from "./types";

export interface QuestionAnalysis {
  /** Identifier-like tokens as written (exact id matches). */
  ids: string[];
  /** Lower-cased 1–4 word sequences (whole-name matches). */
  phrases: string[];
  /** Content words for the name/id/label search vector (no stemming: the 'simple' configuration). */
  nodeTerms: string[];
  /** Content words for evidence full-text search (the 'english' configuration stems them). */
  textTerms: string[];
  /** Every content word, lower-cased, and its stem. */
  contentLower: Set<string>;
  contentStems: Set<string>;
  /** Content words written with a capital letter other than the question's first word. */
  capitalised: Set<string>;
}

const MAX_TERMS = 16;
const MAX_PHRASES = 300;
const MAX_IDS = 20;
/** Seeds taken from the question, and anchors added from the best evidence when the question names few entities. */
export const MAX_SEEDS = 10;
const MAX_ANCHORS = 5;
const SEED_CANDIDATES = 200;
const LINKED_EVIDENCE = 100;
const LINK_PROBE_NODES = 30;
/** What earlier turns of a thread cited counts for a little: it stays in view without outranking what the follow-up asks. */
const THREAD_EVIDENCE_BONUS = 0.2;

export function analyseQuestion(question: string): QuestionAnalysis {
  const ws = words(question);
  const content = ws.filter((w) => !isStopword(w.lower) && w.lower.length > 1);
  const uniq = (list: string[]) => [...new Set(list)];
  // Identifier-like tokens keep their case; sub-parts of compound ids ("did:ws-fin-0231" → "ws-fin-0231") also count.
  const ids = uniq(
    ws.filter((w) => isIdLike(w.raw)).flatMap((w) => [w.raw, ...w.raw.split(/[:/@#]/).filter((p) => p.length > 2 && p !== w.raw)]),
  ).slice(0, MAX_IDS);
  const phrases: string[] = [];
  for (let i = 0; i < ws.length && phrases.length < MAX_PHRASES; i++) {
    for (let n = 1; n <= 4 && i + n <= ws.length; n++) {
      const span = ws.slice(i, i + n);
      if (isStopword(span[0].lower) || isStopword(span[n - 1].lower)) continue;
      phrases.push(span.map((w) => w.lower).join(" "));
    }
  }
  const terms = uniq(content.map((w) => w.lower)).slice(0, MAX_TERMS);
  return {
    ids,
    phrases: uniq(phrases).slice(0, MAX_PHRASES),
    nodeTerms: terms,
    textTerms: terms,
    contentLower: new Set(content.map((w) => w.lower)),
    contentStems: new Set(content.map((w) => stem(w.lower))),
    capitalised: new Set(content.filter((w: Word) => w.capitalised && w.index > 0 && w.lower.length >= 4).map((w) => w.lower)),
  };
}

/**
 * How strongly a candidate node is named by the question: an exact id or whole-name match is decisive; otherwise the
 * share of the name's content words the question contains (≥ half), or a capitalised name word (a proper noun such
 * as "Bayline" or "Kovac"). 0 means "not a seed".
 */
export function seedScore(candidate: SeedCandidate, q: QuestionAnalysis): number {
  const { node } = candidate;
  if (candidate.match === "id" || q.ids.includes(node.id)) return 3;
  const name = node.name.toLowerCase();
  if (candidate.match === "name" || q.phrases.includes(name)) return 2.5;
  const nameWords = [
    ...new Set(
      words(node.name)
        .map((w) => w.lower)
        .filter((w) => !isStopword(w)),
    ),
  ];
  if (!nameWords.length) return 0;
  const matched = nameWords.filter((w) => q.contentLower.has(w) || (!isIdLike(w) && q.contentStems.has(stem(w))));
  if (!matched.length) return 0;
  const coverage = matched.length / nameWords.length;
  if (coverage >= 0.5) return 1 + coverage;
  if (matched.some((w) => q.capitalised.has(w))) return 1;
  return 0;
}

export interface RankedEvidence extends EvidenceRecord {
  score: number;
  /** Full-text rank from the store (0 when found only through a link or an id). */
  ftsRank: number;
}

export interface Retrieved {
  analysis: QuestionAnalysis;
  /** Visible seed node ids: those named by the question first, then anchors from the best evidence. */
  seedIds: string[];
  questionSeedIds: string[];
  /** Visible nodes reachable from a seed through visible edges within `hops`, nearest first. */
  nodes: Array<GraphNodeRecord & { hop: number }>;
  edges: GraphEdgeRecord[];
  /** Visible evidence, best first. */
  evidence: RankedEvidence[];
  /** A store cap stopped the expansion. */
  truncated: boolean;
}

export interface RetrievalStores {
  graph: CaseGraphStore;
  evidence: EvidenceStore;
}

/**
 * `thread`: a follow-up's seeds — the nodes and evidence earlier turns of its thread cited, already re-read from the
 * stores (issue 18). They pass this request's gate like everything else and steer retrieval as anchors do.
 * `reads`: which evidence lifecycle states the evidence reads admit (active only unless the caller says otherwise).
 */
export async function retrieve(
  stores: RetrievalStores,
  scope: CaseScope,
  question: string,
  limits: Limits,
  gate: PolicyGate,
  thread: { nodes: readonly GraphNodeRecord[]; evidence: readonly EvidenceRecord[] } = { nodes: [], evidence: [] },
  reads: EvidenceReadOptions = {},
): Promise<Retrieved> {
  const q = analyseQuestion(question);

  // Seeds named by the question, evidence matching its words, evidence it names by id — in parallel.
  const [seedCandidates, textHits, namedEvidence] = await Promise.all([
    q.ids.length || q.phrases.length || q.nodeTerms.length
      ? stores.graph.findSeedNodes(scope, { ids: q.ids, phrases: q.phrases, terms: q.nodeTerms, limit: SEED_CANDIDATES })
      : Promise.resolve([]),
    q.textTerms.length
      ? stores.evidence.search(scope, { terms: q.textTerms, limit: Math.min(limits.maxSnippets * 3, 150) }, reads)
      : Promise.resolve([]),
    q.ids.length ? stores.evidence.byIds(scope, q.ids, reads) : Promise.resolve([]),
  ]);

  const scored = seedCandidates
    .map((c) => ({ node: c.node, score: seedScore(c, q) }))
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || cmp(a.node.id, b.node.id));
  const visibleSeedIds = new Set(gate.nodes(scored.map((c) => c.node)).map((n) => n.id));
  const questionSeeds = scored
    .filter((c) => visibleSeedIds.has(c.node.id))
    .slice(0, MAX_SEEDS)
    .map((c) => c.node);

  const visibleText = gate.evidence(textHits);
  const visibleNamed = gate.evidence(namedEvidence);

  // Anchors: when the question names fewer than two entities, the nodes the best visible evidence is about.
  let anchors: GraphNodeRecord[] = [];
  if (questionSeeds.length < 2 && visibleText.length) {
    const seedSet = new Set(questionSeeds.map((n) => n.id));
    const freq = new Map<string, number>();
    for (const e of visibleText.slice(0, 5)) for (const id of e.nodeIds) if (!seedSet.has(id)) freq.set(id, (freq.get(id) ?? 0) + 1);
    const wanted = [...freq.entries()]
      .sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]))
      .slice(0, MAX_ANCHORS * 2)
      .map(([id]) => id);
    if (wanted.length) {
      const found = await stores.graph.nodesByIds(scope, wanted);
      const order = new Map(wanted.map((id, i) => [id, i]));
      anchors = gate
        .nodes(found)
        .sort((a, b) => order.get(a.id)! - order.get(b.id)!)
        .slice(0, MAX_ANCHORS);
    }
  }
  // A follow-up's thread seeds: what earlier turns cited, visible now, after what this question names.
  const named = new Set([...questionSeeds, ...anchors].map((n) => n.id));
  const threadSeeds = gate.nodes(thread.nodes).filter((n) => !named.has(n.id));
  const seeds = [...questionSeeds, ...anchors, ...threadSeeds];
  const seedIds = seeds.map((n) => n.id);

  // k-hop expansion over the raw graph (over-fetching, since some of it will be hidden), then only what is visible
  // and reachable from a visible seed through visible edges, with hop distances recomputed on that visible graph.
  let nodes: Array<GraphNodeRecord & { hop: number }> = seeds.map((n) => ({ ...n, hop: 0 }));
  let edges: GraphEdgeRecord[] = [];
  let truncated = false;
  if (seedIds.length && limits.hops > 0) {
    const sub = await stores.graph.expand(scope, seedIds, {
      hops: limits.hops,
      maxNodes: Math.min(limits.maxNodes * 2, 200),
      maxEdges: Math.min(Math.max(limits.maxEdges, 1) * 2, 400),
    });
    truncated = sub.truncated;
    const visibleNodes = gate.nodes(sub.nodes);
    const visibleEdges = gate.edges(sub.edges);
    const reach = reachable(
      seedIds,
      visibleNodes.map((n) => n.id),
      visibleEdges,
      limits.hops,
    );
    const byId = new Map<string, GraphNodeRecord>(visibleNodes.map((n) => [n.id, n]));
    for (const s of seeds) byId.set(s.id, s);
    nodes = [...reach.entries()]
      .filter(([id]) => byId.has(id))
      .map(([id, hop]) => ({ ...byId.get(id)!, hop }))
      .sort((a, b) => a.hop - b.hop || seedRank(seedIds, a.id) - seedRank(seedIds, b.id) || cmp(a.id, b.id));
    const kept = new Set(nodes.map((n) => n.id));
    edges = visibleEdges.filter((e) => kept.has(e.source) && kept.has(e.target));
  }

  // Evidence linked to the seeds and their nearest neighbours.
  const probe = nodes.slice(0, LINK_PROBE_NODES).map((n) => n.id);
  const linked = probe.length ? gate.evidence(await stores.evidence.linkedTo(scope, probe, LINKED_EVIDENCE, reads)) : [];

  const evidence = rankEvidence({
    text: visibleText,
    named: visibleNamed,
    linked,
    thread: gate.evidence(thread.evidence),
    questionSeedIds: new Set(questionSeeds.map((n) => n.id)),
    anchorIds: new Set([...anchors, ...threadSeeds].map((n) => n.id)),
    contextIds: new Set(nodes.map((n) => n.id)),
  });
  return { analysis: q, seedIds, questionSeedIds: questionSeeds.map((n) => n.id), nodes, edges, evidence, truncated };
}

/** BFS distances from the seeds over the given (visible) edges, up to `hops`. */
export function reachable(
  seedIds: readonly string[],
  nodeIds: readonly string[],
  edges: readonly GraphEdgeRecord[],
  hops: number,
): Map<string, number> {
  const present = new Set([...nodeIds, ...seedIds]);
  const adj = new Map<string, string[]>();
  for (const e of edges) {
    if (!present.has(e.source) || !present.has(e.target)) continue;
    (adj.get(e.source) ?? adj.set(e.source, []).get(e.source)!).push(e.target);
    (adj.get(e.target) ?? adj.set(e.target, []).get(e.target)!).push(e.source);
  }
  const dist = new Map<string, number>(seedIds.map((id) => [id, 0]));
  let frontier = [...seedIds];
  for (let hop = 1; hop <= hops && frontier.length; hop++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const n of adj.get(id) ?? []) {
        if (dist.has(n)) continue;
        dist.set(n, hop);
        next.push(n);
      }
    }
    frontier = next;
  }
  return dist;
}

function rankEvidence(input: {
  text: Array<EvidenceRecord & { rank: number }>;
  named: EvidenceRecord[];
  linked: EvidenceRecord[];
  /** Evidence earlier turns of a follow-up's thread cited (visible now). */
  thread: EvidenceRecord[];
  questionSeedIds: Set<string>;
  anchorIds: Set<string>;
  contextIds: Set<string>;
}): RankedEvidence[] {
  const maxRank = Math.max(0, ...input.text.map((e) => e.rank));
  const all = new Map<string, RankedEvidence>();
  const add = (e: EvidenceRecord, ftsRank: number, bonus: number) => {
    const prev = all.get(e.id);
    if (prev) {
      prev.ftsRank = Math.max(prev.ftsRank, ftsRank);
      prev.score += bonus;
      return;
    }
    const { id, type, content, sourceSystem, collectedAt, nodeIds, tenantId, classification, needToKnow, licenseUses, expiredAt } = e;
    all.set(id, {
      id,
      type,
      content,
      sourceSystem,
      collectedAt,
      nodeIds,
      tenantId,
      classification,
      needToKnow,
      licenseUses,
      ...(expiredAt ? { expiredAt } : {}),
      ftsRank,
      score: bonus,
    });
  };
  for (const e of input.text) add(e, e.rank, 0);
  for (const e of input.named) add(e, 0, 3);
  for (const e of input.linked) add(e, 0, 0);
  for (const e of input.thread) add(e, 0, THREAD_EVIDENCE_BONUS);
  for (const e of all.values()) {
    const fts = maxRank > 0 ? e.ftsRank / maxRank : 0;
    let seedLinks = 0,
      anchorLinks = 0,
      contextLinks = 0;
    for (const id of e.nodeIds) {
      if (input.questionSeedIds.has(id)) seedLinks++;
      else if (input.anchorIds.has(id)) anchorLinks++;
      else if (input.contextIds.has(id)) contextLinks++;
    }
    e.score = round6(e.score + fts + 0.6 * Math.min(seedLinks, 2) + 0.15 * Math.min(anchorLinks, 2) + 0.05 * Math.min(contextLinks, 4));
  }
  return [...all.values()].filter((e) => e.score > 0).sort((a, b) => b.score - a.score || cmp(a.id, b.id));
}

const round6 = (x: number) => Math.round(x * 1e6) / 1e6;
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const seedRank = (seedIds: string[], id: string) => {
  const i = seedIds.indexOf(id);
  return i < 0 ? seedIds.length : i;
};
