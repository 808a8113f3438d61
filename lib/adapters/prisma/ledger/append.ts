// Appending: a transaction-scoped advisory lock, read the head, insert the next rows. Concurrent writers (processes or
// connections) line up into one chain; the database re-checks every insert (next seq, linked to its predecessor,
// sha256(prev_hash || body) = entry_hash, time not going backwards) and fills in the Merkle subtree hashes itself, so
// even a writer that bypassed this module could not fork the chain or leave the tree inconsistent. Inside one process,
// appends that queue up while a transaction runs go together in the next one (group commit), each still its own entry.
import "server-only";
import type { PrismaClient } from "../../../generated/prisma/client";
import { CasegraphError } from "../../../domain/failure-codes";
import { GENESIS_HASH, entryBodyOf, hashOfBody, type ChainEntry } from "../../../domain/ledger-chain";
import type { LedgerAppend } from "../../../ports";
import type { SqlSession } from "../migrate";
import { num, sha256Text } from "./rows";

export const LEDGER_LOCK = 72_002;
const MAX_BATCH = 200;

/** What a transaction must offer to append (a Prisma client or a Prisma interactive-transaction client). */
export type LedgerTx = Pick<PrismaClient, "$executeRawUnsafe" | "$queryRawUnsafe">;

interface Prepared {
  seq: number;
  prevHash: string;
  entryHash: string;
  kind: string;
  body: string;
  payload: Record<string, unknown>;
  createdAt: string;
  tenantId: string | null;
  actorId: string | null;
  caseId: string | null;
  questionText: string | null;
}

function checkRedactable(entry: LedgerAppend): string | null {
  const text = entry.redactable?.questionText ?? null;
  if (text === null) return null;
  if (typeof text !== "string") throw new CasegraphError("CG-AUDIT-001", "The redactable question text must be a string.");
  if (entry.payload.query_sha256 !== sha256Text(text)) {
    throw new CasegraphError("CG-AUDIT-001", "The stored question text must be bound by query_sha256 in the hashed payload.");
  }
  return text;
}

/** The two calls an append needs inside an open transaction: a Prisma transaction client and a driver session both fit. */
interface TxQueries {
  exec(sql: string, params: unknown[]): Promise<unknown>;
  query<T>(sql: string, params: unknown[]): Promise<T[]>;
}

const INSERT_ROWS = `WITH l AS (
    INSERT INTO "ledger" (seq, prev_hash, entry_hash, kind, body, tenant_id, actor_id, case_id, created_at)
    SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::timestamptz[])
    ORDER BY 1
    RETURNING seq)
  INSERT INTO "ledger_redactable" (seq, question_text, created_at)
  SELECT * FROM unnest($10::bigint[], $11::text[], $12::timestamptz[])`;

export async function appendRows(q: TxQueries, entries: readonly LedgerAppend[], now: () => number): Promise<ChainEntry[]> {
  if (!entries.length) return [];
  const texts = entries.map(checkRedactable);
  await q.exec(`SELECT pg_advisory_xact_lock(${LEDGER_LOCK})`, []);
  // A separate statement: in READ COMMITTED it sees whatever committed while this one waited for the lock.
  const head = await q.query<{ seq: unknown; entry_hash: string; ms: unknown }>(
    `SELECT seq, entry_hash, (extract(epoch FROM created_at) * 1000)::float8 AS ms FROM "ledger" ORDER BY seq DESC LIMIT 1`,
    [],
  );
  let seq = head.length ? num(head[0].seq) : 0;
  let prevHash = head.length ? head[0].entry_hash : GENESIS_HASH;
  // Never earlier than the head: the database refuses entries dated before their predecessor (keeps time ordered
  // with seq, which the explorer's date filter relies on) even if this host's clock steps back.
  const createdAt = new Date(Math.max(now(), head.length ? num(head[0].ms) : 0)).toISOString();
  const rows: Prepared[] = entries.map((entry, i) => {
    seq++;
    // Round-trip through JSON so what is hashed is exactly what a reader parses back.
    const payload = JSON.parse(JSON.stringify(entry.payload ?? {})) as Record<string, unknown>;
    const body = entryBodyOf({ seq, kind: entry.kind, createdAt, payload });
    const entryHash = hashOfBody(prevHash, body);
    const row: Prepared = {
      seq,
      prevHash,
      entryHash,
      kind: entry.kind,
      body,
      payload,
      createdAt,
      tenantId: entry.tenantId ?? null,
      actorId: entry.actorId ?? null,
      caseId: entry.caseId ?? null,
      questionText: texts[i],
    };
    prevHash = entryHash;
    return row;
  });
  const withText = rows.filter((r) => r.questionText !== null);
  // One statement for the entries and their redactable parts (the foreign key is checked at its end).
  await q.exec(INSERT_ROWS, [
    rows.map((r) => r.seq),
    rows.map((r) => r.prevHash),
    rows.map((r) => r.entryHash),
    rows.map((r) => r.kind),
    rows.map((r) => r.body),
    rows.map((r) => r.tenantId),
    rows.map((r) => r.actorId),
    rows.map((r) => r.caseId),
    rows.map((r) => r.createdAt),
    withText.map((r) => r.seq),
    withText.map((r) => r.questionText),
    withText.map((r) => r.createdAt),
  ]);
  return rows.map((r) => ({
    seq: r.seq,
    prevHash: r.prevHash,
    entryHash: r.entryHash,
    kind: r.kind,
    payload: r.payload,
    createdAt: r.createdAt,
  }));
}

