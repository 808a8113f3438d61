// A copy of the latest signed checkpoint OUTSIDE the ledger tables, in the data folder (ledger-checkpoint.json), so
// that someone who can rewrite the database — delete the newest entries and the checkpoint rows with the triggers
// bypassed — still cannot make the ledger look complete: `audit verify` reads this file (and any checkpoint file a
// supervisor saved, `--checkpoint <file>`) and fails when the ledger is shorter than a checkpoint it knows of
// (CG-AUDIT-011). Written after every checkpoint the process signs; only ever moves forward.
import "server-only";
import { randomUUID } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { canonicalJsonPretty } from "../../domain/canonical-json";
import { checkpointInFile, type KeptCheckpoint, type SignedCheckpoint } from "../../domain/checkpoint";
import { CasegraphError } from "../../domain/failure-codes";

export const WITNESS_FILE = "ledger-checkpoint.json";

/** The checkpoint in `file`; CG-AUDIT-012 when it is missing, unreadable or holds none. */
export async function readCheckpointFile(file: string): Promise<KeptCheckpoint> {
  const found = await checkpointAt(file);
  if (!found) throw new CasegraphError("CG-AUDIT-012", `${file} does not exist.`);
  return found;
}

/** The data folder's witness, or null when none was written yet. */
export function readWitness(dataDir: string): Promise<KeptCheckpoint | null> {
  return checkpointAt(path.join(dataDir, WITNESS_FILE));
}

async function checkpointAt(file: string): Promise<KeptCheckpoint | null> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, "utf8"));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new CasegraphError("CG-AUDIT-012", `${file} is not a readable JSON file.`, [], { cause: err });
  }
  const checkpoint = checkpointInFile(json);
  if (!checkpoint) throw new CasegraphError("CG-AUDIT-012", `${file} holds no signed checkpoint.`);
  return { checkpoint, source: file };
}

/** Keeps `cp` as the witness when it is newer than the one there (atomic: written aside, then renamed). */
export async function keepCheckpoint(dataDir: string, cp: SignedCheckpoint & { publicKeyPem?: string }): Promise<void> {
  const current = await readWitness(dataDir).catch(() => null);
  if (current && current.checkpoint.treeSize >= cp.treeSize) return;
  await mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, WITNESS_FILE);
  const aside = `${file}.${randomUUID()}.tmp`;
  const { treeSize, rootHash, time, keyId, signature } = cp;
  await writeFile(
    aside,
    canonicalJsonPretty({ checkpoint: { treeSize, rootHash, time, keyId, signature }, publicKey: cp.publicKeyPem ?? null }),
    { mode: 0o644 },
  );
  await rename(aside, file);
}
