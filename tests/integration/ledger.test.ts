import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/adapters/prisma/db";
import { PrismaLedger } from "@/lib/adapters/prisma/ledger";
import { runCli } from "../support/cli";
import { backends, describeEachDatabase, freshDatabase } from "../support/databases";
import { bypassingTriggers } from "../support/ledger";

const cli = (args: string[], env: Record<string, string>) => runCli(args, { env });

describeEachDatabase("ledger", (fixture) => {
  it("concurrent appends form one linear chain that verifies", async () => {
    const { db } = fixture();
    const ledger = new PrismaLedger(db.prisma);
    await Promise.all(Array.from({ length: 40 }, (_, i) => ledger.append({ kind: "test", payload: { i, nested: { b: 2, a: 1 } } })));
    const report = await ledger.verify();
    expect(report).toMatchObject({ ok: true, size: 40 });
    const seqs = await db.prisma.$queryRaw<Array<{ seq: bigint }>>`SELECT seq FROM "ledger" ORDER BY seq`;
    expect(seqs.map((r) => Number(r.seq))).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it("editing one stored payload makes verify name that seq", async () => {
    const { db } = fixture();
    // The table is append-only: the edit needs a superuser with the triggers bypassed. payload is derived from body.
    await bypassingTriggers(db, [{ sql: `UPDATE "ledger" SET body = replace(body, '"i":', '"i":9') WHERE seq = 17` }]);
    const edited = await db.prisma.$queryRaw<Array<{ i: number }>>`SELECT (payload->>'i')::int AS i FROM "ledger" WHERE seq = 17`;
    expect(edited[0].i).toBeGreaterThanOrEqual(90);
    const report = await new PrismaLedger(db.prisma).verify();
    expect(report.ok).toBe(false);
    expect(report.firstBad).toEqual({ seq: 17, fault: "entry_hash_mismatch" });
  });
});

describe.runIf(backends.includes("postgresql"))("ledger on PostgreSQL across connections", () => {
  it("20 concurrent appends from separate connections → one chain; `audit verify` exits 0, then 1 naming a tampered seq", async () => {
    const fresh = await freshDatabase("postgresql");
    try {
      // Twenty separate clients (each its own pool and connection), racing.
      const clients = await Promise.all(Array.from({ length: 20 }, () => openDatabase({ url: fresh.url, poolSize: 1 })));
      try {
        await Promise.all(clients.map((c, i) => new PrismaLedger(c.prisma).append({ kind: "race", payload: { writer: i } })));
      } finally {
        await Promise.all(clients.map((c) => c.close()));
      }
      const rows = await fresh.db.prisma.$queryRaw<Array<{ seq: bigint; prev_hash: string; entry_hash: string }>>`
        SELECT seq, prev_hash, entry_hash FROM "ledger" ORDER BY seq`;
      expect(rows).toHaveLength(20);
      for (let i = 1; i < rows.length; i++) expect(rows[i].prev_hash).toBe(rows[i - 1].entry_hash);

      const ok = await cli(["audit", "verify"], { DATABASE_URL: fresh.url! });
      expect(ok.code).toBe(0);
      expect(JSON.parse(ok.stdout)).toMatchObject({ ok: true, size: 20 });

      await bypassingTriggers(fresh.db, [{ sql: `UPDATE "ledger" SET body = replace(body, '"writer":', '"writer":-') WHERE seq = 9` }]);
      const bad = await cli(["audit", "verify"], { DATABASE_URL: fresh.url! });
      expect(bad.code).toBe(1);
      expect(JSON.parse(bad.stdout).firstBad).toEqual({ seq: 9, fault: "entry_hash_mismatch" });
      expect(bad.stderr).toContain("CG-AUDIT-002");
    } finally {
      await fresh.dispose();
    }
  });
});

describe("ledger CLI on the embedded database", () => {
  it("`audit verify` works on a PGlite data folder", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "cg-ledger-"));
    try {
      const db = await openDatabase({ dataDir: path.join(dir, "pglite"), migrate: true });
      await new PrismaLedger(db.prisma).append({ kind: "note", payload: { hello: "world" } });
      await db.close();
      const r = await cli(["audit", "verify"], { CASEGRAPH_DATA_DIR: dir, DATABASE_URL: "" });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ ok: true, size: 1 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
