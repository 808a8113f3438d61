// A copy of the latest signed checkpoint OUTSIDE the ledger tables, in the data folder, so that someone who can rewrite
// the database — delete the newest entries and the checkpoint rows with the triggers bypassed — still cannot make the
// ledger look complete: `audit verify` reads this file (and any checkpoint file a supervisor saved, `--checkpoint
// <file>`) and fails when the ledger is shorter than a checkpoint it knows of (CG-AUDIT-011). Written after every
// checkpoint the process signs; only ever moves forward.
//
// One file per database: the embedded one's is ledger-checkpoint.json, a PostgreSQL database's is named after its host,
// port and name. A data folder used first with the embedded database and then with PostgreSQL (or with two PostgreSQL
// databases) must not hold one database's ledger to another's checkpoint: that reported a fresh database as truncated,
// and kept the second database's checkpoints from ever being written (the file only moves forward).
import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { canonicalJsonPretty } from "../../domain/canonical-json";
import { checkpointInFile, type KeptCheckpoint, type SignedCheckpoint } from "../../domain/checkpoint";
import { CasegraphError } from "../../domain/failure-codes";

export const WITNESS_FILE = "ledger-checkpoint.json";

/** Where one database's witness is kept: the file, and the database it is for (see databaseLabel). */
export interface WitnessSlot {
  file: string;
  database: string;
}

/** The witness slot in `dataDir` for the database labelled `database` ("embedded" or postgresql://host:port/name). */
export function witnessSlot(dataDir: string, database: string): WitnessSlot {
  if (database === "embedded") return { file: path.join(dataDir, WITNESS_FILE), database };
  // Readable for an operator listing the folder; the hash keeps two labels that read alike apart.
  const readable = database
    .replace(/^postgresql:\/\//, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .slice(0, 80);
  const hash = createHash("sha256").update(database).digest("hex").slice(0, 8);
  return { file: path.join(dataDir, `ledger-checkpoint.${readable}.${hash}.json`), database };
}

/** The checkpoint in `file`; CG-AUDIT-012 when it is missing, unreadable or holds none. */
export async function readCheckpointFile(file: string): Promise<KeptCheckpoint> {
  const found = await checkpointAt(file);
  if (!found) throw new CasegraphError("CG-AUDIT-012", `${file} does not exist.`);
  return found;
}

/** This database's witness, or null when none was written yet; CG-AUDIT-012 when the file is another database's. */
export async function readWitness(slot: WitnessSlot): Promise<KeptCheckpoint | null> {
  const json = await jsonAt(slot.file);
  if (json === null) return null;
  // Files written before witnesses were kept per database name none; the one in the embedded slot was the embedded one's.
  const named = (json as { database?: unknown }).database;
  if (named !== undefined && named !== slot.database) {
    throw new CasegraphError("CG-AUDIT-012", `${slot.file} holds the checkpoint of ${String(named)}, not of ${slot.database}.`);
  }
  return keptIn(slot.file, json);
}

async function checkpointAt(file: string): Promise<KeptCheckpoint | null> {
  const json = await jsonAt(file);
  return json === null ? null : keptIn(file, json);
}

/** The parsed JSON in `file`, or null when there is no such file. */
async function jsonAt(file: string): Promise<unknown> {
  try {
    return JSON.parse(await readFile(file, "utf8"));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new CasegraphError("CG-AUDIT-012", `${file} is not a readable JSON file.`, [], { cause: err });
  }
}

function keptIn(file: string, json: unknown): KeptCheckpoint {
  const checkpoint = checkpointInFile(json);
  if (!checkpoint) throw new CasegraphError("CG-AUDIT-012", `${file} holds no signed checkpoint.`);
  return { checkpoint, source: file };
}

/** Keeps `cp` as the slot's witness when it is newer than the one there (atomic: written aside, then renamed). */
export async function keepCheckpoint(slot: WitnessSlot, cp: SignedCheckpoint & { publicKeyPem?: string }): Promise<void> {
  const current = await readWitness(slot).catch(() => null);
  if (current && current.checkpoint.treeSize >= cp.treeSize) return;
  await mkdir(path.dirname(slot.file), { recursive: true });
  const aside = `${slot.file}.${randomUUID()}.tmp`;
  const { treeSize, rootHash, time, keyId, signature } = cp;
  await writeFile(
    aside,
    canonicalJsonPretty({
      checkpoint: { treeSize, rootHash, time, keyId, signature },
      database: slot.database,
      publicKey: cp.publicKeyPem ?? null,
    }),
    { mode: 0o644 },
  );
  await rename(aside, slot.file);
}
