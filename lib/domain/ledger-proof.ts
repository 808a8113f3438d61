// Exported proofs: files an outsider checks with nothing but the ledger's public key (`casegraph audit verify-proof`).
//
// An inclusion proof carries the entry itself (seq, kind, time, payload, prev_hash), so the checker recomputes the
// entry hash from the content, the leaf from the entry hash, the root from the Merkle path, and checks that root
// against a checkpoint signed by the key. A consistency proof carries two signed checkpoints and the path between them.
// The public key embedded in the file only shows the file is self-consistent; the key to trust comes from elsewhere
// (`--public-key`), and the report says which one was used.
import type { KeyObject } from "node:crypto";
import { checkpointProblem, isCheckpointShape, keyIdOf, parsePublicKey, type SignedCheckpoint } from "./checkpoint";
import { entryHashOf } from "./ledger-chain";
import { isHash, leafHashOfEntry, verifyConsistency, verifyInclusion } from "./merkle";

export const PROOF_FORMAT = "casegraph.ledger-proof/v1";

export interface ProofEntry {
  seq: number;
  prevHash: string;
  entryHash: string;
  kind: string;
  createdAt: string;
  payload: unknown;
}

export interface InclusionProofFile {
  format: typeof PROOF_FORMAT;
  type: "inclusion";
  entry: ProofEntry;
  leafIndex: number;
  treeSize: number;
  leafHash: string;
  path: string[];
  checkpoint: SignedCheckpoint;
  publicKey: string;
}

export interface ConsistencyProofFile {
  format: typeof PROOF_FORMAT;
  type: "consistency";
  fromSize: number;
  toSize: number;
  path: string[];
  fromCheckpoint: SignedCheckpoint;
  toCheckpoint: SignedCheckpoint;
  publicKey: string;
}

export type ProofFile = InclusionProofFile | ConsistencyProofFile;

export interface ProofCheck {
  name: string;
  ok: boolean;
  detail?: string;
}

export interface ProofReport {
  ok: boolean;
  type: "inclusion" | "consistency" | "unknown";
  keyId: string | null;
  /** "given": the key the checker supplied; "embedded": only the file's own key (self-consistency, not trust). */
  keySource: "given" | "embedded" | "none";
  checks: ProofCheck[];
}

const signedCheckpoint = (c: SignedCheckpoint): SignedCheckpoint => ({
  treeSize: c.treeSize,
  rootHash: c.rootHash,
  time: c.time,
  keyId: c.keyId,
  signature: c.signature,
});

export function inclusionProofFile(args: Omit<InclusionProofFile, "format" | "type">): InclusionProofFile {
  return { format: PROOF_FORMAT, type: "inclusion", ...args, checkpoint: signedCheckpoint(args.checkpoint) };
}

export function consistencyProofFile(args: Omit<ConsistencyProofFile, "format" | "type">): ConsistencyProofFile {
  return {
    format: PROOF_FORMAT,
    type: "consistency",
    ...args,
    fromCheckpoint: signedCheckpoint(args.fromCheckpoint),
    toCheckpoint: signedCheckpoint(args.toCheckpoint),
  };
}

function resolveKey(
  file: Record<string, unknown>,
  given?: KeyObject,
): { key: KeyObject | null; source: ProofReport["keySource"]; check?: ProofCheck } {
  if (given) return { key: given, source: "given" };
  if (typeof file.publicKey !== "string")
    return { key: null, source: "none", check: { name: "public key", ok: false, detail: "no key given and none in the file" } };
  try {
    return { key: parsePublicKey(file.publicKey), source: "embedded" };
  } catch {
    return {
      key: null,
      source: "none",
      check: { name: "public key", ok: false, detail: "the embedded public key is not an Ed25519 public key" },
    };
  }
}

function checkpointCheck(name: string, cp: unknown, key: KeyObject | null): ProofCheck {
  if (!key) return { name, ok: false, detail: "no public key" };
  const problem = checkpointProblem(cp, key);
  return problem === null
    ? { name, ok: true, detail: `size ${(cp as SignedCheckpoint).treeSize}, signed ${(cp as SignedCheckpoint).time}` }
    : {
        name,
        ok: false,
        detail:
          problem === "unknown_key"
            ? "signed by another key"
            : problem === "malformed"
              ? "malformed checkpoint"
              : "signature does not verify",
      };
}

