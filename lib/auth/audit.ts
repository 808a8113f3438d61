// Admin changes and their ledger entry commit together or not at all: the change and the chained ledger append run in
// ONE database transaction, the append being the ledger adapter's in-transaction append (`appendInTx`, which holds
// the ledger lock until this transaction ends). If the append fails, the change is rolled back and the admin sees
// CG-AUDIT-001; an unaudited admin change cannot exist.
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import { CasegraphError } from "../domain/failure-codes";
import type { ChainEntry } from "../domain/ledger-chain";
import { appendInTx } from "../adapters/prisma/ledger";
import { adminChangeEntry, type AdminChange, type ChangeActor } from "../domain/admin-change";

export type Tx = Prisma.TransactionClient;

export type { AdminChange, ChangeActor };

export async function appendLedgerInTx(
  tx: Tx,
  entry: { kind: string; payload: Record<string, unknown>; tenantId: string | null; actorId: string | null; caseId: string | null },
): Promise<ChainEntry> {
  const [written] = await appendInTx(tx, [entry]);
  return written;
}

/**
 * Runs `change` in a transaction; it returns its result and the one ledger entry describing it (who, what, before →
 * after). Returning `null` as the change means "nothing changed": no entry is written.
 */
export async function auditedChange<T>(
  prisma: PrismaClient,
  actor: ChangeActor,
  change: (tx: Tx) => Promise<{ result: T; audit: AdminChange | null }>,
): Promise<T> {
  let ledgerFailed = false;
  try {
    return await prisma.$transaction(
      async (tx) => {
        const { result, audit } = await change(tx);
        if (audit) {
          try {
            await appendLedgerInTx(tx, adminChangeEntry(actor, audit));
          } catch (err) {
            ledgerFailed = true;
            throw err;
          }
        }
        return result;
      },
      { timeout: 30_000, maxWait: 30_000 },
    );
  } catch (err) {
    if (ledgerFailed) throw new CasegraphError("CG-AUDIT-001", "The change was not made: its audit record could not be written.", [], { cause: err });
    throw err;
  }
}
