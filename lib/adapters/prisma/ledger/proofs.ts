// Proofs: every complete subtree's hash is stored in the row that completes it, so the root of any size, an inclusion
// proof and a consistency proof are O(log n) primary-key lookups, whatever the size of the ledger. Each function runs
// on the reader it is given (the ledger passes one read-only snapshot).
import "server-only";
import { CasegraphError } from "../../../domain/failure-codes";
import {
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
} from "../../../domain/merkle";
import type { ConsistencyProof, InclusionProof } from "../../../ports";
import { num, type Reader } from "./rows";

/** Hashes of complete subtrees, from the rows that completed them. */
async function subtreeHashes(subtrees: readonly Subtree[], read: Reader): Promise<Map<string, string>> {
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
    const h = row
      ? s.level === 0
        ? isHash(row.entry_hash)
          ? leafHashOfEntry(row.entry_hash)
          : undefined
        : row.subtree_hashes?.[s.level - 1]
      : undefined;
    if (!isHash(h)) {
      throw new CasegraphError("CG-AUDIT-002", `The ledger's Merkle data is missing or damaged at seq ${completingSeq(s)}.`);
    }
    out.set(subtreeKey(s), h);
  }
  return out;
}

async function rangeHashes(ranges: readonly LeafRange[], read: Reader): Promise<string[]> {
  const hashes = await subtreeHashes(subtreesNeeded(ranges), read);
  return ranges.map((r) => hashOfRange(r, (s) => hashes.get(subtreeKey(s))!));
}

async function sizeOrHead(size: number | undefined, read: Reader): Promise<number> {
  const rows = await read<{ n: unknown }>(`SELECT coalesce(max(seq), 0) AS n FROM "ledger"`);
  const head = num(rows[0].n);
  if (size === undefined) return head;
  if (!Number.isSafeInteger(size) || size < 0 || size > head) {
    throw new CasegraphError("CG-INPUT-005", `The tree size must be between 0 and the ledger's size (${head}).`);
  }
  return size;
}

/** Merkle root of the first `size` entries (default: all). */
export async function rootOf(read: Reader, size?: number): Promise<{ treeSize: number; rootHash: string }> {
  const n = await sizeOrHead(size, read);
  const [rootHash] = await rangeHashes([rootRange(n)], read);
  return { treeSize: n, rootHash };
}

/** Inclusion proof of entry `seq` in the tree of `size` entries (default: the head). Self-checked before it is returned. */
export async function inclusionProofOf(read: Reader, seq: number, size?: number): Promise<InclusionProof> {
  const n = await sizeOrHead(size, read);
  if (!Number.isSafeInteger(seq) || seq < 1 || seq > n) {
    throw new CasegraphError("CG-INPUT-005", `seq must be between 1 and the tree size (${n}).`);
  }
  const ranges = inclusionRanges(seq - 1, n);
  const [rootHash, ...path] = await rangeHashes([rootRange(n), ...ranges], read);
  const [row] = await read<{ entry_hash: string }>(`SELECT entry_hash FROM "ledger" WHERE seq = $1`, [seq]);
  const leafHash = leafHashOfEntry(row.entry_hash);
  if (!verifyInclusion(seq - 1, n, leafHash, path, rootHash)) {
    throw new CasegraphError("CG-AUDIT-002", `The ledger's Merkle data does not prove entry ${seq}.`);
  }
  await assertRootMatchesCheckpoint(n, rootHash, read);
  return { seq, leafIndex: seq - 1, treeSize: n, entryHash: row.entry_hash, leafHash, path, rootHash };
}

/** Inclusion proofs of many entries in the tree of `size` entries, with one lookup of the subtrees they share. */
export async function inclusionProofsOf(read: Reader, seqs: readonly number[], size: number): Promise<Map<number, string[]>> {
  const n = await sizeOrHead(size, read);
  for (const seq of seqs) {
    if (!Number.isSafeInteger(seq) || seq < 1 || seq > n)
      throw new CasegraphError("CG-INPUT-005", `seq must be between 1 and the tree size (${n}).`);
  }
  const plans = seqs.map((seq) => inclusionRanges(seq - 1, n));
  const hashes = await subtreeHashes(subtreesNeeded([rootRange(n), ...plans.flat()]), read);
  const get = (s: Subtree) => hashes.get(subtreeKey(s))!;
  const rootHash = hashOfRange(rootRange(n), get);
  await assertRootMatchesCheckpoint(n, rootHash, read);
  return new Map(seqs.map((seq, i) => [seq, plans[i].map((r) => hashOfRange(r, get))]));
}

/** Consistency proof between the trees of `from` and `to` entries (to defaults to the head). */
export async function consistencyProofOf(read: Reader, from: number, to?: number): Promise<ConsistencyProof> {
  const n = await sizeOrHead(to, read);
  if (!Number.isSafeInteger(from) || from < 1 || from > n) {
    throw new CasegraphError("CG-INPUT-005", `from must be between 1 and to (${n}).`);
  }
  const [fromRoot, toRoot, ...path] = await rangeHashes([rootRange(from), rootRange(n), ...consistencyRanges(from, n)], read);
  if (!verifyConsistency(from, n, fromRoot, toRoot, path)) {
    throw new CasegraphError("CG-AUDIT-002", `The ledger's Merkle data does not prove ${from} → ${n}.`);
  }
  await assertRootMatchesCheckpoint(from, fromRoot, read);
  await assertRootMatchesCheckpoint(n, toRoot, read);
  return { fromSize: from, toSize: n, fromRoot, toRoot, path };
}

/** A proof must never be served against a root that contradicts what was signed for that size. */
async function assertRootMatchesCheckpoint(size: number, rootHash: string, read: Reader) {
  const rows = await read<{ root_hash: string }>(`SELECT root_hash FROM "ledger_checkpoint" WHERE tree_size = $1`, [size]);
  if (rows.length && rows[0].root_hash !== rootHash) {
    throw new CasegraphError("CG-AUDIT-002", `The ledger no longer matches its signed checkpoint at size ${size}.`);
  }
}