/** Checks a proof file. Every check runs (so the report lists all that failed); ok only when all pass. */
export function verifyProofFile(input: unknown, publicKey?: KeyObject): ProofReport {
  if (!input || typeof input !== "object")
    return {
      ok: false,
      type: "unknown",
      keyId: null,
      keySource: "none",
      checks: [{ name: "format", ok: false, detail: "not a JSON object" }],
    };
  const file = input as Record<string, unknown>;
  const checks: ProofCheck[] = [];
  const formatOk = file.format === PROOF_FORMAT && (file.type === "inclusion" || file.type === "consistency");
  checks.push({ name: "format", ok: formatOk, detail: formatOk ? undefined : `expected ${PROOF_FORMAT} inclusion or consistency` });
  const { key, source, check } = resolveKey(file, publicKey);
  if (check) checks.push(check);
  const type = file.type === "inclusion" || file.type === "consistency" ? file.type : "unknown";

  if (type === "inclusion") {
    const f = file as unknown as InclusionProofFile;
    const e = (f.entry ?? {}) as Partial<ProofEntry>;
    const entryOk =
      Number.isSafeInteger(e.seq) &&
      (e.seq as number) >= 1 &&
      isHash(e.prevHash) &&
      isHash(e.entryHash) &&
      typeof e.kind === "string" &&
      typeof e.createdAt === "string" &&
      e.payload !== undefined;
    let hashOk = false;
    if (entryOk)
      hashOk = entryHashOf(e.prevHash!, { seq: e.seq!, kind: e.kind!, createdAt: e.createdAt!, payload: e.payload }) === e.entryHash;
    checks.push({
      name: "entry hash",
      ok: hashOk,
      detail: hashOk ? `sha256(prev_hash || canonical entry) = ${e.entryHash}` : "the entry's content does not hash to its entry hash",
    });
    const leafOk = hashOk && f.leafIndex === e.seq! - 1 && f.leafHash === leafHashOfEntry(e.entryHash!);
    checks.push({
      name: "leaf",
      ok: leafOk,
      detail: leafOk ? `leaf ${f.leafIndex} = sha256(0x00 || entry hash)` : "leaf index or leaf hash does not match the entry",
    });
    const cpCheck = checkpointCheck("checkpoint signature", f.checkpoint, key);
    checks.push(cpCheck);
    const sizeOk = isCheckpointShape(f.checkpoint) && f.checkpoint.treeSize === f.treeSize;
    checks.push({ name: "tree size", ok: sizeOk, detail: sizeOk ? `${f.treeSize}` : "the proof's tree size is not the signed one" });
    const pathOk = leafOk && sizeOk && verifyInclusion(f.leafIndex, f.treeSize, f.leafHash, f.path, f.checkpoint.rootHash);
    checks.push({
      name: "merkle path",
      ok: pathOk,
      detail: pathOk ? `${f.path.length} hashes lead to the signed root` : "the path does not lead to the signed root",
    });
  } else if (type === "consistency") {
    const f = file as unknown as ConsistencyProofFile;
    checks.push(checkpointCheck("from checkpoint signature", f.fromCheckpoint, key));
    checks.push(checkpointCheck("to checkpoint signature", f.toCheckpoint, key));
    const sizesOk =
      isCheckpointShape(f.fromCheckpoint) &&
      isCheckpointShape(f.toCheckpoint) &&
      f.fromCheckpoint.treeSize === f.fromSize &&
      f.toCheckpoint.treeSize === f.toSize &&
      f.fromSize <= f.toSize;
    checks.push({
      name: "tree sizes",
      ok: sizesOk,
      detail: sizesOk ? `${f.fromSize} → ${f.toSize}` : "the proof's sizes are not the signed ones",
    });
    const pathOk = sizesOk && verifyConsistency(f.fromSize, f.toSize, f.fromCheckpoint.rootHash, f.toCheckpoint.rootHash, f.path);
    checks.push({
      name: "consistency path",
      ok: pathOk,
      detail: pathOk ? "the later tree extends the earlier one" : "the path does not connect the two signed roots",
    });
  }
  return { ok: checks.every((c) => c.ok), type, keyId: key ? keyIdOf(key) : null, keySource: source, checks };
}
