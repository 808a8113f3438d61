// API tokens as administered: a user creates and revokes their own; an admin lists and revokes the tenant's; an
// operator on the CLI issues one on a user's behalf (recorded so) and revokes any. The secret itself, its hash and
// its resolution on a request are lib/auth/tokens.ts.
import type { PrismaClient } from "../generated/prisma/client";
import { CasegraphError } from "../domain/failure-codes";
import type { Actor } from "../auth/actor";
import { issueToken, parseDuration } from "../auth/tokens";
import { auditedChange, changeActorOf, tenantOf, type ChangeActor } from "./change";
import { userInTenant, userView } from "./users";

export interface TokenRow {
  id: string;
  name: string;
  prefix: string;
  userId: string;
  userEmail: string;
  createdAt: Date;
  expiresAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  createdBy: string | null;
  status: "active" | "expired" | "revoked";
}

type Scope = { tenantId: string; userId?: string } | "operator";

async function listWhere(prisma: PrismaClient, where: { tenantId?: string; userId?: string }): Promise<TokenRow[]> {
  const now = Date.now();
  const rows = await prisma.apiToken.findMany({
    where: { ...(where.userId ? { userId: where.userId } : {}), ...(where.tenantId ? { user: { tenantId: where.tenantId } } : {}) },
    orderBy: { createdAt: "desc" },
    select: {
      id: true,
      name: true,
      prefix: true,
      userId: true,
      createdAt: true,
      expiresAt: true,
      revokedAt: true,
      lastUsedAt: true,
      createdBy: true,
      user: { select: { email: true } },
    },
  });
  return rows.map(({ user, ...t }) => ({
    ...t,
    userEmail: user.email,
    status: t.revokedAt ? "revoked" : t.expiresAt.getTime() <= now ? "expired" : "active",
  }));
}

/** Every token of the admin's tenant. */
export async function listTokens(prisma: PrismaClient, actor: Actor): Promise<TokenRow[]> {
  return listWhere(prisma, { tenantId: tenantOf(changeActorOf(actor)) });
}

/** One user's tokens, for their admin page (a user of another tenant has none here). */
export async function listUserTokens(prisma: PrismaClient, actor: Actor, userId: string): Promise<TokenRow[]> {
  return listWhere(prisma, { tenantId: tenantOf(changeActorOf(actor)), userId });
}

/** The signed-in user's own tokens. */
export async function listOwnTokens(prisma: PrismaClient, actor: Actor): Promise<TokenRow[]> {
  return listWhere(prisma, { tenantId: tenantOf(changeActorOf(actor)), userId: actor.userId });
}

/** Operators (CLI): any user's tokens, or everyone's. */
export async function listTokensAsOperator(prisma: PrismaClient, where: { userId?: string }): Promise<TokenRow[]> {
  return listWhere(prisma, where);
}

/**
 * Issues a token (the secret is in the result, once); the ledger gets its id, prefix and issuer, never the secret. The
 * entry says whether it was issued on the user's behalf (an operator) or by the user.
 */
async function issue(prisma: PrismaClient, who: ChangeActor, input: { userId: string; name: string; expiresIn: string }, scope: Scope) {
  const ms = parseDuration(input.expiresIn);
  if (ms === null)
    throw new CasegraphError("CG-INPUT-001", undefined, [{ path: "expiresIn", message: "Use e.g. 7d, 12h or 90d (at most 365 days)." }]);
  return auditedChange(prisma, who, async (tx) => {
    const user =
      scope === "operator"
        ? await tx.user.findUnique({ where: { id: input.userId }, select: userView })
        : await userInTenant(tx, scope.tenantId, input.userId);
    if (!user) throw new CasegraphError("CG-ACCESS-003");
    if (!user.active) throw new CasegraphError("CG-AUTH-003", "The user is deactivated; reactivate them first.");
    const issued = await issueToken(tx, { userId: user.id, name: input.name, expiresAt: new Date(Date.now() + ms), createdBy: who.email });
    const after = {
      id: issued.id,
      name: issued.name,
      prefix: issued.prefix,
      userId: user.id,
      userEmail: user.email,
      expiresAt: issued.expiresAt.toISOString(),
      issuer: who.email,
      onBehalf: who.userId !== user.id,
    };
    return {
      result: issued,
      audit: { kind: "admin.token.issue", target: { type: "api_token", id: issued.id, tenantId: user.tenantId }, before: null, after },
    };
  });
}

/** A token for the signed-in user themselves (any role): tokens are created by their owner only. */
export async function issueOwnToken(prisma: PrismaClient, actor: Actor, input: { name: string; expiresIn: string }) {
  const who = changeActorOf(actor);
  return issue(prisma, who, { ...input, userId: actor.userId }, { tenantId: tenantOf(who) });
}

/** Operators (CLI): a token for any user, recorded as issued on their behalf. */
export async function issueTokenAsOperator(
  prisma: PrismaClient,
  operator: ChangeActor,
  input: { userId: string; name: string; expiresIn: string },
) {
  return issue(prisma, operator, input, "operator");
}

async function revoke(prisma: PrismaClient, who: ChangeActor, tokenId: string, scope: Scope) {
  return auditedChange(prisma, who, async (tx) => {
    const t = await tx.apiToken.findFirst({
      where: {
        id: tokenId,
        ...(scope === "operator" ? {} : { user: { tenantId: scope.tenantId }, ...(scope.userId ? { userId: scope.userId } : {}) }),
      },
      select: { id: true, name: true, prefix: true, revokedAt: true, userId: true, user: { select: { tenantId: true, email: true } } },
    });
    if (!t) throw new CasegraphError("CG-ACCESS-003");
    if (t.revokedAt) return { result: { revoked: false, revokedAt: t.revokedAt }, audit: null };
    const revokedAt = new Date();
    await tx.apiToken.update({ where: { id: t.id }, data: { revokedAt } });
    return {
      result: { revoked: true, revokedAt },
      audit: {
        kind: "admin.token.revoke",
        target: { type: "api_token", id: t.id, tenantId: t.user.tenantId },
        before: { revokedAt: null, name: t.name, prefix: t.prefix, userEmail: t.user.email },
        after: { revokedAt: revokedAt.toISOString() },
      },
    };
  });
}

/** Any token of the admin's tenant. */
export async function revokeToken(prisma: PrismaClient, actor: Actor, input: { tokenId: string }) {
  const who = changeActorOf(actor);
  return revoke(prisma, who, input.tokenId, { tenantId: tenantOf(who) });
}

/** One of the signed-in user's own tokens (anyone else's is "not found"). */
export async function revokeOwnToken(prisma: PrismaClient, actor: Actor, input: { tokenId: string }) {
  const who = changeActorOf(actor);
  return revoke(prisma, who, input.tokenId, { tenantId: tenantOf(who), userId: actor.userId });
}

/** Operators (CLI): any token. */
export async function revokeTokenAsOperator(prisma: PrismaClient, operator: ChangeActor, tokenId: string) {
  return revoke(prisma, operator, tokenId, "operator");
}
