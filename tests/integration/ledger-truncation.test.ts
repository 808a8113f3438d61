// Issue 11 §5: deleting the newest ledger entries AND the checkpoint rows (a superuser, triggers bypassed) used to leave
// `audit verify` at exit 0. Every signed checkpoint is now also kept outside the tables (the data folder's witness, one
// file per database; any checkpoint file a supervisor saved), and verify fails naming that checkpoint.
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaLedger, sha256Text } from "@/lib/adapters/prisma/ledger";
import { databaseLabel, openDatabase } from "@/lib/adapters/prisma/db";
import { keepCheckpoint, readCheckpointFile, readWitness, witnessSlot, type WitnessSlot } from "@/lib/server/ledger/checkpoint-witness";
import { verifyLedger } from "@/lib/server/ledger/verify";
import { ledgerWitness } from "@/lib/server/runtime";
import { runCli } from "../support/cli";
import { backends, describeEachDatabase, freshDatabase } from "../support/databases";
import { bypassingTriggers, testSigner } from "../support/ledger";

const append = (ledger: PrismaLedger, n: number) =>
  Promise.all(
    Array.from({ length: n }, (_, i) => {
      const q = `question ${i}`;
      return ledger.append({
        kind: "graphrag.answer",
        tenantId: "t1",
        payload: { i, query_sha256: sha256Text(q) },
        redactable: { questionText: q },
      });
    }),
  );

/** The attack: the newest entries from `from` on, and every checkpoint row, gone. */
const cutFrom = (from: number) => [
  { sql: `DELETE FROM "ledger_redactable" WHERE seq >= $1`, params: [from] },
  { sql: `DELETE FROM "ledger" WHERE seq >= $1`, params: [from] },
  { sql: `DELETE FROM "ledger_checkpoint"` },
];

describeEachDatabase("truncation below a checkpoint kept outside the tables", (fixture) => {
  const signer = testSigner();
  let dir = "";
  let slot: WitnessSlot;
  let ledger: PrismaLedger;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-witness-"));
    slot = witnessSlot(dir, databaseLabel(fixture().url));
    ledger = new PrismaLedger(fixture().db, { signer: async () => signer, onCheckpointSigned: (cp) => keepCheckpoint(slot, cp) });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("every signed checkpoint is kept in the data folder, only ever moving forward", async () => {
    await append(ledger, 8);
    await ledger.checkpoint(8);
    expect((await readWitness(slot))?.checkpoint).toMatchObject({ treeSize: 8, keyId: signer.keyId });
    await append(ledger, 4);
    await ledger.checkpoint(12);
    await ledger.checkpoint(10); // an older size signed later does not move the witness back
    expect((await readWitness(slot))?.checkpoint.treeSize).toBe(12);
    expect((await ledger.verify({ external: [(await readWitness(slot))!] })).ok).toBe(true);
  });

  it("cutting the newest entries and the checkpoint rows passes the tables alone, and fails against the kept checkpoint", async () => {
    await bypassingTriggers(fixture().db, cutFrom(10));
    // What the database alone says: a shorter, perfectly consistent ledger. This is the hole the witness closes.
    expect(await ledger.verify()).toMatchObject({ ok: true, size: 9 });
    const witness = (await readWitness(slot))!;
    const report = await ledger.verify({ external: [witness] });
    expect(report.ok).toBe(false);
    expect(report.firstBad).toEqual({ seq: 10, fault: "truncated" });
    expect(report.badCheckpoint).toMatchObject({ treeSize: 12, source: slot.file });
  });

  it("a kept checkpoint that was not signed by a trusted key is itself a fault, never a pass", async () => {
    const forged = JSON.parse(await readFile(slot.file, "utf8"));
    forged.checkpoint.treeSize = 5;
    const file = path.join(dir, "forged.json");
    await writeFile(file, JSON.stringify(forged));
    const report = await ledger.verify({ external: [await readCheckpointFile(file)] });
    expect(report.firstBad).toEqual({ seq: 5, fault: "checkpoint_signature_invalid" });
    await expect(readCheckpointFile(path.join(dir, "missing.json"))).rejects.toMatchObject({ code: "CG-AUDIT-012" });
  });
});

