// The user's threads on a case (issue 18): listed in the case page's history, each shown turn by turn, renamed and
// closed. Only the user's own threads on this case are ever found (lib/adapters/prisma/thread-store.ts); anything else
// is CG-THREAD-001. Earlier turns are shown as the user may see them now: the ids they cite and name pass the same
// stores and policy gate as the answer pipeline (lib/graphrag/thread.ts seeNow), and what rests on anything hidden or
// revoked since reads "no longer visible to you".
import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { PrismaThreadStore } from "@/lib/adapters/prisma/thread-store";
import { seeNow } from "@/lib/graphrag/thread";
import type { ThreadOwner } from "@/lib/ports";
import type { ThreadSummary, ThreadTurnView, ThreadView } from "@/lib/domain/workbench-views";
import type { OpenCase } from "./scope";

export const THREAD_LIST_LIMIT = 50;
/** The most turns one thread view shows (the newest). */
export const THREAD_VIEW_TURNS = 100;

const ownerOf = (open: OpenCase, actor: Actor): ThreadOwner => ({
  tenantId: open.scope.tenantId,
  caseId: open.scope.caseId,
  userId: actor.userId,
});

export async function listThreads(open: OpenCase, actor: Actor, limit = THREAD_LIST_LIMIT): Promise<ThreadSummary[]> {
  return new PrismaThreadStore(open.prisma).list(ownerOf(open, actor), limit);
}

export async function threadView(open: OpenCase, actor: Actor, threadId: string): Promise<ThreadView> {
  const store = new PrismaThreadStore(open.prisma);
  const thread = await store.find(ownerOf(open, actor), threadId);
  const turns = await store.turns(threadId, { last: THREAD_VIEW_TURNS });
  const seen = await seeNow(open, actor, open.scope, turns);
  return {
    thread,
    turns: turns.map((t): ThreadTurnView => {
      const a = seen.refilter(t.answer);
      return {
        turn: t.turn,
        at: t.createdAt,
        question: t.question,
        responseType: t.responseType,
        errorCode: t.errorCode,
        answerText: a?.answerText ?? "",
        claims: a?.claims ?? [],
        unknowns: a?.unknowns ?? [],
        confidence: a?.confidence ?? null,
        needsReview: a?.needsReview ?? false,
        citedEvidence: [...new Set((a?.claims ?? []).flatMap((c) => c.evidenceIds))],
        noLongerVisible: a?.hiddenParts ?? 0,
        references: t.references.map((r) => ({ phrase: r.phrase, name: seen.node(r.nodeId)?.name ?? null, turn: r.turn })),
      };
    }),
  };
}

export async function renameThread(open: OpenCase, actor: Actor, threadId: string, title: string): Promise<ThreadSummary> {
  const store = new PrismaThreadStore(open.prisma);
  await store.rename(ownerOf(open, actor), threadId, title);
  return store.find(ownerOf(open, actor), threadId);
}

export async function closeThread(open: OpenCase, actor: Actor, threadId: string): Promise<ThreadSummary> {
  const store = new PrismaThreadStore(open.prisma);
  await store.close(ownerOf(open, actor), threadId);
  return store.find(ownerOf(open, actor), threadId);
}
