// The ledger's own settings, parsed with zod like lib/env.ts (kept here so the ledger's knobs live with the ledger).
import "server-only";
import { z } from "zod";
import { optionalString, parseEnv } from "../../env";

export const ledgerEnvSchema = z.object({
  /** Ed25519 private key for checkpoints: PEM, or base64 of the PKCS#8 DER. Required with DATABASE_URL. */
  CASEGRAPH_LEDGER_SIGNING_KEY: optionalString,
  /** Extra public keys (base64 SPKI DER, comma-separated) whose older checkpoints `audit verify` accepts after a rotation. */
  CASEGRAPH_LEDGER_TRUSTED_KEYS: optionalString,
  /** A signed checkpoint every N entries. */
  CASEGRAPH_CHECKPOINT_EVERY: z.coerce.number().int().min(1).max(10_000_000).default(1000),
  /**
   * How often the server signs the head when the ledger grew, in minutes: the newest entries are covered by a signed
   * checkpoint (kept outside the tables too) within this time, so cutting them off afterwards is detected.
   */
  CASEGRAPH_CHECKPOINT_MINUTES: z.coerce
    .number()
    .min(0.01)
    .max(24 * 60)
    .default(5),
  /** How often the server runs ledger maintenance (retention, catch-up checkpoint), in hours. */
  CASEGRAPH_LEDGER_MAINTENANCE_HOURS: z.coerce
    .number()
    .min(0.001)
    .max(24 * 365)
    .default(24),
});

export type LedgerEnv = z.infer<typeof ledgerEnvSchema>;

export function readLedgerEnv(source: Record<string, string | undefined> = process.env): LedgerEnv {
  return parseEnv(ledgerEnvSchema, source);
}
