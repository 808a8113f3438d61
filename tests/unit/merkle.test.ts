import { createHash } from "node:crypto";
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  EMPTY_ROOT,
  MerkleAccumulator,
  completingSeq,
  consistencyRanges,
  hashOfRange,
  inclusionRanges,
  leafHashOfData,
  leafHashOfEntry,
  nodeHash,
  rootFromInclusion,
  rootOfLeaves,
  subtreesNeeded,
  subtreesOf,
  verifyConsistency,
  verifyInclusion,
  type Subtree,
} from "@/lib/domain/merkle";

// ---- An independent reference, written from RFC 6962 §2.1 with Buffers and recursion (shares no code with the module).
const sha = (...parts: Buffer[]) => createHash("sha256").update(Buffer.concat(parts)).digest();
const refLeaf = (data: Buffer) => sha(Buffer.from([0]), data);
const k = (n: number) => {
  let p = 1;
  while (p * 2 < n) p *= 2;
  return p;
};
function MTH(d: Buffer[]): Buffer {
  if (d.length === 0) return sha();
  if (d.length === 1) return refLeaf(d[0]);
  const s = k(d.length);
  return sha(Buffer.from([1]), MTH(d.slice(0, s)), MTH(d.slice(s)));
}
function PATH(m: number, d: Buffer[]): Buffer[] {
  if (d.length <= 1) return [];
  const s = k(d.length);
  return m < s ? [...PATH(m, d.slice(0, s)), MTH(d.slice(s))] : [...PATH(m - s, d.slice(s)), MTH(d.slice(0, s))];
}
function SUBPROOF(m: number, d: Buffer[], b: boolean): Buffer[] {
  if (m === d.length) return b ? [] : [MTH(d)];
  const s = k(d.length);
  return m <= s ? [...SUBPROOF(m, d.slice(0, s), b), MTH(d.slice(s))] : [...SUBPROOF(m - s, d.slice(s), false), MTH(d.slice(0, s))];
}
const PROOF = (m: number, d: Buffer[]) => (m === 0 || m === d.length ? [] : SUBPROOF(m, d, true));
const hex = (bs: Buffer[]) => bs.map((b) => b.toString("hex"));

/** Entries' data for a tree of n leaves (32-byte "entry hashes"). */
const entries = (n: number, salt = "") => Array.from({ length: n }, (_, i) => sha(Buffer.from(`entry ${salt}${i}`)));

/** The module's proof for a tree built from the given data, via complete-subtree lookups (as the ledger does). */
function moduleView(data: Buffer[]) {
  const leaves = data.map((d) => leafHashOfEntry(d.toString("hex")));
  const lookups: Subtree[] = [];
  const hashOf = (s: Subtree) => {
    lookups.push(s);
    const size = 2 ** s.level;
    return rootOfLeaves(leaves, s.index * size, (s.index + 1) * size);
  };
  return {
    leaves,
    lookups,
    root: (n: number) => hashOfRange({ start: 0, end: n }, hashOf),
    inclusion: (i: number, n: number) => inclusionRanges(i, n).map((r) => hashOfRange(r, hashOf)),
    consistency: (m: number, n: number) => consistencyRanges(m, n).map((r) => hashOfRange(r, hashOf)),
  };
}

const flipBit = (h: string, bit: number) => {
  const b = Buffer.from(h, "hex");
  b[bit >> 3] ^= 1 << (bit & 7);
  return b.toString("hex");
};

