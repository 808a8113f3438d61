// Proof files for the CLI, the API and the explorer: entry + Merkle path + signed checkpoint + public key.
import "server-only";
import { CasegraphError } from "../../domain/failure-codes";
import { consistencyProofFile, inclusionProofFile, type ConsistencyProofFile, type InclusionProofFile } from "../../domain/ledger-proof";
import type { AuditLedger, StoredCheckpoint } from "../../ports";

/**
 * "sign": a POST (server action, CLI) may sign the checkpoint a proof needs. "read": a GET only uses checkpoints
 * already signed, and says so when none fits (CG-AUDIT-010) — a cross-site GET must not make the server sign.
 */
export type CheckpointMode = "sign" | "read";

/**
 * The checkpoint an inclusion proof for `seq` is checked against: the one at `size` when given, else the latest
 * checkpoint when it covers the entry, else (signing allowed) a new one at the head.
 */
export async function checkpointForEntry(
  ledger: AuditLedger,
  seq: number,
  size: number | undefined,
  mode: CheckpointMode,
): Promise<StoredCheckpoint> {
  if (size !== undefined) {
    if (size < seq) throw new CasegraphError("CG-INPUT-005", `A checkpoint at tree size ${size} does not hold entry ${seq}.`);
    return mode === "sign" ? ledger.checkpoint(size) : ((await ledger.checkpointAt(size)) ?? noCheckpoint(`at tree size ${size}`));
  }
  const latest = await ledger.latestCheckpoint();
  if (latest && latest.treeSize >= seq) return latest;
  return mode === "sign" ? ledger.checkpoint() : noCheckpoint(`covering entry ${seq}`);
}

function noCheckpoint(what: string): never {
  throw new CasegraphError("CG-AUDIT-010", `There is no signed checkpoint ${what} yet; sign one with POST /api/audit/checkpoint.`);
}

export async function inclusionProofFor(
  ledger: AuditLedger,
  seq: number,
  size: number | undefined,
  mode: CheckpointMode,
): Promise<InclusionProofFile> {
  const [entry] = await ledger.entries(seq, seq);
  if (!entry) throw new CasegraphError("CG-ACCESS-003", `Ledger entry ${seq} does not exist.`);
  const checkpoint = await checkpointForEntry(ledger, seq, size, mode);
  const proof = await ledger.inclusionProof(seq, checkpoint.treeSize);
  if (proof.rootHash !== checkpoint.rootHash) {
    throw new CasegraphError("CG-AUDIT-002", `The ledger no longer matches its signed checkpoint at size ${checkpoint.treeSize}.`);
  }
  return inclusionProofFile({
    entry: {
      seq: entry.seq,
      prevHash: entry.prevHash,
      entryHash: entry.entryHash,
      kind: entry.kind,
      createdAt: entry.createdAt,
      payload: entry.payload,
    },
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
 * would prove nothing about what was signed back then. `to` defaults to a checkpoint at the head (signed on demand)
 * or, for a read, the latest signed one.
 */
export async function consistencyProofFor(
  ledger: AuditLedger,
  from: number,
  to: number | undefined,
  mode: CheckpointMode,
): Promise<ConsistencyProofFile> {
  const fromCheckpoint = await ledger.checkpointAt(from);
  if (!fromCheckpoint) throw new CasegraphError("CG-INPUT-005", `There is no signed checkpoint at tree size ${from}.`);
  const toCheckpoint =
    to !== undefined ? await ledger.checkpointAt(to) : mode === "sign" ? await ledger.checkpoint() : await ledger.latestCheckpoint();
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