describe.runIf(backends.includes("postgresql"))("casegraph audit verify after truncation (PostgreSQL)", () => {
  const signer = testSigner();
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let dir = "";
  let env: Record<string, string>;
  beforeAll(async () => {
    fresh = await freshDatabase("postgresql");
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-witness-cli-"));
    env = { DATABASE_URL: fresh.url!, CASEGRAPH_LEDGER_SIGNING_KEY: signer.privateKeyPem, CASEGRAPH_DATA_DIR: dir };
    await append(new PrismaLedger(fresh.db), 20);
  });
  afterAll(async () => {
    await fresh?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it("the data folder's checkpoint and a supervisor's saved one both catch it, and the error names the checkpoint", async () => {
    const signed = await runCli(["audit", "checkpoint"], { env });
    expect(signed.code, signed.stderr).toBe(0);
    // A supervisor saves a checkpoint elsewhere (here: in the shape GET /api/audit/checkpoint returns).
    const saved = path.join(dir, "supervisor-copy.json");
    await writeFile(saved, JSON.stringify({ checkpoint: JSON.parse(signed.stdout), algorithm: "Ed25519" }));
    expect((await runCli(["audit", "verify"], { env })).code).toBe(0);

    await bypassingTriggers(fresh.db, cutFrom(18));
    const caught = await runCli(["audit", "verify"], { env });
    expect(caught.code).toBe(1);
    expect(caught.stderr).toContain("CG-AUDIT-011");
    expect(caught.stderr).toContain("tree size 20");
    const kept = witnessSlot(dir, databaseLabel(fresh.url)).file;
    expect(caught.stderr).toContain(kept);

    // The server's copy deleted too: the supervisor's own copy still catches it.
    await rm(kept);
    expect((await runCli(["audit", "verify"], { env })).code).toBe(0);
    const bySupervisor = await runCli(["audit", "verify", "--checkpoint", saved], { env });
    expect(bySupervisor.code).toBe(1);
    expect(bySupervisor.stderr).toContain("CG-AUDIT-011");
    expect(bySupervisor.stderr).toContain("supervisor-copy.json");
  }, 120_000);
});

describe.runIf(backends.includes("postgresql"))("one data folder used with the embedded database, then with PostgreSQL", () => {
  // The witness was one file per data folder: a fresh PostgreSQL database was reported truncated against the embedded
  // ledger's checkpoint (CG-AUDIT-011, exit 1), and its own checkpoints were never kept (that file only moves forward).
  const signer = testSigner();
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let dir = "";
  beforeAll(async () => {
    fresh = await freshDatabase("postgresql");
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-witness-two-"));
  });
  afterAll(async () => {
    await fresh?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it("each database is verified against its own kept checkpoint; truncating either is still caught", async () => {
    const embedded = { DATABASE_URL: "", CASEGRAPH_LEDGER_SIGNING_KEY: signer.privateKeyPem, CASEGRAPH_DATA_DIR: dir };
    const postgres = { ...embedded, DATABASE_URL: fresh.url! };
    const lite = await openDatabase({ dataDir: path.join(dir, "pglite"), migrate: true });
    await append(new PrismaLedger(lite), 30);
    await lite.close();
    expect((await runCli(["audit", "checkpoint"], { env: embedded })).code).toBe(0);

    await append(new PrismaLedger(fresh.db), 5);
    const verified = await runCli(["audit", "verify"], { env: postgres });
    expect(verified.code, verified.stderr).toBe(0);
    expect((await runCli(["audit", "checkpoint"], { env: postgres })).code).toBe(0);
    const liteSlot = witnessSlot(dir, "embedded");
    const pgSlot = witnessSlot(dir, databaseLabel(fresh.url));
    expect(pgSlot.file).not.toBe(liteSlot.file);
    expect((await readWitness(liteSlot))?.checkpoint.treeSize).toBe(30);
    expect((await readWitness(pgSlot))?.checkpoint.treeSize).toBe(5);

    await bypassingTriggers(fresh.db, cutFrom(4));
    const caught = await runCli(["audit", "verify"], { env: postgres });
    expect(caught.code).toBe(1);
    expect(caught.stderr).toContain("CG-AUDIT-011");
    expect(caught.stderr).toContain("tree size 5");
    expect(caught.stderr).toContain(pgSlot.file);
    const embeddedVerified = await runCli(["audit", "verify"], { env: embedded });
    expect(embeddedVerified.code, embeddedVerified.stderr).toBe(0);

    // Another database's checkpoint copied into this database's place is refused, never applied.
    await copyFile(liteSlot.file, pgSlot.file);
    const swapped = await runCli(["audit", "verify"], { env: postgres });
    expect(swapped.code).toBe(1);
    expect(swapped.stderr).toContain("CG-AUDIT-012");
    expect(swapped.stderr).toContain("holds the checkpoint of embedded");
  }, 180_000);
});

describe("the audit explorer's Verify chain checks the same kept checkpoint as `audit verify`", () => {
  // verifyChainAction walked the tables alone: after a cut below the data folder's checkpoint it said the chain was
  // intact while the CLI reported CG-AUDIT-011. Both now run verifyLedger.
  const signer = testSigner();
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let dir = "";
  const before = process.env.CASEGRAPH_DATA_DIR;
  beforeAll(async () => {
    fresh = await freshDatabase("pglite");
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-witness-app-"));
    process.env.CASEGRAPH_DATA_DIR = dir;
  });
  afterAll(async () => {
    process.env.CASEGRAPH_DATA_DIR = before;
    await fresh?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it("a cut below the witness is 'truncated' there too; an unreadable witness is an error, never a pass", async () => {
    const witness = ledgerWitness();
    expect(witness.file).toBe(path.join(dir, "ledger-checkpoint.json"));
    const ledger = new PrismaLedger(fresh.db, { signer: async () => signer, onCheckpointSigned: (cp) => keepCheckpoint(witness, cp) });
    await append(ledger, 12);
    await ledger.checkpoint(12);
    expect(await verifyLedger(ledger)).toMatchObject({ ok: true, size: 12 });

    await bypassingTriggers(fresh.db, cutFrom(9));
    expect(await ledger.verify()).toMatchObject({ ok: true, size: 8 }); // what the explorer used to report
    const report = await verifyLedger(ledger);
    expect(report.ok).toBe(false);
    expect(report.firstBad).toEqual({ seq: 9, fault: "truncated" });
    expect(report.badCheckpoint).toMatchObject({ treeSize: 12, source: witness.file });

    await writeFile(witness.file, "{ not json");
    await expect(verifyLedger(ledger)).rejects.toMatchObject({ code: "CG-AUDIT-012" });
  });
});