describe("RFC 6962 known answers", () => {
  // Leaves and roots from the Certificate Transparency reference tests (RFC 6962 §2.1 tree, SHA-256).
  const data = ["", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"].map((h) =>
    Buffer.from(h, "hex"),
  );
  const roots = [
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
  ];

  it("roots of the first 1..8 leaves, by definition and from the streaming accumulator", () => {
    const leaves = data.map((d) => leafHashOfData(d));
    const acc = new MerkleAccumulator();
    for (let n = 1; n <= 8; n++) {
      expect(rootOfLeaves(leaves.slice(0, n))).toBe(roots[n - 1]);
      acc.push(leaves[n - 1]);
      expect(acc.root()).toBe(roots[n - 1]);
      expect(MTH(data.slice(0, n)).toString("hex")).toBe(roots[n - 1]);
    }
    expect(EMPTY_ROOT).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    expect(new MerkleAccumulator().root()).toBe(EMPTY_ROOT);
  });

  it("inclusion proof of leaf 0 in the 8-leaf tree", () => {
    const leaves = data.map((d) => leafHashOfData(d));
    const proof = inclusionRanges(0, 8).map((r) => rootOfLeaves(leaves, r.start, r.end));
    expect(proof).toEqual([
      "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ]);
    expect(verifyInclusion(0, 8, leaves[0], proof, roots[7])).toBe(true);
  });

  it("consistency proof from 1 to 8 leaves", () => {
    const leaves = data.map((d) => leafHashOfData(d));
    const proof = consistencyRanges(1, 8).map((r) => rootOfLeaves(leaves, r.start, r.end));
    expect(proof).toEqual([
      "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ]);
    expect(verifyConsistency(1, 8, roots[0], roots[7], proof)).toBe(true);
  });
});

describe("proof generation matches the RFC definitions", () => {
  it("every index and size up to 66: inclusion path, consistency proof and root equal the reference", () => {
    const data = entries(66);
    const view = moduleView(data);
    for (let n = 1; n <= 66; n++) {
      const d = data.slice(0, n);
      expect(view.root(n)).toBe(MTH(d).toString("hex"));
      for (let i = 0; i < n; i++) expect(view.inclusion(i, n)).toEqual(hex(PATH(i, d)));
      for (let m = 0; m <= n; m++) expect(view.consistency(m, n)).toEqual(hex(PROOF(m, d)));
    }
  }, 120_000); // the recursive reference is quadratic-ish; generous for a busy 2-core machine

  it("a proof needs O(log n) complete subtrees, never one per leaf", () => {
    for (const n of [1, 2, 3, 1000, 65_537, 1_000_000, 2 ** 40 + 12345]) {
      for (const i of [0, Math.floor(n / 3), n - 1]) {
        const need = subtreesNeeded(inclusionRanges(i, n));
        expect(need.length).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(n + 1)) + 1);
      }
      const c = subtreesNeeded(consistencyRanges(Math.max(1, Math.floor(n / 2)), n));
      expect(c.length).toBeLessThanOrEqual(3 * Math.ceil(Math.log2(n + 1)) + 1);
    }
  });

  it("subtrees of a range are complete, aligned and contiguous; each is completed by the entry that stores it", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1 << 20 }), (n) => {
        let at = 0;
        for (const s of subtreesOf({ start: 0, end: n })) {
          const size = 2 ** s.level;
          expect(s.index * size).toBe(at);
          at += size;
          expect(completingSeq(s)).toBe(at);
        }
        expect(at).toBe(n);
      }),
    );
  });

  it("the accumulator reports every completed subtree with the hash the tree has there", () => {
    const data = entries(300, "acc");
    const leaves = data.map((d) => leafHashOfEntry(d.toString("hex")));
    const acc = new MerkleAccumulator();
    let completedCount = 0;
    for (let i = 0; i < leaves.length; i++) {
      for (const c of acc.push(leaves[i])) {
        completedCount++;
        const size = 2 ** c.level;
        expect(completingSeq(c)).toBe(i + 1);
        expect(c.hash).toBe(rootOfLeaves(leaves, c.index * size, (c.index + 1) * size));
      }
      expect(acc.root()).toBe(rootOfLeaves(leaves.slice(0, i + 1)));
    }
    expect(completedCount).toBe(300 - 4); // n − popcount(n) interior complete subtrees for n = 300 (popcount 4)
  });
});

