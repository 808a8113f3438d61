// Ledger maintenance (what instrumentation.ts schedules through startLedgerMaintenance): retention, and catch-up
// checkpoints for sizes the periodic checkpointing missed (entries written through appendInTx by admin changes, or a
// crash between commit and signing).
import { afterAll, expect, it } from "vitest";
import { appendInTx, PrismaLedger, sha256Text } from "@/lib/adapters/prisma/ledger";
import { catchUpCheckpoints, runLedgerMaintenance } from "@/lib/server/ledger/maintenance";
import { clearTestRuntime, useTestRuntime } from "../support/auth-fixture";
import { describeEachDatabase } from "../support/databases";
import { testSigner } from "../support/ledger";

describeEachDatabase("ledger maintenance", (fixture) => {
  afterAll(() => clearTestRuntime());

  it("the scheduled run erases question text older than AUDIT_RETENTION_DAYS (default 90), records it, and signs the head", async () => {
    const { db } = fixture();
    const ledger = useTestRuntime(db);
    const q = "a question asked 400 days ago";
    const old = Date.now() - 400 * 86_400_000;
    await db.prisma.$transaction((tx) =>
      appendInTx(
        tx,
        [{ kind: "graphrag.answer", tenantId: "t1", payload: { query_sha256: sha256Text(q) }, redactable: { questionText: q } }],
        () => old,
      ),
    );
    const r = await runLedgerMaintenance();
    expect(r.retention).toMatchObject({ erased: 1, recordedSeq: 2 });
    expect(r.checkpoints).toEqual([2]);
    const [first, second] = await ledger.entries(1, 2);
    expect(first.questionText).toBeNull();
    expect(first.payload).toMatchObject({ query_sha256: sha256Text(q) });
    expect(second).toMatchObject({ kind: "audit.retention", payload: { retention_days: 90, erased_question_texts: 1 } });
    expect(await runLedgerMaintenance()).toEqual({ retention: expect.objectContaining({ erased: 0, recordedSeq: null }), checkpoints: [] });
    expect((await ledger.verify()).ok).toBe(true);
  });

  it("catch-up signs the missed multiple of N and the head, once; without a key it does nothing", async () => {
    const { db } = fixture();
    const signer = testSigner();
    for (let i = 0; i < 25; i++)
      await db.prisma.$transaction((tx) => appendInTx(tx, [{ kind: "admin.user.update", tenantId: "t1", payload: { i } }]));
    expect(await catchUpCheckpoints(new PrismaLedger(db), 10)).toEqual([]);
    const ledger = new PrismaLedger(db, { signer: async () => signer });
    expect(await catchUpCheckpoints(ledger, 10)).toEqual([20, 27]);
    expect(await catchUpCheckpoints(ledger, 10)).toEqual([]);
  });
});
