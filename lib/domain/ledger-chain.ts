// The ledger's hash chain. entry_hash = sha256_hex(prev_hash || body), body = canonical_json({ seq, kind, createdAt,
// payload }): the sequence number, kind and time are inside the hash, so moving, relabelling or re-dating an entry
// breaks it. The database keeps `body` — the exact bytes that were hashed — so verifying a stored entry is one SHA-256
// over text it already has, with no re-serialisation (and payload is derived from body by the database).
import * as nodeCrypto from "node:crypto";
import { canonicalJson } from "./canonical-json";

export const GENESIS_HASH = "0".repeat(64);

export interface ChainEntry {
  seq: number;
  prevHash: string;
  entryHash: string;
  kind: string;
  payload: unknown;
  createdAt: string; // ISO-8601, millisecond precision
}

/** A stored entry as the verifier reads it: `body` when the store keeps the hashed bytes, else `payload`. */
export interface ChainRow {
  seq: number;
  prevHash: string;
  entryHash: string;
  kind: string;
  createdAt: string;
  /** The hashed bytes as stored: text, or its UTF-8 bytes as a database stream delivered them. */
  body?: string | Uint8Array;
  payload?: unknown;
}

const oneShot = (nodeCrypto as { hash?: (alg: string, data: string | Uint8Array, enc?: string) => string }).hash;
/** SHA-256 of a text's UTF-8 bytes, lowercase hex (the one digest helper: ledger, audit payloads, exports). */
export const sha256Hex = (text: string) =>
  oneShot ? oneShot("sha256", text, "hex") : nodeCrypto.createHash("sha256").update(text).digest("hex");

/** The canonical text that is hashed for an entry. */
export function entryBodyOf(body: Pick<ChainEntry, "seq" | "kind" | "createdAt" | "payload">): string {
  return canonicalJson({ seq: body.seq, kind: body.kind, createdAt: body.createdAt, payload: body.payload });
}

// Reused input buffer for byte bodies: prev_hash (64 ASCII bytes) followed by the body, hashed in one call.
let scratch = Buffer.alloc(16 * 1024);

export function hashOfBody(prevHash: string, body: string | Uint8Array): string {
  if (typeof body === "string") return sha256Hex(prevHash + body);
  const n = Buffer.byteLength(prevHash) + body.length;
  if (n > scratch.length) scratch = Buffer.alloc(Math.max(n, scratch.length * 2));
  const head = scratch.write(prevHash, 0);
  scratch.set(body, head);
  const input = scratch.subarray(0, head + body.length);
  return oneShot ? oneShot("sha256", input, "hex") : nodeCrypto.createHash("sha256").update(input).digest("hex");
}

export function entryHashOf(prevHash: string, body: Pick<ChainEntry, "seq" | "kind" | "createdAt" | "payload">): string {
  return hashOfBody(prevHash, entryBodyOf(body));
}

/** True when a stored body is the envelope of this seq, kind and time (keys sort as createdAt, kind, payload, seq). */
const kindJson = new Map<string, string>();
const jsonOfKind = (kind: string) => {
  let j = kindJson.get(kind);
  if (j === undefined) {
    j = JSON.stringify(kind);
    if (kindJson.size < 1000) kindJson.set(kind, j);
  }
  return j;
};

export function bodyMatches(body: string | Uint8Array, e: Pick<ChainRow, "seq" | "kind" | "createdAt">): boolean {
  // createdAt is an ISO string (no characters JSON escapes), so quoting it is enough.
  const prefix = `{"createdAt":"${e.createdAt}","kind":${jsonOfKind(e.kind)},"payload":`;
  const suffix = `,"seq":${e.seq}}`;
  if (typeof body === "string") return body.length > prefix.length + suffix.length && body.startsWith(prefix) && body.endsWith(suffix);
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.length);
  const head = Buffer.byteLength(prefix); // suffix is ASCII: its bytes are its characters
  return (
    bytes.length > head + suffix.length &&
    bytes.toString("utf8", 0, head) === prefix &&
    bytes.toString("latin1", bytes.length - suffix.length) === suffix
  );
}

export type ChainFault =
  | "seq_gap"
  | "prev_hash_mismatch"
  | "entry_hash_mismatch"
  /** The body's seq, kind or time disagree with the row's columns. */
  | "body_mismatch"
  /** A stored Merkle subtree hash differs from the one recomputed from the entries. */
  | "subtree_hash_mismatch"
  /** The recomputed Merkle root at a signed checkpoint's size differs from the signed root. */
  | "checkpoint_root_mismatch"
  /** A checkpoint's signature does not verify, or it names a key that is not trusted. */
  | "checkpoint_signature_invalid"
  /** A signed checkpoint covers more entries than the ledger holds: entries were removed from the end. */
  | "truncated";

export interface ChainBreak {
  seq: number;
  fault: ChainFault;
}

/** Walks entries in order, one page at a time; holds only the last good link. */
export class ChainVerifier {
  private expectedSeq = 1;
  private lastHash = GENESIS_HASH;
  checked = 0;

  /** Returns the first break in this page, or null when it continues the chain. */
  feed(entries: readonly ChainRow[]): ChainBreak | null {
    for (const e of entries) {
      const bad = this.check(e);
      if (bad) return bad;
      this.accept(e);
    }
    return null;
  }

  /** The fault of the next entry, or null; does not advance. */
  check(e: ChainRow): ChainBreak | null {
    if (e.seq !== this.expectedSeq) return { seq: Math.min(e.seq, this.expectedSeq), fault: "seq_gap" };
    if (e.prevHash !== this.lastHash) return { seq: e.seq, fault: "prev_hash_mismatch" };
    if (e.body !== undefined) {
      if (!bodyMatches(e.body, e)) return { seq: e.seq, fault: "body_mismatch" };
      if (hashOfBody(e.prevHash, e.body) !== e.entryHash) return { seq: e.seq, fault: "entry_hash_mismatch" };
    } else if (entryHashOf(e.prevHash, { seq: e.seq, kind: e.kind, createdAt: e.createdAt, payload: e.payload }) !== e.entryHash) {
      return { seq: e.seq, fault: "entry_hash_mismatch" };
    }
    return null;
  }

  accept(e: ChainRow): void {
    this.lastHash = e.entryHash;
    this.expectedSeq++;
    this.checked++;
  }

  get head() {
    return { size: this.expectedSeq - 1, hash: this.lastHash };
  }
}