describe("verification accepts real proofs and rejects forged ones", () => {
  const data = entries(200, "v");
  const view = moduleView(data);

  test.prop([fc.integer({ min: 1, max: 200 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 0, max: n - 1 })))], {
    numRuns: 300,
  })("inclusion: valid verifies; flipped bit, dropped/added/reordered element, other index/size/leaf/root all fail", ([n, i]) => {
    const root = view.root(n);
    const leaf = view.leaves[i];
    const proof = view.inclusion(i, n);
    expect(verifyInclusion(i, n, leaf, proof, root)).toBe(true);
    expect(rootFromInclusion(i, n, leaf, proof)).toBe(root);

    for (let e = 0; e < proof.length; e++) {
      const forged = [...proof];
      forged[e] = flipBit(forged[e], (e * 37 + i) % 256);
      expect(verifyInclusion(i, n, leaf, forged, root)).toBe(false);
    }
    if (proof.length) {
      expect(verifyInclusion(i, n, leaf, proof.slice(1), root)).toBe(false);
      expect(verifyInclusion(i, n, leaf, proof.slice(0, -1), root)).toBe(false);
    }
    if (proof.length > 1) expect(verifyInclusion(i, n, leaf, [...proof].reverse(), root)).toBe(false);
    expect(verifyInclusion(i, n, leaf, [...proof, proof[0] ?? leaf], root)).toBe(false);
    expect(verifyInclusion(i, n, leaf, [...proof, root], root)).toBe(false);
    expect(verifyInclusion(i, n, flipBit(leaf, 3), proof, root)).toBe(false);
    expect(verifyInclusion(i, n, leaf, proof, flipBit(root, 200))).toBe(false);
    if (n > 1) {
      const j = (i + 1) % n;
      expect(verifyInclusion(j, n, leaf, proof, root)).toBe(false);
      expect(verifyInclusion(j, n, view.leaves[j], proof, root)).toBe(false);
    }
    // The same proof claimed for a larger tree, against that tree's real root.
    if (n < 200) expect(verifyInclusion(i, n + 1, leaf, proof, view.root(n + 1))).toBe(false);
    expect(
      verifyInclusion(i, n, leaf, proof, view.root(Math.max(1, n - 1)) === root ? flipBit(root, 1) : view.root(Math.max(1, n - 1))),
    ).toBe(false);
  });

  test.prop([fc.integer({ min: 2, max: 200 }).chain((n) => fc.tuple(fc.integer({ min: 1, max: n - 1 }), fc.constant(n)))], {
    numRuns: 300,
  })("consistency: valid verifies; flipped bit, truncated/extended, swapped roots, other sizes all fail", ([m, n]) => {
    const r1 = view.root(m);
    const r2 = view.root(n);
    const proof = view.consistency(m, n);
    expect(verifyConsistency(m, n, r1, r2, proof)).toBe(true);

    for (let e = 0; e < proof.length; e++) {
      const forged = [...proof];
      forged[e] = flipBit(forged[e], (e * 11 + m) % 256);
      expect(verifyConsistency(m, n, r1, r2, forged)).toBe(false);
    }
    expect(verifyConsistency(m, n, r1, r2, proof.slice(0, -1))).toBe(false);
    expect(verifyConsistency(m, n, r1, r2, proof.slice(1))).toBe(false);
    expect(verifyConsistency(m, n, r1, r2, [...proof, r2])).toBe(false);
    expect(verifyConsistency(m, n, r1, r2, [])).toBe(false);
    expect(verifyConsistency(m, n, r2, r1, proof)).toBe(false);
    expect(verifyConsistency(n, m, r2, r1, proof)).toBe(false);
    expect(verifyConsistency(m, n, flipBit(r1, 9), r2, proof)).toBe(false);
    expect(verifyConsistency(m, n, r1, flipBit(r2, 9), proof)).toBe(false);
    if (m + 1 < n) expect(verifyConsistency(m + 1, n, view.root(m + 1), r2, proof)).toBe(false);
    if (n < 200) expect(verifyConsistency(m, n + 1, r1, view.root(n + 1), proof)).toBe(false);
    // A history that diverged before m: another log with the same new size cannot prove it extends r1.
    const other = moduleView(entries(n, "fork"));
    expect(verifyConsistency(m, n, r1, other.root(n), other.consistency(m, n))).toBe(false);
  });

  test.prop([fc.integer({ min: 1, max: 200 }), fc.array(fc.uint8Array({ minLength: 32, maxLength: 32 }), { maxLength: 12 }), fc.nat()], {
    numRuns: 500,
  })("random fake proofs never verify", (n, fake, seed) => {
    const proof = fake.map((b) => Buffer.from(b).toString("hex"));
    const i = seed % n;
    expect(verifyInclusion(i, n, view.leaves[i], proof, view.root(n))).toBe(n === 1 && proof.length === 0);
    if (n > 1) {
      const m = 1 + (seed % (n - 1));
      expect(verifyConsistency(m, n, view.root(m), view.root(n), proof)).toBe(false);
    }
  });

  it("malformed input is rejected rather than coerced", () => {
    const root = view.root(8);
    const proof = view.inclusion(3, 8);
    const leaf = view.leaves[3];
    expect(verifyInclusion(3, 8, leaf, proof, root)).toBe(true);
    for (const [index, size] of [
      [8, 8],
      [9, 8],
      [-1, 8],
      [3, 0],
      [3.5, 8],
      [3, 8.5],
      [Number.NaN, 8],
      [3, Number.POSITIVE_INFINITY],
      [2 ** 53, 2 ** 53 + 2],
    ]) {
      expect(verifyInclusion(index, size, leaf, proof, root)).toBe(false);
    }
    expect(verifyInclusion(3, 8, leaf.toUpperCase(), proof, root)).toBe(false);
    expect(verifyInclusion(3, 8, leaf, proof, root.toUpperCase())).toBe(false);
    expect(verifyInclusion(3, 8, leaf, [...proof.slice(0, 2), proof[2].slice(0, 62)], root)).toBe(false);
    expect(verifyInclusion(3, 8, leaf, [...proof.slice(0, 2), proof[2] + "00"], root)).toBe(false);
    expect(verifyInclusion(3, 8, leaf, [...proof.slice(0, 2), "zz" + proof[2].slice(2)], root)).toBe(false);
    expect(verifyInclusion(3, 8, leaf, "not an array" as unknown as string[], root)).toBe(false);
    // The single-leaf tree: root is the leaf itself, and the only valid proof is empty.
    expect(verifyInclusion(0, 1, view.leaves[0], [], view.root(1))).toBe(true);
    expect(verifyInclusion(0, 1, view.leaves[0], [view.leaves[1]], view.root(1))).toBe(false);

    const c = view.consistency(3, 8);
    expect(verifyConsistency(3, 8, view.root(3), root, c)).toBe(true);
    expect(verifyConsistency(8, 8, root, root, [])).toBe(true);
    expect(verifyConsistency(8, 8, root, root, c)).toBe(false);
    expect(verifyConsistency(8, 8, root, view.root(7), [])).toBe(false);
    expect(verifyConsistency(0, 8, EMPTY_ROOT, root, [])).toBe(true);
    expect(verifyConsistency(0, 8, view.root(1), root, [])).toBe(false);
    expect(verifyConsistency(9, 8, root, root, c)).toBe(false);
    expect(verifyConsistency(-1, 8, root, root, c)).toBe(false);
    expect(verifyConsistency(3.5, 8, view.root(3), root, c)).toBe(false);
  });

  it("a proof whose length does not fit the claimed index and size is rejected (each case passes a lenient verifier)", () => {
    const l = view.leaves;
    const r = (n: number) => view.root(n);
    // Inclusion: a 1-leaf tree's empty proof replayed as a 2-leaf claim; a real proof replayed for a smaller tree.
    expect(verifyInclusion(0, 2, l[0], [], r(1))).toBe(false);
    expect(verifyInclusion(1, 2, l[1], [l[0]], r(2))).toBe(true);
    expect(verifyInclusion(0, 1, l[1], [l[0]], r(2))).toBe(false);
    // An interior node passed off as a leaf with the proof cut at its level.
    const n01 = nodeHash(l[0], l[1]);
    const n23 = nodeHash(l[2], l[3]);
    expect(verifyInclusion(0, 4, n01, [n23], r(4))).toBe(false);
    expect(verifyInclusion(0, 2, l[2], [l[3], n01], r(4))).toBe(false);
    // Consistency: a 1→2 proof replayed as 1→3; a 7→8 proof replayed as 3→4.
    const c12 = view.consistency(1, 2);
    expect(verifyConsistency(1, 2, r(1), r(2), c12)).toBe(true);
    expect(verifyConsistency(1, 3, r(1), r(2), c12)).toBe(false);
    const c78 = view.consistency(7, 8);
    expect(verifyConsistency(7, 8, r(7), r(8), c78)).toBe(true);
    expect(verifyConsistency(3, 4, r(7), r(8), c78)).toBe(false);
  });

  it("a node hash is not a leaf hash (second-preimage resistance of the 0x00/0x01 prefixes)", () => {
    // Presenting an interior node as a leaf of a smaller tree must not verify.
    const leaves = view.leaves.slice(0, 4);
    const n01 = nodeHash(leaves[0], leaves[1]);
    const n23 = nodeHash(leaves[2], leaves[3]);
    const root = nodeHash(n01, n23);
    expect(verifyInclusion(0, 2, n01, [n23], root)).toBe(true); // a 2-leaf tree whose "leaves" are nodes…
    expect(leafHashOfEntry(n01)).not.toBe(n01); // …but a ledger leaf is always 0x00-prefixed, so no entry hashes to n01
    expect(verifyInclusion(0, 4, leaves[0], view.inclusion(0, 4), root)).toBe(true);
  });
});

describe("large trees", () => {
  it("proofs for a tree of 2^40 + 12345 leaves use the same ranges logic and stay short", () => {
    const n = 2 ** 40 + 12345;
    const ranges = inclusionRanges(n - 1, n);
    expect(ranges.length).toBeLessThanOrEqual(41);
    expect(ranges.at(-1)).toEqual({ start: 0, end: 2 ** 40 });
    const c = consistencyRanges(2 ** 40, n);
    expect(c[c.length - 1]).toEqual({ start: 2 ** 40, end: n });
  });
});
