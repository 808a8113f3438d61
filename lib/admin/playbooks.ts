// The playbook catalogue for a tenant's admins (issue 16): their tenant's own playbooks (add, edit, retire, bring back)
// and the shared ones (read only: operators change those through bundles), the tenant's risk tolerance and the
// labels of its cases. Each change is one ledger entry in the same transaction. An admin sees and edits only what
// their own clearance and need-to-know cover (a playbook's description is marked like an item), and marks none above
// their own clearance.
import type { PrismaClient } from "../generated/prisma/client";
import type { SqlSession } from "../adapters/prisma/migrate";
import { playbookEntry, writePlaybooks } from "../adapters/prisma/workspace";
import type { Actor } from "../auth/actor";
import { CasegraphError } from "../domain/failure-codes";
import { readClassification } from "../domain/markings";
import { denialReason } from "../domain/policy";
import {
  bundleEntry,
  labelProblems,
  normaliseLabel,
  SHARED_OWNER,
  toPlaybook,
  type LegalAuthority,
  type PlaybookInput,
  type RiskLevel,
} from "../playbooks/catalogue";
import { assertMayGrant, assertNotSelf, auditedChange, changeActorOf, sameSet, tenantOf, type Tx } from "./change";

export type PlaybookEntry = ReturnType<typeof playbookEntry> & { revision: string; updatedAt: string; updatedBy: string };

const COLUMNS = `owner, id, version, description, case_types, jurisdictions, required_authority, min_clearance::text AS min_clearance,
  risk_level, need_to_know, active, revision::text AS revision, updated_at, updated_by`;

type Row = Parameters<typeof playbookEntry>[0] & { revision: string; updated_at: Date; updated_by: string };

const readableBy = (actor: Actor, r: Row) =>
  denialReason(actor, { tenantId: actor.tenantId, classification: readClassification(r.min_clearance), needToKnow: r.need_to_know }) ===
  null;

/** The tenant's own playbooks and the shared ones the admin may read; how many others there are. */
export async function listPlaybooks(prisma: PrismaClient, actor: Actor) {
  const tenantId = tenantOf(changeActorOf(actor));
  const rows = await prisma.$queryRawUnsafe<Row[]>(
    `SELECT ${COLUMNS} FROM "playbook" WHERE owner = $1 OR owner = $2 ORDER BY owner = $2, id COLLATE "C"`,
    tenantId,
    SHARED_OWNER,
  );
  const visible = rows.filter((r) => readableBy(actor, r));
  const entry = (r: Row): PlaybookEntry => ({
    ...playbookEntry(r),
    revision: r.revision,
    updatedAt: new Date(r.updated_at).toISOString(),
    updatedBy: r.updated_by,
  });
  return {
    own: visible.filter((r) => r.owner === tenantId).map(entry),
    shared: visible.filter((r) => r.owner === SHARED_OWNER).map(entry),
    hidden: rows.length - visible.length,
  };
}

/** The transaction as the workspace writer's SqlSession, so one function writes a playbook whoever changes it. */
const sessionOf = (tx: Tx): SqlSession => ({
  exec: (sql) => tx.$executeRawUnsafe(sql),
  query: async <T>(sql: string, params: unknown[] = []) => ({ rows: await tx.$queryRawUnsafe<T[]>(sql, ...params) }),
});

/** Creates or edits one of the tenant's own playbooks (the id names it; `tenant` is always the admin's). */
export async function savePlaybook(prisma: PrismaClient, actor: Actor, input: Omit<PlaybookInput, "tenant">) {
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  const problems = labelProblems(input);
  if (problems.length) throw new CasegraphError("CG-PLAYBOOK-001", undefined, problems);
  const playbook = toPlaybook({ ...input, tenant: tenantId });
  assertMayGrant(actor, playbook.minClearance);
  if (playbook.needToKnow.length && denialReason(actor, { tenantId, classification: "PUBLIC", needToKnow: playbook.needToKnow }))
    throw new CasegraphError("CG-PLAYBOOK-001", undefined, [
      { path: "needToKnow", message: "Name at least one need-to-know tag you hold, or you could not read it yourself." },
    ]);
  return auditedChange(prisma, who, async (tx) => {
    const [existing] = await tx.$queryRawUnsafe<Row[]>(
      `SELECT ${COLUMNS} FROM "playbook" WHERE id = $1 AND (owner = $2 OR owner = $3)`,
      playbook.id,
      tenantId,
      SHARED_OWNER,
    );
    if (existing?.owner === SHARED_OWNER) throw new CasegraphError("CG-PLAYBOOK-003");
    // One the admin may not read is not theirs to overwrite, and says nothing about itself.
    if (existing && !readableBy(actor, existing)) throw new CasegraphError("CG-PLAYBOOK-002");
    const [change] = await writePlaybooks(sessionOf(tx), [playbook], actor.email);
    return { result: bundleEntry(playbook), audit: change ?? null };
  });
}

