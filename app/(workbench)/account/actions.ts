"use server";
// The signed-in user's own API tokens (any role): tokens are created by their owner, never by an admin for someone
// else (separation of duties). Each issue and revocation is a ledger entry.
import { issueOwnToken, revokeOwnToken } from "@/lib/admin/tokens";
import { ownTokenInput, revokeTokenInput } from "@/lib/admin/tokens.validation";
import { authedAction } from "@/lib/auth/guard";
import { runtime } from "@/lib/server/runtime";

const prisma = async () => (await runtime()).db.prisma;

/** The token secret is in this result and nowhere else, ever. */
export const createOwnTokenAction = authedAction({ input: ownTokenInput }, async (actor, input) => {
  const t = await issueOwnToken(await prisma(), actor, input);
  return { id: t.id, token: t.token, prefix: t.prefix, expiresAt: t.expiresAt.toISOString() };
});

export const revokeOwnTokenAction = authedAction({ input: revokeTokenInput }, async (actor, input) => {
  const r = await revokeOwnToken(await prisma(), actor, input);
  return { revoked: r.revoked };
});
