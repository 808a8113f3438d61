// Human approval only (issue 16, seed 000 §3.1): an investigator proposes a suggested step for a case, a supervisor of
// the tenant approves or rejects it with a note, and the case page lists the approved steps. Casegraph executes
// nothing, ever: approval records a decision. Every proposal and decision is a ledger entry committed with it.
// A proposal's step is re-checked against the filter for the proposer when proposed (the same labels as a
// suggestion); who may read a proposal afterwards follows the playbook's markings (clearance, need-to-know).
import "server-only";
import { randomUUID } from "node:crypto";
import type { PrismaClient } from "../../generated/prisma/client";
import { PrismaEvidenceStore } from "../../adapters/prisma/evidence-store";
import { PrismaPlaybookCatalogue } from "../../adapters/prisma/playbook-store";
import { auditedChange, changeActorOf, tenantOf } from "../../admin/change";
import { hasRole, type Actor } from "../../auth/actor";
import { CasegraphError } from "../../domain/failure-codes";
import { sha256Hex } from "../../domain/ledger-chain";
import { denialReason } from "../../domain/policy";
import { readClassification } from "../../domain/markings";
import { PolicyGate } from "../../graphrag/policy-filter";
import { heldAuthorities, SHARED_OWNER, type Authority } from "../../playbooks/catalogue";
import { isPlainLine, MAX_REASON_CHARS } from "../../playbooks/picks";
import { selectionQuery } from "../../playbooks/suggest";
import { assertCaseAccess } from "../access/case-access";

export type ProposalStatus = "pending" | "approved" | "rejected";

export interface ProposalView {
  id: string;
  caseId: string;
  playbookId: string;
  version: string;
  description: string;
  reason: string | null;
  citations: string[];
  status: ProposalStatus;
  proposerEmail: string;
  createdAt: string;
  decidedAt: string | null;
  deciderEmail: string | null;
  note: string | null;
}

export interface ProposeInput {
  caseId: string;
  playbookId: string;
  version: string;
  reason?: string;
  citations?: string[];
  suggestionRequestId?: string;
}

const status = (s: string): ProposalStatus => (s === "approved" || s === "rejected" ? s : "pending");

/** Proposes a step for the case: the proposer must be a member, and the playbook must fit the case and them, now. */
export async function proposeNextStep(prisma: PrismaClient, actor: Actor, input: ProposeInput): Promise<ProposalView> {
  const caseRecord = await assertCaseAccess(prisma, actor, input.caseId);
  const scope = { tenantId: caseRecord.tenantId, caseId: caseRecord.id };
  const catalogue = new PrismaPlaybookCatalogue(prisma);
  const facts = await catalogue.facts(scope, actor.userId);
  const query = selectionQuery(actor, caseRecord, facts, {
    caseId: caseRecord.id,
    question: "",
    followUp: { answerText: "", evidenceIds: [] },
    minConfidence: 0,
    maxResults: 1,
  });
  // The same labels as a suggestion, re-run: an id that is unknown, retired, another tenant's or not allowed for this
  // asker on this case is one and the same "no such playbook".
  const [step] = await catalogue.allowed(query, [input.playbookId]);
  if (!step || step.version !== input.version) throw new CasegraphError("CG-PLAYBOOK-002");
  const cited = [...new Set(input.citations ?? [])].slice(0, 20);
  const citations = cited.length
    ? new PolicyGate(actor)
        .evidence(await new PrismaEvidenceStore(prisma).byIds(scope, cited))
        .map((e) => e.id)
        .sort()
    : [];
  const reasonText = input.reason?.trim() ?? "";
  const reason = reasonText && reasonText.length <= MAX_REASON_CHARS && isPlainLine(reasonText) ? reasonText : null;
  const who = changeActorOf(actor);
  const id = `nsp_${randomUUID()}`;
  return auditedChange(prisma, who, async (tx) => {
    const open = await tx.playbookProposal.findFirst({
      where: { caseId: caseRecord.id, playbookOwner: step.owner, playbookId: step.id, status: "pending" },
      select: { id: true },
    });
    if (open) throw new CasegraphError("CG-PLAYBOOK-004");
    const row = await tx.playbookProposal.create({
      data: {
        id,
        tenantId: caseRecord.tenantId,
        caseId: caseRecord.id,
        playbookOwner: step.owner,
        playbookId: step.id,
        playbookVersion: step.version,
        description: step.description,
        reason,
        citations,
        suggestionRequestId: input.suggestionRequestId?.slice(0, 100) ?? null,
        proposedBy: actor.userId,
        proposerEmail: actor.email,
      },
    });
    return {
      result: view(row),
      audit: {
        kind: "playbook.propose",
        target: { type: "playbook_proposal", id, tenantId: caseRecord.tenantId },
        caseId: caseRecord.id,
        before: null,
        after: {
          status: "pending",
          playbook: { owner: step.owner, id: step.id, version: step.version },
          citations,
          reasonSha256: reason ? sha256Hex(reason) : null,
          suggestionRequestId: row.suggestionRequestId,
        },
      },
    };
  });
}

