// The ledger's hash chain. entry_hash = sha256_hex(prev_hash || canonical_json({ seq, kind, createdAt, payload })):
// the sequence number, kind and time are inside the hash, so moving, relabelling or re-dating an entry breaks it.
import { createHash } from "node:crypto";
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

export function entryHashOf(prevHash: string, body: Pick<ChainEntry, "seq" | "kind" | "createdAt" | "payload">): string {
  const canonical = canonicalJson({ seq: body.seq, kind: body.kind, createdAt: body.createdAt, payload: body.payload });
  return createHash("sha256").update(prevHash + canonical).digest("hex");
}

export type ChainFault = "seq_gap" | "prev_hash_mismatch" | "entry_hash_mismatch";

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
  feed(entries: readonly ChainEntry[]): ChainBreak | null {
    for (const e of entries) {
      if (e.seq !== this.expectedSeq) return { seq: Math.min(e.seq, this.expectedSeq), fault: "seq_gap" };
      if (e.prevHash !== this.lastHash) return { seq: e.seq, fault: "prev_hash_mismatch" };
      if (entryHashOf(e.prevHash, e) !== e.entryHash) return { seq: e.seq, fault: "entry_hash_mismatch" };
      this.lastHash = e.entryHash;
      this.expectedSeq++;
      this.checked++;
    }
    return null;
  }

  get head() {
    return { size: this.expectedSeq - 1, hash: this.lastHash };
  }
}
