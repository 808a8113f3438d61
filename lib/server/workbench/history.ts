// The user's own questions on a case, from the ledger (kind graphrag.answer, their actor id, this case, their tenant).
// The ledger keeps ids, counts and hashes, not answers: an entry reopens as its stored summary, and "ask again" runs
// the question anew under the user's current permissions. Cited ids are re-checked against the policy now: evidence
// the user may no longer see is reported as a count.
import "server-only";
import type { Actor } from "@/lib/auth/actor";
import { AUDIT_KIND } from "@/lib/graphrag/audit";
import { visibleEvidenceIds } from "./evidence";
import { revocationsOf } from "@/lib/admin/evidence";
import { PrismaEvidenceStore } from "@/lib/adapters/prisma/evidence-store";
import { evidenceDenialReason } from "@/lib/domain/policy";
import { revocationFlag } from "@/lib/grounding/flags";
import type { OpenCase } from "./scope";
import type { HistoryEntry } from "@/lib/domain/workbench-views";

export const HISTORY_LIMIT = 30;

interface Row {
  seq: unknown;
  created_at: Date | string;
  payload: unknown;
  question_text?: string | null;
}

interface AnswerPayload {
  query?: string;
  response_type?: string;
  error_code?: string;
  confidence?: number | null;
  needs_review?: boolean;
  citation_ids?: string[];
  context_node_count?: number;
  context_edge_count?: number;
  context_evidence_count?: number;
  context_evidence_ids?: string[];
  policy_filtered_count?: number;
}

const parse = (v: unknown): AnswerPayload => {
  if (typeof v === "string") {
    try {
      return JSON.parse(v) as AnswerPayload;
    } catch {
      return {};
    }
  }
  return v && typeof v === "object" ? (v as AnswerPayload) : {};
};

export async function questionHistory(open: OpenCase, actor: Actor, limit = HISTORY_LIMIT): Promise<HistoryEntry[]> {
  const rows = await open.prisma.$queryRawUnsafe<Row[]>(
    `SELECT l.seq, l.created_at, l.payload, r.question_text
       FROM "ledger" l LEFT JOIN "ledger_redactable" r ON r.seq = l.seq
      WHERE l.kind = $1 AND l.actor_id = $2 AND l.case_id = $3 AND l.tenant_id = $4
      ORDER BY l.seq DESC LIMIT $5`,
    AUDIT_KIND,
    actor.userId,
    open.scope.caseId,
    actor.tenantId,
    limit,
  );
  const entries = rows.map((r) => ({ row: r, p: parse(r.payload) }));
  // Which cited evidence is still visible: one policy-checked lookup for all entries.
  const cited = [
    ...new Set(entries.flatMap((e) => (e.p.citation_ids ?? []).filter((id) => (e.p.context_evidence_ids ?? []).includes(id)))),
  ];
  const visible = await visibleEvidenceIds(open, actor, cited);
  // Issue 15: cited items revoked since are flagged ("cites evidence revoked on … (reason)") when the user's current
  // permissions still cover their markings; otherwise they stay a bare count like any item no longer visible.
  const gone = cited.filter((id) => !visible.has(id));
  const revocations = await revocationsOf(open.prisma, open.scope.caseId, gone);
  const markings = revocations.size ? await new PrismaEvidenceStore(open.prisma).markingsByIds(open.scope, [...revocations.keys()]) : [];
  const flaggable = new Set(markings.filter((m) => evidenceDenialReason(actor, m) === null).map((m) => m.id));
  return entries.map(({ row, p }) => {
    const evidenceCited = (p.citation_ids ?? []).filter((id) => (p.context_evidence_ids ?? []).includes(id));
    const text = row.question_text ?? p.query ?? null;
    return {
      seq: Number(row.seq as number | string | bigint),
      at: new Date(row.created_at).toISOString(),
      question: typeof text === "string" && text ? text : null,
      responseType: p.response_type ?? "error",
      errorCode: p.error_code ?? null,
      confidence: typeof p.confidence === "number" ? p.confidence : null,
      needsReview: p.needs_review === true,
      citedEvidence: evidenceCited.filter((id) => visible.has(id)),
      citedNoLongerVisible: evidenceCited.filter((id) => !visible.has(id) && !flaggable.has(id)).length,
      revokedCitations: evidenceCited
        .filter((id) => flaggable.has(id))
        .sort()
        .map((id) => {
          const r = revocations.get(id)!;
          return { evidenceId: id, revokedAt: r.revokedAt, reason: r.reason, flag: revocationFlag(id, r) };
        }),
      context: { nodes: p.context_node_count ?? 0, edges: p.context_edge_count ?? 0, evidence: p.context_evidence_count ?? 0 },
      // Per-question hidden counts only where the tenant chose them (they are an oracle otherwise).
      hiddenByPolicy: open.record.hiddenCounts === "exact" ? (p.policy_filtered_count ?? 0) : null,
    };
  });
}
