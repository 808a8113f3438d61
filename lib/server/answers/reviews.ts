// The review queue (issues 14 and 15): answers the answer policies escalated, and answers drafted from evidence that
// has expired, wait here for a supervisor of the tenant, who reads the question, the asker, why it is held, the draft
// with its violations highlighted, the policies involved and the evidence it cites (filtered by the reviewer's own
// permissions; expired items included, revoked ones never), and approves (a note required) or rejects. Every decision
// is a ledger entry committed with it. The asker sees the outcome; an approved answer is delivered to them marked as
// reviewed, and as citing expired evidence released by whom. Nothing held reaches the asker before approval, through
// any interface: the draft is read only here.
import "server-only";
import type { Prisma, PrismaClient } from "../../generated/prisma/client";
import { PrismaEvidenceStore } from "../../adapters/prisma/evidence-store";
import { checkedBundle } from "../../adapters/prisma/policy-store";
import { auditedChange, changeActorOf, tenantOf } from "../../admin/change";
import type { Actor } from "../../auth/actor";
import { CasegraphError } from "../../domain/failure-codes";
import { PolicyGate } from "../../graphrag/policy-filter";
import type { Answer, RawContext } from "../../graphrag/types";
import { sha256 } from "../../graphrag/audit";
import { expiredHoldNote, expiredReleaseFlag } from "../../grounding/flags";
import type { HoldReason } from "../../ports";
import type { Compliance } from "../../policy/enforce";
import { hasRole } from "../../auth/actor";

/** A decided review's question after retention emptied it (lib/adapters/prisma/question-copies.ts). */
const ERASED_QUESTION = "(question erased by retention)";

export type ReviewStatus = "pending" | "approved" | "rejected";

export interface ReviewSummary {
  id: string;
  reason: HoldReason;
  /** reason expired_evidence: "held: cites evidence expired on <date>"; null otherwise. */
  heldNote: string | null;
  caseId: string;
  askerEmail: string | null;
  question: string;
  status: ReviewStatus;
  /** The answer policies' score; null when none were in force (an expired-evidence hold without a bundle). */
  score: number | null;
  violations: number;
  createdAt: string;
  decidedAt: string | null;
  decidedBy: string | null;
}

interface Draft {
  answer: Answer;
  rawContext: RawContext;
  checkedText?: string;
}

interface ExpiredItem {
  id: string;
  expiredAt: string;
}

type Tx = Prisma.TransactionClient;

const reasonOf = (r: string): HoldReason => (r === "expired_evidence" ? "expired_evidence" : "policy");

const expiredItems = (v: unknown): ExpiredItem[] =>
  Array.isArray(v) ? v.filter((e): e is ExpiredItem => !!e && typeof e.id === "string" && typeof e.expiredAt === "string") : [];

const draftOf = (v: unknown): Partial<Draft> => {
  const d = typeof v === "string" ? (JSON.parse(v) as unknown) : v;
  return d && typeof d === "object" ? (d as Partial<Draft>) : {};
};

/** Evidence a held draft cites, in its claims or its explanation steps (steps also cite nodes and edges: not evidence). */
function draftCitations(draft: Partial<Draft>): string[] {
  const snippetIds = new Set((draft.rawContext?.evidenceSnippets ?? []).map((e) => e.id));
  const stepEvidence = (draft.answer?.explanationSteps ?? []).flatMap((st) => st.citations.filter((id) => snippetIds.has(id)));
  return [...new Set([...(draft.answer?.citations ?? []).map((c) => c.evidenceId), ...stepEvidence])].sort();
}

/**
 * A revocation is final (issue 15): a held draft citing evidence an admin revoked since is never released, by a
 * supervisor's approval or an operator override (CG-REVIEW-006).
 */
export async function refuseRevokedSince(tx: Tx | PrismaClient, caseId: string, draft: unknown): Promise<void> {
  const ids = draftCitations(draftOf(draft));
  if (!ids.length) return;
  if (await tx.evidence.count({ where: { caseId, id: { in: ids }, revokedAt: { not: null } } })) throw new CasegraphError("CG-REVIEW-006");
}

function assertSupervisor(actor: Actor) {
  if (!hasRole(actor, "supervisor")) throw new CasegraphError("CG-ACCESS-002");
}

