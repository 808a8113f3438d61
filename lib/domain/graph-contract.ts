// The CaseGraphStore contract's store-independent rules (lib/ports.ts documents the contract). Both graph stores —
// PostgreSQL (lib/adapters/prisma/graph-store.ts) and Neo4j (lib/adapters/neo4j/graph-store.ts) — use these functions,
// so seed matching, ranking, id order and the k-hop expansion are the same by construction, not by coincidence:
//
// - search tokens: the words of a node's name, id and label that text seeds match (also written, as the same rule,
//   in SQL: cg_search_tokens() in prisma/migrations/20261121050000_graph_search_tokens);
// - id order: Unicode code point order (= UTF-8 byte order = PostgreSQL's "C" collation); Neo4j sorts by `idKey`;
// - the breadth-first expansion with its node and edge caps and the exact meaning of `truncated`.
// Pure and deterministic: no I/O.
import type { CaseOutline, GraphEdgeRecord, GraphNodeRecord, SeedCandidate, Subgraph, SubgraphLimits } from "../ports";

// ---------------------------------------------------------------------------------------------------------------
// Properties

/** A node's or edge's properties as the stores hand them back (JSON text or an object): always a plain object. */
export function propertiesObject(v: unknown): Record<string, unknown> {
  if (typeof v === "string") {
    try {
      v = JSON.parse(v);
    } catch {
      return {};
    }
  }
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

// ---------------------------------------------------------------------------------------------------------------
// Search tokens

/**
 * Characters that separate search tokens (inclusive code point ranges): every ASCII character that is not a letter
 * or digit, the C1 controls and Latin-1 punctuation/symbols, × and ÷, the Ogham and Mongolian spaces, General
 * Punctuation (spaces, dashes, quotes), Supplemental Punctuation, CJK punctuation, the BOM and full-width ASCII
 * punctuation. Everything else (letters, digits, other scripts and symbols) is part of a token. The SQL function
 * cg_search_tokens() uses exactly this set (SEPARATOR_PATTERN); a test compares the two.
 */
export const SEPARATOR_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x0001, 0x002f],
  [0x003a, 0x0040],
  [0x005b, 0x0060],
  [0x007b, 0x00bf],
  [0x00d7, 0x00d7],
  [0x00f7, 0x00f7],
  [0x1680, 0x1680],
  [0x180e, 0x180e],
  [0x2000, 0x206f],
  [0x2e00, 0x2e7f],
  [0x3000, 0x303f],
  [0xfeff, 0xfeff],
  [0xff01, 0xff0f],
  [0xff1a, 0xff20],
  [0xff3b, 0xff40],
  [0xff5b, 0xff65],
];

/** Tokens longer than this many code points are not indexed (PostgreSQL lexemes and Lucene terms have limits). */
export const MAX_TOKEN_CHARS = 100;

const hex4 = (n: number) => n.toString(16).padStart(4, "0");
/** The separator class as a regular expression bracket, valid in both JavaScript (u flag) and PostgreSQL AREs. */
export const SEPARATOR_PATTERN = `[${SEPARATOR_RANGES.map(([a, b]) => (a === b ? `\\u${hex4(a)}` : `\\u${hex4(a)}-\\u${hex4(b)}`)).join("")}]+`;
const SEPARATORS = new RegExp(SEPARATOR_PATTERN, "u");

/**
 * Lower-cases code point by code point with the Unicode simple case mapping — what PostgreSQL's lower() does in a
 * UTF-8 locale (C.UTF-8 included): no context-sensitive final sigma, and "İ" becomes "i" rather than "i̇".
 */
export function simpleLower(text: string): string {
  let out = "";
  for (const ch of text) {
    const lower = ch.toLowerCase();
    out += lower.length === ch.length ? lower : String.fromCodePoint(lower.codePointAt(0)!);
  }
  return out;
}

/** The distinct search tokens of a text: lower-cased, split on SEPARATOR_RANGES, at most MAX_TOKEN_CHARS long. */
export function searchTokens(text: string): string[] {
  const out = new Set<string>();
  for (const token of simpleLower(text).split(SEPARATORS)) {
    if (!token) continue;
    let length = 0;
    for (const _ of token) length++;
    if (length <= MAX_TOKEN_CHARS) out.add(token);
  }
  return [...out].sort(compareIds);
}

/** A node's search tokens: those of its name, id and label. */
export function nodeSearchTokens(node: { name: string; id: string; label: string }): string[] {
  return searchTokens(`${node.name} ${node.id} ${node.label}`);
}

/**
 * The text part of a seed query: each term becomes the group of its search tokens ("ws-fin-0231" → ws, fin, 0231);
 * terms without tokens are dropped and equal groups counted once, in order of first appearance. A node text-matches
 * when every token of at least one group is among its search tokens; its rank is the number of groups it matches.
 */
export function textQueryGroups(terms: readonly string[]): string[][] {
  const seen = new Set<string>();
  const out: string[][] = [];
  for (const term of terms) {
    const group = searchTokens(term);
    if (!group.length) continue;
    const key = group.join(" ");
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(group);
  }
  return out;
}

/** How many of the groups a node's tokens match (the "text" rank). */
export function textRank(groups: readonly string[][], tokens: readonly string[]): number {
  const have = new Set(tokens);
  return groups.filter((g) => g.every((t) => have.has(t))).length;
}

// ---------------------------------------------------------------------------------------------------------------
// Order

