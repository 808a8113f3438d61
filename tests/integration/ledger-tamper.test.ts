// Tampering by a database superuser with the triggers bypassed (session_replication_role = replica): the attacker
// the append-only triggers cannot stop. The full verify must name the first bad seq every time.
import { beforeAll, expect, it } from "vitest";
import { generateKeyPairSync } from "node:crypto";
import { PrismaLedger } from "@/lib/adapters/prisma/ledger";
import { signCheckpoint } from "@/lib/domain/checkpoint";
import { GENESIS_HASH, entryBodyOf, hashOfBody } from "@/lib/domain/ledger-chain";
import { MerkleAccumulator, leafHashOfEntry } from "@/lib/domain/merkle";
import { describeEachDatabase } from "../support/databases";
import { prng } from "@/lib/workspace/generate";
import { bypassingTriggers, insertRows, rawRows, testSigner, type RawLedgerRow } from "../support/ledger";

const N = 40;
const EVERY = 10;
const TRIALS = 200;

/** Recomputes subtree hashes for rows in order, as the database trigger would (a careful forger does this). */
function withSubtrees(rows: RawLedgerRow[]): RawLedgerRow[] {
  const acc = new MerkleAccumulator();
  return rows.map((r) => ({ ...r, subtree_hashes: acc.push(leafHashOfEntry(r.entry_hash)).map((c) => c.hash) }));
}

/** Re-chains rows from index `from` on with correct hashes and bodies (a forger rewriting history). */
function rechain(rows: RawLedgerRow[], from: number): RawLedgerRow[] {
  const out = rows.map((r) => ({ ...r }));
  for (let i = from; i < out.length; i++) {
    const r = out[i];
    const payload = (JSON.parse(r.body) as { payload: unknown }).payload;
    r.seq = i + 1;
    r.prev_hash = i === 0 ? GENESIS_HASH : out[i - 1].entry_hash;
    r.body = entryBodyOf({ seq: r.seq, kind: r.kind, createdAt: r.created_at, payload });
    r.entry_hash = hashOfBody(r.prev_hash, r.body);
  }
  return withSubtrees(out);
}

