"use server";
// Audit explorer actions (supervisors and admins, their own tenant): an entry's inclusion proof for the browser to
// check, the full chain verification, and exports (themselves recorded in the ledger).
import { z } from "zod";
import { authedAction } from "@/lib/auth/guard";
import { parsePublicKey } from "@/lib/domain/checkpoint";
import { verifyProofFile } from "@/lib/domain/ledger-proof";
import { evidenceRevocations, exportAndRecord } from "@/lib/server/audit/export";
import { reviewerRedactor, reviewerStores } from "@/lib/server/audit/visibility";
import { assertEntryInTenant } from "@/lib/server/audit/explorer";
import { inclusionProofFor } from "@/lib/server/audit/proofs";
import { verifyLedger } from "@/lib/server/ledger/verify";
import { runtime } from "@/lib/server/runtime";
import { assertExportsAllowed } from "@/lib/server/runtime/kill-switches";

const reviewers = { roles: ["supervisor" as const, "admin" as const] };

export const inclusionProofAction = authedAction(
  { ...reviewers, input: z.object({ seq: z.number().int().min(1) }) },
  async (actor, { seq }) => {
    const { db, ledger } = await runtime();
    await assertEntryInTenant(db.prisma, actor.tenantId, seq);
    const file = await inclusionProofFor(ledger, seq, undefined, "sign");
    const trusted = await ledger.publicKey();
    // The server checks the full stored entry (with the configured key); the page shows both its own check and this one.
    const server = verifyProofFile(file, trusted ? parsePublicKey(trusted.publicKeyPem) : undefined);
    // The browser gets the entry as this reviewer may see it: ids outside their permissions removed and counted, so
    // it checks the proof from the entry hash on (the server checked the hash over the full entry).
    const [stored] = await ledger.entries(seq, seq);
    const { payload, hiddenItems } = (await reviewerRedactor(reviewerStores(db), actor, [stored]))(stored);
    const shown = hiddenItems ? { ...file, entry: { ...file.entry, payload, hiddenItems } } : file;
    return { file: shown, server, trustedPublicKeyPem: trusted?.publicKeyPem ?? null };
  },
);

export const verifyChainAction = authedAction({ ...reviewers, input: z.object({}) }, async () => {
  const { ledger } = await runtime();
  const r = await verifyLedger(ledger);
  return {
    ok: r.ok,
    size: r.size,
    headHash: r.headHash,
    rootHash: r.rootHash ?? null,
    firstBad: r.firstBad ?? null,
    checkpointsChecked: r.checkpoints?.checked ?? 0,
    latestCheckpoint: r.checkpoints?.latest ?? null,
    protectionProblems: r.protectionProblems ?? [],
    durationMs: r.durationMs ?? null,
  };
});

export const exportAuditAction = authedAction(
  {
    ...reviewers,
    input: z
      .object({
        fromSeq: z.number().int().min(1),
        toSeq: z.number().int().min(1),
        format: z.enum(["json", "csv"]),
        includeQuestionText: z.boolean().default(true),
      })
      .refine((v) => v.toSeq >= v.fromSeq, { message: "to must not be before from", path: ["toSeq"] }),
  },
  async (actor, input) => {
    const { db, ledger } = await runtime();
    await assertExportsAllowed(db.prisma, actor.tenantId); // DISABLE_EXPORTS (issue 15)
    const r = await exportAndRecord(
      ledger,
      {
        fromSeq: input.fromSeq,
        toSeq: input.toSeq,
        tenantId: actor.tenantId,
        includeQuestionText: input.includeQuestionText,
        reviewer: { viewer: actor, stores: reviewerStores(db) },
        revocations: evidenceRevocations(db.prisma),
      },
      { userId: actor.userId, email: actor.email, tenantId: actor.tenantId, via: actor.via },
      input.format,
    );
    return {
      filename: `casegraph-audit-${actor.tenantId}-${input.fromSeq}-${input.toSeq}.${input.format}`,
      mime: input.format === "json" ? "application/json" : "text/csv",
      text: r.text,
      sha256: r.sha256,
      entryCount: r.entryCount,
      recordedSeq: r.recordedSeq,
    };
  },
);