/** Unicode code point order (UTF-16 comparison with surrogate pairs placed above U+FFFF, where they belong). */
export function compareIds(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i),
      y = b.charCodeAt(i);
    if (x !== y) return fixup(x) - fixup(y);
  }
  return a.length - b.length;
}

// Maps UTF-16 code units so their order is the code point order: surrogates (D800–DFFF) above E000–FFFF.
const fixup = (c: number) => (c >= 0xd800 && c <= 0xdfff ? c + 0x2000 : c >= 0xe000 ? c - 0x800 : c);

/** A key whose plain string order is the code point order of `id` (hex of its UTF-8 bytes); Neo4j sorts by it. */
export function idSortKey(id: string): string {
  let key = "";
  for (const byte of UTF8.encode(id)) key += byte.toString(16).padStart(2, "0");
  return key;
}
const UTF8 = new TextEncoder();

const MATCH_ORDER = { id: 0, name: 1, text: 2 } as const;

/**
 * One candidate per node, keeping its strongest match (id, then name, then text), ordered by match kind, then rank
 * (highest first), then id.
 */
export function rankSeedCandidates(candidates: Iterable<SeedCandidate>): SeedCandidate[] {
  const best = new Map<string, SeedCandidate>();
  for (const c of candidates) {
    const prev = best.get(c.node.id);
    if (!prev || MATCH_ORDER[c.match] < MATCH_ORDER[prev.match]) best.set(c.node.id, c);
  }
  return [...best.values()].sort(
    (a, b) => MATCH_ORDER[a.match] - MATCH_ORDER[b.match] || b.rank - a.rank || compareIds(a.node.id, b.node.id),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Bounded k-hop expansion

export interface FrontierEdge {
  source: string;
  target: string;
}

/**
 * The edges (of the scoped case) with an endpoint in `frontier`, ordered by edge id, at most `limit` of them — each
 * store answers this with one indexed query per hop.
 */
export type FrontierQuery = (frontier: string[], limit: number) => Promise<FrontierEdge[]>;

export interface Expansion {
  /** Every id reached (seeds included, in order of discovery) → its hop. */
  hopOf: Map<string, number>;
  truncated: boolean;
}

/**
 * Breadth-first from the seeds. Hop h (1 ≤ h ≤ hops) runs while the frontier is not empty, unless the node cap is
 * full and a cut was already seen: it reads up to maxEdges frontier edges in edge-id order and visits each edge's
 * source, then its target; an id not yet reached joins hop h unless maxNodes ids are already reached, in which case it
 * is left out. `truncated` is true exactly when a hop read maxEdges edges (more may exist) or an id was left out for
 * the node cap (so seeds that fill the cap still cost one read, to learn whether anything was cut). Seeds count
 * towards maxNodes (unknown seed ids too) and are never dropped.
 */
export async function expandFrontier(seedIds: readonly string[], limits: SubgraphLimits, edgesOf: FrontierQuery): Promise<Expansion> {
  const hopOf = new Map<string, number>();
  for (const id of seedIds) if (!hopOf.has(id)) hopOf.set(id, 0);
  let frontier = [...hopOf.keys()];
  let truncated = false;
  for (let hop = 1; hop <= limits.hops && frontier.length && !(truncated && hopOf.size >= limits.maxNodes); hop++) {
    const rows = await edgesOf(frontier, limits.maxEdges);
    if (rows.length >= limits.maxEdges) truncated = true;
    const next: string[] = [];
    for (const r of rows) {
      for (const id of [r.source, r.target]) {
        if (hopOf.has(id)) continue;
        if (hopOf.size >= limits.maxNodes) {
          truncated = true;
          continue;
        }
        hopOf.set(id, hop);
        next.push(id);
      }
    }
    frontier = next;
  }
  return { hopOf, truncated };
}

/**
 * The subgraph from an expansion: the reached ids that are nodes of the case (unknown seeds drop out here), sorted by
 * hop then id, and `edges` — the edges with both endpoints reached, ordered by id, at most maxEdges, as the store read
 * them (reading maxEdges of them also sets `truncated`).
 */
export function assembleSubgraph(
  expansion: Expansion,
  nodes: readonly GraphNodeRecord[],
  edges: readonly GraphEdgeRecord[],
  limits: Pick<SubgraphLimits, "maxEdges">,
): Subgraph {
  const { hopOf } = expansion;
  return {
    nodes: nodes
      .filter((n) => hopOf.has(n.id))
      .map((n) => ({ ...n, hop: hopOf.get(n.id)! }))
      .sort((a, b) => a.hop - b.hop || compareIds(a.id, b.id)),
    edges: [...edges].sort((a, b) => compareIds(a.id, b.id)),
    truncated: expansion.truncated || edges.length >= limits.maxEdges,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Outline

/**
 * The case outline from what a store read: each list in id order, without properties, cut to its cap. Stores read
 * one item past each cap, so a cut is seen (`truncated`) rather than guessed.
 */
export function outlineOf(
  nodes: readonly GraphNodeRecord[],
  edges: readonly GraphEdgeRecord[],
  limits: { maxNodes: number; maxEdges: number },
): CaseOutline {
  const byId = <T extends { id: string }>(items: readonly T[]) => [...items].sort((a, b) => compareIds(a.id, b.id));
  return {
    nodes: byId(nodes)
      .slice(0, limits.maxNodes)
      .map(({ properties: _p, ...n }) => n),
    edges: byId(edges)
      .slice(0, limits.maxEdges)
      .map(({ properties: _p, ...e }) => e),
    truncated: nodes.length > limits.maxNodes || edges.length > limits.maxEdges,
  };
}
