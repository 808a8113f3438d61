// Releasing held requests (issue 15): by a supervisor of the tenant, or by a signed operator override token. Either
// way the release is a ledger entry written in the same transaction, BEFORE the held request changes state: if the
// entry cannot be written nothing is released (and the token's nonce is not spent). A release never changes
// identities, clearances or policies. An answer the answer policies escalated (issue 14) waits in their review queue; a
// token naming its review or request id releases it there, as the review's approval.
import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import { appendInTx } from "../../adapters/prisma/ledger";
import type { Actor } from "../../auth/actor";
import { CasegraphError } from "../../domain/failure-codes";
import { parseOverride, parsePublicKeys, tokenSha256, verifyOverride, type OverrideClaims } from "../../grounding/override";
import type { HeldRequest } from "../../grounding/ports";

export const OVERRIDE_KIND = "override.apply";
export const RELEASE_KIND = "review.release";

type Tx = Prisma.TransactionClient;

/** Holds a request (in the caller's transaction, or on its own). */
export async function holdRequest(
  db: PrismaClient | Tx,
  r: { id: string; kind: string; tenantId: string; caseId: string | null },
): Promise<void> {
  await db.heldRequest.create({ data: { id: r.id, kind: r.kind, tenantId: r.tenantId, caseId: r.caseId } });
}

export async function heldRequest(db: PrismaClient | Tx, id: string): Promise<HeldRequest | null> {
  const r = await db.heldRequest.findUnique({ where: { id } });
  return r ? { id: r.id, kind: r.kind, tenantId: r.tenantId, caseId: r.caseId, state: r.state === "released" ? "released" : "held" } : null;
}

export interface Released {
  request: string;
  kind: string;
  releasedAt: string;
  by: string;
}

/**
 * `casegraph override apply <token> [--request <id>]`. The token must name the request it is applied to (024), be
 * signed by a configured key (021), unexpired (022) and unused (023); the request must be held (026).
 */
export async function applyOverride(
  prisma: PrismaClient,
  token: string,
  options: { request?: string; keys?: string; now?: Date } = {},
): Promise<Released> {
  const keys = parsePublicKeys(options.keys ?? process.env.CASEGRAPH_OVERRIDE_PUBLIC_KEYS);
  const now = options.now ?? new Date();
  const target = options.request ?? parseOverride(token).claims.request;
  const claims = verifyOverride(token, keys, { request: target, action: "release" }, now);
  return prisma.$transaction(async (tx) => {
    // Replay first: a used token is "already used", even when its request has been released since.
    const used = await tx.$queryRaw<Array<{ nonce: string }>>`
      INSERT INTO "override_use" (nonce, token_sha256, request_id) VALUES (${claims.nonce}, ${tokenSha256(token)}, ${claims.request})
      ON CONFLICT (nonce) DO NOTHING RETURNING nonce`;
    if (!used.length) throw new CasegraphError("CG-GROUND-023");
    return release(
      tx,
      claims.request,
      `override:${claims.keyId}`,
      (held) => ({
        kind: OVERRIDE_KIND,
        tenantId: held.tenantId,
        actorId: null,
        caseId: held.caseId,
        payload: overridePayload(claims, token, held, now),
      }),
      now,
    );
  });
}

/** A supervisor of the request's tenant releases it from the review queue. */
export async function releaseAsSupervisor(prisma: PrismaClient, actor: Actor, id: string): Promise<Released> {
  if (!actor.roles.includes("supervisor")) throw new CasegraphError("CG-ACCESS-002");
  const now = new Date();
  return prisma.$transaction(async (tx) => {
    const held = await heldRequest(tx, id);
    if (!held || held.tenantId !== actor.tenantId) throw new CasegraphError("CG-GROUND-026");
    return release(
      tx,
      id,
      actor.email,
      (h) => ({
        kind: RELEASE_KIND,
        tenantId: h.tenantId,
        actorId: actor.userId,
        caseId: h.caseId,
        payload: {
          ts: now.toISOString(),
          request_id: h.id,
          held_kind: h.kind,
          action: "release",
          actor: { id: actor.userId, email: actor.email, via: actor.via },
        },
      }),
      now,
    );
  });
}

async function release(
  tx: Tx,
  id: string,
  by: string,
  entry: (held: HeldRequest) => Parameters<typeof appendInTx>[1][number],
  now: Date,
): Promise<Released> {
  const rows = await tx.$queryRaw<Array<{ id: string }>>`SELECT id FROM "held_request" WHERE id = ${id} AND state = 'held' FOR UPDATE`;
  const held = rows.length ? await heldRequest(tx, id) : await pendingReview(tx, id);
  if (!held) throw new CasegraphError("CG-GROUND-026");
  // Ledger before effect: the entry is appended first; the state change follows in the same transaction.
  await appendInTx(tx, [entry(held)]);
  if (held.kind === REVIEW_HELD_KIND) {
    // An answer the answer policies escalated (issue 14): released as the review's approval, once.
    const updated = await tx.answerReview.updateMany({
      where: { id: held.id, status: "pending" },
      data: { status: "approved", decidedAt: now, decidedBy: by, note: `Released by ${by}.` },
    });
    if (updated.count !== 1) throw new CasegraphError("CG-GROUND-026");
  } else {
    await tx.heldRequest.update({ where: { id }, data: { state: "released", releasedAt: now, releasedBy: by } });
  }
  return { request: id, kind: held.kind, releasedAt: now.toISOString(), by };
}

/** What an answer held for review is, as a held request. */
export const REVIEW_HELD_KIND = "answer_review";

/** A pending answer review, by its id or its request's id, locked for the release. */
async function pendingReview(tx: Tx, id: string): Promise<HeldRequest | null> {
  const rows = await tx.$queryRaw<Array<{ id: string; tenant_id: string; case_id: string }>>`
    SELECT id, tenant_id, case_id FROM "answer_review" WHERE (id = ${id} OR request_id = ${id}) AND status = 'pending'
    ORDER BY id LIMIT 1 FOR UPDATE`;
  const r = rows[0];
  return r ? { id: r.id, kind: REVIEW_HELD_KIND, tenantId: r.tenant_id, caseId: r.case_id, state: "held" } : null;
}

function overridePayload(c: OverrideClaims, token: string, held: HeldRequest, now: Date): Record<string, unknown> {
  // The token itself is never stored (seed 004 §4): its digest, nonce and key id identify it.
  return {
    ts: now.toISOString(),
    request_id: c.request,
    held_kind: held.kind,
    action: c.action,
    expires_at: c.expiresAt,
    nonce: c.nonce,
    key_id: c.keyId,
    token_sha256: tokenSha256(token),
  };
}
