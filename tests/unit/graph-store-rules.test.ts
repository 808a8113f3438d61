// The store-independent rules both graph stores are built from (lib/domain/graph-contract.ts).
import { readFileSync } from "node:fs";
import { fc, test as fcTest } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  SEPARATOR_PATTERN,
  compareIds,
  expandFrontier,
  idSortKey,
  rankSeedCandidates,
  searchTokens,
  simpleLower,
  textQueryGroups,
  textRank,
  type FrontierEdge,
} from "@/lib/domain/graph-contract";
import type { GraphNodeRecord } from "@/lib/ports";

describe("search tokens", () => {
  it("split on punctuation and symbols, keep letters and digits of any script, lower-case simply", () => {
    expect(searchTokens("did:ws-fin-0231 O'Brien’s “Bayline” a.b@x.com svc_backup 203.0.113.47")).toEqual([
      "0",
      "0231",
      "113",
      "203",
      "47",
      "a",
      "b",
      "backup",
      "bayline",
      "brien",
      "com",
      "did",
      "fin",
      "o",
      "s",
      "svc",
      "ws",
      "x",
    ]);
    expect(searchTokens("İSTANBUL ΟΔΟΣ Øyvind ẞtraße ǅemal")).toEqual(["istanbul", "ßtraße", "øyvind", "ǆemal", "οδοσ"]);
    expect(searchTokens("x\u00a0y\u2014z\u3001w\uff01v×u÷t")).toEqual(["t", "u", "v", "w", "x", "y", "z"]);
    expect(searchTokens("😀emoji\uE000pua")).toEqual(["😀emoji\uE000pua"]);
    expect(searchTokens(`${"k".repeat(101)} ${"m".repeat(100)}`)).toEqual(["m".repeat(100)]);
    expect(searchTokens(" -- ")).toEqual([]);
  });

  it("lower-case by the simple mapping, code point by code point (PostgreSQL lower())", () => {
    expect(simpleLower("İx")).toBe("ix"); // JS toLowerCase gives "i̇x"
    expect(simpleLower("ΟΔΟΣ")).toBe("οδοσ"); // no context-sensitive final sigma
    expect(simpleLower("ABC Ǆ 😀")).toBe("abc ǆ 😀");
  });

  it("group a query's terms by their tokens, dropping empty and repeated groups", () => {
    expect(textQueryGroups(["ws-fin-0231", "Dunn", "dunn", "--", "svc_backup", "svc-backup"])).toEqual([
      ["0231", "fin", "ws"],
      ["dunn"],
      ["backup", "svc"],
    ]);
    expect(textRank([["0231", "fin", "ws"], ["dunn"]], ["ws", "fin", "0231", "x"])).toBe(1);
    expect(textRank([["0231", "fin", "ws"], ["dunn"]], ["ws", "dunn"])).toBe(1);
  });

  it("the SQL function in the migration uses exactly the same separator class", () => {
    const sql = readFileSync("prisma/migrations/20261121050000_graph_search_tokens/migration.sql", "utf8");
    const pattern = /regexp_split_to_table\(lower\(t\), '([^']+)'\)/.exec(sql)?.[1];
    expect(pattern).toBe(SEPARATOR_PATTERN);
  });
});

