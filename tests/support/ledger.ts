// Test helpers for the ledger: a signer, and raw writes "as a superuser with the triggers bypassed" — the attacker the
// tamper tests model (session_replication_role = replica skips ordinary triggers; only a superuser may set it).
import { generateSigningKey, keyIdOf, parseSigningKey, publicKeyOf, publicKeyPem } from "@/lib/domain/checkpoint";
import type { Database } from "@/lib/adapters/prisma/db";
import type { LedgerSignerLike } from "@/lib/adapters/prisma/ledger";

export function testSigner(): LedgerSignerLike & { privateKeyPem: string } {
  const k = generateSigningKey();
  const privateKey = parseSigningKey(k.privateKeyPem);
  const publicKey = publicKeyOf(privateKey);
  return { privateKey, publicKey, publicKeyPem: publicKeyPem(publicKey), keyId: keyIdOf(publicKey), privateKeyPem: k.privateKeyPem };
}

/** Runs statements in one transaction with every ordinary trigger off (superuser only). */
export async function bypassingTriggers(db: Database, statements: Array<{ sql: string; params?: unknown[] }>): Promise<void> {
  await db.prisma.$transaction(async (tx) => {
    await tx.$executeRawUnsafe("SET LOCAL session_replication_role = replica");
    for (const s of statements) await tx.$executeRawUnsafe(s.sql, ...(s.params ?? []));
  });
}

export interface RawLedgerRow {
  seq: number;
  prev_hash: string;
  entry_hash: string;
  kind: string;
  body: string;
  tenant_id: string | null;
  actor_id: string | null;
  case_id: string | null;
  created_at: string;
  subtree_hashes: string[];
}

export async function rawRows(db: Database): Promise<RawLedgerRow[]> {
  const rows = await db.prisma.$queryRawUnsafe<Array<Record<string, unknown>>>(
    `SELECT seq, prev_hash, entry_hash, kind, body, tenant_id, actor_id, case_id, created_at, subtree_hashes FROM "ledger" ORDER BY seq`,
  );
  return rows.map((r) => ({
    seq: Number(r.seq),
    prev_hash: r.prev_hash as string,
    entry_hash: r.entry_hash as string,
    kind: r.kind as string,
    body: r.body as string,
    tenant_id: r.tenant_id as string | null,
    actor_id: r.actor_id as string | null,
    case_id: r.case_id as string | null,
    created_at: new Date(r.created_at as string).toISOString(),
    subtree_hashes: r.subtree_hashes as string[],
  }));
}

/** INSERT statement for raw rows (payload is generated from body by the database). */
export function insertRows(rows: RawLedgerRow[]): { sql: string; params: unknown[] } {
  return {
    sql: `INSERT INTO "ledger" (seq, prev_hash, entry_hash, kind, body, tenant_id, actor_id, case_id, created_at, subtree_hashes)
          SELECT s, p, e, k, b, t, a, c, ts, string_to_array(h, ',')
            FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::timestamptz[], $10::text[])
                 AS u(s, p, e, k, b, t, a, c, ts, h)`,
    params: [
      rows.map((r) => r.seq),
      rows.map((r) => r.prev_hash),
      rows.map((r) => r.entry_hash),
      rows.map((r) => r.kind),
      rows.map((r) => r.body),
      rows.map((r) => r.tenant_id),
      rows.map((r) => r.actor_id),
      rows.map((r) => r.case_id),
      rows.map((r) => r.created_at),
      rows.map((r) => r.subtree_hashes.join(",")),
    ],
  };
}
