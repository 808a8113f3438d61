// The review queue's writes in PostgreSQL/PGlite (lib/ports.ts ReviewQueue): held drafts become `answer_review` rows,
// which supervisors read and decide through lib/server/answers/reviews.ts and operator overrides release through
// lib/server/answers/overrides.ts.
import "server-only";
import type { PrismaClient } from "../../generated/prisma/client";
import { Prisma } from "../../generated/prisma/client";
import type { HeldAnswer, ReviewQueue } from "../../ports";

export class PrismaReviewQueue implements ReviewQueue {
  constructor(private readonly prisma: PrismaClient) {}

  async hold(held: HeldAnswer): Promise<void> {
    await this.prisma.answerReview.create({
      data: {
        id: held.id,
        reason: held.reason,
        tenantId: held.tenantId,
        caseId: held.caseId,
        askerId: held.askerId,
        askerEmail: held.askerEmail,
        requestId: held.requestId,
        auditId: held.auditId,
        question: held.question,
        bundleSha256: held.bundleSha256,
        draft: held.draft as object,
        compliance: held.compliance === null ? Prisma.DbNull : (held.compliance as object),
        expiredEvidence: held.expiredEvidence === null ? Prisma.DbNull : held.expiredEvidence,
      },
    });
  }

  async discard(id: string): Promise<void> {
    await this.prisma.answerReview.deleteMany({ where: { id, status: "pending" } });
  }
}
