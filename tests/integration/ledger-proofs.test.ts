// Proofs served from the database: roots, inclusion and consistency proofs for random sizes equal the RFC 6962
// reference computed from the entry hashes, verify, and exported proof files refuse forgeries. On PostgreSQL, 50
// concurrent writers (each its own connection) × 20 entries make one linear chain whose every proof verifies.
import { beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/adapters/prisma/db";
import { PrismaLedger } from "@/lib/adapters/prisma/ledger";
import { keyIdOf, parsePublicKey, signCheckpoint } from "@/lib/domain/checkpoint";
import { verifyProofFile, type InclusionProofFile } from "@/lib/domain/ledger-proof";
import { consistencyRanges, inclusionRanges, leafHashOfEntry, rootOfLeaves, verifyConsistency, verifyInclusion } from "@/lib/domain/merkle";
import { consistencyProofFor, inclusionProofFor } from "@/lib/server/audit/proofs";
import { backends, describeEachDatabase, freshDatabase } from "../support/databases";
import { rawRows, testSigner } from "../support/ledger";

const N = 133;
const EVERY = 16;

describeEachDatabase("ledger proofs", (fixture) => {
  const signer = testSigner();
  let ledger: PrismaLedger;
  let leaves: string[];

  beforeAll(async () => {
    ledger = new PrismaLedger(fixture().db, { signer: async () => signer, checkpointEvery: EVERY });
    // Mixed batches (group commit) and single appends.
    for (let i = 0; i < N;) {
      const n = Math.min(1 + (i % 7), N - i);
      await Promise.all(
        Array.from({ length: n }, (_, j) => ledger.append({ kind: "graphrag.answer", tenantId: "t1", payload: { i: i + j } })),
      );
      i += n;
    }
    await ledger.flush();
    leaves = (await rawRows(fixture().db)).map((r) => leafHashOfEntry(r.entry_hash));
    expect(leaves).toHaveLength(N);
  });

  it("roots, inclusion and consistency proofs for random sizes equal the reference and verify", async () => {
    let rnd = 12345;
    const next = (max: number) => 1 + ((rnd = (rnd * 1103515245 + 12345) % 2 ** 31) % max);
    for (let t = 0; t < 60; t++) {
      const size = t < 3 ? [1, 2, N][t] : next(N);
      const seq = next(size);
      const root = rootOfLeaves(leaves.slice(0, size));
      expect(await ledger.root(size)).toEqual({ treeSize: size, rootHash: root });
      const p = await ledger.inclusionProof(seq, size);
      expect(p.path).toEqual(inclusionRanges(seq - 1, size).map((r) => rootOfLeaves(leaves, r.start, r.end)));
      expect(verifyInclusion(seq - 1, size, leaves[seq - 1], p.path, root)).toBe(true);
      const from = next(size);
      const c = await ledger.consistencyProof(from, size);
      expect(c.path).toEqual(consistencyRanges(from, size).map((r) => rootOfLeaves(leaves, r.start, r.end)));
      expect(verifyConsistency(from, size, rootOfLeaves(leaves.slice(0, from)), root, c.path)).toBe(true);
    }
    const batch = await ledger.inclusionProofs([1, 17, 64, N], N);
    for (const [seq, path] of batch) expect(verifyInclusion(seq - 1, N, leaves[seq - 1], path, rootOfLeaves(leaves))).toBe(true);
    await expect(ledger.inclusionProof(N + 1)).rejects.toMatchObject({ code: "CG-INPUT-005" });
    await expect(ledger.root(N + 1)).rejects.toMatchObject({ code: "CG-INPUT-005" });
  });

  it("periodic checkpoints are signed every 16 entries and each verifies", async () => {
    const cps = await ledger.listCheckpoints(100);
    expect(cps.map((c) => c.treeSize).sort((a, b) => a - b)).toEqual([16, 32, 48, 64, 80, 96, 112, 128]);
    for (const cp of cps) {
      expect(cp.keyId).toBe(signer.keyId);
      expect(cp.rootHash).toBe(rootOfLeaves(leaves.slice(0, cp.treeSize)));
      expect(
        verifyProofFile(
          {
            format: "casegraph.ledger-proof/v1",
            type: "consistency",
            fromSize: cp.treeSize,
            toSize: cp.treeSize,
            path: [],
            fromCheckpoint: cp,
            toCheckpoint: cp,
            publicKey: signer.publicKeyPem,
          },
          signer.publicKey,
        ).ok,
      ).toBe(true);
    }
  });

  it("an exported inclusion proof verifies with the public key alone; every kind of forgery is refused", async () => {
    const file = await inclusionProofFor(ledger, 40, 64, "sign");
    expect(file.checkpoint.treeSize).toBe(64);
    const key = parsePublicKey(signer.publicKeyPem);
    const good = verifyProofFile(JSON.parse(JSON.stringify(file)), key);
    expect(good).toMatchObject({ ok: true, type: "inclusion", keySource: "given", keyId: signer.keyId });
    expect(verifyProofFile(JSON.parse(JSON.stringify(file))).keySource).toBe("embedded");

    const failed = (f: unknown, k = key) =>
      verifyProofFile(f, k)
        .checks.filter((c) => !c.ok)
        .map((c) => c.name);
    const clone = (): InclusionProofFile => JSON.parse(JSON.stringify(file));
    let f = clone();
    (f.entry.payload as Record<string, unknown>).i = 999;
    expect(failed(f)).toContain("entry hash");
    f = clone();
    f.path[2] = f.path[2].replace(/^./, (c) => (c === "0" ? "1" : "0"));
    expect(failed(f)).toEqual(["merkle path"]);
    f = clone();
    f.path.pop();
    expect(failed(f)).toEqual(["merkle path"]);
    f = clone();
    f.path.push(f.path[0]);
    expect(failed(f)).toEqual(["merkle path"]);
    f = clone();
    f.entry.seq = 41;
    expect(failed(f)).toEqual(expect.arrayContaining(["entry hash"]));
    f = clone();
    f.treeSize = 63;
    expect(failed(f)).toEqual(expect.arrayContaining(["tree size"]));
    f = clone();
    f.checkpoint.rootHash = rootOfLeaves(leaves.slice(0, 63));
    expect(failed(f)).toEqual(expect.arrayContaining(["checkpoint signature", "merkle path"]));
    // A forger who re-signs with their own key passes only against their own embedded key, never against ours.
    const evil = testSigner();
    f = clone();
    f.checkpoint = signCheckpoint({ treeSize: 64, rootHash: f.checkpoint.rootHash, time: f.checkpoint.time }, evil.privateKey);
    f.publicKey = evil.publicKeyPem;
    expect(verifyProofFile(f).ok).toBe(true);
    expect(verifyProofFile(f).keyId).toBe(keyIdOf(evil.publicKey));
    expect(failed(f)).toEqual(["checkpoint signature"]);
    expect(verifyProofFile({ format: "nope" }, key).ok).toBe(false);
  });

  it("a consistency proof between two signed checkpoints verifies; one from an unsigned size is refused", async () => {
    const file = await consistencyProofFor(ledger, 32, 128, "sign");
    expect(verifyProofFile(file, signer.publicKey)).toMatchObject({ ok: true, type: "consistency" });
    const forged = JSON.parse(JSON.stringify(file));
    forged.path[0] = "0".repeat(64);
    expect(verifyProofFile(forged, signer.publicKey).checks.find((c) => c.name === "consistency path")?.ok).toBe(false);
    await expect(consistencyProofFor(ledger, 33, 128, "sign")).rejects.toMatchObject({ code: "CG-INPUT-005" });
  });

  it("without a signing key, proofs needing a new checkpoint are refused with CG-AUDIT-003", async () => {
    const unsigned = new PrismaLedger(fixture().db);
    await expect(unsigned.checkpoint()).rejects.toMatchObject({ code: "CG-AUDIT-003" });
    // An existing checkpoint still serves.
    expect((await inclusionProofFor(unsigned, 3, 16, "sign")).checkpoint.treeSize).toBe(16);
    // A read never signs: at a size nobody signed it says so instead.
    await expect(inclusionProofFor(ledger, 3, 17, "read")).rejects.toMatchObject({ code: "CG-AUDIT-010" });
    expect((await inclusionProofFor(ledger, 3, 16, "read")).checkpoint.treeSize).toBe(16);
  });
});

describe.runIf(backends.includes("postgresql"))("ledger under 50 concurrent writers (PostgreSQL)", () => {
  it("50 writers on separate connections × 20 entries → one linear chain; every inclusion and consistency proof verifies", async () => {
    const fresh = await freshDatabase("postgresql");
    const signer = testSigner();
    const writers = await Promise.all(Array.from({ length: 50 }, () => openDatabase({ url: fresh.url, poolSize: 1 })));
    try {
      await Promise.all(
        writers.map(async (db, w) => {
          const ledger = new PrismaLedger(db, { signer: async () => signer, checkpointEvery: 100 });
          for (let i = 0; i < 20; i++) await ledger.append({ kind: "race", tenantId: `t${w % 3}`, payload: { writer: w, i } });
          await ledger.flush();
        }),
      );
    } finally {
      await Promise.all(writers.map((w) => w.close()));
    }
    const rows = await rawRows(fresh.db);
    try {
      expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 1));
      for (let i = 1; i < rows.length; i++) expect(rows[i].prev_hash).toBe(rows[i - 1].entry_hash);
      const perWriter = new Map<number, number[]>();
      for (const r of rows) {
        const p = (JSON.parse(r.body) as { payload: { writer: number; i: number } }).payload;
        perWriter.set(p.writer, [...(perWriter.get(p.writer) ?? []), p.i]);
      }
      expect(perWriter.size).toBe(50);
      for (const seen of perWriter.values()) expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => i)); // each writer's order kept

      const ledger = new PrismaLedger(fresh.db, { signer: async () => signer });
      const report = await ledger.verify({ trustedKeys: [signer.publicKey] });
      expect(report).toMatchObject({ ok: true, size: 1000 });
      const cps = (await ledger.listCheckpoints(100)).map((c) => c.treeSize).sort((a, b) => a - b);
      expect(cps).toEqual([100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]);
      expect(report.checkpoints?.checked).toBe(10);

      const leaves = rows.map((r) => leafHashOfEntry(r.entry_hash));
      const root = (await ledger.checkpointAt(1000))!.rootHash;
      expect(root).toBe(rootOfLeaves(leaves));
      const proofs = await ledger.inclusionProofs(
        rows.map((r) => r.seq),
        1000,
      );
      for (const r of rows) expect(verifyInclusion(r.seq - 1, 1000, leaves[r.seq - 1], proofs.get(r.seq)!, root)).toBe(true);
      for (let i = 0; i + 1 < cps.length; i++) {
        const file = await consistencyProofFor(ledger, cps[i], cps[i + 1], "read");
        expect(verifyProofFile(file, signer.publicKey).ok).toBe(true);
      }
    } finally {
      await fresh.dispose();
    }
  });
});
