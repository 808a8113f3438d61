// Signed checkpoints: "at `time`, the ledger had `treeSize` entries and this Merkle root", signed with Ed25519.
// The signed message is a fixed text (in the spirit of C2SP tlog-checkpoint), so anyone can rebuild and check it with
// nothing but the public key:
//
//   casegraph.ledger/v1\n<treeSize>\n<rootHash hex>\n<time ISO-8601>\n<keyId>\n
//
// keyId = first 16 hex characters of SHA-256 over the public key's SPKI DER: a checkpoint names the key that signed it,
// and a verifier refuses a checkpoint whose keyId is not the key it was given.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify, type KeyObject } from "node:crypto";
import { isHash } from "./merkle";

export const CHECKPOINT_ORIGIN = "casegraph.ledger/v1";

export interface CheckpointBody {
  treeSize: number;
  rootHash: string;
  /** ISO-8601 with milliseconds, UTC. */
  time: string;
}

export interface SignedCheckpoint extends CheckpointBody {
  keyId: string;
  /** Base64 Ed25519 signature over checkpointMessage(). */
  signature: string;
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const KEY_ID = /^[0-9a-f]{16}$/;

export function checkpointMessage(c: CheckpointBody & { keyId: string }): string {
  return `${CHECKPOINT_ORIGIN}\n${c.treeSize}\n${c.rootHash}\n${c.time}\n${c.keyId}\n`;
}

export function isCheckpointShape(value: unknown): value is SignedCheckpoint {
  if (!value || typeof value !== "object") return false;
  const c = value as Record<string, unknown>;
  return (
    typeof c.treeSize === "number" &&
    Number.isSafeInteger(c.treeSize) &&
    c.treeSize >= 0 &&
    isHash(c.rootHash) &&
    typeof c.time === "string" &&
    ISO.test(c.time) &&
    !Number.isNaN(Date.parse(c.time)) &&
    typeof c.keyId === "string" &&
    KEY_ID.test(c.keyId) &&
    typeof c.signature === "string" &&
    /^[A-Za-z0-9+/]+={0,2}$/.test(c.signature)
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Keys

function assertEd25519(key: KeyObject): KeyObject {
  if (key.asymmetricKeyType !== "ed25519") throw new TypeError("the ledger signing key must be an Ed25519 key");
  return key;
}

/** A private key from PEM ("-----BEGIN PRIVATE KEY-----") or base64 of the PKCS#8 DER. Throws on anything else. */
export function parseSigningKey(text: string): KeyObject {
  const t = text.trim();
  const key = t.startsWith("-----BEGIN")
    ? createPrivateKey({ key: t, format: "pem" })
    : createPrivateKey({ key: Buffer.from(t.replace(/\s+/g, ""), "base64"), format: "der", type: "pkcs8" });
  return assertEd25519(key);
}

/** A public key from PEM ("-----BEGIN PUBLIC KEY-----") or base64 of the SPKI DER. */
export function parsePublicKey(text: string): KeyObject {
  const t = text.trim();
  // createPublicKey would quietly derive a public key from a private one; a private key here is a mistake worth stopping.
  if (/PRIVATE KEY/.test(t)) throw new TypeError("expected a public key, got a private key");
  const key = t.startsWith("-----BEGIN")
    ? createPublicKey({ key: t, format: "pem" })
    : createPublicKey({ key: Buffer.from(t.replace(/\s+/g, ""), "base64"), format: "der", type: "spki" });
  if (key.type !== "public") throw new TypeError("expected a public key");
  return assertEd25519(key);
}

export function publicKeyOf(privateKey: KeyObject): KeyObject {
  return createPublicKey(privateKey);
}

export function publicKeyPem(publicKey: KeyObject): string {
  return publicKey.export({ format: "pem", type: "spki" }).toString();
}

// Key objects are immutable; a verify checks one key against thousands of checkpoints, so its id is worked out once.
const keyIds = new WeakMap<KeyObject, string>();

export function keyIdOf(publicKey: KeyObject): string {
  let id = keyIds.get(publicKey);
  if (id === undefined) {
    const der = publicKey.export({ format: "der", type: "spki" });
    id = createHash("sha256").update(der).digest("hex").slice(0, 16);
    keyIds.set(publicKey, id);
  }
  return id;
}

export function generateSigningKey(): { privateKeyPem: string; publicKeyPem: string; keyId: string } {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return {
    privateKeyPem: privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
    publicKeyPem: publicKeyPem(publicKey),
    keyId: keyIdOf(publicKey),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Sign and verify

export function signCheckpoint(body: CheckpointBody, privateKey: KeyObject): SignedCheckpoint {
  if (!Number.isSafeInteger(body.treeSize) || body.treeSize < 0) throw new RangeError("tree size must be a non-negative integer");
  if (!isHash(body.rootHash)) throw new TypeError("root hash must be 64 lowercase hex characters");
  if (!ISO.test(body.time)) throw new TypeError("time must be ISO-8601 UTC with milliseconds");
  const keyId = keyIdOf(publicKeyOf(assertEd25519(privateKey)));
  const unsigned = { treeSize: body.treeSize, rootHash: body.rootHash, time: body.time, keyId };
  const signature = sign(null, Buffer.from(checkpointMessage(unsigned)), privateKey).toString("base64");
  return { ...unsigned, signature };
}

export type CheckpointProblem = "malformed" | "unknown_key" | "bad_signature";

/** null when the checkpoint is well-formed, names this public key and carries its valid signature. */
export function checkpointProblem(checkpoint: unknown, publicKey: KeyObject): CheckpointProblem | null {
  if (!isCheckpointShape(checkpoint)) return "malformed";
  if (checkpoint.keyId !== keyIdOf(publicKey)) return "unknown_key";
  const ok = verify(null, Buffer.from(checkpointMessage(checkpoint)), publicKey, Buffer.from(checkpoint.signature, "base64"));
  return ok ? null : "bad_signature";
}

export const verifyCheckpoint = (checkpoint: unknown, publicKey: KeyObject) => checkpointProblem(checkpoint, publicKey) === null;

// ---------------------------------------------------------------------------------------------------------------
// Checkpoints kept outside the ledger tables

/** A signed checkpoint kept outside the ledger tables, and where it was found (a file, an export). */
export interface KeptCheckpoint {
  checkpoint: SignedCheckpoint;
  source: string;
}

/**
 * The signed checkpoint inside a file someone kept: the data folder's ledger-checkpoint.json, the JSON of GET
 * /api/audit/checkpoint, a bare checkpoint, or a proof file (its checkpoint, or a consistency proof's newer one).
 * null when the file holds none. The signature is not checked here; `audit verify` checks it against trusted keys.
 */
export function checkpointInFile(json: unknown): SignedCheckpoint | null {
  if (isCheckpointShape(json)) return pick(json);
  if (!json || typeof json !== "object") return null;
  const o = json as Record<string, unknown>;
  for (const key of ["checkpoint", "toCheckpoint"]) if (isCheckpointShape(o[key])) return pick(o[key] as SignedCheckpoint);
  return null;
}

const pick = (c: SignedCheckpoint): SignedCheckpoint => ({
  treeSize: c.treeSize,
  rootHash: c.rootHash,
  time: c.time,
  keyId: c.keyId,
  signature: c.signature,
});