const status = (s: string): ReviewStatus => (s === "approved" || s === "rejected" ? s : "pending");

function summary(r: {
  id: string;
  reason: string;
  expiredEvidence: unknown;
  caseId: string;
  askerEmail: string | null;
  question: string;
  status: string;
  compliance: unknown;
  createdAt: Date;
  decidedAt: Date | null;
  decidedBy: string | null;
}): ReviewSummary {
  const c = (r.compliance ?? {}) as Partial<Compliance>;
  const reason = reasonOf(r.reason);
  const expired = expiredItems(r.expiredEvidence);
  return {
    id: r.id,
    reason,
    // Dates only: the ids of the expired items are shown on the review's page, to a reviewer who may see them.
    heldNote: reason === "expired_evidence" && expired.length ? expiredHoldNote(expired) : null,
    caseId: r.caseId,
    askerEmail: r.askerEmail,
    question: r.question || ERASED_QUESTION,
    status: status(r.status),
    score: typeof c.score === "number" ? c.score : null,
    violations: Array.isArray(c.violations) ? c.violations.length : 0,
    createdAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
    decidedBy: r.decidedBy,
  };
}

/** Supervisors: the tenant's held answers, newest first. */
export async function listReviews(prisma: PrismaClient, actor: Actor, filter: { status?: ReviewStatus } = {}): Promise<ReviewSummary[]> {
  assertSupervisor(actor);
  const rows = await prisma.answerReview.findMany({
    where: { tenantId: tenantOf(changeActorOf(actor)), ...(filter.status ? { status: filter.status } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: 200,
    select: {
      id: true,
      reason: true,
      expiredEvidence: true,
      caseId: true,
      askerEmail: true,
      question: true,
      status: true,
      compliance: true,
      createdAt: true,
      decidedAt: true,
      decidedBy: true,
    },
  });
  return rows.map(summary);
}

export interface ReviewDetail extends ReviewSummary {
  note: string | null;
  /** The answer policies in force, and their findings; null when none were (an expired-evidence hold). */
  bundleSha256: string | null;
  compliance: Compliance | null;
  /** The draft's claims as the reviewer may read them: a claim citing evidence outside their permissions is withheld. */
  claims: Array<{ claimId: string; text: string | null; evidenceIds: string[]; violating: boolean }>;
  /** The checked text with the violations' hits marked (segments), only when every cited item is visible to the reviewer. */
  highlighted: Array<{ text: string; hit: boolean }> | null;
  policies: Array<{ policyId: string; source: string; owner: string; priority: string; domain: string }>;
  /** Cited items the reviewer may see, active or expired (expiredAt set); revoked ones are never read. */
  evidence: Array<{ id: string; type: string; collectedAt: string; content: string; expiredAt?: string }>;
  /** Cited items not shown: outside the reviewer's permissions, or revoked since. */
  hiddenEvidence: number;
  /** Cited items an admin revoked since the draft was held: it can no longer be approved (CG-REVIEW-006). */
  revokedSince: number;
}

export async function getReview(prisma: PrismaClient, actor: Actor, id: string): Promise<ReviewDetail> {
  assertSupervisor(actor);
  const tenantId = tenantOf(changeActorOf(actor));
  const row = await prisma.answerReview.findFirst({ where: { id, tenantId } });
  if (!row) throw new CasegraphError("CG-REVIEW-001");
  const draft = draftOf(row.draft) as Draft;
  const compliance = (row.compliance ?? null) as Compliance | null;
  // Everything the draft cites, its explanation steps included: the draft is shown whole only when the reviewer may
  // see all of it. Expired items are read too (the reviewer decides whether an answer resting on them may go out).
  const cited = draftCitations(draft);
  const gate = new PolicyGate(actor);
  const records = await new PrismaEvidenceStore(prisma).byIds({ tenantId, caseId: row.caseId }, cited, { lifecycle: "active_or_expired" });
  const visible = gate.evidence(records);
  const visibleIds = new Set(visible.map((e) => e.id));
  const revokedSince = cited.length
    ? await prisma.evidence.count({ where: { caseId: row.caseId, id: { in: cited }, revokedAt: { not: null } } })
    : 0;
  const hits = compliance?.violations.flatMap((v) => v.hits ?? []) ?? [];
  const violatingText = (text: string) => {
    const at = draft.checkedText?.indexOf(text) ?? -1;
    return at >= 0 && hits.some((h) => h.at < at + text.length && h.at + h.length > at);
  };
  let policies: ReviewDetail["policies"] = [];
  const bundleRow =
    row.bundleSha256 && compliance
      ? await prisma.policyBundle.findUnique({
          where: { tenantId_sha256: { tenantId, sha256: row.bundleSha256 } },
          select: { bundle: true },
        })
      : null;
  if (bundleRow && row.bundleSha256 && compliance) {
    const bundle = checkedBundle(row.bundleSha256, bundleRow.bundle);
    const involved = new Set(compliance.violations.map((v) => v.policyId));
    policies = bundle.conditional_rules
      .filter((r, i, all) => involved.has(r.policy_id) && all.findIndex((x) => x.policy_id === r.policy_id) === i)
      .map((r) => ({
        policyId: r.policy_id,
        source: r.metadata.source,
        owner: r.metadata.owner,
        priority: r.metadata.priority,
        domain: r.metadata.domain,
      }));
  }
  const allVisible = cited.every((e) => visibleIds.has(e));
  return {
    ...summary(row),
    note: row.note,
    bundleSha256: row.bundleSha256,
    compliance,
    claims: draft.answer.claims.map((c) => {
      const readable = c.evidenceIds.every((e) => visibleIds.has(e));
      return {
        claimId: c.claimId,
        text: readable ? c.text : null,
        evidenceIds: c.evidenceIds.filter((e) => visibleIds.has(e)),
        violating: readable && violatingText(c.text),
      };
    }),
    highlighted: allVisible && draft.checkedText ? segments(draft.checkedText, hits) : null,
    policies,
    evidence: visible.map((e) => ({
      id: e.id,
      type: e.type,
      collectedAt: e.collectedAt,
      content: e.content,
      ...(e.expiredAt ? { expiredAt: e.expiredAt } : {}),
    })),
    hiddenEvidence: cited.length - visible.length,
    revokedSince,
  };
}

function segments(text: string, hits: ReadonlyArray<{ at: number; length: number }>) {
  const marks = [...hits].sort((a, b) => a.at - b.at);
  const out: Array<{ text: string; hit: boolean }> = [];
  let pos = 0;
  for (const h of marks) {
    if (h.at < pos) continue;
    if (h.at > pos) out.push({ text: text.slice(pos, h.at), hit: false });
    out.push({ text: text.slice(h.at, h.at + h.length), hit: true });
    pos = h.at + h.length;
  }
  if (pos < text.length) out.push({ text: text.slice(pos), hit: false });
  return out;
}

/** Approve (note required) or reject (note optional): once, by a supervisor of the tenant who did not ask it. */
export async function decideReview(prisma: PrismaClient, actor: Actor, id: string, decision: "approve" | "reject", note: string | null) {
  assertSupervisor(actor);
  const trimmed = note?.trim() ?? "";
  if (decision === "approve" && !trimmed)
    throw new CasegraphError("CG-REVIEW-003", undefined, [{ path: "note", message: "Say why the answer may be delivered." }]);
  if (trimmed.length > 2000) throw new CasegraphError("CG-REVIEW-003", undefined, [{ path: "note", message: "At most 2,000 characters." }]);
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  return auditedChange(prisma, who, async (tx) => {
    const row = await tx.answerReview.findFirst({
      where: { id, tenantId },
      select: { id: true, reason: true, status: true, askerId: true, caseId: true, bundleSha256: true, auditId: true, draft: true },
    });
    if (!row) throw new CasegraphError("CG-REVIEW-001");
    if (row.askerId === actor.userId) throw new CasegraphError("CG-REVIEW-004");
    if (decision === "approve" && row.status === "pending") await refuseRevokedSince(tx, row.caseId, row.draft);
    const next = decision === "approve" ? "approved" : "rejected";
    // Conditional on still pending: two supervisors deciding at once cannot both win.
    const updated = await tx.answerReview.updateMany({
      where: { id, status: "pending" },
      data: { status: next, decidedAt: new Date(), decidedBy: who.email, note: trimmed || null },
    });
    if (updated.count !== 1) throw new CasegraphError("CG-REVIEW-002");
    return {
      result: { id, status: next as ReviewStatus },
      audit: {
        kind: decision === "approve" ? "review.approve" : "review.reject",
        target: { type: "answer_review", id, tenantId },
        caseId: row.caseId,
        // The note's digest binds it to the entry; its text stays with the review (it may quote the draft).
        before: { status: "pending", reason: reasonOf(row.reason), bundleSha256: row.bundleSha256, answerAuditId: row.auditId },
        after: { status: next, askerId: row.askerId, noteSha256: trimmed ? sha256(trimmed) : null },
      },
    };
  });
}

/** A released answer's expired citation: which item, when it expired, and its flag. */
export interface ExpiredCitation {
  evidenceId: string;
  expiredAt: string;
  flag: string;
}

export interface MyHeldAnswer {
  id: string;
  reason: HoldReason;
  question: string;
  status: ReviewStatus;
  createdAt: string;
  decidedAt: string | null;
  note: string | null;
  /**
   * Only once approved: the answer as it was held, marked as reviewed and by whom it was released; one that rests on
   * expired evidence carries a flag per expired item ("cites evidence expired on …, released by …").
   */
  answer: (Answer & { reviewed: true; releasedBy: string | null; expiredCitations: ExpiredCitation[] }) | null;
  /** Approved, but it cites evidence the asker can no longer see (clearance or tags changed, revoked since): not shown. */
  noLongerVisible?: true;
}

/** The asker's own held answers on a case: status, and the answer once a supervisor released it. */
export async function myHeldAnswers(prisma: PrismaClient, actor: Actor, caseId: string): Promise<MyHeldAnswer[]> {
  const rows = await prisma.answerReview.findMany({
    where: { tenantId: actor.tenantId, askerId: actor.userId, caseId },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: 50,
    select: {
      id: true,
      reason: true,
      question: true,
      status: true,
      createdAt: true,
      decidedAt: true,
      decidedBy: true,
      note: true,
      draft: true,
      expiredEvidence: true,
    },
  });
  // Shown as the asker may see it NOW: an approved draft whose cited items are not all visible to them today (a
  // clearance lowered, a tag removed, an item revoked since) is not delivered. Approval does not widen what one may see.
  const visible = await visibleNow(prisma, actor, caseId, rows);
  return rows.map((r) => {
    const s = status(r.status);
    const releasedBy = r.decidedBy ?? "a supervisor";
    return {
      id: r.id,
      reason: reasonOf(r.reason),
      question: r.question || ERASED_QUESTION,
      status: s,
      createdAt: r.createdAt.toISOString(),
      decidedAt: r.decidedAt?.toISOString() ?? null,
      note: s === "pending" ? null : r.note,
      // The draft is read only once approved: before that nothing of it leaves this function.
      ...(s === "approved" && !visible(r.draft) ? { noLongerVisible: true as const } : {}),
      answer:
        s === "approved" && visible(r.draft)
          ? {
              ...(draftOf(r.draft) as Draft).answer,
              reviewed: true as const,
              releasedBy: r.decidedBy,
              expiredCitations: expiredItems(r.expiredEvidence).map((e) => ({
                evidenceId: e.id,
                expiredAt: e.expiredAt,
                flag: expiredReleaseFlag(e.id, { expiredAt: e.expiredAt, releasedBy }),
              })),
            }
          : null,
    };
  });
}

/** Which approved drafts cite only evidence the asker may see now (active, or expired when released for it). */
async function visibleNow(prisma: PrismaClient, actor: Actor, caseId: string, rows: ReadonlyArray<{ status: string; draft: unknown }>) {
  const citedBy = (draft: unknown) => draftCitations(draftOf(draft));
  const cited = [...new Set(rows.filter((r) => status(r.status) === "approved").flatMap((r) => citedBy(r.draft)))];
  const records = cited.length
    ? await new PrismaEvidenceStore(prisma).byIds({ tenantId: actor.tenantId, caseId }, cited, { lifecycle: "active_or_expired" })
    : [];
  const seen = new Set(new PolicyGate(actor).evidence(records).map((e) => e.id));
  return (draft: unknown) => citedBy(draft).every((id) => seen.has(id));
}