/** Retires a playbook (never suggested again, kept for the record) or brings it back. */
export async function setPlaybookActive(prisma: PrismaClient, actor: Actor, input: { id: string; active: boolean }) {
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  return auditedChange(prisma, who, async (tx) => {
    const [row] = await tx.$queryRawUnsafe<Row[]>(`SELECT ${COLUMNS} FROM "playbook" WHERE owner = $1 AND id = $2`, tenantId, input.id);
    if (!row || !readableBy(actor, row)) throw new CasegraphError("CG-PLAYBOOK-002");
    const playbook = toPlaybook({ ...playbookEntry(row), tenant: tenantId, active: input.active });
    const [change] = await writePlaybooks(sessionOf(tx), [playbook], actor.email);
    return {
      result: { id: input.id, active: input.active },
      audit: change ? { ...change, kind: input.active ? "admin.playbook.activate" : "admin.playbook.retire" } : null,
    };
  });
}

/** How much risk a suggested step of this tenant may carry. */
export async function setRiskTolerance(prisma: PrismaClient, actor: Actor, input: { riskTolerance: RiskLevel }) {
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  return auditedChange(prisma, who, async (tx) => {
    const before = await tx.tenant.findUnique({ where: { id: tenantId }, select: { riskTolerance: true } });
    if (!before) throw new CasegraphError("CG-ACCESS-003");
    if (before.riskTolerance === input.riskTolerance) return { result: before, audit: null };
    const after = await tx.tenant.update({
      where: { id: tenantId },
      data: { riskTolerance: input.riskTolerance },
      select: { riskTolerance: true },
    });
    return {
      result: after,
      audit: { kind: "admin.tenant.risk_tolerance", target: { type: "tenant", id: tenantId, tenantId }, before, after },
    };
  });
}

/** A case's labels for the filter (its type and jurisdiction; empty clears one). */
export async function setCaseLabels(prisma: PrismaClient, actor: Actor, input: { caseId: string; caseType: string; jurisdiction: string }) {
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  const label = (v: string) => (v.trim() ? normaliseLabel(v) : null);
  return auditedChange(prisma, who, async (tx) => {
    const before = await tx.case.findFirst({ where: { id: input.caseId, tenantId }, select: { caseType: true, jurisdiction: true } });
    if (!before) throw new CasegraphError("CG-ACCESS-003");
    const wanted = { caseType: label(input.caseType), jurisdiction: label(input.jurisdiction) };
    if (before.caseType === wanted.caseType && before.jurisdiction === wanted.jurisdiction) return { result: before, audit: null };
    const after = await tx.case.update({ where: { id: input.caseId }, data: wanted, select: { caseType: true, jurisdiction: true } });
    return {
      result: after,
      audit: { kind: "admin.case.labels", target: { type: "case", id: input.caseId, tenantId }, caseId: input.caseId, before, after },
    };
  });
}

/** The legal process a user of the tenant may invoke (subpoena, warrant, court order): never one's own. */
export async function setLegalAuthority(prisma: PrismaClient, actor: Actor, input: { userId: string; legalAuthority: LegalAuthority[] }) {
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  const wanted = [...new Set(input.legalAuthority)].sort();
  return auditedChange(prisma, who, async (tx) => {
    const before = await tx.user.findFirst({ where: { id: input.userId, tenantId }, select: { id: true, legalAuthority: true } });
    if (!before) throw new CasegraphError("CG-ACCESS-003");
    if (sameSet(before.legalAuthority, wanted)) return { result: { legalAuthority: wanted }, audit: null };
    assertNotSelf(actor, before.id);
    await tx.user.update({ where: { id: before.id }, data: { legalAuthority: wanted } });
    return {
      result: { legalAuthority: wanted },
      audit: {
        kind: "admin.user.legal_authority",
        target: { type: "user", id: before.id, tenantId },
        before: { legalAuthority: [...before.legalAuthority].sort() },
        after: { legalAuthority: wanted },
      },
    };
  });
}
