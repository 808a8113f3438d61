// The ledger on PostgreSQL/PGlite (migrations 20261121000000_init + 20261121030000_ledger).
//
// Append: a transaction-scoped advisory lock, read the head, insert the next rows. Concurrent writers (processes or
// connections) line up into one chain; the database re-checks every insert (next seq, linked to its predecessor,
// sha256(prev_hash || body) = entry_hash, time not going backwards) and fills in the Merkle subtree hashes itself, so
// even a writer that bypassed this module could not fork the chain or leave the tree inconsistent. Inside one process,
// appends that queue up while a transaction runs go together in the next one (group commit), each still its own entry.
//
// Proofs: every complete subtree's hash is stored in the row that completes it, so the root of any size, an inclusion
// proof and a consistency proof are O(log n) primary-key lookups, whatever the size of the ledger.
//
// Verify: a full walk in one read-only snapshot: chain links, entry hashes over the stored bytes, every stored subtree
// hash recomputed, every signed checkpoint's signature and root, truncation below a checkpoint, and the database
// protections themselves (append-only triggers enabled, payload still derived from body).
import { createHash, type KeyObject } from "node:crypto";
import type { PrismaClient } from "../../generated/prisma/client";
import { checkpointProblem, keyIdOf, signCheckpoint, type KeptCheckpoint, type SignedCheckpoint } from "../../domain/checkpoint";
import { CasegraphError } from "../../domain/failure-codes";
import {
  ChainVerifier,
  GENESIS_HASH,
  entryBodyOf,
  hashOfBody,
  type ChainBreak,
  type ChainEntry,
  type ChainRow,
} from "../../domain/ledger-chain";
import {
  MerkleAccumulator,
  completingSeq,
  consistencyRanges,
  hashOfRange,
  inclusionRanges,
  isHash,
  leafHashOfEntry,
  rootRange,
  subtreeKey,
  subtreesNeeded,
  verifyConsistency,
  verifyInclusion,
  type LeafRange,
  type Subtree,
} from "../../domain/merkle";
import type { Ledger, LedgerAppend, VerifyReport } from "../../ports";
import type { Database } from "./db";
import type { SqlSession } from "./migrate";
import { CopyBinaryParser, copyField, type CopyRow } from "./copy-binary";
import { connectionRole } from "./ledger-roles";

export const LEDGER_LOCK = 72_002;
const VERIFY_PAGE = 10_000;
const MAX_BATCH = 200;

/** What a transaction must offer to append (a Prisma client or a Prisma interactive-transaction client). */
export type LedgerTx = Pick<PrismaClient, "$executeRawUnsafe" | "$queryRawUnsafe">;

export interface LedgerSignerLike {
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicKeyPem: string;
  keyId: string;
}

export interface LedgerOptions {
  /** Resolves the checkpoint signer (null: none configured, checkpoints are skipped / refused with CG-AUDIT-003). */
  signer?: () => Promise<LedgerSignerLike | null>;
  /** A signed checkpoint whenever an append reaches a multiple of this size. 0 turns periodic checkpoints off. */
  checkpointEvery?: number;
  /** Where background failures (a periodic checkpoint) are reported. */
  onBackgroundError?: (err: unknown) => void;
  /** Called with every checkpoint this ledger signs, to keep a copy outside the tables (lib/server/checkpoint-witness.ts). */
  onCheckpointSigned?: (checkpoint: StoredCheckpoint) => Promise<void>;
}


export interface StoredCheckpoint extends SignedCheckpoint {
  publicKeyPem: string;
}

/** A checkpoint the verify walk checks, and where it was found (the table, or a file outside it). */
type KnownCheckpoint = SignedCheckpoint & { source: string };

export interface InclusionProof {
  seq: number;
  leafIndex: number;
  treeSize: number;
  entryHash: string;
  leafHash: string;
  path: string[];
  rootHash: string;
}

export interface ConsistencyProof {
  fromSize: number;
  toSize: number;
  fromRoot: string;
  toRoot: string;
  path: string[];
}

