// The CLI's side of answer policies: the admin named by --by must be an admin of the tenant; otherwise the operator.
import "server-only";
import { activateAsOperator, deactivateAsOperator as deactivateForTenant, listBundlesOf } from "../../admin/answer-policies";
import type { ChangeActor } from "../../admin/change";
import { CasegraphError } from "../../domain/failure-codes";
import type { CompiledBundle } from "../../policy/bundle";
import { runtime } from "../runtime";

async function byAdmin(tenantId: string, email: string | null): Promise<ChangeActor> {
  const { db } = await runtime();
  const tenant = await db.prisma.tenant.findUnique({ where: { id: tenantId }, select: { id: true } });
  if (!tenant) throw new CasegraphError("CG-ACCESS-003", `No tenant ${tenantId}.`);
  if (!email) return { userId: null, email: "cli:operator", tenantId, via: "cli" };
  const user = await db.prisma.user.findUnique({
    where: { email: email.trim().toLowerCase() },
    select: { id: true, email: true, tenantId: true, roles: true, active: true },
  });
  if (!user || user.tenantId !== tenantId || !user.active)
    throw new CasegraphError("CG-ACCESS-003", `No active user ${email} in tenant ${tenantId}.`);
  if (!user.roles.includes("admin")) throw new CasegraphError("CG-ACCESS-002", `${email} is not an admin of ${tenantId}.`);
  return { userId: user.id, email: user.email, tenantId, via: "cli" };
}

export async function activateBundleAsOperator(tenantId: string, bundle: CompiledBundle, by: string) {
  const { db } = await runtime();
  const r = await activateAsOperator(db.prisma, tenantId, bundle, await byAdmin(tenantId, by));
  return { ok: true, tenant: tenantId, active: r.active };
}

export async function deactivateAsOperator(tenantId: string, by: string | null) {
  const { db } = await runtime();
  const r = await deactivateForTenant(db.prisma, tenantId, await byAdmin(tenantId, by));
  return { ok: true, tenant: tenantId, active: r.active };
}

export async function listBundles(tenantId: string) {
  const { db } = await runtime();
  return listBundlesOf(db.prisma, tenantId);
}
