// The ledger's Merkle tree (RFC 6962 §2.1 / RFC 9162 §2.1): leaf = SHA-256(0x00 || entry_hash bytes),
// node = SHA-256(0x01 || left || right), the tree over n leaves splits at the largest power of two below n.
// Hashes are lowercase hex strings everywhere they cross a boundary (files, JSON, the database).
//
// Two halves:
// - Proof *generation* is expressed as ranges of leaves ([start, end) nodes of the RFC tree). Every such range is a
//   run of complete, aligned subtrees, so a store that keeps the hash of each complete subtree (the ledger row that
//   completes it) answers any proof with O(log n) lookups, whatever the size of the tree.
// - Proof *verification* follows RFC 9162 §2.1.3.2 and §2.1.4.2 to the letter, with strict input checks: a proof
//   that is too short, too long, for another index or size, or carries a malformed hash is rejected (a lenient
//   verifier is how immudb's GO-2022-1117 let forged histories through).
import * as nodeCrypto from "node:crypto";

/** 64 lowercase hex characters (a char-code loop: this runs for every leaf and node of a full verify). */
export function isHash(value: unknown): value is string {
  if (typeof value !== "string" || value.length !== 64) return false;
  for (let i = 0; i < 64; i++) {
    const c = value.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102))) return false;
  }
  return true;
}

const oneShot = (nodeCrypto as { hash?: (alg: string, data: Uint8Array | string, enc?: string) => string }).hash;
function sha256Hex(data: Uint8Array): string {
  return oneShot ? oneShot("sha256", data, "hex") : nodeCrypto.createHash("sha256").update(data).digest("hex");
}

export const EMPTY_ROOT = sha256Hex(new Uint8Array(0));

// One scratch buffer for the 65-byte node input (hashing is synchronous, so sharing it is safe).
const nodeInput = Buffer.alloc(65);
const leafInput = Buffer.alloc(33);

/** Leaf hash of a ledger entry: SHA-256(0x00 || the 32 bytes of its entry_hash). */
export function leafHashOfEntry(entryHash: string): string {
  if (!isHash(entryHash)) throw new TypeError("entry hash must be 64 lowercase hex characters");
  leafInput[0] = 0x00;
  leafInput.write(entryHash, 1, "hex");
  return sha256Hex(leafInput);
}

/** Leaf hash of arbitrary data: SHA-256(0x00 || data) (RFC 6962 test vectors use this form). */
export function leafHashOfData(data: Uint8Array): string {
  const input = new Uint8Array(data.length + 1);
  input.set(data, 1);
  return sha256Hex(input);
}

/** Interior node: SHA-256(0x01 || left || right). Both must be valid hashes. */
export function nodeHash(left: string, right: string): string {
  if (!isHash(left) || !isHash(right)) throw new TypeError("node children must be 64 lowercase hex characters");
  return nodeHashOfValid(left, right);
}

/** nodeHash for children already known to be valid (hashes this module computed): no re-validation in hot loops. */
function nodeHashOfValid(left: string, right: string): string {
  nodeInput[0] = 0x01;
  nodeInput.write(left, 1, "hex");
  nodeInput.write(right, 33, "hex");
  return sha256Hex(nodeInput);
}