export interface StoredEntry extends ChainEntry {
  body: string;
  tenantId: string | null;
  actorId: string | null;
  caseId: string | null;
  questionText: string | null;
  questionErasedAt: string | null;
}

export const sha256Text = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

const num = (v: unknown) => Number(v as number | string | bigint);
const isoOf = (v: unknown) => (v instanceof Date ? v : new Date(v as string)).toISOString();

// ---------------------------------------------------------------------------------------------------------------
// Appending

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

async function appendRows(q: TxQueries, entries: readonly LedgerAppend[], now: () => number): Promise<ChainEntry[]> {
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
      seq, prevHash, entryHash, kind: entry.kind, body, payload, createdAt,
      tenantId: entry.tenantId ?? null, actorId: entry.actorId ?? null, caseId: entry.caseId ?? null, questionText: texts[i],
    };
    prevHash = entryHash;
    return row;
  });
  const withText = rows.filter((r) => r.questionText !== null);
  // One statement for the entries and their redactable parts (the foreign key is checked at its end).
  await q.exec(INSERT_ROWS, [
    rows.map((r) => r.seq), rows.map((r) => r.prevHash), rows.map((r) => r.entryHash), rows.map((r) => r.kind),
    rows.map((r) => r.body), rows.map((r) => r.tenantId), rows.map((r) => r.actorId), rows.map((r) => r.caseId),
    rows.map((r) => r.createdAt),
    withText.map((r) => r.seq), withText.map((r) => r.questionText), withText.map((r) => r.createdAt),
  ]);
  return rows.map((r) => ({ seq: r.seq, prevHash: r.prevHash, entryHash: r.entryHash, kind: r.kind, payload: r.payload, createdAt: r.createdAt }));
}

/**
 * Appends entries as the next links of the chain inside the caller's transaction (takes the ledger lock until it
 * commits). Admin changes call this inside their own transaction so the change and its entry commit together.
 */
/** appendInTx for a driver-level transaction (the importer's SqlSession): the import and its entries commit together. */
export function appendInSession(session: SqlSession, entries: readonly LedgerAppend[], now: () => number = Date.now): Promise<ChainEntry[]> {
  return appendRows(
    { exec: (sql, params) => session.query(sql, params), query: async <T>(sql: string, params: unknown[]) => (await session.query<T>(sql, params)).rows },
    entries,
    now,
  );
}

export function appendInTx(tx: LedgerTx, entries: readonly LedgerAppend[], now: () => number = Date.now): Promise<ChainEntry[]> {
  return appendRows(
    { exec: (sql, params) => tx.$executeRawUnsafe(sql, ...params), query: <T>(sql: string, params: unknown[]) => tx.$queryRawUnsafe<T[]>(sql, ...params) },
    entries,
    now,
  );
}

// ---------------------------------------------------------------------------------------------------------------

interface Pending {
  entry: LedgerAppend;
  resolve(e: ChainEntry): void;
  reject(err: unknown): void;
}

type Reader = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

export class PrismaLedger implements Ledger {
  readonly prisma: PrismaClient;
  private readonly db?: Database;
  private queue: Pending[] = [];
  private pumping: Promise<void> | null = null;
  private warnedNoSigner = false;

  constructor(source: Database | PrismaClient, private readonly options: LedgerOptions = {}) {
    if ("prisma" in source && "transaction" in source) {
      this.db = source;
      this.prisma = source.prisma;
    } else {
      this.prisma = source as PrismaClient;
    }
  }

