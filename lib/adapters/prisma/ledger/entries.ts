// Reading entries (with their redactable question text), the head, and retention's erasure of stored question text.
import "server-only";
import { GENESIS_HASH } from "../../../domain/ledger-chain";
import type { StoredEntry } from "../../../ports";
import { isoOf, num, type Reader } from "./rows";

export async function headOf(read: Reader): Promise<{ size: number; hash: string; createdAt: string | null }> {
  const rows = await read<{ seq: unknown; entry_hash: string; created_at: unknown }>(
    `SELECT seq, entry_hash, created_at FROM "ledger" ORDER BY seq DESC LIMIT 1`,
  );
  return rows.length
    ? { size: num(rows[0].seq), hash: rows[0].entry_hash, createdAt: isoOf(rows[0].created_at) }
    : { size: 0, hash: GENESIS_HASH, createdAt: null };
}

/** Entries with seq in [from, to], in order, with their redactable part. */
export async function entriesIn(read: Reader, from: number, to: number): Promise<StoredEntry[]> {
  const rows = await read<{
    seq: unknown;
    prev_hash: string;
    entry_hash: string;
    kind: string;
    body: string;
    created_at: unknown;
    tenant_id: string | null;
    actor_id: string | null;
    case_id: string | null;
    question_text: string | null;
    erased_at: unknown;
  }>(
    `SELECT l.seq, l.prev_hash, l.entry_hash, l.kind, l.body, l.created_at, l.tenant_id, l.actor_id, l.case_id,
            r.question_text, r.erased_at
       FROM "ledger" l LEFT JOIN "ledger_redactable" r ON r.seq = l.seq
      WHERE l.seq BETWEEN $1 AND $2 ORDER BY l.seq`,
    [from, to],
  );
  return rows.map((r) => ({
    seq: num(r.seq),
    prevHash: r.prev_hash,
    entryHash: r.entry_hash,
    kind: r.kind,
    body: r.body,
    payload: (JSON.parse(r.body) as { payload: unknown }).payload,
    createdAt: isoOf(r.created_at),
    tenantId: r.tenant_id,
    actorId: r.actor_id,
    caseId: r.case_id,
    questionText: r.question_text,
    questionErasedAt: r.erased_at ? isoOf(r.erased_at) : null,
  }));
}

/** The seq range of entries written in [from, to] (ISO dates; entry times never go backwards, so this is exact). */
export async function seqRangeOf(read: Reader, from?: string, to?: string): Promise<{ fromSeq: number; toSeq: number }> {
  const head = await headOf(read);
  const rows = await read<{ lo: unknown; hi: unknown }>(
    `SELECT (SELECT seq FROM "ledger" WHERE $1::timestamptz IS NULL OR created_at >= $1::timestamptz ORDER BY created_at, seq LIMIT 1) AS lo,
            (SELECT seq FROM "ledger" WHERE $2::timestamptz IS NULL OR created_at <= $2::timestamptz ORDER BY created_at DESC, seq DESC LIMIT 1) AS hi`,
    [from ?? null, to ?? null],
  );
  const lo = rows[0].lo === null ? head.size + 1 : num(rows[0].lo);
  const hi = rows[0].hi === null ? 0 : num(rows[0].hi);
  return { fromSeq: lo, toSeq: hi };
}

/** Retention: erases stored question text of entries written before `cutoff`; the chain is untouched. Returns the count. */
export function eraseQuestionTextBefore(exec: (sql: string, ...params: unknown[]) => Promise<number>, cutoff: Date): Promise<number> {
  return exec(
    `UPDATE "ledger_redactable" SET question_text = NULL, erased_at = CURRENT_TIMESTAMP
      WHERE question_text IS NOT NULL AND created_at < $1::timestamptz`,
    cutoff.toISOString(),
  );
}