describe("id order", () => {
  const utf8 = (a: string, b: string) => Math.sign(Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8")));

  it("is code point order, unlike UTF-16 order", () => {
    expect(compareIds("x\uE000", "x\u{1F600}")).toBeLessThan(0);
    expect("x\uE000" < "x\u{1F600}").toBe(false);
    expect(compareIds("a", "ab")).toBeLessThan(0);
    expect(compareIds("b", "ab")).toBeGreaterThan(0);
    expect(compareIds("same", "same")).toBe(0);
  });

  fcTest.prop([fc.string({ unit: "grapheme" }), fc.string({ unit: "grapheme" })])("agrees with UTF-8 byte order", (a, b) => {
    expect(Math.sign(compareIds(a, b))).toBe(utf8(a, b));
  });

  fcTest.prop([fc.string({ unit: "grapheme" }), fc.string({ unit: "grapheme" })])(
    "idSortKey's plain string order is the same order",
    (a, b) => {
      const ka = idSortKey(a),
        kb = idSortKey(b);
      expect(Math.sign(ka < kb ? -1 : ka > kb ? 1 : 0)).toBe(utf8(a, b));
    },
  );
});

describe("seed candidates", () => {
  const node = (id: string): GraphNodeRecord => ({
    id,
    tenantId: "t",
    label: "L",
    name: id,
    properties: {},
    classification: "PUBLIC",
    needToKnow: [],
  });
  it("keep each node's strongest match and sort by kind, rank, id", () => {
    const ranked = rankSeedCandidates([
      { node: node("b"), match: "text", rank: 1 },
      { node: node("c"), match: "text", rank: 3 },
      { node: node("a"), match: "text", rank: 2 },
      { node: node("a"), match: "name", rank: 0 },
      { node: node("z"), match: "id", rank: 0 },
      { node: node("d"), match: "text", rank: 3 },
    ]);
    expect(ranked.map((c) => `${c.node.id}:${c.match}:${c.rank}`)).toEqual(["z:id:0", "a:name:0", "c:text:3", "d:text:3", "b:text:1"]);
  });
});

describe("bounded breadth-first expansion", () => {
  // a - b - c - d, a - e, edges named so that id order is e1 < e2 < e3 < e4.
  const edges: Array<FrontierEdge & { id: string }> = [
    { id: "e1", source: "a", target: "b" },
    { id: "e2", source: "b", target: "c" },
    { id: "e3", source: "c", target: "d" },
    { id: "e4", source: "e", target: "a" },
  ];
  const reads: string[][] = [];
  const edgesOf = async (frontier: string[], limit: number) => {
    reads.push(frontier);
    return edges.filter((e) => frontier.includes(e.source) || frontier.includes(e.target)).slice(0, limit);
  };

  it("assigns hops breadth-first and stops at the hop limit", async () => {
    const { hopOf, truncated } = await expandFrontier(["a"], { hops: 2, maxNodes: 10, maxEdges: 10 }, edgesOf);
    expect(Object.fromEntries(hopOf)).toEqual({ a: 0, b: 1, e: 1, c: 2 });
    expect(truncated).toBe(false);
  });

  it("cuts at the node cap in edge-id order and says so", async () => {
    const { hopOf, truncated } = await expandFrontier(["a"], { hops: 3, maxNodes: 2, maxEdges: 10 }, edgesOf);
    expect([...hopOf.keys()]).toEqual(["a", "b"]);
    expect(truncated).toBe(true);
  });

  it("reads at most maxEdges per hop and says so", async () => {
    const { hopOf, truncated } = await expandFrontier(["a"], { hops: 1, maxNodes: 10, maxEdges: 1 }, edgesOf);
    expect([...hopOf.keys()]).toEqual(["a", "b"]);
    expect(truncated).toBe(true);
  });

  it("seeds that fill the cap still learn whether anything was cut, with one read", async () => {
    reads.length = 0;
    expect((await expandFrontier(["a", "b"], { hops: 2, maxNodes: 2, maxEdges: 10 }, edgesOf)).truncated).toBe(true);
    expect(reads).toHaveLength(1);
    const isolated = await expandFrontier(["x", "y"], { hops: 2, maxNodes: 2, maxEdges: 10 }, edgesOf);
    expect(isolated.truncated).toBe(false);
    expect([...isolated.hopOf.keys()]).toEqual(["x", "y"]);
  });

  it("reads nothing for zero hops or no seeds", async () => {
    reads.length = 0;
    await expandFrontier(["a"], { hops: 0, maxNodes: 5, maxEdges: 5 }, edgesOf);
    await expandFrontier([], { hops: 2, maxNodes: 5, maxEdges: 5 }, edgesOf);
    expect(reads).toEqual([]);
  });
});