  // ---- append ----------------------------------------------------------------------------------------------------

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
      const last = written?.at(-1)?.seq;
      const every = this.options.checkpointEvery ?? 0;
      if (last && every > 0) {
        const first = written![0].seq;
        const due = Math.floor(last / every) * every;
        if (due >= first) await this.checkpointQuietly(due);
      }
    }
  }

  private write(entries: LedgerAppend[]): Promise<ChainEntry[]> {
    // On the driver itself when available: fewer layers per round trip while the ledger lock is held.
    if (this.db) {
      return this.db.transaction((sql) => appendRows({ exec: (text, params) => sql.query(text, params), query: async <T>(text: string, params: unknown[]) => (await sql.query<T>(text, params)).rows }, entries, Date.now));
    }
    return this.prisma.$transaction((tx) => appendInTx(tx, entries), { timeout: 30_000, maxWait: 30_000 });
  }

  private async checkpointQuietly(size: number) {
    try {
      const signer = await this.signer();
      if (!signer) return;
      await this.checkpoint(size);
    } catch (err) {
      (this.options.onBackgroundError ?? ((e) => console.error("casegraph: periodic ledger checkpoint failed:", (e as Error).message)))(err);
    }
  }

  // ---- reading ---------------------------------------------------------------------------------------------------

  private reader(): Reader {
    return async <T>(sql: string, params: unknown[] = []) => (await this.prisma.$queryRawUnsafe<T[]>(sql, ...params)) as T[];
  }

  /** Runs `fn` in one read-only snapshot on the driver itself when available (fast, consistent), else through Prisma. */
  private async snapshot<T>(fn: (read: Reader, session: Partial<SqlSession>) => Promise<T>): Promise<T> {
    if (!this.db) return fn(this.reader(), {});
    return this.db.transaction(async (sql: SqlSession) => {
      await sql.exec("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY");
      return fn(async <R>(text: string, params?: unknown[]) => (await sql.query<R>(text, params)).rows, sql);
    });
  }

  async head(): Promise<{ size: number; hash: string; createdAt: string | null }> {
    const rows = await this.reader()<{ seq: unknown; entry_hash: string; created_at: unknown }>(
      `SELECT seq, entry_hash, created_at FROM "ledger" ORDER BY seq DESC LIMIT 1`,
    );
    return rows.length
      ? { size: num(rows[0].seq), hash: rows[0].entry_hash, createdAt: isoOf(rows[0].created_at) }
      : { size: 0, hash: GENESIS_HASH, createdAt: null };
  }

  /** Entries with seq in [from, to], in order, with their redactable part. */
  async entries(from: number, to: number, read: Reader = this.reader()): Promise<StoredEntry[]> {
    const rows = await read<{
      seq: unknown; prev_hash: string; entry_hash: string; kind: string; body: string; created_at: unknown;
      tenant_id: string | null; actor_id: string | null; case_id: string | null; question_text: string | null; erased_at: unknown;
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

  // ---- Merkle ----------------------------------------------------------------------------------------------------

  /** Hashes of complete subtrees, from the rows that completed them. */
  private async subtreeHashes(subtrees: readonly Subtree[], read: Reader): Promise<Map<string, string>> {
    const seqs = [...new Set(subtrees.map(completingSeq))];
    const rows = seqs.length
      ? await read<{ seq: unknown; entry_hash: string; subtree_hashes: string[] }>(
          `SELECT seq, entry_hash, subtree_hashes FROM "ledger" WHERE seq = ANY($1::bigint[])`,
          [seqs],
        )
      : [];
    const bySeq = new Map(rows.map((r) => [num(r.seq), r]));
    const out = new Map<string, string>();
    for (const s of subtrees) {
      const row = bySeq.get(completingSeq(s));
      const h = row ? (s.level === 0 ? (isHash(row.entry_hash) ? leafHashOfEntry(row.entry_hash) : undefined) : row.subtree_hashes?.[s.level - 1]) : undefined;
      if (!isHash(h)) {
        throw new CasegraphError("CG-AUDIT-002", `The ledger's Merkle data is missing or damaged at seq ${completingSeq(s)}.`);
      }
      out.set(subtreeKey(s), h);
    }
    return out;
  }

  private async rangeHashes(ranges: readonly LeafRange[], read: Reader): Promise<string[]> {
    const hashes = await this.subtreeHashes(subtreesNeeded(ranges), read);
    return ranges.map((r) => hashOfRange(r, (s) => hashes.get(subtreeKey(s))!));
  }

  private async sizeOrHead(size: number | undefined, read: Reader): Promise<number> {
    const rows = await read<{ n: unknown }>(`SELECT coalesce(max(seq), 0) AS n FROM "ledger"`);
    const head = num(rows[0].n);
    if (size === undefined) return head;
    if (!Number.isSafeInteger(size) || size < 0 || size > head) {
      throw new CasegraphError("CG-INPUT-005", `The tree size must be between 0 and the ledger's size (${head}).`);
    }
    return size;
  }

  /** Merkle root of the first `size` entries (default: all). */
  async root(size?: number): Promise<{ treeSize: number; rootHash: string }> {
    return this.snapshot(async (read) => {
      const n = await this.sizeOrHead(size, read);
      const [rootHash] = await this.rangeHashes([rootRange(n)], read);
      return { treeSize: n, rootHash };
    });
  }

  /** Inclusion proof of entry `seq` in the tree of `size` entries (default: the head). Self-checked before it is returned. */
  async inclusionProof(seq: number, size?: number): Promise<InclusionProof> {
    return this.snapshot(async (read) => {
      const n = await this.sizeOrHead(size, read);
      if (!Number.isSafeInteger(seq) || seq < 1 || seq > n) {
        throw new CasegraphError("CG-INPUT-005", `seq must be between 1 and the tree size (${n}).`);
      }
      const ranges = inclusionRanges(seq - 1, n);
      const [rootHash, ...path] = await this.rangeHashes([rootRange(n), ...ranges], read);
      const [row] = await read<{ entry_hash: string }>(`SELECT entry_hash FROM "ledger" WHERE seq = $1`, [seq]);
      const leafHash = leafHashOfEntry(row.entry_hash);
      if (!verifyInclusion(seq - 1, n, leafHash, path, rootHash)) {
        throw new CasegraphError("CG-AUDIT-002", `The ledger's Merkle data does not prove entry ${seq}.`);
      }
      await this.assertRootMatchesCheckpoint(n, rootHash, read);
      return { seq, leafIndex: seq - 1, treeSize: n, entryHash: row.entry_hash, leafHash, path, rootHash };
    });
  }

  /** Inclusion proofs of many entries in the tree of `size` entries, with one lookup of the subtrees they share. */
  async inclusionProofs(seqs: readonly number[], size: number): Promise<Map<number, string[]>> {
    return this.snapshot(async (read) => {
      const n = await this.sizeOrHead(size, read);
      for (const seq of seqs) {
        if (!Number.isSafeInteger(seq) || seq < 1 || seq > n) throw new CasegraphError("CG-INPUT-005", `seq must be between 1 and the tree size (${n}).`);
      }
      const plans = seqs.map((seq) => inclusionRanges(seq - 1, n));
      const hashes = await this.subtreeHashes(subtreesNeeded([rootRange(n), ...plans.flat()]), read);
      const get = (s: Subtree) => hashes.get(subtreeKey(s))!;
      const rootHash = hashOfRange(rootRange(n), get);
      await this.assertRootMatchesCheckpoint(n, rootHash, read);
      return new Map(seqs.map((seq, i) => [seq, plans[i].map((r) => hashOfRange(r, get))]));
    });
  }

  /** Consistency proof between the trees of `from` and `to` entries (to defaults to the head). */
  async consistencyProof(from: number, to?: number): Promise<ConsistencyProof> {
    return this.snapshot(async (read) => {
      const n = await this.sizeOrHead(to, read);
      if (!Number.isSafeInteger(from) || from < 1 || from > n) {
        throw new CasegraphError("CG-INPUT-005", `from must be between 1 and to (${n}).`);
      }
      const [fromRoot, toRoot, ...path] = await this.rangeHashes([rootRange(from), rootRange(n), ...consistencyRanges(from, n)], read);
      if (!verifyConsistency(from, n, fromRoot, toRoot, path)) {
        throw new CasegraphError("CG-AUDIT-002", `The ledger's Merkle data does not prove ${from} → ${n}.`);
      }
      await this.assertRootMatchesCheckpoint(from, fromRoot, read);
      await this.assertRootMatchesCheckpoint(n, toRoot, read);
      return { fromSize: from, toSize: n, fromRoot, toRoot, path };
    });
  }

  /** A proof must never be served against a root that contradicts what was signed for that size. */
  private async assertRootMatchesCheckpoint(size: number, rootHash: string, read: Reader) {
    const rows = await read<{ root_hash: string }>(`SELECT root_hash FROM "ledger_checkpoint" WHERE tree_size = $1`, [size]);
    if (rows.length && rows[0].root_hash !== rootHash) {
      throw new CasegraphError("CG-AUDIT-002", `The ledger no longer matches its signed checkpoint at size ${size}.`);
    }
  }

  // ---- checkpoints -----------------------------------------------------------------------------------------------

  private async signer(): Promise<LedgerSignerLike | null> {
    const s = this.options.signer ? await this.options.signer() : null;
    if (!s && !this.warnedNoSigner) {
      this.warnedNoSigner = true;
      console.warn("casegraph: no ledger signing key (CASEGRAPH_LEDGER_SIGNING_KEY); checkpoints are not being signed");
    }
    return s;
  }

  async publicKey(): Promise<{ keyId: string; publicKeyPem: string } | null> {
    const s = await this.signer();
    return s ? { keyId: s.keyId, publicKeyPem: s.publicKeyPem } : null;
  }

  /**
   * The signed checkpoint at `size` (default: the head), created on demand. One per size: asking again returns the
   * stored one, so an export built on it is byte-identical every time.
   */
  async checkpoint(size?: number): Promise<StoredCheckpoint> {
    const existing = size !== undefined ? await this.checkpointAt(size) : null;
    if (existing) return existing;
    const signer = await this.signer();
    if (!signer) throw new CasegraphError("CG-AUDIT-003");
    const { treeSize, rootHash } = await this.root(size);
    const again = await this.checkpointAt(treeSize);
    if (again) return again;
    const signed = signCheckpoint({ treeSize, rootHash, time: new Date().toISOString() }, signer.privateKey);
    await this.prisma.$executeRawUnsafe(
      `INSERT INTO "ledger_checkpoint" (tree_size, root_hash, signed_time, key_id, signature, public_key)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (tree_size) DO NOTHING`,
      treeSize, rootHash, signed.time, signed.keyId, signed.signature, signer.publicKeyPem,
    );
    const stored = (await this.checkpointAt(treeSize))!; // ours, or the one a concurrent writer stored first
    await this.options.onCheckpointSigned?.(stored);
    return stored;
  }

  async checkpointAt(size: number): Promise<StoredCheckpoint | null> {
    const rows = await this.reader()<CheckpointRow>(`SELECT * FROM "ledger_checkpoint" WHERE tree_size = $1`, [size]);
    return rows.length ? checkpointOf(rows[0]) : null;
  }

  async latestCheckpoint(): Promise<StoredCheckpoint | null> {
    const rows = await this.reader()<CheckpointRow>(`SELECT * FROM "ledger_checkpoint" ORDER BY tree_size DESC LIMIT 1`);
    return rows.length ? checkpointOf(rows[0]) : null;
  }

  /** The smallest checkpoint covering `seq` (its tree holds the entry), or null. */
  async checkpointCovering(seq: number): Promise<StoredCheckpoint | null> {
    const rows = await this.reader()<CheckpointRow>(
      `SELECT * FROM "ledger_checkpoint" WHERE tree_size >= $1 ORDER BY tree_size LIMIT 1`,
      [seq],
    );
    return rows.length ? checkpointOf(rows[0]) : null;
  }

  async listCheckpoints(limit = 20): Promise<StoredCheckpoint[]> {
    const rows = await this.reader()<CheckpointRow>(`SELECT * FROM "ledger_checkpoint" ORDER BY tree_size DESC LIMIT $1`, [limit]);
    return rows.map(checkpointOf);
  }

  // ---- retention -------------------------------------------------------------------------------------------------

  /** Erases stored question text of entries written before `cutoff`; the chain is untouched. Returns the count. */
  async eraseQuestionTextBefore(cutoff: Date): Promise<number> {
    return this.prisma.$executeRawUnsafe(
      `UPDATE "ledger_redactable" SET question_text = NULL, erased_at = CURRENT_TIMESTAMP
        WHERE question_text IS NOT NULL AND created_at < $1::timestamptz`,
      cutoff.toISOString(),
    );
  }

  // ---- verify ----------------------------------------------------------------------------------------------------

  /**
   * The full walk. `trustedKeys`: public keys whose checkpoints are accepted (default: the signer's). A checkpoint
   * signed by any other key is a fault, as is one whose root differs from the recomputed tree.
   */
  async verify(options: { trustedKeys?: KeyObject[]; onProgress?: (checked: number) => void; external?: readonly KeptCheckpoint[] } = {}): Promise<VerifyReport> {
    const started = Date.now();
    let trusted: KeyObject[] = options.trustedKeys ?? [];
    if (!options.trustedKeys) {
      const s = await this.signer();
      if (s) trusted = [s.publicKey];
    }
    const trustedById = new Map(trusted.map((k) => [keyIdOf(k), k]));
    return this.snapshot(async (read, session) => {
      const protectionProblems = await checkProtections(read);
      const connectedAs = await connectionRole(read);
      const stored: KnownCheckpoint[] = (await read<CheckpointRow>(`SELECT * FROM "ledger_checkpoint" ORDER BY tree_size`)).map((r) => ({ ...checkpointOf(r), source: "ledger_checkpoint" }));
      // Checkpoints kept outside the tables join the walk: one the database no longer holds still proves the ledger
      // once reached its size, so entries cut from the end (with the checkpoint rows) show as truncation.
      const seen = new Set(stored.map((c) => c.signature));
      const external = (options.external ?? []).filter((e) => !seen.has(e.checkpoint.signature)).map((e) => ({ ...e.checkpoint, source: e.source }));
      const checkpoints = [...stored, ...external].sort((a, b) => a.treeSize - b.treeSize);
      const walk = new LedgerWalk(checkpoints, trustedById);
      if (session.copyOut) await walkByCopy(session.copyOut.bind(session), walk, options.onProgress);
      else await walkByPages(read, walk, options.onProgress);
      const { verifier, tree, firstBad, checkpointsChecked, badCheckpoint } = walk.finish();
      const latest = stored.length ? stored[stored.length - 1] : null;
      const report: VerifyReport = {
        ok: !firstBad && protectionProblems.length === 0,
        size: verifier.head.size,
        headHash: verifier.head.hash,
        ...(firstBad ? { firstBad } : { rootHash: tree.root() }),
        ...(badCheckpoint ? { badCheckpoint: { treeSize: badCheckpoint.treeSize, rootHash: badCheckpoint.rootHash, time: badCheckpoint.time, keyId: badCheckpoint.keyId, source: badCheckpoint.source } } : {}),
        checkpoints: {
          checked: checkpointsChecked,
          external: external.length,
          latest: latest ? { treeSize: latest.treeSize, rootHash: latest.rootHash, keyId: latest.keyId } : null,
        },
        protectionProblems,
        connectedAs,
        durationMs: Date.now() - started,
      };
      return report;
    });
  }
}

/**
 * The full walk's state, fed one entry at a time in seq order: the chain (links, entry hashes over the stored bytes),
 * the Merkle tree recomputed leaf by leaf against every stored subtree hash, and each signed checkpoint as the walk
 * reaches its size. Holds only the last link and the tree's right edge, whatever the ledger's size.
 */
class LedgerWalk {
  private readonly verifier = new ChainVerifier();
  private readonly tree = new MerkleAccumulator();
  private cpIndex = 0;
  private firstBad?: ChainBreak;
  /** The checkpoint a fault was found against, when it was one. */
  private badCheckpoint?: KnownCheckpoint;

  constructor(
    private readonly checkpoints: KnownCheckpoint[],
    private readonly trustedById: Map<string, KeyObject>,
  ) {
    while (!this.firstBad && this.cpIndex < checkpoints.length && checkpoints[this.cpIndex].treeSize === 0) {
      this.firstBad = this.checkpointFault(checkpoints[this.cpIndex++], this.tree.root()) ?? undefined;
    }
  }

  get checked() {
    return this.verifier.checked;
  }

  /** Takes the next entry and its stored subtree hashes (comma-separated); false once a fault is found. */
  step(row: ChainRow, storedSubtrees: string): boolean {
    if (this.firstBad) return false;
    const bad = this.verifier.check(row);
    if (bad) {
      this.firstBad = bad;
      return false;
    }
    this.verifier.accept(row);
    const completed = this.tree.push(leafHashOfEntry(row.entryHash));
    if (storedSubtrees !== (completed.length === 1 ? completed[0].hash : completed.map((c) => c.hash).join(","))) {
      this.firstBad = { seq: row.seq, fault: "subtree_hash_mismatch" };
      return false;
    }
    const cps = this.checkpoints;
    while (this.cpIndex < cps.length && cps[this.cpIndex].treeSize === row.seq) {
      const f = this.checkpointFault(cps[this.cpIndex], this.tree.root());
      if (f) {
        this.firstBad = f;
        return false;
      }
      this.cpIndex++;
    }
    return true;
  }

  finish() {
    if (!this.firstBad && this.cpIndex < this.checkpoints.length) {
      // A signed checkpoint beyond the last entry: entries were cut from the end (or the checkpoint is forged).
      const cp = this.checkpoints[this.cpIndex];
      const key = this.trustedById.get(cp.keyId);
      this.badCheckpoint = cp;
      this.firstBad = key && checkpointProblem(cp, key) === null
        ? { seq: this.verifier.head.size + 1, fault: "truncated" }
        : { seq: cp.treeSize, fault: "checkpoint_signature_invalid" };
    }
    return { verifier: this.verifier, tree: this.tree, firstBad: this.firstBad, checkpointsChecked: this.cpIndex, badCheckpoint: this.badCheckpoint };
  }

  private checkpointFault(cp: KnownCheckpoint, root: string): ChainBreak | null {
    const key = this.trustedById.get(cp.keyId);
    let fault: ChainBreak | null = null;
    if (!key || checkpointProblem(cp, key) !== null) fault = { seq: cp.treeSize, fault: "checkpoint_signature_invalid" };
    else if (cp.rootHash !== root) fault = { seq: cp.treeSize, fault: "checkpoint_root_mismatch" };
    if (fault) this.badCheckpoint = cp;
    return fault;
  }
}

// Both walks select the same columns in the same order.
const WALK_COLUMNS = `seq, prev_hash, entry_hash, kind, (extract(epoch FROM created_at) * 1000)::float8 AS ms,
  array_to_string(subtree_hashes, ',') AS subtrees, body`;

/** PGlite (and any session without COPY): pages of rows; the next page is requested before this one is checked. */
async function walkByPages(read: Reader, walk: LedgerWalk, onProgress?: (checked: number) => void): Promise<void> {
  type PageRow = { seq: unknown; prev_hash: string; entry_hash: string; kind: string; ms: unknown; subtrees: string | null; body: string };
  const page = (after: number) =>
    read<PageRow>(`SELECT ${WALK_COLUMNS} FROM "ledger" WHERE seq > $1 ORDER BY seq LIMIT $2`, [after, VERIFY_PAGE]);
  let next: Promise<PageRow[]> | null = page(0);
  while (next) {
    const rows: PageRow[] = await next;
    next = rows.length === VERIFY_PAGE ? page(num(rows[rows.length - 1].seq)) : null;
    for (const r of rows) {
      const row: ChainRow = {
        seq: num(r.seq), prevHash: r.prev_hash, entryHash: r.entry_hash, kind: r.kind,
        createdAt: new Date(num(r.ms)).toISOString(), body: r.body,
      };
      if (!walk.step(row, r.subtrees ?? "")) {
        await next?.catch(() => undefined); // a prefetched page still in flight
        return;
      }
    }
    onProgress?.(walk.checked);
  }
}

/**
 * PostgreSQL: one binary COPY of the whole ledger in seq order, hashed from the received bytes. After a fault the
 * rest of the stream is still read (and ignored): the connection must reach the end of the COPY to be usable again.
 */
async function walkByCopy(copyOut: (sql: string) => AsyncIterable<Buffer>, walk: LedgerWalk, onProgress?: (checked: number) => void) {
  const parser = new CopyBinaryParser(7);
  let going = true;
  let reported = 0;
  const take = (r: CopyRow) => {
    if (!going) return;
    const row: ChainRow = {
      seq: copyField.int8(r, 0), prevHash: copyField.text(r, 1) ?? "", entryHash: copyField.text(r, 2) ?? "",
      kind: copyField.text(r, 3) ?? "", createdAt: new Date(copyField.float8(r, 4)).toISOString(), body: copyField.bytes(r, 6),
    };
    going = walk.step(row, copyField.text(r, 5) ?? "");
  };
  for await (const chunk of copyOut(`COPY (SELECT ${WALK_COLUMNS} FROM "ledger" ORDER BY seq) TO STDOUT (FORMAT binary)`)) {
    if (!going) continue;
    parser.feed(chunk, take);
    if (onProgress && walk.checked - reported >= VERIFY_PAGE) onProgress((reported = walk.checked));
  }
  if (going) parser.end();
}

function asAuditError(err: unknown): CasegraphError {
  if (err instanceof CasegraphError && err.code === "CG-AUDIT-001") return err;
  return new CasegraphError("CG-AUDIT-001", undefined, [], { cause: err });
}

interface CheckpointRow {
  tree_size: unknown;
  root_hash: string;
  signed_time: string;
  key_id: string;
  signature: string;
  public_key: string;
}

function checkpointOf(r: CheckpointRow): StoredCheckpoint {
  return {
    treeSize: num(r.tree_size),
    rootHash: r.root_hash,
    time: r.signed_time,
    keyId: r.key_id,
    signature: r.signature,
    publicKeyPem: r.public_key,
  };
}

/** The database protections the ledger relies on; each problem is a sentence for the report. */
async function checkProtections(read: Reader): Promise<string[]> {
  const problems: string[] = [];
  const triggers = await read<{ table_name: string; tgname: string; tgenabled: string }>(
    `SELECT c.relname AS table_name, t.tgname, t.tgenabled::text AS tgenabled
       FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE c.relname IN ('ledger', 'ledger_checkpoint', 'ledger_redactable') AND NOT t.tgisinternal`,
  );
  const expected: Array<[string, string]> = [
    ["ledger", "ledger_chain"],
    ["ledger", "ledger_append_only"],
    ["ledger_checkpoint", "ledger_checkpoint_append_only"],
    ["ledger_redactable", "ledger_redactable_erase"],
    ["ledger_redactable", "ledger_redactable_append_only"],
  ];
  for (const [table, name] of expected) {
    const t = triggers.find((x) => x.table_name === table && x.tgname === name);
    if (!t) problems.push(`trigger ${name} on ${table} is missing`);
    else if (t.tgenabled !== "O" && t.tgenabled !== "A") problems.push(`trigger ${name} on ${table} is disabled`);
  }
  const payload = await read<{ attgenerated: string }>(
    `SELECT a.attgenerated::text AS attgenerated FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
      WHERE c.relname = 'ledger' AND a.attname = 'payload' AND NOT a.attisdropped`,
  );
  if (!payload.length || payload[0].attgenerated !== "s") problems.push("ledger.payload is no longer generated from the hashed body");
  return problems;
}
