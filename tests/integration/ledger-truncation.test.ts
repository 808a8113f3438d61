// Issue 11 §5: deleting the newest ledger entries AND the checkpoint rows (a superuser, triggers bypassed) used to leave
// `audit verify` at exit 0. Every signed checkpoint is now also kept outside the tables (the data folder's
// ledger-checkpoint.json; any checkpoint file a supervisor saved), and verify fails naming that checkpoint.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PrismaLedger, sha256Text } from "@/lib/adapters/prisma/ledger";
import { keepCheckpoint, readCheckpointFile, readWitness, WITNESS_FILE } from "@/lib/server/ledger/checkpoint-witness";
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
  let ledger: PrismaLedger;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-witness-"));
    ledger = new PrismaLedger(fixture().db, { signer: async () => signer, onCheckpointSigned: (cp) => keepCheckpoint(dir, cp) });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("every signed checkpoint is kept in the data folder, only ever moving forward", async () => {
    await append(ledger, 8);
    await ledger.checkpoint(8);
    expect((await readWitness(dir))?.checkpoint).toMatchObject({ treeSize: 8, keyId: signer.keyId });
    await append(ledger, 4);
    await ledger.checkpoint(12);
    await ledger.checkpoint(10); // an older size signed later does not move the witness back
    expect((await readWitness(dir))?.checkpoint.treeSize).toBe(12);
    expect((await ledger.verify({ external: [(await readWitness(dir))!] })).ok).toBe(true);
  });

  it("cutting the newest entries and the checkpoint rows passes the tables alone, and fails against the kept checkpoint", async () => {
    await bypassingTriggers(fixture().db, cutFrom(10));
    // What the database alone says: a shorter, perfectly consistent ledger. This is the hole the witness closes.
    expect(await ledger.verify()).toMatchObject({ ok: true, size: 9 });
    const witness = (await readWitness(dir))!;
    const report = await ledger.verify({ external: [witness] });
    expect(report.ok).toBe(false);
    expect(report.firstBad).toEqual({ seq: 10, fault: "truncated" });
    expect(report.badCheckpoint).toMatchObject({ treeSize: 12, source: path.join(dir, WITNESS_FILE) });
  });

  it("a kept checkpoint that was not signed by a trusted key is itself a fault, never a pass", async () => {
    const forged = JSON.parse(await readFile(path.join(dir, WITNESS_FILE), "utf8"));
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
    expect(caught.stderr).toContain(WITNESS_FILE);

    // The server's copy deleted too: the supervisor's own copy still catches it.
    await rm(path.join(dir, WITNESS_FILE));
    expect((await runCli(["audit", "verify"], { env })).code).toBe(0);
    const bySupervisor = await runCli(["audit", "verify", "--checkpoint", saved], { env });
    expect(bySupervisor.code).toBe(1);
    expect(bySupervisor.stderr).toContain("CG-AUDIT-011");
    expect(bySupervisor.stderr).toContain("supervisor-copy.json");
  }, 120_000);
});
