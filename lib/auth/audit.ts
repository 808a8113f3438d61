// Admin changes and their ledger entry commit together or not at all: the change and the chained ledger append run in
// ONE database transaction, under the same advisory lock and with the same hashing as lib/adapters/prisma/ledger.ts
// (entry_hash = sha256(prev_hash || canonical_json({seq, kind, createdAt, payload}))). If the append fails, the change
// is rolled back and the admin sees CG-AUDIT-001; an unaudited admin change cannot exist.
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import { CasegraphError } from "../domain/failure-codes";
import { GENESIS_HASH, entryHashOf, type ChainEntry } from "../domain/ledger-chain";

/** Same lock id as PrismaLedger, so admin entries and answer entries line up into one chain. */
const LEDGER_LOCK = 72_002;

export type Tx = Prisma.TransactionClient;

/** Who made a change: a signed-in admin, or an operator at the shell. */
export interface ChangeActor {
  userId: string | null;
  email: string;
  tenantId: string | null;
  via: "session" | "token" | "cli";
}

export interface AdminChange {
  kind: string;
  target: { type: string; id: string; tenantId?: string | null };
  before: unknown;
  after: unknown;
  caseId?: string | null;
}

export async function appendLedgerInTx(tx: Tx, entry: { kind: string; payload: Record<string, unknown>; tenantId: string | null; actorId: string | null; caseId: string | null }): Promise<ChainEntry> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LEDGER_LOCK})`;
  const head = await tx.$queryRaw<Array<{ seq: bigint; entry_hash: string }>>`
    SELECT seq, entry_hash FROM "ledger" ORDER BY seq DESC LIMIT 1`;
  const seq = head.length ? Number(head[0].seq) + 1 : 1;
  const prevHash = head.length ? head[0].entry_hash : GENESIS_HASH;
  const createdAt = new Date().toISOString();
  const payload = JSON.parse(JSON.stringify(entry.payload)) as Record<string, unknown>;
  const entryHash = entryHashOf(prevHash, { seq, kind: entry.kind, createdAt, payload });
  await tx.$executeRaw`INSERT INTO "ledger" (seq, prev_hash, entry_hash, kind, payload, tenant_id, actor_id, case_id, created_at)
    VALUES (${seq}, ${prevHash}, ${entryHash}, ${entry.kind}, ${JSON.stringify(payload)}::jsonb, ${entry.tenantId},
            ${entry.actorId}, ${entry.caseId}, ${createdAt}::timestamptz)`;
  return { seq, prevHash, entryHash, kind: entry.kind, payload, createdAt };
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
            await appendLedgerInTx(tx, {
              kind: audit.kind,
              tenantId: audit.target.tenantId ?? actor.tenantId,
              actorId: actor.userId,
              caseId: audit.caseId ?? null,
              payload: {
                actor: { id: actor.userId, email: actor.email, via: actor.via, tenantId: actor.tenantId },
                target: audit.target,
                ...(audit.caseId ? { caseId: audit.caseId } : {}),
                before: audit.before ?? null,
                after: audit.after ?? null,
              },
            });
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
