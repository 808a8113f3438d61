// The ledger on PostgreSQL/PGlite (migrations 20261121000000_init + 20261121030000_ledger), behind the Ledger and
// AuditLedger ports (lib/ports.ts). One file per job: append.ts (the chain and group commit), entries.ts (reads and
// retention), proofs.ts (Merkle roots and proofs), checkpoints.ts (signed checkpoints as stored), verify.ts (the
// full walk). This class holds the connection, the signer and the options, and runs reads in one snapshot.
import "server-only";
import type { KeyObject } from "node:crypto";
import type { PrismaClient } from "../../../generated/prisma/client";
import { keyIdOf, signCheckpoint, type KeptCheckpoint } from "../../../domain/checkpoint";
import { CasegraphError } from "../../../domain/failure-codes";
import type { ChainEntry } from "../../../domain/ledger-chain";
import type {
  AuditLedger,
  ConsistencyProof,
  InclusionProof,
  LedgerAppend,
  StoredCheckpoint,
  StoredEntry,
  VerifyReport,
} from "../../../ports";
import type { Database } from "../db";
import type { SqlSession } from "../migrate";
import { GroupCommit, appendInTx, appendRows } from "./append";
import { checkpointAt, checkpointCovering, latestCheckpoint, listCheckpoints, storeCheckpoint } from "./checkpoints";
import { entriesIn, eraseQuestionTextBefore, headOf, seqRangeOf } from "./entries";
import { consistencyProofOf, inclusionProofOf, inclusionProofsOf, rootOf } from "./proofs";
import type { Reader } from "./rows";
import { verifySnapshot } from "./verify";

export { LEDGER_LOCK, appendInSession, appendInTx, type LedgerTx } from "./append";
export { sha256Text } from "./rows";
export type { ConsistencyProof, InclusionProof, StoredCheckpoint, StoredEntry } from "../../../ports";

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
  /** Called with every checkpoint this ledger signs, to keep a copy outside the tables (lib/server/ledger/checkpoint-witness.ts). */
  onCheckpointSigned?: (checkpoint: StoredCheckpoint) => Promise<void>;
}

export class PrismaLedger implements AuditLedger {
  readonly prisma: PrismaClient;
  private readonly db?: Database;
  private readonly commits: GroupCommit;
  private warnedNoSigner = false;

  constructor(
    source: Database | PrismaClient,
    private readonly options: LedgerOptions = {},
  ) {
    if ("prisma" in source && "transaction" in source) {
      this.db = source;
      this.prisma = source.prisma;
    } else {
      this.prisma = source as PrismaClient;
    }
    this.commits = new GroupCommit(
      (entries) => this.write(entries),
      (written) => this.periodicCheckpoint(written),
    );
  }

  // ---- append ----------------------------------------------------------------------------------------------------

  append(entry: LedgerAppend): Promise<ChainEntry> {
    return this.commits.append(entry);
  }

  /** Resolves when every queued append has been written (or failed). */
  flush(): Promise<void> {
    return this.commits.flush();
  }

  private write(entries: LedgerAppend[]): Promise<ChainEntry[]> {
    // On the driver itself when available: fewer layers per round trip while the ledger lock is held.
    if (this.db) {
      return this.db.transaction((sql) =>
        appendRows(
          {
            exec: (text, params) => sql.query(text, params),
            query: async <T>(text: string, params: unknown[]) => (await sql.query<T>(text, params)).rows,
          },
          entries,
          Date.now,
        ),
      );
    }
    return this.prisma.$transaction((tx) => appendInTx(tx, entries), { timeout: 30_000, maxWait: 30_000 });
  }

