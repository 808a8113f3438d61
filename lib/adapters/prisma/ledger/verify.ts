// Verify: a full walk in one read-only snapshot: chain links, entry hashes over the stored bytes, every stored subtree
// hash recomputed, every signed checkpoint's signature and root (those in the table and those kept outside it),
// truncation below a checkpoint, and the database protections themselves (append-only triggers enabled, payload still
// derived from body).
import "server-only";
import type { KeyObject } from "node:crypto";
import { checkpointProblem, type KeptCheckpoint, type SignedCheckpoint } from "../../../domain/checkpoint";
import { ChainVerifier, type ChainBreak, type ChainRow } from "../../../domain/ledger-chain";
import { MerkleAccumulator, leafHashOfEntry } from "../../../domain/merkle";
import type { VerifyReport } from "../../../ports";
import type { SqlSession } from "../migrate";
import { CopyBinaryParser, copyField, type CopyRow } from "../copy-binary";
import { connectionRole } from "../ledger-roles";
import { checkpointOf, num, type CheckpointRow, type Reader } from "./rows";

const VERIFY_PAGE = 10_000;

/** A checkpoint the verify walk checks, and where it was found (the table, or a file outside it). */
type KnownCheckpoint = SignedCheckpoint & { source: string };

/** The walk over one snapshot (`read` and its session), checking checkpoints against `trustedById`. */
export async function verifySnapshot(
  read: Reader,
  session: Partial<SqlSession>,
  trustedById: Map<string, KeyObject>,
  external: readonly KeptCheckpoint[],
  onProgress: ((checked: number) => void) | undefined,
  started: number,
): Promise<VerifyReport> {
  const protectionProblems = await checkProtections(read);
  const connectedAs = await connectionRole(read);
  const stored: KnownCheckpoint[] = (await read<CheckpointRow>(`SELECT * FROM "ledger_checkpoint" ORDER BY tree_size`)).map((r) => ({
    ...checkpointOf(r),
    source: "ledger_checkpoint",
  }));
  // Checkpoints kept outside the tables join the walk: one the database no longer holds still proves the ledger
  // once reached its size, so entries cut from the end (with the checkpoint rows) show as truncation.
  const seen = new Set(stored.map((c) => c.signature));
  const kept = external.filter((e) => !seen.has(e.checkpoint.signature)).map((e) => ({ ...e.checkpoint, source: e.source }));
  const checkpoints = [...stored, ...kept].sort((a, b) => a.treeSize - b.treeSize);
  const walk = new LedgerWalk(checkpoints, trustedById);
  if (session.copyOut) await walkByCopy(session.copyOut.bind(session), walk, onProgress);
  else await walkByPages(read, walk, onProgress);
  const { verifier, tree, firstBad, checkpointsChecked, badCheckpoint } = walk.finish();
  const latest = stored.length ? stored[stored.length - 1] : null;
  const report: VerifyReport = {
    ok: !firstBad && protectionProblems.length === 0,
    size: verifier.head.size,
    headHash: verifier.head.hash,
    ...(firstBad ? { firstBad } : { rootHash: tree.root() }),
    ...(badCheckpoint
      ? {
          badCheckpoint: {
            treeSize: badCheckpoint.treeSize,
            rootHash: badCheckpoint.rootHash,
            time: badCheckpoint.time,
            keyId: badCheckpoint.keyId,
            source: badCheckpoint.source,
          },
        }
      : {}),
    checkpoints: {
      checked: checkpointsChecked,
      external: kept.length,
      latest: latest ? { treeSize: latest.treeSize, rootHash: latest.rootHash, keyId: latest.keyId } : null,
    },
    protectionProblems,
    connectedAs,
    durationMs: Date.now() - started,
  };
  return report;
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
      this.firstBad =
        key && checkpointProblem(cp, key) === null
          ? { seq: this.verifier.head.size + 1, fault: "truncated" }
          : { seq: cp.treeSize, fault: "checkpoint_signature_invalid" };
    }
    return {
      verifier: this.verifier,
      tree: this.tree,
      firstBad: this.firstBad,
      checkpointsChecked: this.cpIndex,
      badCheckpoint: this.badCheckpoint,
    };
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
        seq: num(r.seq),
        prevHash: r.prev_hash,
        entryHash: r.entry_hash,
        kind: r.kind,
        createdAt: new Date(num(r.ms)).toISOString(),
        body: r.body,
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
      seq: copyField.int8(r, 0),
      prevHash: copyField.text(r, 1) ?? "",
      entryHash: copyField.text(r, 2) ?? "",
      kind: copyField.text(r, 3) ?? "",
      createdAt: new Date(copyField.float8(r, 4)).toISOString(),
      body: copyField.bytes(r, 6),
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
