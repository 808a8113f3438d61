// `casegraph audit …` end to end: checkpoints, proofs exported and checked offline with nothing but the public key,
// deterministic exports, retention, the signing key's sources.
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/adapters/prisma/db";
import { PrismaLedger, sha256Text } from "@/lib/adapters/prisma/ledger";
import { runCli } from "../support/cli";
import { backends, freshDatabase } from "../support/databases";
import { testSigner } from "../support/ledger";

const cli = (args: string[], env: Record<string, string>) => runCli(args, { env });

describe.runIf(backends.includes("postgresql"))("casegraph audit (PostgreSQL)", () => {
  const signer = testSigner();
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let dir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    fresh = await freshDatabase("postgresql");
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-audit-cli-"));
    env = { DATABASE_URL: fresh.url!, CASEGRAPH_LEDGER_SIGNING_KEY: signer.privateKeyPem, CASEGRAPH_DATA_DIR: dir };
    const ledger = new PrismaLedger(fresh.db);
    for (let i = 0; i < 12; i++) {
      const q = `question number ${i}`;
      await ledger.append({
        kind: "graphrag.answer",
        tenantId: i % 3 ? "t1" : "t2",
        payload: { i, query_sha256: sha256Text(q), prompt_version: "prompt_v1" },
        redactable: { questionText: q },
      });
    }
  });

  afterAll(async () => {
    await fresh?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it("checkpoint, inclusion proof out to a file, verify-proof with only the public key; a forged file fails", async () => {
    const cp = await cli(["audit", "checkpoint"], env);
    expect(cp.code, cp.stderr).toBe(0);
    expect(JSON.parse(cp.stdout)).toMatchObject({ treeSize: 12, keyId: signer.keyId });

    const proofFile = path.join(dir, "proof-5.json");
    expect((await cli(["audit", "proof", "--seq", "5", "--out", proofFile], env)).code).toBe(0);
    const keyFile = path.join(dir, "ledger.pub.pem");
    await writeFile(keyFile, signer.publicKeyPem);
    // The checker needs no database and no configuration: an empty environment apart from PATH.
    const bare = { DATABASE_URL: "", CASEGRAPH_LEDGER_SIGNING_KEY: "", CASEGRAPH_DATA_DIR: path.join(dir, "nothing-here") };
    const ok = await cli(["audit", "verify-proof", proofFile, "--public-key", keyFile], bare);
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ ok: true, type: "inclusion", keySource: "given", keyId: signer.keyId });

    const forged = JSON.parse(await readFile(proofFile, "utf8"));
    forged.entry.payload.i = 99;
    const forgedFile = path.join(dir, "forged.json");
    await writeFile(forgedFile, JSON.stringify(forged));
    const bad = await cli(["audit", "verify-proof", forgedFile, "--public-key", keyFile], bare);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("CG-AUDIT-004");
    expect(JSON.parse(bad.stdout).checks.find((c: { name: string }) => c.name === "entry hash").ok).toBe(false);

    // Signed by someone else: fine against its own embedded key, refused against ours.
    const other = testSigner();
    const { signCheckpoint } = await import("@/lib/domain/checkpoint");
    const resigned = JSON.parse(await readFile(proofFile, "utf8"));
    resigned.checkpoint = signCheckpoint(
      { treeSize: resigned.checkpoint.treeSize, rootHash: resigned.checkpoint.rootHash, time: resigned.checkpoint.time },
      other.privateKey,
    );
    resigned.publicKey = other.publicKeyPem;
    await writeFile(forgedFile, JSON.stringify(resigned));
    expect((await cli(["audit", "verify-proof", forgedFile], bare)).code).toBe(0);
    expect((await cli(["audit", "verify-proof", forgedFile, "--public-key", keyFile], bare)).code).toBe(1);
  }, 300_000);

  it("consistency proof between two signed checkpoints; a full verify checks both checkpoints", async () => {
    const ledger = new PrismaLedger(fresh.db, { signer: async () => signer });
    await ledger.checkpoint(6);
    const file = path.join(dir, "consistency.json");
    const r = await cli(["audit", "proof", "--from", "6", "--to", "12", "--out", file], env);
    expect(r.code, r.stderr).toBe(0);
    const check = await cli(["audit", "verify-proof", file, `--public-key=${signer.publicKeyPem}`], {});
    expect(check.code, check.stderr).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ ok: true, type: "consistency" });
    const v = await cli(["audit", "verify"], env);
    expect(v.code, v.stderr).toBe(0);
    expect(JSON.parse(v.stdout)).toMatchObject({ ok: true, size: 12, checkpoints: { checked: 2 } });
  }, 300_000);

  it("export: deterministic JSON for the same range, CSV, each export recorded in the ledger", async () => {
    const a = path.join(dir, "a.json");
    const b = path.join(dir, "b.json");
    const c = path.join(dir, "c.csv");
    const r1 = await cli(["audit", "export", "--from", "1", "--to", "12", "--out", a], env);
    expect(r1.code, r1.stderr).toBe(0);
    expect((await cli(["audit", "export", "--from", "1", "--to", "12", "--out", b], env)).code).toBe(0);
    expect(await readFile(a, "utf8")).toBe(await readFile(b, "utf8"));
    const artifact = JSON.parse(await readFile(a, "utf8"));
    expect(artifact.entries).toHaveLength(12);
    expect(artifact.entries[0].questionText).toBe("question number 0");
    expect(JSON.parse(r1.stderr.trim().split("\n").pop()!)).toMatchObject({ entries: 12, sha256: sha256Text(await readFile(a, "utf8")) });
    expect((await cli(["audit", "export", "--from", "1", "--to", "12", "--csv", "--tenant", "t2", "--out", c], env)).code).toBe(0);
    expect((await readFile(c, "utf8")).trimEnd().split("\r\n")).toHaveLength(1 + 4);
    // An --out that cannot be written is refused before the export, so the ledger records no export that never left.
    const nowhere = await cli(["audit", "export", "--from", "1", "--to", "12", "--out", path.join(dir, "missing", "x.json")], env);
    expect(nowhere.code).toBe(1);
    expect(JSON.parse(nowhere.stderr).error.code).toBe("CG-INPUT-008");
    expect((await cli(["audit", "export", "--from", "1", "--to", "12", "--out", dir], env)).stderr).toContain("it is a folder");
    const kinds = await fresh.db.prisma.$queryRaw<Array<{ kind: string }>>`SELECT kind FROM "ledger" WHERE seq > 12 ORDER BY seq`;
    expect(kinds.map((k) => k.kind)).toEqual(["audit.export", "audit.export", "audit.export"]);
  }, 300_000);

  it("retention erases old question text and records it; public-key, keygen and app-role print what they should", async () => {
    const r = await cli(["audit", "retention", "--days", "1"], env);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ erased: 0, recordedSeq: null });
    const pk = await cli(["audit", "public-key"], env);
    expect(pk.stdout).toBe(signer.publicKeyPem);
    const kg = await cli(["audit", "keygen"], {});
    expect(kg.stdout).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    const role = await cli(["audit", "app-role", "casegraph_app"], {});
    expect(role.stdout).toContain(`REVOKE UPDATE, DELETE, TRUNCATE ON "ledger", "ledger_checkpoint" FROM "casegraph_app";`);
    expect((await cli(["audit", "app-role", "Robert'); DROP TABLE x;--"], {})).code).toBe(1);
  }, 300_000);

  it("with PostgreSQL and no signing key: refused in production (CG-SYS-003, nothing invented); generated into the data folder otherwise", async () => {
    const own = await mkdtemp(path.join(os.tmpdir(), "cg-pg-key-"));
    try {
      const prod = await cli(["audit", "checkpoint"], {
        ...env,
        CASEGRAPH_DATA_DIR: own,
        CASEGRAPH_LEDGER_SIGNING_KEY: "",
        NODE_ENV: "production",
      });
      expect(prod.code).toBe(1);
      expect(prod.stderr).toContain("CG-SYS-003");
      expect(prod.stderr).toContain("CASEGRAPH_LEDGER_SIGNING_KEY");
      await expect(stat(path.join(own, "ledger-signing-key.pem"))).rejects.toThrow();
      const dev = await cli(["audit", "checkpoint"], {
        ...env,
        CASEGRAPH_DATA_DIR: own,
        CASEGRAPH_LEDGER_SIGNING_KEY: "",
        NODE_ENV: "development",
      });
      expect(dev.code, dev.stderr).toBe(0);
      expect((await stat(path.join(own, "ledger-signing-key.pem"))).mode & 0o777).toBe(0o600);
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("casegraph audit on the embedded database", () => {
  it("generates the signing key in the data folder on first use (mode 0600) and keeps it", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "cg-audit-key-"));
    try {
      const db = await openDatabase({ dataDir: path.join(dir, "pglite"), migrate: true });
      await new PrismaLedger(db).append({ kind: "note", payload: { n: 1 } });
      await db.close();
      const env = { CASEGRAPH_DATA_DIR: dir, DATABASE_URL: "", CASEGRAPH_LEDGER_SIGNING_KEY: "" };
      const first = await cli(["audit", "checkpoint"], env);
      expect(first.code, first.stderr).toBe(0);
      const keyFile = path.join(dir, "ledger-signing-key.pem");
      expect((await stat(keyFile)).mode & 0o777).toBe(0o600);
      const second = await cli(["audit", "public-key"], env);
      expect(second.code).toBe(0);
      const { parsePublicKey, keyIdOf } = await import("@/lib/domain/checkpoint");
      expect(keyIdOf(parsePublicKey(second.stdout))).toBe(JSON.parse(first.stdout).keyId);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