  /** A signed checkpoint when a batch crossed a multiple of checkpointEvery; failures are reported, never thrown. */
  private async periodicCheckpoint(written: ChainEntry[]): Promise<void> {
    const every = this.options.checkpointEvery ?? 0;
    if (every <= 0) return;
    const due = Math.floor(written[written.length - 1].seq / every) * every;
    if (due < written[0].seq) return;
    try {
      if (!(await this.signer())) return;
      await this.checkpoint(due);
    } catch (err) {
      (this.options.onBackgroundError ?? ((e) => console.error("casegraph: periodic ledger checkpoint failed:", (e as Error).message)))(
        err,
      );
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

  head(): Promise<{ size: number; hash: string; createdAt: string | null }> {
    return headOf(this.reader());
  }

  entries(from: number, to: number): Promise<StoredEntry[]> {
    return entriesIn(this.reader(), from, to);
  }

  seqRange(from?: string, to?: string): Promise<{ fromSeq: number; toSeq: number }> {
    return seqRangeOf(this.reader(), from, to);
  }

  // ---- Merkle proofs (each in one snapshot) ----------------------------------------------------------------------

  /** Merkle root of the first `size` entries (default: all). */
  root(size?: number): Promise<{ treeSize: number; rootHash: string }> {
    return this.snapshot((read) => rootOf(read, size));
  }

  /** Inclusion proof of entry `seq` in the tree of `size` entries (default: the head). Self-checked before it is returned. */
  inclusionProof(seq: number, size?: number): Promise<InclusionProof> {
    return this.snapshot((read) => inclusionProofOf(read, seq, size));
  }

  /** Inclusion proofs of many entries in the tree of `size` entries, with one lookup of the subtrees they share. */
  inclusionProofs(seqs: readonly number[], size: number): Promise<Map<number, string[]>> {
    return this.snapshot((read) => inclusionProofsOf(read, seqs, size));
  }

  /** Consistency proof between the trees of `from` and `to` entries (to defaults to the head). */
  consistencyProof(from: number, to?: number): Promise<ConsistencyProof> {
    return this.snapshot((read) => consistencyProofOf(read, from, to));
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
    await storeCheckpoint((sql, ...params) => this.prisma.$executeRawUnsafe(sql, ...params), signed, signer.publicKeyPem);
    const stored = (await this.checkpointAt(treeSize))!; // ours, or the one a concurrent writer stored first
    await this.options.onCheckpointSigned?.(stored);
    return stored;
  }

  checkpointAt(size: number): Promise<StoredCheckpoint | null> {
    return checkpointAt(this.reader(), size);
  }

  latestCheckpoint(): Promise<StoredCheckpoint | null> {
    return latestCheckpoint(this.reader());
  }

  /** The smallest checkpoint covering `seq` (its tree holds the entry), or null. */
  checkpointCovering(seq: number): Promise<StoredCheckpoint | null> {
    return checkpointCovering(this.reader(), seq);
  }

  listCheckpoints(limit = 20): Promise<StoredCheckpoint[]> {
    return listCheckpoints(this.reader(), limit);
  }

  // ---- retention and verify --------------------------------------------------------------------------------------

  /** Erases stored question text of entries written before `cutoff`; the chain is untouched. Returns the count. */
  eraseQuestionTextBefore(cutoff: Date): Promise<number> {
    return eraseQuestionTextBefore((sql, ...params) => this.prisma.$executeRawUnsafe(sql, ...params), cutoff);
  }

  /**
   * The full walk. `trustedKeys`: public keys whose checkpoints are accepted (default: the signer's). A checkpoint
   * signed by any other key is a fault, as is one whose root differs from the recomputed tree. `external`: checkpoints
   * kept outside the tables (they catch entries cut from the end together with the checkpoint rows).
   */
  async verify(
    options: { trustedKeys?: KeyObject[]; onProgress?: (checked: number) => void; external?: readonly KeptCheckpoint[] } = {},
  ): Promise<VerifyReport> {
    const started = Date.now();
    let trusted: KeyObject[] = options.trustedKeys ?? [];
    if (!options.trustedKeys) {
      const s = await this.signer();
      if (s) trusted = [s.publicKey];
    }
    const trustedById = new Map(trusted.map((k) => [keyIdOf(k), k]));
    return this.snapshot((read, session) =>
      verifySnapshot(read, session, trustedById, options.external ?? [], options.onProgress, started),
    );
  }
}