/** Approve or reject (a note is required either way): once, by a supervisor of the tenant who did not propose it. */
export async function decideNextStep(
  prisma: PrismaClient,
  actor: Actor,
  id: string,
  decision: "approve" | "reject",
  note: string | null,
): Promise<ProposalView> {
  if (!hasRole(actor, "supervisor")) throw new CasegraphError("CG-ACCESS-002");
  const trimmed = note?.trim() ?? "";
  if (!trimmed || trimmed.length > 2000)
    throw new CasegraphError("CG-PLAYBOOK-008", undefined, [{ path: "note", message: "Say why (1–2,000 characters)." }]);
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  return auditedChange(prisma, who, async (tx) => {
    const row = await tx.playbookProposal.findFirst({ where: { id, tenantId } });
    if (!row) throw new CasegraphError("CG-PLAYBOOK-005");
    const [marking] = await markingsOf(tx as unknown as PrismaClient, [row]);
    if (!readable(actor, marking)) throw new CasegraphError("CG-PLAYBOOK-005");
    if (row.proposedBy === actor.userId) throw new CasegraphError("CG-PLAYBOOK-006");
    // Approving authorises the step: the playbook must still be in force, and the approver must hold the legal process
    // it requires (a step needing a warrant is not approved by a supervisor who cannot obtain one). Rejecting needs neither.
    if (decision === "approve") {
      if (!marking!.active) throw new CasegraphError("CG-PLAYBOOK-010");
      const approver = await tx.user.findUnique({ where: { id: actor.userId }, select: { legalAuthority: true } });
      if (!heldAuthorities(actor.roles, approver?.legalAuthority).includes(marking!.requiredAuthority as Authority))
        throw new CasegraphError(
          "CG-PLAYBOOK-009",
          `You do not hold the legal authority this step requires (${marking!.requiredAuthority.replace(/_/g, " ")}).`,
        );
    }
    const next = decision === "approve" ? "approved" : "rejected";
    // Conditional on still pending: two supervisors deciding at once cannot both win.
    const updated = await tx.playbookProposal.updateMany({
      where: { id, status: "pending" },
      data: { status: next, decidedAt: new Date(), decidedBy: actor.userId, deciderEmail: actor.email, note: trimmed },
    });
    if (updated.count !== 1) throw new CasegraphError("CG-PLAYBOOK-007");
    const after = await tx.playbookProposal.findUniqueOrThrow({ where: { id } });
    return {
      result: view(after),
      audit: {
        kind: decision === "approve" ? "playbook.approve" : "playbook.reject",
        target: { type: "playbook_proposal", id, tenantId },
        caseId: row.caseId,
        before: { status: "pending", playbook: { owner: row.playbookOwner, id: row.playbookId, version: row.playbookVersion } },
        // The note's digest binds it to the entry; its text stays with the proposal. Nothing is executed.
        after: { status: next, proposedBy: row.proposedBy, noteSha256: sha256Hex(trimmed), executed: false },
      },
    };
  });
}

