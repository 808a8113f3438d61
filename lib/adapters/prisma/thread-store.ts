// Threads in PostgreSQL/PGlite (issue 18; lib/ports.ts ThreadStore). Every read and write names the thread by its id
// together with its owner — tenant, case and user — so another user's or another case's thread is never found, and
// the refusal (CG-THREAD-001) is the same as for an id that does not exist. A turn number is reserved by one
// UPDATE … RETURNING, so concurrent follow-ups in one thread get distinct numbers. Question texts are read from the
// ledger's redactable part (AUDIT_QUERY_MODE=hash and retention apply), never copied here.
import "server-only";
import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../../generated/prisma/client";
import { CasegraphError } from "../../domain/failure-codes";
import type { Answer } from "../../graphrag/types";
import type { ThreadSummary } from "../../domain/workbench-views";
import type { BegunTurn, StoredThreadTurn, ThreadOwner, ThreadStore, ThreadTurnRecord } from "../../ports";

interface TurnRow {
  turn: number;
  request_id: string;
  audit_id: string | null;
  ledger_seq: bigint | number | string | null;
  created_at: Date | string;
  response_type: string;
  error_code: string | null;
  subject_node_ids: string[];
  answer_node_ids: string[];
  cited_node_ids: string[];
  cited_evidence_ids: string[];
  cited_edge_ids: string[];
  references: unknown;
  answer: unknown;
  question_text: string | null;
}

const iso = (v: Date | string) => new Date(v).toISOString();
const json = <T>(v: unknown, fallback: T): T => {
  if (typeof v === "string") {
    try {
      return JSON.parse(v) as T;
    } catch {
      return fallback;
    }
  }
  return (v ?? fallback) as T;
};

function turnOf(r: TurnRow): StoredThreadTurn {
  return {
    turn: Number(r.turn),
    requestId: r.request_id,
    auditId: r.audit_id,
    ledgerSeq: r.ledger_seq === null ? null : Number(r.ledger_seq),
    createdAt: iso(r.created_at),
    responseType: r.response_type,
    errorCode: r.error_code,
    subjectNodeIds: r.subject_node_ids ?? [],
    answerNodeIds: r.answer_node_ids ?? [],
    citedNodeIds: r.cited_node_ids ?? [],
    citedEvidenceIds: r.cited_evidence_ids ?? [],
    citedEdgeIds: r.cited_edge_ids ?? [],
    references: json(r.references, []),
    answer: json<Answer | null>(r.answer, null),
    question: r.question_text ?? null,
  };
}

const TITLE_MAX = 120;

