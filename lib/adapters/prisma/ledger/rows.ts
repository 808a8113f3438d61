// Reading ledger rows: the query function every part takes, number/time coercions, and the checkpoint row mapper.
import "server-only";
import type { StoredCheckpoint } from "../../../ports";

/** A query in whatever session is open: Prisma's raw query, or a driver transaction's (one read-only snapshot). */
export type Reader = <T>(sql: string, params?: unknown[]) => Promise<T[]>;

export { sha256Hex as sha256Text } from "../../../domain/ledger-chain";

export const num = (v: unknown) => Number(v as number | string | bigint);
export const isoOf = (v: unknown) => (v instanceof Date ? v : new Date(v as string)).toISOString();

export interface CheckpointRow {
  tree_size: unknown;
  root_hash: string;
  signed_time: string;
  key_id: string;
  signature: string;
  public_key: string;
}

export function checkpointOf(r: CheckpointRow): StoredCheckpoint {
  return {
    treeSize: num(r.tree_size),
    rootHash: r.root_hash,
    time: r.signed_time,
    keyId: r.key_id,
    signature: r.signature,
    publicKeyPem: r.public_key,
  };
}
