// Signed checkpoints as stored in "ledger_checkpoint": one per tree size, append-only (a trigger refuses changes).
import "server-only";
import type { SignedCheckpoint } from "../../../domain/checkpoint";
import type { StoredCheckpoint } from "../../../ports";
import { checkpointOf, type CheckpointRow, type Reader } from "./rows";

const one = (rows: CheckpointRow[]) => (rows.length ? checkpointOf(rows[0]) : null);

export const checkpointAt = async (read: Reader, size: number) =>
  one(await read<CheckpointRow>(`SELECT * FROM "ledger_checkpoint" WHERE tree_size = $1`, [size]));

export const latestCheckpoint = async (read: Reader) =>
  one(await read<CheckpointRow>(`SELECT * FROM "ledger_checkpoint" ORDER BY tree_size DESC LIMIT 1`));

/** The smallest checkpoint covering `seq` (its tree holds the entry), or null. */
export const checkpointCovering = async (read: Reader, seq: number) =>
  one(await read<CheckpointRow>(`SELECT * FROM "ledger_checkpoint" WHERE tree_size >= $1 ORDER BY tree_size LIMIT 1`, [seq]));

export const listCheckpoints = async (read: Reader, limit: number): Promise<StoredCheckpoint[]> =>
  (await read<CheckpointRow>(`SELECT * FROM "ledger_checkpoint" ORDER BY tree_size DESC LIMIT $1`, [limit])).map(checkpointOf);

/** Stores a signed checkpoint unless one exists at its size (a concurrent signer's wins; both are valid). */
export async function storeCheckpoint(
  exec: (sql: string, ...params: unknown[]) => Promise<unknown>,
  signed: SignedCheckpoint,
  publicKeyPem: string,
): Promise<void> {
  await exec(
    `INSERT INTO "ledger_checkpoint" (tree_size, root_hash, signed_time, key_id, signature, public_key)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (tree_size) DO NOTHING`,
    signed.treeSize,
    signed.rootHash,
    signed.time,
    signed.keyId,
    signed.signature,
    publicKeyPem,
  );
}
