// The browser's proof checker (WebCrypto only) agrees with the server's (node:crypto) on real and forged proofs.
import { describe, expect, it } from "vitest";
import { verifyInclusionInBrowser, checkpointMessageText } from "@/components/audit/browser-verify";
import { checkpointMessage, generateSigningKey, parseSigningKey, signCheckpoint } from "@/lib/domain/checkpoint";
import { GENESIS_HASH, entryHashOf, type ChainEntry } from "@/lib/domain/ledger-chain";
import { inclusionProofFile, verifyProofFile } from "@/lib/domain/ledger-proof";
import { inclusionRanges, leafHashOfEntry, rootOfLeaves } from "@/lib/domain/merkle";

function ledgerOf(n: number): ChainEntry[] {
  const out: ChainEntry[] = [];
  let prev = GENESIS_HASH;
  for (let seq = 1; seq <= n; seq++) {
    const body = {
      seq,
      kind: "graphrag.answer",
      createdAt: new Date(Date.UTC(2026, 10, 21, 9, 0, seq)).toISOString(),
      payload: { q: `ünïcode ${seq}`, n: seq, nested: { z: [1, { b: true, a: null }] } },
    };
    const entryHash = entryHashOf(prev, body);
    out.push({ ...body, prevHash: prev, entryHash });
    prev = entryHash;
  }
  return out;
}

describe("in-browser inclusion proof check", () => {
  const key = generateSigningKey();
  const priv = parseSigningKey(key.privateKeyPem);
  const entries = ledgerOf(23);
  const leaves = entries.map((e) => leafHashOfEntry(e.entryHash));
  const cp = signCheckpoint({ treeSize: 23, rootHash: rootOfLeaves(leaves), time: "2026-11-21T10:00:00.000Z" }, priv);
  const fileFor = (seq: number) =>
    inclusionProofFile({
      entry: { ...entries[seq - 1] },
      leafIndex: seq - 1,
      treeSize: 23,
      leafHash: leaves[seq - 1],
      path: inclusionRanges(seq - 1, 23).map((r) => rootOfLeaves(leaves, r.start, r.end)),
      checkpoint: cp,
      publicKey: key.publicKeyPem,
    });

  it("uses the same signed message as the server", () => {
    expect(checkpointMessageText(cp)).toBe(checkpointMessage(cp));
  });

  it("accepts every real proof and rejects the same forgeries the server rejects", async () => {
    for (let seq = 1; seq <= 23; seq++) {
      const file = JSON.parse(JSON.stringify(fileFor(seq)));
      const browser = await verifyInclusionInBrowser(file, key.publicKeyPem);
      expect(browser).toMatchObject({ ok: true, signatureCheckedHere: true, keyId: cp.keyId });
      expect(verifyProofFile(file).ok).toBe(true);

      const forgeries = [
        (f: any) => (f.entry.payload.n = -1),
        (f: any) => (f.path[0] = f.path[0].replace(/^./, (c: string) => (c === "a" ? "b" : "a"))),
        (f: any) => f.path.pop(),
        (f: any) => f.path.push(leaves[0]),
        (f: any) => (f.checkpoint.treeSize = 22),
        (f: any) => (f.checkpoint.time = "2026-11-21T10:00:00.001Z"),
        (f: any) => (f.leafIndex = seq % 23),
      ];
      for (const forge of forgeries) {
        const f = JSON.parse(JSON.stringify(file));
        forge(f);
        const b = await verifyInclusionInBrowser(f, key.publicKeyPem);
        expect(b.ok).toBe(false);
        expect(verifyProofFile(f).ok).toBe(false);
        const failedNames = (checks: Array<{ name: string; ok: boolean }>) =>
          checks
            .filter((c) => !c.ok)
            .map((c) => c.name)
            .sort();
        expect(failedNames(b.checks)).toEqual(failedNames(verifyProofFile(f).checks));
      }
    }
    // Another key: refused against the trusted key even though the file embeds its own.
    const other = generateSigningKey();
    const f = JSON.parse(JSON.stringify(fileFor(5)));
    f.checkpoint = signCheckpoint({ treeSize: 23, rootHash: cp.rootHash, time: cp.time }, parseSigningKey(other.privateKeyPem));
    f.publicKey = other.publicKeyPem;
    expect((await verifyInclusionInBrowser(f, key.publicKeyPem)).checks.find((c) => c.name === "checkpoint signature")).toMatchObject({
      ok: false,
      detail: "signed by another key",
    });
    expect((await verifyInclusionInBrowser(f)).ok).toBe(true);
  });

  it("a proof whose entry was redacted for the reviewer takes the server's entry-hash verdict and still checks the path", async () => {
    const file = fileFor(7);
    const redacted = { ...file, entry: { ...file.entry, payload: { q: "—" }, hiddenItems: 2 } };
    const trusted = await verifyInclusionInBrowser(redacted, key.publicKeyPem, true);
    expect(trusted.ok).toBe(true);
    expect(trusted.checks.find((c) => c.name === "entry hash")?.detail).toMatch(/on the server/);
    expect((await verifyInclusionInBrowser(redacted, key.publicKeyPem, false)).ok).toBe(false);
    expect((await verifyInclusionInBrowser(redacted, key.publicKeyPem)).ok).toBe(false);
    // Without the redaction marker a changed payload is caught here, whatever the server said.
    const tampered = { ...file, entry: { ...file.entry, payload: { q: "—" } } };
    expect((await verifyInclusionInBrowser(tampered, key.publicKeyPem, true)).ok).toBe(false);
  });
});
