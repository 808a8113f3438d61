// The review queue (issue 14): answers the answer policies escalated wait here for a supervisor of the tenant, who
// reads the question, the asker, the draft with its violations highlighted, the policies involved and the evidence it
// cites (filtered by the reviewer's own permissions), and approves (a note required) or rejects. Every decision is a
// ledger entry committed with it. The asker sees the outcome; an approved answer is delivered to them marked as
// reviewed. Nothing escalated reaches the asker before approval, through any interface: the draft is read only here.
import "server-only";
import type { PrismaClient } from "../../generated/prisma/client";
import { PrismaEvidenceStore } from "../../adapters/prisma/evidence-store";
import { checkedBundle } from "../../adapters/prisma/policy-store";
import { auditedChange, changeActorOf, tenantOf } from "../../admin/change";
import type { Actor } from "../../auth/actor";
import { CasegraphError } from "../../domain/failure-codes";
import { PolicyGate } from "../../graphrag/policy-filter";
import type { Answer, RawContext } from "../../graphrag/types";
import { sha256 } from "../../graphrag/audit";
import type { Compliance } from "../../policy/enforce";
import { hasRole } from "../../auth/actor";

export type ReviewStatus = "pending" | "approved" | "rejected";

export interface ReviewSummary {
  id: string;
  caseId: string;
  askerEmail: string | null;
  question: string;
  status: ReviewStatus;
  score: number;
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

function assertSupervisor(actor: Actor) {
  if (!hasRole(actor, "supervisor")) throw new CasegraphError("CG-ACCESS-002");
}

const status = (s: string): ReviewStatus => (s === "approved" || s === "rejected" ? s : "pending");

function summary(r: {
  id: string;
  caseId: string;
  askerEmail: string | null;
  question: string;
  status: string;
  compliance: unknown;
  createdAt: Date;
  decidedAt: Date | null;
  decidedBy: string | null;
}): ReviewSummary {
  const c = r.compliance as Partial<Compliance>;
  return {
    id: r.id,
    caseId: r.caseId,
    askerEmail: r.askerEmail,
    question: r.question,
    status: status(r.status),
    score: typeof c.score === "number" ? c.score : 0,
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
  bundleSha256: string;
  compliance: Compliance;
  /** The draft's claims as the reviewer may read them: a claim citing evidence outside their permissions is withheld. */
  claims: Array<{ claimId: string; text: string | null; evidenceIds: string[]; violating: boolean }>;
  /** The checked text with the violations' hits marked (segments), only when every cited item is visible to the reviewer. */
  highlighted: Array<{ text: string; hit: boolean }> | null;
  policies: Array<{ policyId: string; source: string; owner: string; priority: string; domain: string }>;
  evidence: Array<{ id: string; type: string; collectedAt: string; content: string }>;
  hiddenEvidence: number;
}

export async function getReview(prisma: PrismaClient, actor: Actor, id: string): Promise<ReviewDetail> {
  assertSupervisor(actor);
  const tenantId = tenantOf(changeActorOf(actor));
  const row = await prisma.answerReview.findFirst({ where: { id, tenantId } });
  if (!row) throw new CasegraphError("CG-REVIEW-001");
  const draft = row.draft as unknown as Draft;
  const compliance = row.compliance as unknown as Compliance;
  // Everything the draft cites, its explanation steps included: the draft is shown whole only when the reviewer may
  // see all of it.
  const snippetIds = new Set((draft.rawContext?.evidenceSnippets ?? []).map((e) => e.id));
  const stepEvidence = (draft.answer.explanationSteps ?? []).flatMap((st) => st.citations.filter((id) => snippetIds.has(id)));
  const cited = [...new Set([...draft.answer.citations.map((c) => c.evidenceId), ...stepEvidence])].sort();
  const gate = new PolicyGate(actor);
  const records = await new PrismaEvidenceStore(prisma).byIds({ tenantId, caseId: row.caseId }, cited);
  const visible = gate.evidence(records);
  const visibleIds = new Set(visible.map((e) => e.id));
  const hits = compliance.violations.flatMap((v) => v.hits ?? []);
  const violatingText = (text: string) => {
    const at = draft.checkedText?.indexOf(text) ?? -1;
    return at >= 0 && hits.some((h) => h.at < at + text.length && h.at + h.length > at);
  };
  let policies: ReviewDetail["policies"] = [];
  const bundleRow = await prisma.policyBundle.findUnique({
    where: { tenantId_sha256: { tenantId, sha256: row.bundleSha256 } },
    select: { bundle: true },
  });
  if (bundleRow) {
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
    evidence: visible.map((e) => ({ id: e.id, type: e.type, collectedAt: e.collectedAt, content: e.content })),
    hiddenEvidence: cited.length - visible.length,
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
      select: { id: true, status: true, askerId: true, caseId: true, bundleSha256: true, auditId: true },
    });
    if (!row) throw new CasegraphError("CG-REVIEW-001");
    if (row.askerId === actor.userId) throw new CasegraphError("CG-REVIEW-004");
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
        before: { status: "pending", bundleSha256: row.bundleSha256, answerAuditId: row.auditId },
        after: { status: next, askerId: row.askerId, noteSha256: trimmed ? sha256(trimmed) : null },
      },
    };
  });
}

export interface MyHeldAnswer {
  id: string;
  question: string;
  status: ReviewStatus;
  createdAt: string;
  decidedAt: string | null;
  note: string | null;
  /** Only once approved: the answer as it was held, marked as reviewed. */
  answer: (Answer & { reviewed: true }) | null;
}

/** The asker's own held answers on a case: status, and the answer once a supervisor released it. */
export async function myHeldAnswers(prisma: PrismaClient, actor: Actor, caseId: string): Promise<MyHeldAnswer[]> {
  const rows = await prisma.answerReview.findMany({
    where: { tenantId: actor.tenantId, askerId: actor.userId, caseId },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: 50,
    select: { id: true, question: true, status: true, createdAt: true, decidedAt: true, note: true, draft: true },
  });
  return rows.map((r) => {
    const s = status(r.status);
    return {
      id: r.id,
      question: r.question,
      status: s,
      createdAt: r.createdAt.toISOString(),
      decidedAt: r.decidedAt?.toISOString() ?? null,
      note: s === "pending" ? null : r.note,
      answer: s === "approved" ? { ...(r.draft as unknown as Draft).answer, reviewed: true as const } : null,
    };
  });
}
