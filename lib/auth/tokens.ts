// API tokens for the HTTP API (`Authorization: Bearer <token>`). The secret is shown once at issue; only its SHA-256 is
// stored, with a short display prefix. A token carries no permissions of its own: it names a user, and that user's
// current roles, clearance and memberships apply (resolved fresh on every request).
import "server-only";
import { createHash, randomBytes } from "node:crypto";
import type { PrismaClient } from "../generated/prisma/client";
import { CasegraphError } from "../domain/failure-codes";

export const TOKEN_PREFIX = "cgt_";
const TOKEN_PATTERN = /^cgt_[A-Za-z0-9_-]{43}$/;
export const MAX_TOKEN_DAYS = 365;
const DISPLAY_PREFIX_LENGTH = 12;
/** last_used_at is written at most this often per token, so a busy client does not turn every read into a write. */
const LAST_USED_RESOLUTION_MS = 60_000;

export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function newTokenSecret(): string {
  return TOKEN_PREFIX + randomBytes(32).toString("base64url");
}

/** "7d", "12h", "30m", "1y" → milliseconds; null when malformed or outside (0, 365 days]. */
export function parseDuration(text: string): number | null {
  const m = /^\s*(\d{1,4})\s*([mhdwy])\s*$/i.exec(text);
  if (!m) return null;
  const n = Number(m[1]);
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000, y: 365 * 86_400_000 }[m[2].toLowerCase() as "m"];
  const ms = n * unit;
  if (ms <= 0 || ms > MAX_TOKEN_DAYS * 86_400_000) return null;
  return ms;
}

export interface IssuedToken {
  id: string;
  /** The secret: returned once, never stored. */
  token: string;
  prefix: string;
  name: string;
  userId: string;
  expiresAt: Date;
}

export async function issueToken(
  prisma: Pick<PrismaClient, "apiToken">,
  input: { userId: string; name: string; expiresAt: Date; createdBy: string | null },
): Promise<IssuedToken> {
  const token = newTokenSecret();
  const row = await prisma.apiToken.create({
    data: {
      id: "tok_" + randomBytes(9).toString("base64url"),
      userId: input.userId,
      name: input.name,
      tokenHash: hashToken(token),
      prefix: token.slice(0, DISPLAY_PREFIX_LENGTH),
      expiresAt: input.expiresAt,
      createdBy: input.createdBy,
    },
  });
  return { id: row.id, token, prefix: row.prefix, name: row.name, userId: row.userId, expiresAt: row.expiresAt };
}

/**
 * The user id behind a presented token. Unknown, malformed, expired and revoked tokens are all CG-AUTH-002 (the caller
 * learns nothing about which). Records the last use.
 */
export async function resolveToken(
  prisma: PrismaClient,
  presented: string,
  now = new Date(),
): Promise<{ userId: string; tokenId: string; issuer: string | null }> {
  if (!TOKEN_PATTERN.test(presented)) throw new CasegraphError("CG-AUTH-002");
  const row = await prisma.apiToken.findUnique({
    where: { tokenHash: hashToken(presented) },
    select: { id: true, userId: true, expiresAt: true, revokedAt: true, lastUsedAt: true, createdBy: true },
  });
  if (!row || row.revokedAt || row.expiresAt.getTime() <= now.getTime()) throw new CasegraphError("CG-AUTH-002");
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await prisma.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  return { userId: row.userId, tokenId: row.id, issuer: row.createdBy };
}

/** Parses an Authorization header: null when absent; CG-AUTH-002 when present but not a Bearer token. */
export function bearerFrom(header: string | null): string | null {
  if (header === null) return null;
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!m) throw new CasegraphError("CG-AUTH-002");
  return m[1];
}