export class PrismaThreadStore implements ThreadStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly newId: () => string = randomUUID,
  ) {}

  async beginTurn(owner: ThreadOwner, threadId: string | null, options: { title: string; lastTurns: number }): Promise<BegunTurn> {
    if (threadId === null) {
      const id = this.newId();
      await this.prisma.$executeRaw`
        INSERT INTO "thread" (id, tenant_id, case_id, user_id, title, turn_count)
        VALUES (${id}, ${owner.tenantId}, ${owner.caseId}, ${owner.userId}, ${clipTitle(options.title)}, 1)`;
      return { threadId: id, turn: 1, prior: [], olderTurns: 0 };
    }
    const [reserved] = await this.prisma.$queryRaw<Array<{ turn_count: number }>>`
      UPDATE "thread" SET turn_count = turn_count + 1, updated_at = now()
       WHERE id = ${threadId} AND tenant_id = ${owner.tenantId} AND case_id = ${owner.caseId} AND user_id = ${owner.userId}
         AND closed_at IS NULL
      RETURNING turn_count`;
    if (!reserved) {
      // Not reserved: closed (the owner's own thread, so saying so reveals nothing), or not the owner's at all.
      await this.find(owner, threadId);
      throw new CasegraphError("CG-THREAD-002");
    }
    const turn = Number(reserved.turn_count);
    const prior = await this.turns(threadId, { before: turn, last: options.lastTurns });
    const [{ n }] = await this.prisma.$queryRaw<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM "thread_turn" WHERE thread_id = ${threadId} AND turn < ${turn}`;
    return { threadId, turn, prior, olderTurns: Math.max(0, Number(n) - prior.length) };
  }

  async recordTurn(owner: ThreadOwner, threadId: string, r: ThreadTurnRecord): Promise<void> {
    await this.prisma.$executeRaw`
      INSERT INTO "thread_turn" (thread_id, turn, request_id, audit_id, ledger_seq, created_at, response_type, error_code,
                                 subject_node_ids, answer_node_ids, cited_node_ids, cited_evidence_ids, cited_edge_ids,
                                 "references", answer)
      SELECT t.id, ${r.turn}, ${r.requestId}, ${r.auditId}, ${r.ledgerSeq === null ? null : BigInt(r.ledgerSeq)},
             ${new Date(r.createdAt)}::timestamptz, ${r.responseType}, ${r.errorCode},
             ${r.subjectNodeIds}::text[], ${r.answerNodeIds}::text[], ${r.citedNodeIds}::text[], ${r.citedEvidenceIds}::text[],
             ${r.citedEdgeIds}::text[],
             ${JSON.stringify(r.references)}::jsonb, ${r.answer === null ? null : JSON.stringify(r.answer)}::jsonb
        FROM "thread" t
       WHERE t.id = ${threadId} AND t.tenant_id = ${owner.tenantId} AND t.case_id = ${owner.caseId} AND t.user_id = ${owner.userId}`;
  }

  /** The owner's thread; CG-THREAD-001 for anything else (no such id, another user's, another case's). */
  async find(owner: ThreadOwner, threadId: string): Promise<ThreadSummary> {
    const [row] = await this.prisma.$queryRaw<
      Array<{ id: string; title: string; closed_at: Date | null; created_at: Date; updated_at: Date; turns: number }>
    >`
      SELECT t.id, t.title, t.closed_at, t.created_at, t.updated_at,
             (SELECT count(*)::int FROM "thread_turn" x WHERE x.thread_id = t.id) AS turns
        FROM "thread" t
       WHERE t.id = ${threadId} AND t.tenant_id = ${owner.tenantId} AND t.case_id = ${owner.caseId} AND t.user_id = ${owner.userId}`;
    if (!row) throw new CasegraphError("CG-THREAD-001");
    return summaryOf(row);
  }

  /** The owner's threads on the case, most recently active first. */
  async list(owner: ThreadOwner, limit: number): Promise<ThreadSummary[]> {
    const rows = await this.prisma.$queryRaw<
      Array<{ id: string; title: string; closed_at: Date | null; created_at: Date; updated_at: Date; turns: number }>
    >`
      SELECT t.id, t.title, t.closed_at, t.created_at, t.updated_at,
             (SELECT count(*)::int FROM "thread_turn" x WHERE x.thread_id = t.id) AS turns
        FROM "thread" t
       WHERE t.tenant_id = ${owner.tenantId} AND t.case_id = ${owner.caseId} AND t.user_id = ${owner.userId}
       ORDER BY t.updated_at DESC, t.id
       LIMIT ${limit}`;
    return rows.map(summaryOf);
  }

  /** Turns of a thread, oldest first: all of them, or the `last` before turn `before`. The caller checks ownership. */
  async turns(threadId: string, window: { before?: number; last?: number } = {}): Promise<StoredThreadTurn[]> {
    const rows = await this.prisma.$queryRaw<TurnRow[]>`
      SELECT * FROM (
        SELECT x.turn, x.request_id, x.audit_id, x.ledger_seq, x.created_at, x.response_type, x.error_code,
               x.subject_node_ids, x.answer_node_ids, x.cited_node_ids, x.cited_evidence_ids, x.cited_edge_ids, x."references",
               x.answer,
               r.question_text
          FROM "thread_turn" x LEFT JOIN "ledger_redactable" r ON r.seq = x.ledger_seq
         WHERE x.thread_id = ${threadId} AND x.turn < ${window.before ?? 2_147_483_647}
         ORDER BY x.turn DESC
         LIMIT ${window.last ?? 1_000}
      ) w ORDER BY w.turn`;
    return rows.map(turnOf);
  }

  async rename(owner: ThreadOwner, threadId: string, title: string): Promise<void> {
    const n = await this.prisma.$executeRaw`
      UPDATE "thread" SET title = ${clipTitle(title)}, updated_at = now()
       WHERE id = ${threadId} AND tenant_id = ${owner.tenantId} AND case_id = ${owner.caseId} AND user_id = ${owner.userId}`;
    if (!n) throw new CasegraphError("CG-THREAD-001");
  }

  async close(owner: ThreadOwner, threadId: string): Promise<void> {
    const n = await this.prisma.$executeRaw`
      UPDATE "thread" SET closed_at = COALESCE(closed_at, now()), updated_at = now()
       WHERE id = ${threadId} AND tenant_id = ${owner.tenantId} AND case_id = ${owner.caseId} AND user_id = ${owner.userId}`;
    if (!n) throw new CasegraphError("CG-THREAD-001");
  }
}

function summaryOf(r: {
  id: string;
  title: string;
  closed_at: Date | null;
  created_at: Date;
  updated_at: Date;
  turns: number;
}): ThreadSummary {
  return {
    id: r.id,
    title: r.title,
    closed: r.closed_at !== null,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    turns: Number(r.turns),
  };
}

function clipTitle(title: string): string {
  const flat = title.replace(/\s+/g, " ").trim() || "Untitled thread";
  return flat.length <= TITLE_MAX ? flat : `${flat.slice(0, TITLE_MAX - 1)}…`;
}
