import { describe, expect, it } from "vitest";
import { ChainVerifier, GENESIS_HASH, entryHashOf, type ChainEntry } from "@/lib/domain/ledger-chain";

function chain(n: number): ChainEntry[] {
  const out: ChainEntry[] = [];
  let prev = GENESIS_HASH;
  for (let seq = 1; seq <= n; seq++) {
    const body = {
      seq,
      kind: "answer",
      createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, seq)).toISOString(),
      payload: { q: `question ${seq}`, n: seq },
    };
    const entryHash = entryHashOf(prev, body);
    out.push({ ...body, prevHash: prev, entryHash });
    prev = entryHash;
  }
  return out;
}

const verify = (entries: ChainEntry[]) => new ChainVerifier().feed(entries);

describe("ledger chain", () => {
  it("an intact chain verifies, also fed page by page", () => {
    const c = chain(50);
    expect(verify(c)).toBeNull();
    const v = new ChainVerifier();
    for (let i = 0; i < c.length; i += 7) expect(v.feed(c.slice(i, i + 7))).toBeNull();
    expect(v.head).toEqual({ size: 50, hash: c[49].entryHash });
  });

  it("names the first bad seq for an edited payload, a deletion, a swap and a forged insert", () => {
    for (let trial = 0; trial < 200; trial++) {
      const c = chain(30);
      // 0-based index of an interior victim; cutting the tail is invisible to the chain alone (checkpoints catch it).
      const k = 1 + (trial % 27);
      const kind = trial % 4;
      let expected: number;
      if (kind === 0) {
        c[k] = { ...c[k], payload: { ...(c[k].payload as object), n: -1 } };
        expected = k + 1;
      } else if (kind === 1) {
        c.splice(k, 1);
        expected = k + 1;
      } else if (kind === 2) {
        const j = Math.min(k + 1, 29);
        if (j === k) continue;
        [c[k], c[j]] = [c[j], c[k]];
        expected = k + 1;
      } else {
        // A forger who knows the algorithm inserts a self-consistent entry and renumbers the rest (seq is unique).
        const forged = {
          seq: k + 1,
          kind: "answer",
          createdAt: c[k].createdAt,
          payload: { forged: true },
          prevHash: c[k].prevHash,
          entryHash: "",
        };
        forged.entryHash = entryHashOf(forged.prevHash, forged);
        const shifted = c.slice(k).map((e) => ({ ...e, seq: e.seq + 1 }));
        c.splice(k, c.length - k, forged, ...shifted);
        expected = k + 2; // the entry after the forgery no longer links (signed checkpoints catch the forgery itself)
      }
      expect(verify(c)?.seq).toBe(expected);
    }
  });
});
