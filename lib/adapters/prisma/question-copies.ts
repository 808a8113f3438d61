// Retention beyond the ledger (AUDIT_RETENTION_DAYS): the copies of question text kept outside the ledger's redactable
// part are erased with it — a thread's title (its first question, unless AUDIT_QUERY_MODE=hash) becomes the dated
// title hash mode gives, and a decided answer review's question is emptied. A pending review keeps its question until
// it is decided: the supervisor needs it to decide.
import "server-only";
import type { PrismaClient } from "../../generated/prisma/client";
import { threadTitle } from "../../graphrag/thread";
import type { QuestionCopies } from "../../ports";

export class PrismaQuestionCopies implements QuestionCopies {
  constructor(private readonly prisma: PrismaClient) {}

  async eraseBefore(cutoff: Date): Promise<{ threadTitles: number; reviewQuestions: number }> {
    return this.prisma.$transaction(async (tx) => {
      const threads = await tx.thread.findMany({
        where: { createdAt: { lt: cutoff } },
        select: { id: true, title: true, createdAt: true },
      });
      let threadTitles = 0;
      for (const t of threads) {
        const dated = threadTitle("", "hash", t.createdAt.toISOString());
        if (t.title === dated) continue;
        await tx.thread.update({ where: { id: t.id }, data: { title: dated } });
        threadTitles++;
      }
      const reviews = await tx.answerReview.updateMany({
        where: { createdAt: { lt: cutoff }, status: { not: "pending" }, question: { not: "" } },
        data: { question: "" },
      });
      return { threadTitles, reviewQuestions: reviews.count };
    });
  }
}
