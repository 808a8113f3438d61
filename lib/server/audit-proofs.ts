// Proof files for the CLI, the API and the explorer: entry + Merkle path + signed checkpoint + public key.
import { CasegraphError } from "../domain/failure-codes";
import { consistencyProofFile, inclusionProofFile, type ConsistencyProofFile, type InclusionProofFile } from "../domain/ledger-proof";
import type { PrismaLedger, StoredCheckpoint } from "../adapters/prisma/ledger";

/**
 * The checkpoint an inclusion proof for `seq` is checked against: the one at `size` when given (signed now if that size
 * has none yet), else the latest checkpoint when it covers the entry, else a new one at the head.
 */
export async function checkpointForEntry(ledger: PrismaLedger, seq: number, size?: number): Promise<StoredCheckpoint> {
  if (size !== undefined) return ledger.checkpoint(size);
  const latest = await ledger.latestCheckpoint();
  if (latest && latest.treeSize >= seq) return latest;
  return ledger.checkpoint();
}

export async function inclusionProofFor(ledger: PrismaLedger, seq: number, size?: number): Promise<InclusionProofFile> {
  const [entry] = await ledger.entries(seq, seq);
  if (!entry) throw new CasegraphError("CG-ACCESS-003", `Ledger entry ${seq} does not exist.`);
  const checkpoint = await checkpointForEntry(ledger, seq, size);
  const proof = await ledger.inclusionProof(seq, checkpoint.treeSize);
  if (proof.rootHash !== checkpoint.rootHash) {
    throw new CasegraphError("CG-AUDIT-002", `The ledger no longer matches its signed checkpoint at size ${checkpoint.treeSize}.`);
  }
  return inclusionProofFile({
    entry: { seq: entry.seq, prevHash: entry.prevHash, entryHash: entry.entryHash, kind: entry.kind, createdAt: entry.createdAt, payload: entry.payload },
    leafIndex: proof.leafIndex,
    treeSize: proof.treeSize,
    leafHash: proof.leafHash,
    path: proof.path,
    checkpoint,
    publicKey: checkpoint.publicKeyPem,
  });
}

/**
 * Consistency between two signed checkpoints. `from` must already be signed: a checkpoint made now for an old size
 * would prove nothing about what was signed back then. `to` defaults to a checkpoint at the head (signed on demand).
 */
export async function consistencyProofFor(ledger: PrismaLedger, from: number, to?: number): Promise<ConsistencyProofFile> {
  const fromCheckpoint = await ledger.checkpointAt(from);
  if (!fromCheckpoint) throw new CasegraphError("CG-INPUT-005", `There is no signed checkpoint at tree size ${from}.`);
  const toCheckpoint = to === undefined ? await ledger.checkpoint() : await ledger.checkpointAt(to);
  if (!toCheckpoint) throw new CasegraphError("CG-INPUT-005", `There is no signed checkpoint at tree size ${to}.`);
  if (toCheckpoint.treeSize < from) throw new CasegraphError("CG-INPUT-005", "from must not exceed to.");
  const proof = await ledger.consistencyProof(from, toCheckpoint.treeSize);
  if (proof.fromRoot !== fromCheckpoint.rootHash || proof.toRoot !== toCheckpoint.rootHash) {
    throw new CasegraphError("CG-AUDIT-002", "The ledger no longer matches its signed checkpoints.");
  }
  return consistencyProofFile({
    fromSize: from,
    toSize: toCheckpoint.treeSize,
    path: proof.path,
    fromCheckpoint,
    toCheckpoint,
    publicKey: toCheckpoint.publicKeyPem,
  });
}
