// Admin changes and their ledger entry commit together or not at all: the change and the chained ledger append run in
// ONE database transaction. The append is the ledger adapter's own in-transaction append (`appendInTx` in
// lib/adapters/prisma/ledger.ts) when it provides one; otherwise the same lock and hashing are applied here
// (entry_hash = sha256(prev_hash || canonical_json({seq, kind, createdAt, payload}))). If the append fails, the change
// is rolled back and the admin sees CG-AUDIT-001; an unaudited admin change cannot exist.
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import { CasegraphError } from "../domain/failure-codes";
import { canonicalJson } from "../domain/canonical-json";
import { GENESIS_HASH, entryHashOf, type ChainEntry } from "../domain/ledger-chain";
import * as ledgerAdapter from "../adapters/prisma/ledger";
import type { LedgerAppend } from "../ports";

type AdapterAppendInTx = (tx: Tx, entries: readonly LedgerAppend[]) => Promise<ChainEntry[]>;
/** The ledger adapter's in-transaction append, when it has one (the single place that knows the ledger's format). */
const adapterAppendInTx = (ledgerAdapter as unknown as { appendInTx?: AdapterAppendInTx }).appendInTx;

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

/**
 * Whether the ledger stores the exact hashed bytes in a `body` column (migration 20261121030000_ledger: `payload` is
 * then generated from `body`) or only `payload` (the initial schema). Looked up once per database.
 */
const bodyColumn = new WeakMap<object, Promise<boolean>>();
function ledgerHasBody(key: object, tx: Tx): Promise<boolean> {
  let found = bodyColumn.get(key);
  if (!found) {
    found = tx.$queryRaw<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = 'ledger' AND column_name = 'body'`.then((r) => r[0].n > 0);
    bodyColumn.set(key, found);
  }
  return found;
}

export async function appendLedgerInTx(
  tx: Tx,
  entry: { kind: string; payload: Record<string, unknown>; tenantId: string | null; actorId: string | null; caseId: string | null },
  dbKey: object = tx,
): Promise<ChainEntry> {
  if (adapterAppendInTx) {
    const [written] = await adapterAppendInTx(tx, [entry]);
    return written;
  }
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LEDGER_LOCK})`;
  const head = await tx.$queryRaw<Array<{ seq: bigint; entry_hash: string; created_at: Date }>>`
    SELECT seq, entry_hash, created_at FROM "ledger" ORDER BY seq DESC LIMIT 1`;
  const seq = head.length ? Number(head[0].seq) + 1 : 1;
  const prevHash = head.length ? head[0].entry_hash : GENESIS_HASH;
  // Never dated before the head, even if this host's clock is behind another writer's.
  const createdAt = new Date(Math.max(Date.now(), head.length ? new Date(head[0].created_at).getTime() : 0)).toISOString();
  const payload = JSON.parse(JSON.stringify(entry.payload)) as Record<string, unknown>;
  const entryHash = entryHashOf(prevHash, { seq, kind: entry.kind, createdAt, payload });
  if (await ledgerHasBody(dbKey, tx)) {
    // entry_hash = sha256(prev_hash || body) with body the canonical JSON: the database re-checks both on insert.
    const body = canonicalJson({ seq, kind: entry.kind, createdAt, payload });
    await tx.$executeRaw`INSERT INTO "ledger" (seq, prev_hash, entry_hash, kind, body, tenant_id, actor_id, case_id, created_at)
      VALUES (${seq}, ${prevHash}, ${entryHash}, ${entry.kind}, ${body}, ${entry.tenantId},
              ${entry.actorId}, ${entry.caseId}, ${createdAt}::timestamptz)`;
  } else {
    await tx.$executeRaw`INSERT INTO "ledger" (seq, prev_hash, entry_hash, kind, payload, tenant_id, actor_id, case_id, created_at)
      VALUES (${seq}, ${prevHash}, ${entryHash}, ${entry.kind}, ${JSON.stringify(payload)}::jsonb, ${entry.tenantId},
              ${entry.actorId}, ${entry.caseId}, ${createdAt}::timestamptz)`;
  }
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
            }, prisma);
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