/** Largest power of two strictly below n (n ≥ 2). */
export function splitPoint(n: number): number {
  if (!(n >= 2)) throw new RangeError("split needs at least two leaves");
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

const validSize = (n: unknown): n is number => typeof n === "number" && Number.isSafeInteger(n) && n >= 0;

/** RFC 6962 MTH over a list of leaf hashes, straight from the definition (reference and small trees). */
export function rootOfLeaves(leaves: readonly string[], start = 0, end = leaves.length): string {
  const n = end - start;
  if (n === 0) return EMPTY_ROOT;
  if (n === 1) return leaves[start];
  const k = splitPoint(n);
  return nodeHash(rootOfLeaves(leaves, start, start + k), rootOfLeaves(leaves, start + k, end));
}

// ---------------------------------------------------------------------------------------------------------------
// Ranges and complete subtrees

/** Leaves [start, end) of one node of the RFC tree. */
export interface LeafRange {
  start: number;
  end: number;
}

/** A complete, aligned subtree: leaves [index·2^level, (index+1)·2^level). Completed by leaf (index+1)·2^level − 1. */
export interface Subtree {
  level: number;
  index: number;
}

/** The complete subtrees a range is made of, left to right (largest first). */
export function subtreesOf(range: LeafRange): Subtree[] {
  const out: Subtree[] = [];
  let a = range.start;
  while (a < range.end) {
    let size = 1;
    let level = 0;
    while (a % (size * 2) === 0 && a + size * 2 <= range.end) {
      size *= 2;
      level++;
    }
    out.push({ level, index: a / size });
    a += size;
  }
  return out;
}

export const subtreeKey = (s: Subtree) => `${s.level}:${s.index}`;

/** The 1-based sequence number of the entry that completes a subtree (where the ledger stores its hash). */
export const completingSeq = (s: Subtree) => (s.index + 1) * 2 ** s.level;

/** MTH of an RFC node range from the hashes of its complete subtrees (folded right to left). */
export function hashOfRange(range: LeafRange, hashOf: (s: Subtree) => string): string {
  const parts = subtreesOf(range);
  if (!parts.length) return EMPTY_ROOT;
  let h = hashOf(parts[parts.length - 1]);
  for (let i = parts.length - 2; i >= 0; i--) h = nodeHash(hashOf(parts[i]), h);
  return h;
}

/** Ranges whose hashes form the inclusion proof of leaf `index` in a tree of `size` leaves (RFC 6962 PATH order). */
export function inclusionRanges(index: number, size: number): LeafRange[] {
  if (!validSize(index) || !validSize(size) || index >= size) throw new RangeError("leaf index must be below tree size");
  const out: LeafRange[] = [];
  let start = 0;
  let end = size;
  // Walk down from the root; siblings are collected top-down, and the proof lists them bottom-up.
  while (end - start > 1) {
    const k = splitPoint(end - start);
    if (index < start + k) {
      out.push({ start: start + k, end });
      end = start + k;
    } else {
      out.push({ start, end: start + k });
      start += k;
    }
  }
  return out.reverse();
}

/** Ranges whose hashes form the consistency proof from `oldSize` to `newSize` (RFC 6962 SUBPROOF order). */
export function consistencyRanges(oldSize: number, newSize: number): LeafRange[] {
  if (!validSize(oldSize) || !validSize(newSize) || oldSize > newSize) throw new RangeError("old size must not exceed new size");
  if (oldSize === 0 || oldSize === newSize) return [];
  const out: LeafRange[] = [];
  let start = 0;
  let end = newSize;
  let whole = true; // RFC's b: true while the old tree is still the whole of the current node
  for (;;) {
    const n = end - start;
    const m = oldSize - start;
    if (m === n) {
      if (!whole) out.push({ start, end });
      break;
    }
    const k = splitPoint(n);
    if (m <= k) {
      out.push({ start: start + k, end });
      end = start + k;
    } else {
      out.push({ start, end: start + k });
      start += k;
      whole = false;
    }
  }
  return out.reverse();
}

/** Every complete subtree the given ranges need, deduplicated. */
export function subtreesNeeded(ranges: readonly LeafRange[]): Subtree[] {
  const seen = new Map<string, Subtree>();
  for (const r of ranges) for (const s of subtreesOf(r)) seen.set(subtreeKey(s), s);
  return [...seen.values()];
}

export const rootRange = (size: number): LeafRange => ({ start: 0, end: size });

// ---------------------------------------------------------------------------------------------------------------
// Verification (RFC 9162 §2.1.3.2 and §2.1.4.2)

/** True when `proof` shows the leaf `leafHash` at `index` in the tree of `size` leaves whose root is `root`. */
export function verifyInclusion(index: number, size: number, leafHash: string, proof: readonly string[], root: string): boolean {
  const computed = rootFromInclusion(index, size, leafHash, proof);
  return computed !== null && computed === root && isHash(root);
}

/** The root an inclusion proof implies, or null when the proof is malformed for this index and size. */
export function rootFromInclusion(index: number, size: number, leafHash: string, proof: readonly string[]): string | null {
  if (!validSize(index) || !validSize(size) || index >= size) return null;
  if (!isHash(leafHash) || !Array.isArray(proof) || !proof.every(isHash)) return null;
  let fn = index;
  let sn = size - 1;
  let r = leafHash;
  for (const p of proof) {
    if (sn === 0) return null; // a longer proof than the tree allows
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : null; // sn ≠ 0: the proof stopped short of the root
}

/** True when `proof` shows the tree of `size2` leaves (root2) extends the tree of `size1` leaves (root1). */
export function verifyConsistency(size1: number, size2: number, root1: string, root2: string, proof: readonly string[]): boolean {
  if (!validSize(size1) || !validSize(size2) || size1 > size2) return false;
  if (!isHash(root1) || !isHash(root2) || !Array.isArray(proof) || !proof.every(isHash)) return false;
  if (size1 === size2) return proof.length === 0 && root1 === root2;
  if (size1 === 0) return proof.length === 0 && root1 === EMPTY_ROOT;
  if (proof.length === 0) return false;
  const path = [...proof];
  if (isPowerOfTwo(size1)) path.unshift(root1);
  let fn = size1 - 1;
  let sn = size2 - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = path[0];
  let sr = path[0];
  for (let i = 1; i < path.length; i++) {
    const c = path[i];
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 && fr === root1 && sr === root2;
}

function isPowerOfTwo(n: number): boolean {
  if (n < 1) return false;
  while (n % 2 === 0) n /= 2;
  return n === 1;
}

// ---------------------------------------------------------------------------------------------------------------
// Streaming

/** A completed subtree and its hash, as produced while leaves are appended in order. */
export interface CompletedSubtree extends Subtree {
  hash: string;
}

/**
 * Builds the tree leaf by leaf holding only the right edge (one hash per level): the full verifier's way of
 * recomputing every stored subtree hash and every checkpoint root without keeping the leaves.
 */
export class MerkleAccumulator {
  private stack: Array<{ level: number; hash: string }> = [];
  size = 0;

  /** Adds the next leaf; returns the complete subtrees of level ≥ 1 it completes, lowest first. */
  push(leafHash: string): CompletedSubtree[] {
    const completed: CompletedSubtree[] = [];
    let h = leafHash;
    let level = 0;
    let index = this.size;
    if (!isHash(leafHash)) throw new TypeError("leaf hash must be 64 lowercase hex characters");
    while (this.stack.length && this.stack[this.stack.length - 1].level === level) {
      h = nodeHashOfValid(this.stack.pop()!.hash, h);
      level++;
      index = Math.floor(index / 2);
      completed.push({ level, index, hash: h });
    }
    this.stack.push({ level, hash: h });
    this.size++;
    return completed;
  }

  root(): string {
    if (!this.stack.length) return EMPTY_ROOT;
    let h = this.stack[this.stack.length - 1].hash;
    for (let i = this.stack.length - 2; i >= 0; i--) h = nodeHashOfValid(this.stack[i].hash, h);
    return h;
  }
}