/** The case page: the case's proposed steps (approved first), those whose playbook the viewer may read; the rest counted. */
export async function caseNextSteps(prisma: PrismaClient, actor: Actor, caseId: string) {
  const c = await assertCaseAccess(prisma, actor, caseId);
  const rows = await prisma.playbookProposal.findMany({
    where: { caseId: c.id, tenantId: c.tenantId },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: 200,
  });
  return visibleOnly(prisma, actor, rows, (a, b) => rank(a.status) - rank(b.status));
}

/** Supervisors: the tenant's proposals, pending first, those whose playbook they may read; the rest counted. */
export async function listNextStepProposals(prisma: PrismaClient, actor: Actor, filter: { status?: ProposalStatus } = {}) {
  if (!hasRole(actor, "supervisor")) throw new CasegraphError("CG-ACCESS-002");
  const rows = await prisma.playbookProposal.findMany({
    where: { tenantId: tenantOf(changeActorOf(actor)), ...(filter.status ? { status: filter.status } : {}) },
    orderBy: [{ createdAt: "desc" }, { id: "asc" }],
    take: 200,
  });
  return visibleOnly(prisma, actor, rows, (a, b) => (a.status === "pending" ? 0 : 1) - (b.status === "pending" ? 0 : 1));
}

const rank = (s: string) => (s === "approved" ? 0 : s === "pending" ? 1 : 2);

type Row = Awaited<ReturnType<PrismaClient["playbookProposal"]["findFirstOrThrow"]>>;

async function visibleOnly(prisma: PrismaClient, actor: Actor, rows: Row[], order: (a: Row, b: Row) => number) {
  const markings = await markingsOf(prisma, rows);
  const visible = rows.filter((_, i) => readable(actor, markings[i]));
  return { steps: [...visible].sort(order).map(view), hidden: rows.length - visible.length };
}

interface PlaybookMarking {
  owner: string;
  minClearance: string;
  needToKnow: string[];
  requiredAuthority: string;
  active: boolean;
}

/** The current markings of each proposal's playbook (null when it is gone, which reads as not readable). */
async function markingsOf(prisma: PrismaClient, rows: Row[]): Promise<Array<PlaybookMarking | null>> {
  if (!rows.length) return [];
  const found = await prisma.playbook.findMany({
    where: { OR: rows.map((r) => ({ owner: r.playbookOwner, id: r.playbookId })) },
    select: { owner: true, id: true, minClearance: true, needToKnow: true, requiredAuthority: true, active: true },
  });
  const byKey = new Map(found.map((p) => [`${p.owner}\u0000${p.id}`, p]));
  return rows.map((r) => byKey.get(`${r.playbookOwner}\u0000${r.playbookId}`) ?? null);
}

/** A playbook's description is marked like an item: the viewer's tenant (or shared), clearance and need-to-know. */
function readable(actor: Actor, m: PlaybookMarking | null): boolean {
  if (!m || (m.owner !== actor.tenantId && m.owner !== SHARED_OWNER)) return false;
  return (
    denialReason(actor, { tenantId: actor.tenantId, classification: readClassification(m.minClearance), needToKnow: m.needToKnow }) === null
  );
}

function view(r: Row): ProposalView {
  return {
    id: r.id,
    caseId: r.caseId,
    playbookId: r.playbookId,
    version: r.playbookVersion,
    description: r.description,
    reason: r.reason,
    citations: r.citations,
    status: status(r.status),
    proposerEmail: r.proposerEmail,
    createdAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
    deciderEmail: r.deciderEmail,
    note: r.note,
  };
}
