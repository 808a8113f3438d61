"use server";
// Grounding controls for a tenant's admins (issue 15): revoke an evidence item of the tenant, flip a kill switch, license
// a document's evidence (issue 17). Each
// is authedAction({ roles: ["admin"] }) → zod input → lib, one ledger entry per change in the same transaction.
import { z } from "zod";
import { licenseDocument } from "@/lib/admin/documents";
import { revokeEvidence } from "@/lib/admin/evidence";
import { authedAction } from "@/lib/auth/guard";
import { KILL_SWITCHES } from "@/lib/grounding/switches";
import { setTenantSwitch } from "@/lib/server/runtime/kill-switches";
import { runtime } from "@/lib/server/runtime";

const admin = { roles: ["admin" as const] };
const id = z.string().trim().min(1).max(200);

export const revokeEvidenceAction = authedAction(
  { ...admin, input: z.object({ caseId: id, evidenceId: id, reason: z.string().max(500) }) },
  async (actor, input) => revokeEvidence((await runtime()).db.prisma, actor, input),
);

export const setKillSwitchAction = authedAction(
  { ...admin, input: z.object({ name: z.enum(KILL_SWITCHES), enabled: z.boolean() }) },
  async (actor, input) => {
    const r = await setTenantSwitch((await runtime()).db.prisma, actor, input.name, input.enabled);
    return { name: r.name, enabled: r.enabled };
  },
);

export const licenseDocumentAction = authedAction(
  { ...admin, input: z.object({ caseId: id, documentId: id, license: id }) },
  async (actor, input) => licenseDocument((await runtime()).db.prisma, actor, input),
);
