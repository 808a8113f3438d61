// The admin's own tenant: its name and settings. Operators create tenants from the CLI.
import type { PrismaClient } from "../generated/prisma/client";
import { CasegraphError } from "../domain/failure-codes";
import type { Actor } from "../auth/actor";
import { auditedChange, changeActorOf, conflict, tenantOf, type ChangeActor } from "./change";

export async function getTenant(prisma: PrismaClient, actor: Actor) {
  const tenantId = tenantOf(changeActorOf(actor));
  const t = await prisma.tenant.findUnique({
    where: { id: tenantId },
    select: { id: true, name: true, hiddenCountMode: true, createdAt: true, _count: { select: { users: true, cases: true } } },
  });
  if (!t) throw new CasegraphError("CG-ACCESS-003");
  return {
    id: t.id,
    name: t.name,
    hiddenCountMode: t.hiddenCountMode === "exact" ? ("exact" as const) : ("case" as const),
    createdAt: t.createdAt,
    users: t._count.users,
    cases: t._count.cases,
  };
}

/**
 * How answers report hidden items in this tenant (README "Hidden items in answers"): "case" totals (default) or
 * "exact" per-question counts, which let a user probe hidden evidence word by word — the admin accepts that risk.
 */
export async function setHiddenCountMode(prisma: PrismaClient, actor: Actor, input: { mode: "case" | "exact" }) {
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  return auditedChange(prisma, who, async (tx) => {
    const before = await tx.tenant.findUnique({ where: { id: tenantId }, select: { id: true, hiddenCountMode: true } });
    if (!before) throw new CasegraphError("CG-ACCESS-003");
    if (before.hiddenCountMode === input.mode) return { result: before, audit: null };
    const after = await tx.tenant.update({
      where: { id: tenantId },
      data: { hiddenCountMode: input.mode },
      select: { id: true, hiddenCountMode: true },
    });
    return {
      result: after,
      audit: { kind: "admin.tenant.hidden_counts", target: { type: "tenant", id: tenantId, tenantId }, before, after },
    };
  });
}

export async function renameTenant(prisma: PrismaClient, actor: Actor, input: { name: string }) {
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  return auditedChange(prisma, who, async (tx) => {
    const before = await tx.tenant.findUnique({ where: { id: tenantId }, select: { id: true, name: true } });
    if (!before) throw new CasegraphError("CG-ACCESS-003");
    if (before.name === input.name) return { result: before, audit: null };
    const after = await tx.tenant.update({ where: { id: tenantId }, data: { name: input.name }, select: { id: true, name: true } });
    return { result: after, audit: { kind: "admin.tenant.rename", target: { type: "tenant", id: tenantId, tenantId }, before, after } };
  });
}

/** Operators only (CLI): a new tenant. Tenant admins never create tenants. */
export async function createTenantAsOperator(prisma: PrismaClient, operator: ChangeActor, input: { id: string; name: string }) {
  return auditedChange(prisma, operator, async (tx) => {
    if (await tx.tenant.findUnique({ where: { id: input.id }, select: { id: true } }))
      throw conflict("tenant", "This tenant already exists.");
    const after = await tx.tenant.create({ data: { id: input.id, name: input.name }, select: { id: true, name: true } });
    return {
      result: after,
      audit: { kind: "admin.tenant.create", target: { type: "tenant", id: after.id, tenantId: after.id }, before: null, after },
    };
  });
}
