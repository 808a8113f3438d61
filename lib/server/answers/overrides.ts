// Operator overrides (issue 15, seed 004 §8): a signed token releases one held answer from the review queue — one the
// answer policies escalated (issue 14) or one drafted from expired evidence — named by its review id or its request
// id, as that review's approval. The release is a ledger entry written in the same transaction, BEFORE the review
// changes state: if the entry cannot be written nothing is released (and the token's nonce is not spent). A release
// never changes identities, clearances or policies. Supervisors decide reviews in lib/server/answers/reviews.ts.
import "server-only";
import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import { appendInTx } from "../../adapters/prisma/ledger";
import { CasegraphError } from "../../domain/failure-codes";
import { parseOverride, parsePublicKeys, tokenSha256, verifyOverride, type OverrideClaims } from "../../grounding/override";
import type { HoldReason } from "../../ports";
import { refuseRevokedSince } from "./reviews";

export const OVERRIDE_KIND = "override.apply";

type Tx = Prisma.TransactionClient;

/** A pending review, locked for its release. */
interface PendingReview {
  id: string;
  reason: HoldReason;
  tenantId: string;
  caseId: string;
  draft: unknown;
}

export interface Released {
  /** The id the token named (a review id or a request id). */
  request: string;
  review: string;
  reason: HoldReason;
  releasedAt: string;
  by: string;
}

/**
 * `casegraph override apply <token> [--request <id>]`. The token must name the request it is applied to (024), be
 * signed by a configured key (021), unexpired (022) and unused (023); the request must be held (026) and its draft
 * may cite no evidence revoked since (CG-REVIEW-006).
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
    const held = await pendingReview(tx, claims.request);
    if (!held) throw new CasegraphError("CG-GROUND-026");
    await refuseRevokedSince(tx, held.caseId, held.draft);
    const by = `override:${claims.keyId}`;
    // Ledger before effect: the entry is appended first; the approval follows in the same transaction, once.
    await appendInTx(tx, [
      {
        kind: OVERRIDE_KIND,
        tenantId: held.tenantId,
        actorId: null,
        caseId: held.caseId,
        payload: overridePayload(claims, token, held, now),
      },
    ]);
    const updated = await tx.answerReview.updateMany({
      where: { id: held.id, status: "pending" },
      data: { status: "approved", decidedAt: now, decidedBy: by, note: `Released by ${by}.` },
    });
    if (updated.count !== 1) throw new CasegraphError("CG-GROUND-026");
    return { request: claims.request, review: held.id, reason: held.reason, releasedAt: now.toISOString(), by };
  });
}

/** A pending answer review, by its id or its request's id, locked for the release. */
async function pendingReview(tx: Tx, id: string): Promise<PendingReview | null> {
  const rows = await tx.$queryRaw<Array<{ id: string; reason: string; tenant_id: string; case_id: string; draft: unknown }>>`
    SELECT id, reason, tenant_id, case_id, draft FROM "answer_review" WHERE (id = ${id} OR request_id = ${id}) AND status = 'pending'
    ORDER BY id LIMIT 1 FOR UPDATE`;
  const r = rows[0];
  if (!r) return null;
  const reason: HoldReason = r.reason === "expired_evidence" ? "expired_evidence" : "policy";
  return { id: r.id, reason, tenantId: r.tenant_id, caseId: r.case_id, draft: r.draft };
}

function overridePayload(c: OverrideClaims, token: string, held: PendingReview, now: Date): Record<string, unknown> {
  // The token itself is never stored (seed 004 §4): its digest, nonce and key id identify it.
  return {
    ts: now.toISOString(),
    request_id: c.request,
    review_id: held.id,
    held_reason: held.reason,
    action: c.action,
    expires_at: c.expiresAt,
    nonce: c.nonce,
    key_id: c.keyId,
    token_sha256: tokenSha256(token),
  };
}