describeEachDatabase("ledger tamper evidence", (fixture) => {
  const signer = testSigner();
  let ledger: PrismaLedger;
  let original: RawLedgerRow[];
  const letters = "abcdefghijklmnopqrstuvwxyz";

  const replaceAll = (rows: RawLedgerRow[]) =>
    bypassingTriggers(fixture().db, [{ sql: `DELETE FROM "ledger_redactable"` }, { sql: `DELETE FROM "ledger"` }, insertRows(rows)]);
  const verify = () => ledger.verify({ trustedKeys: [signer.publicKey] });

  beforeAll(async () => {
    const { db } = fixture();
    ledger = new PrismaLedger(db, { signer: async () => signer, checkpointEvery: EVERY });
    const rnd = prng(7);
    for (let i = 0; i < N; i++) {
      const s = Array.from({ length: 16 }, () => letters[Math.floor(rnd() * 26)]).join("");
      await ledger.append({
        kind: i % 5 === 0 ? "admin.user.update" : "graphrag.answer",
        tenantId: "t1",
        payload: { i, s, nested: { b: [1, 2, { c: "ü" }], a: null } },
      });
    }
    await ledger.flush();
    original = await rawRows(db);
    expect(original).toHaveLength(N);
    expect((await ledger.listCheckpoints(100)).map((c) => c.treeSize).sort((a, b) => a - b)).toEqual([10, 20, 30, 40]);
    expect(await verify()).toMatchObject({ ok: true, size: N, checkpoints: { checked: 4 } });
  });

  it(`${TRIALS} randomized trials — flip a payload byte, delete, swap two, insert a forged entry — each names the first bad seq`, async () => {
    const seed = Number(process.env.TAMPER_SEED ?? Date.now() % 1_000_000);
    const rnd = prng(seed);
    const pick = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1));
    const seen = { flip: 0, delete: 0, swap: 0, insert: 0 };
    for (let trial = 0; trial < TRIALS; trial++) {
      const kind = (["flip", "delete", "swap", "insert"] as const)[trial % 4];
      seen[kind]++;
      let rows = original.map((r) => ({ ...r }));
      let expected: { seq: number; fault: string };
      if (kind === "flip") {
        const k = pick(1, N);
        const r = rows[k - 1];
        // One letter of the payload's string value changes (the body stays valid JSON, or the database refuses it).
        const at = r.body.indexOf('"s":"') + 5 + pick(0, 15);
        const old = r.body[at];
        const repl = letters[(letters.indexOf(old) + pick(1, 25)) % 26];
        r.body = r.body.slice(0, at) + repl + r.body.slice(at + 1);
        expected = { seq: k, fault: "entry_hash_mismatch" };
      } else if (kind === "delete") {
        const k = pick(1, N);
        rows.splice(k - 1, 1);
        // Removing the last entry leaves a valid chain; the signed checkpoint at 40 shows the cut.
        expected = k === N ? { seq: N, fault: "truncated" } : { seq: k, fault: "seq_gap" };
      } else if (kind === "swap") {
        const j = pick(1, N - 1);
        const k = pick(j + 1, N);
        const a = rows[j - 1];
        const b = rows[k - 1];
        rows[j - 1] = { ...b, seq: j };
        rows[k - 1] = { ...a, seq: k };
        expected = { seq: j, fault: "prev_hash_mismatch" };
      } else {
        // A forger who knows the algorithm inserts a self-consistent entry at k (with correct Merkle subtree hashes),
        // renumbers the rest and relinks the displaced entry to the forgery (prev_hash is UNIQUE: two entries cannot
        // claim the same predecessor).
        const k = pick(1, N);
        const prev = k === 1 ? GENESIS_HASH : rows[k - 2].entry_hash;
        const createdAt = rows[k - 1].created_at;
        const body = entryBodyOf({ seq: k, kind: "graphrag.answer", createdAt, payload: { forged: true } });
        const forged: RawLedgerRow = {
          ...rows[k - 1],
          seq: k,
          kind: "graphrag.answer",
          prev_hash: prev,
          body,
          entry_hash: hashOfBody(prev, body),
        };
        const fixedPrefix = withSubtrees([...rows.slice(0, k - 1), forged]);
        const shifted = rows.slice(k - 1).map((r) => ({ ...r, seq: r.seq + 1 }));
        shifted[0].prev_hash = forged.entry_hash;
        rows = [...fixedPrefix, ...shifted];
        // The forgery itself is consistent; the displaced entry's hashed body still says it is entry k — unless a
        // signed checkpoint ends exactly at k, which then already disagrees with the tree at the forgery itself.
        expected = k % EVERY === 0 ? { seq: k, fault: "checkpoint_root_mismatch" } : { seq: k + 1, fault: "body_mismatch" };
      }
      await replaceAll(rows);
      const report = await verify();
      expect(report.ok, `trial ${trial} (${kind}), seed ${seed}`).toBe(false);
      expect(report.firstBad, `trial ${trial} (${kind}), seed ${seed}`).toEqual(expected);
    }
    expect(seen).toEqual({ flip: 50, delete: 50, swap: 50, insert: 50 });
    await replaceAll(original);
    expect((await verify()).ok).toBe(true);
  }, 600_000);

  it("a forger who rewrites all later history consistently is caught by the first signed checkpoint after the change", async () => {
    for (const k of [1, 7, 10, 11, 25, 31, 40]) {
      const rows = original.map((r) => ({ ...r }));
      const target = rows[k - 1];
      const payload = { ...(JSON.parse(target.body) as { payload: Record<string, unknown> }).payload, s: "rewritten" };
      target.body = entryBodyOf({ seq: k, kind: target.kind, createdAt: target.created_at, payload });
      await replaceAll(rechain(rows, k - 1));
      const report = await verify();
      expect(report.firstBad, `rewrite from ${k}`).toEqual({ seq: Math.ceil(k / EVERY) * EVERY, fault: "checkpoint_root_mismatch" });
    }
    await replaceAll(original);
    expect((await verify()).ok).toBe(true);
  });

  it("a damaged stored Merkle subtree hash is named; a checkpoint re-signed by another key is refused", async () => {
    const { db } = fixture();
    const rows = original.map((r) => ({ ...r }));
    rows[11].subtree_hashes = [...rows[11].subtree_hashes];
    rows[11].subtree_hashes[0] = "f".repeat(64); // seq 12 completes a level-1 and a level-2 subtree
    await replaceAll(rows);
    expect((await verify()).firstBad).toEqual({ seq: 12, fault: "subtree_hash_mismatch" });
    await replaceAll(original);

    const other = generateKeyPairSync("ed25519");
    const cp = await ledger.checkpointAt(20);
    const forged = signCheckpoint({ treeSize: 20, rootHash: cp!.rootHash, time: cp!.time }, other.privateKey);
    await bypassingTriggers(db, [
      { sql: `DELETE FROM "ledger_checkpoint" WHERE tree_size = 20` },
      {
        sql: `INSERT INTO "ledger_checkpoint" (tree_size, root_hash, signed_time, key_id, signature, public_key) VALUES ($1, $2, $3, $4, $5, $6)`,
        params: [20, forged.rootHash, forged.time, forged.keyId, forged.signature, "forged"],
      },
    ]);
    expect((await verify()).firstBad).toEqual({ seq: 20, fault: "checkpoint_signature_invalid" });
    await bypassingTriggers(db, [
      { sql: `DELETE FROM "ledger_checkpoint" WHERE tree_size = 20` },
      {
        sql: `INSERT INTO "ledger_checkpoint" (tree_size, root_hash, signed_time, key_id, signature, public_key) VALUES ($1, $2, $3, $4, $5, $6)`,
        params: [20, cp!.rootHash, cp!.time, cp!.keyId, cp!.signature, cp!.publicKeyPem],
      },
    ]);
    expect((await verify()).ok).toBe(true);
  });

  it("switching the append-only trigger off is itself reported", async () => {
    const { db } = fixture();
    await db.prisma.$executeRawUnsafe(`ALTER TABLE "ledger" DISABLE TRIGGER "ledger_append_only"`);
    try {
      const report = await verify();
      expect(report.ok).toBe(false);
      expect(report.firstBad).toBeUndefined();
      expect(report.protectionProblems).toEqual(["trigger ledger_append_only on ledger is disabled"]);
      expect(report.connectedAs).toMatchObject({ superuser: true, canBypass: true });
    } finally {
      await db.prisma.$executeRawUnsafe(`ALTER TABLE "ledger" ENABLE TRIGGER "ledger_append_only"`);
    }
    expect((await verify()).ok).toBe(true);
  });
});
