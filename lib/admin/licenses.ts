// Licenses the admin's tenant owns (shared ones are read-only here, managed by operators through import).
import type { PrismaClient } from "../generated/prisma/client";
import { CasegraphError } from "../domain/failure-codes";
import { readLicenseUses, type LicenseUse } from "../domain/markings";
import type { Actor } from "../auth/actor";
import { auditedChange, changeActorOf, conflict, tenantOf } from "./change";

export interface LicenseRow {
  id: string;
  name: string;
  allows: LicenseUse[];
  shared: boolean;
  /** Evidence items of the admin's tenant under this license. */
  evidenceCount: number;
}

/** The tenant's own licenses plus the shared ones its evidence uses (another tenant's licenses are never listed). */
export async function listLicenses(prisma: PrismaClient, actor: Actor): Promise<LicenseRow[]> {
  const tenantId = tenantOf(changeActorOf(actor));
  const used = await prisma.evidence.groupBy({ by: ["licenseId"], where: { tenantId }, _count: { _all: true } });
  const counts = new Map(used.map((u) => [u.licenseId, u._count._all]));
  const rows = await prisma.license.findMany({
    where: { OR: [{ tenantId }, { tenantId: null, id: { in: [...counts.keys()] } }] },
    orderBy: { id: "asc" },
    select: { id: true, name: true, allows: true, tenantId: true },
  });
  return rows.map((l) => ({
    id: l.id,
    name: l.name,
    allows: readLicenseUses(l.allows) ?? [],
    shared: l.tenantId === null,
    evidenceCount: counts.get(l.id) ?? 0,
  }));
}

export async function createLicense(prisma: PrismaClient, actor: Actor, input: { id: string; name: string; allows: LicenseUse[] }) {
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  return auditedChange(prisma, who, async (tx) => {
    // License ids are unique across tenants; the message does not say whose license holds the id.
    if (await tx.license.findUnique({ where: { id: input.id }, select: { id: true } }))
      throw conflict("id", "This license id cannot be used; choose another.");
    const after = await tx.license.create({
      data: { id: input.id, name: input.name, allows: input.allows, tenantId },
      select: { id: true, name: true, allows: true },
    });
    return {
      result: after,
      audit: { kind: "admin.license.create", target: { type: "license", id: after.id, tenantId }, before: null, after },
    };
  });
}

export async function updateLicense(prisma: PrismaClient, actor: Actor, input: { id: string; name: string; allows: LicenseUse[] }) {
  const who = changeActorOf(actor);
  const tenantId = tenantOf(who);
  return auditedChange(prisma, who, async (tx) => {
    const found = await tx.license.findUnique({ where: { id: input.id }, select: { id: true, name: true, allows: true, tenantId: true } });
    if (!found) throw new CasegraphError("CG-ACCESS-003");
    if (found.tenantId === null) {
      // A shared license the tenant uses is visible (read-only); one it does not use does not exist for this admin.
      const usedHere = await tx.evidence.findFirst({ where: { tenantId, licenseId: found.id }, select: { id: true } });
      throw new CasegraphError(usedHere ? "CG-ACCESS-004" : "CG-ACCESS-003");
    }
    if (found.tenantId !== tenantId) throw new CasegraphError("CG-ACCESS-003");
    const before = { id: found.id, name: found.name, allows: [...found.allows].sort() };
    const after = await tx.license.update({
      where: { id: found.id },
      data: { name: input.name, allows: input.allows },
      select: { id: true, name: true, allows: true },
    });
    const changed = JSON.stringify(before) !== JSON.stringify({ ...after, allows: [...after.allows].sort() });
    return {
      result: after,
      audit: changed ? { kind: "admin.license.update", target: { type: "license", id: found.id, tenantId }, before, after } : null,
    };
  });
}
