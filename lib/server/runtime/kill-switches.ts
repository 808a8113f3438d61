// Setting and listing kill switches (issue 15): a tenant's admins set their tenant's (admin UI), operators any tenant's
// or the whole deployment's (`casegraph switch set`). Every flip is a ledger entry in the same transaction; setting a
// switch to the state it already has writes nothing.
import type { PrismaClient } from "../../generated/prisma/client";
import type { Actor } from "../../auth/actor";
import { auditedChange, changeActorOf, tenantOf, type ChangeActor } from "../../admin/change";
import { CasegraphError } from "../../domain/failure-codes";
import { ALL_TENANTS, KILL_SWITCHES, effectiveSwitches, type KillSwitchName, type KillSwitchState } from "../../grounding/switches";

export const SWITCH_KIND = "admin.kill_switch";

export interface SwitchRow {
  tenantId: string;
  name: KillSwitchName;
  enabled: boolean;
  updatedAt: string | null;
  updatedBy: string | null;
}

/** An admin of the tenant, in the UI. */
export async function setTenantSwitch(prisma: PrismaClient, actor: Actor, name: KillSwitchName, enabled: boolean): Promise<SwitchRow> {
  if (!actor.roles.includes("admin")) throw new CasegraphError("CG-ACCESS-002");
  const who = changeActorOf(actor);
  return setSwitch(prisma, who, tenantOf(who), name, enabled);
}

/** An operator at the shell: a tenant, or '*' for the whole deployment. */
export async function setSwitchAsOperator(
  prisma: PrismaClient,
  who: ChangeActor,
  tenantId: string,
  name: KillSwitchName,
  enabled: boolean,
): Promise<SwitchRow> {
  if (tenantId !== ALL_TENANTS && !(await prisma.tenant.findUnique({ where: { id: tenantId }, select: { id: true } }))) {
    throw new CasegraphError("CG-ACCESS-003", `No tenant "${tenantId}".`);
  }
  return setSwitch(prisma, who, tenantId, name, enabled);
}

async function setSwitch(
  prisma: PrismaClient,
  who: ChangeActor,
  tenantId: string,
  name: KillSwitchName,
  enabled: boolean,
): Promise<SwitchRow> {
  return auditedChange(prisma, who, async (tx) => {
    const before = await tx.killSwitch.findUnique({ where: { tenantId_name: { tenantId, name } } });
    const was = before?.enabled ?? false;
    if (was === enabled && before) return { result: rowOf(before), audit: null };
    const after = await tx.killSwitch.upsert({
      where: { tenantId_name: { tenantId, name } },
      create: { tenantId, name, enabled, updatedBy: who.email },
      update: { enabled, updatedBy: who.email, updatedAt: new Date() },
    });
    return {
      result: rowOf(after),
      audit:
        was === enabled
          ? null
          : {
              kind: SWITCH_KIND,
              target: { type: "kill_switch", id: `${tenantId}/${name}`, tenantId: tenantId === ALL_TENANTS ? null : tenantId },
              before: { name, scope: tenantId, enabled: was },
              after: { name, scope: tenantId, enabled },
            },
    };
  });
}

/** Every switch of a tenant (or of all tenants for operators): stored rows, then the absent ones as off. */
export async function listSwitches(prisma: PrismaClient, tenantId?: string): Promise<SwitchRow[]> {
  const rows = await prisma.killSwitch.findMany({
    where: tenantId ? { tenantId: { in: [tenantId, ALL_TENANTS] } } : {},
    orderBy: [{ tenantId: "asc" }, { name: "asc" }],
  });
  const out = rows.map(rowOf);
  const scopes = tenantId ? [ALL_TENANTS, tenantId] : [...new Set([ALL_TENANTS, ...rows.map((r) => r.tenantId)])];
  for (const scope of scopes) {
    for (const name of KILL_SWITCHES) {
      if (!out.some((r) => r.tenantId === scope && r.name === name))
        out.push({ tenantId: scope, name, enabled: false, updatedAt: null, updatedBy: null });
    }
  }
  return out.sort((a, b) => (a.tenantId < b.tenantId ? -1 : a.tenantId > b.tenantId ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The effective state for a tenant (its rows or the deployment's). */
export async function switchesFor(prisma: PrismaClient, tenantId: string): Promise<KillSwitchState> {
  const rows = await prisma.killSwitch.findMany({ where: { tenantId: { in: [tenantId, ALL_TENANTS] } } });
  return effectiveSwitches(rows, tenantId);
}

/**
 * CG-GROUND-012 when DISABLE_EXPORTS is on for the tenant (or the deployment). `"any tenant"`: an export that spans
 * tenants (an operator's whole-workspace or whole-ledger export) is refused when any tenant has it on.
 */
export async function assertExportsAllowed(prisma: PrismaClient, tenantId: string | null | "any tenant"): Promise<void> {
  const rows = await prisma.killSwitch.findMany({
    where: {
      ...(tenantId === "any tenant" ? {} : { tenantId: { in: tenantId ? [tenantId, ALL_TENANTS] : [ALL_TENANTS] } }),
      name: "DISABLE_EXPORTS",
      enabled: true,
    },
    select: { tenantId: true },
  });
  if (rows.length) throw new CasegraphError("CG-GROUND-012");
}

function rowOf(r: { tenantId: string; name: string; enabled: boolean; updatedAt: Date; updatedBy: string }): SwitchRow {
  return {
    tenantId: r.tenantId,
    name: r.name as KillSwitchName,
    enabled: r.enabled,
    updatedAt: r.updatedAt.toISOString(),
    updatedBy: r.updatedBy,
  };
}
