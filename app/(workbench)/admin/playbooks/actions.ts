"use server";
// The playbook catalogue for a tenant's admins (issue 16): add or edit the tenant's own playbooks, retire or bring one
// back, set the tenant's risk tolerance and its cases' labels. Each is authedAction({ roles: ["admin"] }) → zod input
// → lib/admin/playbooks.ts, one ledger entry per change in the same transaction.
import { z } from "zod";
import { authedAction } from "@/lib/auth/guard";
import { savePlaybook, setCaseLabels, setLegalAuthority, setPlaybookActive, setRiskTolerance } from "@/lib/admin/playbooks";
import { LEGAL_AUTHORITIES, playbookInputSchema, RISK_LEVELS } from "@/lib/playbooks/catalogue";
import { runtime } from "@/lib/server/runtime";

const admin = { roles: ["admin" as const] };
const label = z.string().max(80);

export const savePlaybookAction = authedAction({ ...admin, input: playbookInputSchema.omit({ tenant: true }) }, async (actor, input) =>
  savePlaybook((await runtime()).db.prisma, actor, input),
);

export const setPlaybookActiveAction = authedAction(
  { ...admin, input: z.object({ id: z.string().trim().min(1).max(100), active: z.boolean() }) },
  async (actor, input) => setPlaybookActive((await runtime()).db.prisma, actor, input),
);

export const setRiskToleranceAction = authedAction(
  { ...admin, input: z.object({ riskTolerance: z.enum(RISK_LEVELS) }) },
  async (actor, input) => setRiskTolerance((await runtime()).db.prisma, actor, input),
);

export const setCaseLabelsAction = authedAction(
  { ...admin, input: z.object({ caseId: z.string().trim().min(1).max(200), caseType: label, jurisdiction: label }) },
  async (actor, input) => setCaseLabels((await runtime()).db.prisma, actor, input),
);

export const setLegalAuthorityAction = authedAction(
  { ...admin, input: z.object({ userId: z.string().trim().min(1).max(200), legalAuthority: z.array(z.enum(LEGAL_AUTHORITIES)).max(3) }) },
  async (actor, input) => setLegalAuthority((await runtime()).db.prisma, actor, input),
);
