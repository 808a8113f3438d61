// The ledger on PostgreSQL/PGlite. Appends take a transaction-scoped advisory lock, read the head and insert the next
// link, so concurrent writers (processes or connections) line up into one chain; seq and prev_hash are also UNIQUE,
// so a fork is impossible even if the lock were bypassed.
import type { PrismaClient } from "../../generated/prisma/client";
import { CasegraphError } from "../../domain/failure-codes";
import { ChainVerifier, GENESIS_HASH, entryHashOf, type ChainEntry } from "../../domain/ledger-chain";
import type { Ledger, LedgerAppend, VerifyReport } from "../../ports";

const LEDGER_LOCK = 72_002;
const VERIFY_PAGE = 5_000;

interface Row {
  seq: bigint | number | string;
  prev_hash: string;
  entry_hash: string;
  kind: string;
  payload: unknown;
  created_at: Date;
}

function toEntry(r: Row): ChainEntry {
  return {
    seq: Number(r.seq),
    prevHash: r.prev_hash,
    entryHash: r.entry_hash,
    kind: r.kind,
    payload: r.payload,
    createdAt: new Date(r.created_at).toISOString(),
  };
}

export class PrismaLedger implements Ledger {
  // In-process queue: PGlite has one connection, and on PostgreSQL it spares the lock a crowd of waiters.
  private tail: Promise<unknown> = Promise.resolve();

  constructor(private readonly prisma: PrismaClient) {}

  append(entry: LedgerAppend): Promise<ChainEntry> {
    const run = this.tail.then(() => this.appendLocked(entry));
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async appendLocked(entry: LedgerAppend): Promise<ChainEntry> {
    try {
      return await this.prisma.$transaction(async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LEDGER_LOCK})`;
        const head = await tx.$queryRaw<Array<{ seq: bigint; entry_hash: string }>>`
          SELECT seq, entry_hash FROM "ledger" ORDER BY seq DESC LIMIT 1`;
        const seq = head.length ? Number(head[0].seq) + 1 : 1;
        const prevHash = head.length ? head[0].entry_hash : GENESIS_HASH;
        const createdAt = new Date().toISOString();
        // Round-trip through JSON so what is hashed is exactly what JSONB stores and gives back.
        const payload = JSON.parse(JSON.stringify(entry.payload)) as Record<string, unknown>;
        const entryHash = entryHashOf(prevHash, { seq, kind: entry.kind, createdAt, payload });
        await tx.$executeRaw`INSERT INTO "ledger" (seq, prev_hash, entry_hash, kind, payload, tenant_id, actor_id, case_id, created_at)
          VALUES (${seq}, ${prevHash}, ${entryHash}, ${entry.kind}, ${JSON.stringify(payload)}::jsonb, ${entry.tenantId ?? null},
                  ${entry.actorId ?? null}, ${entry.caseId ?? null}, ${createdAt}::timestamptz)`;
        return { seq, prevHash, entryHash, kind: entry.kind, payload, createdAt };
      }, { timeout: 30_000, maxWait: 30_000 });
    } catch (err) {
      throw new CasegraphError("CG-AUDIT-001", undefined, [], { cause: err });
    }
  }

  /** Walks the whole chain in seq order, page by page, and names the first bad entry. */
  async verify(): Promise<VerifyReport> {
    const verifier = new ChainVerifier();
    let after = 0;
    for (;;) {
      const rows = await this.prisma.$queryRaw<Row[]>`
        SELECT seq, prev_hash, entry_hash, kind, payload, created_at FROM "ledger"
        WHERE seq > ${after} ORDER BY seq LIMIT ${VERIFY_PAGE}`;
      if (!rows.length) break;
      const entries = rows.map(toEntry);
      const bad = verifier.feed(entries);
      if (bad) return { ok: false, size: verifier.head.size, headHash: verifier.head.hash, firstBad: bad };
      after = entries[entries.length - 1].seq;
    }
    return { ok: true, size: verifier.head.size, headHash: verifier.head.hash };
  }
}