/** appendInTx for a driver-level transaction (the importer's SqlSession): the import and its entries commit together. */
export function appendInSession(
  session: SqlSession,
  entries: readonly LedgerAppend[],
  now: () => number = Date.now,
): Promise<ChainEntry[]> {
  return appendRows(
    {
      exec: (sql, params) => session.query(sql, params),
      query: async <T>(sql: string, params: unknown[]) => (await session.query<T>(sql, params)).rows,
    },
    entries,
    now,
  );
}

/**
 * Appends entries as the next links of the chain inside the caller's transaction (takes the ledger lock until it
 * commits). Admin changes call this inside their own transaction so the change and its entry commit together.
 */
export function appendInTx(tx: LedgerTx, entries: readonly LedgerAppend[], now: () => number = Date.now): Promise<ChainEntry[]> {
  return appendRows(
    {
      exec: (sql, params) => tx.$executeRawUnsafe(sql, ...params),
      query: <T>(sql: string, params: unknown[]) => tx.$queryRawUnsafe<T[]>(sql, ...params),
    },
    entries,
    now,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Group commit

interface Pending {
  entry: LedgerAppend;
  resolve(e: ChainEntry): void;
  reject(err: unknown): void;
}

/**
 * The in-process queue: appends that arrive while a transaction runs are written together in the next one, each
 * still its own entry; one bad entry never takes the others down. `afterWrite` runs after each written batch (the
 * periodic checkpoint).
 */
export class GroupCommit {
  private queue: Pending[] = [];
  private pumping: Promise<void> | null = null;

  constructor(
    private readonly write: (entries: LedgerAppend[]) => Promise<ChainEntry[]>,
    private readonly afterWrite: (written: ChainEntry[]) => Promise<void>,
  ) {}

  append(entry: LedgerAppend): Promise<ChainEntry> {
    return new Promise<ChainEntry>((resolve, reject) => {
      this.queue.push({ entry, resolve, reject });
      this.pumping ??= this.pump();
    });
  }

  /** Resolves when every queued append has been written (or failed). */
  async flush(): Promise<void> {
    while (this.pumping) await this.pumping;
  }

  private async pump(): Promise<void> {
    for (;;) {
      if (!this.queue.length) {
        // Cleared in the same synchronous step that saw the queue empty, so a later append always starts a new pump.
        this.pumping = null;
        return;
      }
      const batch = this.queue.splice(0, MAX_BATCH);
      let written: ChainEntry[] | null = null;
      try {
        written = await this.write(batch.map((p) => p.entry));
        batch.forEach((p, i) => p.resolve(written![i]));
      } catch (err) {
        if (batch.length === 1) batch[0].reject(asAuditError(err));
        else {
          // One bad entry must not take the others down: write them one by one.
          for (const p of batch) {
            try {
              p.resolve((await this.write([p.entry]))[0]);
            } catch (e) {
              p.reject(asAuditError(e));
            }
          }
        }
      }
      if (written?.length) await this.afterWrite(written);
    }
  }
}

function asAuditError(err: unknown): CasegraphError {
  if (err instanceof CasegraphError && err.code === "CG-AUDIT-001") return err;
  return new CasegraphError("CG-AUDIT-001", undefined, [], { cause: err });
}
