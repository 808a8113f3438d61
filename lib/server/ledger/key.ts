// The checkpoint signing key. From CASEGRAPH_LEDGER_SIGNING_KEY when set. In production it must be set (lib/server/
// production.ts: the server refuses to start without it — several servers each inventing a key would sign conflicting
// views, and a key nobody kept cannot prove the ledger was not cut short). Outside production it is generated on first
// use and kept in the data folder (ledger-signing-key.pem, mode 0600), so restarts keep signing with the same key;
// `casegraph audit keygen` prints a fresh one for production.
import "server-only";
import type { KeyObject } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { generateSigningKey, keyIdOf, parsePublicKey, parseSigningKey, publicKeyOf, publicKeyPem } from "../../domain/checkpoint";
import { CasegraphError } from "../../domain/failure-codes";
import { requireInProduction } from "../runtime/production";

export interface LedgerSigner {
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicKeyPem: string;
  keyId: string;
  source: "env" | "data-dir";
}

export const KEY_FILE = "ledger-signing-key.pem";

function signerFrom(privateKey: KeyObject, source: LedgerSigner["source"]): LedgerSigner {
  const publicKey = publicKeyOf(privateKey);
  return { privateKey, publicKey, publicKeyPem: publicKeyPem(publicKey), keyId: keyIdOf(publicKey), source };
}

export async function loadLedgerSigner(options: { key?: string; dataDir?: string }): Promise<LedgerSigner | null> {
  if (options.key) {
    try {
      return signerFrom(parseSigningKey(options.key), "env");
    } catch (err) {
      throw new CasegraphError("CG-AUDIT-003", "CASEGRAPH_LEDGER_SIGNING_KEY is not an Ed25519 private key (PEM or base64 PKCS#8).", [], {
        cause: err,
      });
    }
  }
  requireInProduction("CASEGRAPH_LEDGER_SIGNING_KEY");
  if (!options.dataDir) return null;
  const file = path.join(options.dataDir, KEY_FILE);
  const existing = await readFile(file, "utf8").catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return null;
    throw new CasegraphError("CG-AUDIT-003", `The ledger signing key ${file} cannot be read.`, [], { cause: err });
  });
  if (existing === null) {
    await mkdir(options.dataDir, { recursive: true });
    const fresh = generateSigningKey();
    try {
      await writeFile(file, fresh.privateKeyPem, { mode: 0o600, flag: "wx" });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") {
        throw new CasegraphError("CG-AUDIT-003", `The ledger signing key ${file} cannot be written.`, [], { cause: err });
      }
      return loadLedgerSigner(options); // another process created it first: use theirs
    }
    return signerFrom(parseSigningKey(fresh.privateKeyPem), "data-dir");
  }
  try {
    return signerFrom(parseSigningKey(existing), "data-dir");
  } catch (err) {
    throw new CasegraphError("CG-AUDIT-003", `The ledger signing key ${file} is not an Ed25519 private key.`, [], { cause: err });
  }
}

/** Public keys `audit verify` trusts: the signer's, plus CASEGRAPH_LEDGER_TRUSTED_KEYS (base64 SPKI, comma-separated). */
export function trustedPublicKeys(signer: LedgerSigner | null, extra?: string): KeyObject[] {
  const keys: KeyObject[] = signer ? [signer.publicKey] : [];
  for (const part of (extra ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)) {
    try {
      keys.push(parsePublicKey(part));
    } catch (err) {
      throw new CasegraphError("CG-SYS-003", "CASEGRAPH_LEDGER_TRUSTED_KEYS holds a value that is not an Ed25519 public key.", [], {
        cause: err,
      });
    }
  }
  return keys;
}
