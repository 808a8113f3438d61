// The database itself keeps the ledger append-only and the chain well-formed, on PGlite and on PostgreSQL; on
// PostgreSQL, an application role set up with `casegraph audit app-role` cannot switch that protection off.
import { randomBytes } from "node:crypto";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/adapters/prisma/db";
import { PrismaLedger, sha256Text } from "@/lib/adapters/prisma/ledger";
import { appRoleSql } from "@/lib/adapters/prisma/ledger-roles";
import { entryBodyOf, hashOfBody } from "@/lib/domain/ledger-chain";
import { runRetention } from "@/lib/server/ledger/maintenance";
import { backends, describeEachDatabase, freshDatabase } from "../support/databases";
import { ADMIN_URL } from "../support/postgres";
import { rawRows, testSigner } from "../support/ledger";

const rejects = async (p: Promise<unknown>, pattern: RegExp) => {
  let error: unknown;
  try {
    await p;
  } catch (e) {
    error = e;
  }
  expect(error, `expected a rejection matching ${pattern}`).toBeDefined();
  expect(String((error as Error).message)).toMatch(pattern);
};

describeEachDatabase("ledger append-only in the database", (fixture) => {
  const signer = testSigner();
  let ledger: PrismaLedger;

  beforeAll(async () => {
    ledger = new PrismaLedger(fixture().db, { signer: async () => signer, checkpointEvery: 5 });
    for (let i = 0; i < 12; i++) {
      const q = `question ${i}`;
      await ledger.append({
        kind: "graphrag.answer",
        tenantId: "t1",
        payload: { i, query_sha256: sha256Text(q) },
        redactable: { questionText: q },
      });
    }
    await ledger.flush();
  });

  it("UPDATE, DELETE and TRUNCATE on the ledger are each rejected — even an UPDATE that matches no row", async () => {
    const { db } = fixture();
    const before = await rawRows(db);
    for (const sql of [
      `UPDATE "ledger" SET kind = 'x' WHERE seq = 3`,
      `UPDATE "ledger" SET kind = 'x' WHERE seq = -1`,
      `DELETE FROM "ledger" WHERE seq = 12`,
      `DELETE FROM "ledger"`,
      `TRUNCATE "ledger" CASCADE`,
    ]) {
      await rejects(db.prisma.$executeRawUnsafe(sql), /CGL01|append-only/);
    }
    expect(await rawRows(db)).toEqual(before);
    expect(await ledger.verify({ trustedKeys: [signer.publicKey] })).toMatchObject({ ok: true, size: 12, checkpoints: { checked: 2 } });
  });

  it("checkpoints are append-only too", async () => {
    const { db } = fixture();
    for (const sql of [
      `UPDATE "ledger_checkpoint" SET root_hash = repeat('0', 64)`,
      `DELETE FROM "ledger_checkpoint"`,
      `TRUNCATE "ledger_checkpoint"`,
    ]) {
      await rejects(db.prisma.$executeRawUnsafe(sql), /CGL01|append-only/);
    }
    expect((await ledger.listCheckpoints()).map((c) => c.treeSize)).toEqual([10, 5]);
  });

  it("the redactable part can only be erased: no delete, no rewrite, no second erase", async () => {
    const { db } = fixture();
    for (const sql of [
      `DELETE FROM "ledger_redactable" WHERE seq = 1`,
      `TRUNCATE "ledger_redactable"`,
      `UPDATE "ledger_redactable" SET question_text = 'other' WHERE seq = 2`,
      `UPDATE "ledger_redactable" SET seq = 99 WHERE seq = 2`,
    ]) {
      await rejects(db.prisma.$executeRawUnsafe(sql), /CGL01|append-only|only allows erasing/);
    }
    expect(await db.prisma.$executeRawUnsafe(`UPDATE "ledger_redactable" SET question_text = NULL, erased_at = now() WHERE seq = 2`)).toBe(
      1,
    );
    await rejects(
      db.prisma.$executeRawUnsafe(`UPDATE "ledger_redactable" SET question_text = NULL, erased_at = now() WHERE seq = 2`),
      /only allows erasing/,
    );
    const [e2] = await ledger.entries(2, 2);
    expect(e2.questionText).toBeNull();
    expect(e2.questionErasedAt).not.toBeNull();
    expect((await ledger.verify({ trustedKeys: [signer.publicKey] })).ok).toBe(true);
  });

  it("every insert must continue the chain; the database computes the Merkle subtree hashes itself", async () => {
    const { db } = fixture();
    const head = await ledger.head();
    const seq = head.size + 1;
    const createdAt = new Date().toISOString();
    const make = (
      over: Partial<{ seq: number; prev: string; body: string; hash: string; kind: string; at: string; subtrees: string[] }> = {},
    ) => {
      const s = over.seq ?? seq;
      const kind = over.kind ?? "note";
      const at = over.at ?? createdAt;
      const prev = over.prev ?? head.hash;
      const body = over.body ?? entryBodyOf({ seq: s, kind, createdAt: at, payload: { x: 1 } });
      const hash = over.hash ?? hashOfBody(prev, body);
      return db.prisma.$executeRawUnsafe(
        `INSERT INTO "ledger" (seq, prev_hash, entry_hash, kind, body, created_at, subtree_hashes) VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7::text[])`,
        s,
        prev,
        hash,
        kind,
        body,
        at,
        over.subtrees ?? [],
      );
    };
    await rejects(make({ prev: "a".repeat(64) }), /CGL02|continue the chain/);
    await rejects(
      make({ seq: seq + 1, body: entryBodyOf({ seq: seq + 1, kind: "note", createdAt, payload: { x: 1 } }) }),
      /CGL02|continue the chain/,
    );
    await rejects(make({ hash: "b".repeat(64) }), /CGL02|not sha256/);
    await rejects(make({ kind: "other", body: entryBodyOf({ seq, kind: "note", createdAt, payload: { x: 1 } }) }), /CGL02|does not match/);
    const earlier = new Date(Date.parse(head.createdAt!) - 60_000).toISOString();
    await rejects(make({ at: earlier }), /CGL02|dated before/);
    // A well-formed append from any writer is accepted, and whatever subtree hashes it claims are replaced.
    expect(await make({ subtrees: ["c".repeat(64), "d".repeat(64)] })).toBe(1);
    const rows = await rawRows(db);
    expect(rows.at(-1)!.subtree_hashes).not.toContain("c".repeat(64));
    expect((await ledger.verify({ trustedKeys: [signer.publicKey] })).ok).toBe(true);
  });

  it("question text must be bound to the entry by query_sha256; one bad entry in a batch does not fail the others", async () => {
    await expect(
      ledger.append({ kind: "graphrag.answer", payload: { query_sha256: sha256Text("a") }, redactable: { questionText: "b" } }),
    ).rejects.toMatchObject({ code: "CG-AUDIT-001" });
    await expect(ledger.append({ kind: "graphrag.answer", payload: {}, redactable: { questionText: "b" } })).rejects.toMatchObject({
      code: "CG-AUDIT-001",
    });
    const before = (await ledger.head()).size;
    // "\u0000" cannot be stored in PostgreSQL JSON: that entry fails, the ones queued with it are written.
    const results = await Promise.allSettled([
      ledger.append({ kind: "ok", payload: { n: 1 } }),
      ledger.append({ kind: "bad", payload: { n: "nul\u0000" } }),
      ledger.append({ kind: "ok", payload: { n: 3 } }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ code: "CG-AUDIT-001" });
    expect((await ledger.head()).size).toBe(before + 2);
    expect((await ledger.verify({ trustedKeys: [signer.publicKey] })).ok).toBe(true);
  });

  it("retention erases question text older than the cutoff, records that it did, and leaves the chain verifying", async () => {
    const { db } = fixture();
    const texts = async () => (await ledger.entries(1, 12)).map((e) => e.questionText);
    expect((await texts()).filter((t) => t !== null).length).toBe(11); // seq 2 was erased above
    expect(await runRetention(ledger, 30, new Date())).toMatchObject({ erased: 0, recordedSeq: null });
    const later = new Date(Date.now() + 31 * 86_400_000);
    const r = await runRetention(ledger, 30, later);
    expect(r.erased).toBe(11);
    expect((await texts()).every((t) => t === null)).toBe(true);
    const [entry] = await ledger.entries(r.recordedSeq!, r.recordedSeq!);
    expect(entry).toMatchObject({ kind: "audit.retention", payload: { erased_question_texts: 11, retention_days: 30 } });
    // The hashed payload still holds each question's digest.
    const first = (await ledger.entries(1, 1))[0];
    expect(first.payload).toMatchObject({ query_sha256: sha256Text("question 0") });
    expect((await ledger.verify({ trustedKeys: [signer.publicKey] })).ok).toBe(true);
    void db;
  });
});

describe.runIf(backends.includes("postgresql"))("an application role cannot switch the ledger's protection off (PostgreSQL)", () => {
  it("as a non-owner, non-superuser role: appends and erases work; UPDATE, DISABLE TRIGGER, DROP TRIGGER and replica mode are refused", async () => {
    const fresh = await freshDatabase("postgresql");
    const role = `cg_app_${randomBytes(4).toString("hex")}`;
    const admin = new pg.Client({ connectionString: fresh.url });
    await admin.connect();
    let appDb: Awaited<ReturnType<typeof openDatabase>> | undefined;
    try {
      await admin.query(`CREATE ROLE "${role}" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE`);
      await admin.query(appRoleSql(role));
      const u = new URL(fresh.url!);
      u.username = role;
      appDb = await openDatabase({ url: u.toString(), poolSize: 2 });
      const signer = testSigner();
      const ledger = new PrismaLedger(appDb, { signer: async () => signer, checkpointEvery: 2 });
      for (let i = 0; i < 4; i++) {
        await ledger.append({
          kind: "graphrag.answer",
          payload: { i, query_sha256: sha256Text(`q${i}`) },
          redactable: { questionText: `q${i}` },
        });
      }
      await ledger.flush();
      expect(await runRetention(ledger, 1, new Date(Date.now() + 2 * 86_400_000))).toMatchObject({ erased: 4 });

      const as = (sql: string) => appDb!.prisma.$executeRawUnsafe(sql);
      await rejects(as(`UPDATE "ledger" SET kind = 'x' WHERE seq = 1`), /permission denied/);
      await rejects(as(`DELETE FROM "ledger"`), /permission denied/);
      await rejects(as(`TRUNCATE "ledger"`), /permission denied/);
      await rejects(as(`DELETE FROM "ledger_redactable"`), /permission denied/);
      await rejects(as(`ALTER TABLE "ledger" DISABLE TRIGGER "ledger_append_only"`), /must be owner/);
      await rejects(as(`DROP TRIGGER "ledger_append_only" ON "ledger"`), /must be owner/);
      await rejects(as(`ALTER TABLE "ledger" DISABLE TRIGGER ALL`), /must be owner/);
      await rejects(
        appDb.prisma.$transaction(async (tx) => {
          await tx.$executeRawUnsafe(`SET LOCAL session_replication_role = replica`);
        }),
        /permission denied/,
      );

      const report = await ledger.verify({ trustedKeys: [signer.publicKey] });
      expect(report).toMatchObject({
        ok: true,
        size: 5,
        protectionProblems: [],
        connectedAs: { role, superuser: false, ownsLedger: false, canBypass: false },
      });
      // The owner (the migrating role) still could, and verify says so when connected as it.
      const owner = await new PrismaLedger(fresh.db).verify({ trustedKeys: [signer.publicKey] });
      expect(owner.connectedAs).toMatchObject({ canBypass: true });
    } finally {
      await appDb?.close();
      await admin.end();
      await fresh.dispose();
      const c = new pg.Client({ connectionString: ADMIN_URL });
      await c.connect();
      await c.query(`DROP ROLE IF EXISTS "${role}"`);
      await c.end();
    }
  });
});
