// The full verification of this deployment's ledger, the same from the CLI (`audit verify`) and the audit explorer's
// "Verify chain": the chain and its checkpoints against the trusted keys, and against every checkpoint kept outside the
// tables (this database's witness in the data folder, and any file a supervisor saved), which catches entries cut
// from the end together with the checkpoint rows.
import "server-only";
import type { KeyObject } from "node:crypto";
import { parsePublicKey } from "../../domain/checkpoint";
import type { AuditLedger, VerifyReport } from "../../ports";
import { ledgerWitness } from "../runtime";
import { readCheckpointFile, readWitness } from "./checkpoint-witness";
import { readLedgerEnv } from "./env";
import { trustedPublicKeys } from "./key";

export async function verifyLedger(
  ledger: AuditLedger,
  options: { publicKey?: KeyObject; checkpointFiles?: readonly string[] } = {},
): Promise<VerifyReport> {
  const witness = await readWitness(ledgerWitness());
  const external = [...(witness ? [witness] : []), ...(await Promise.all((options.checkpointFiles ?? []).map(readCheckpointFile)))];
  // A key given by the checker is the only one trusted; otherwise the signing key and the keys it replaced.
  const signer = options.publicKey ? null : await ledger.publicKey();
  const trusted = options.publicKey
    ? [options.publicKey]
    : [...(signer ? [parsePublicKey(signer.publicKeyPem)] : []), ...trustedPublicKeys(null, readLedgerEnv().CASEGRAPH_LEDGER_TRUSTED_KEYS)];
  return ledger.verify({ trustedKeys: trusted, external });
}
