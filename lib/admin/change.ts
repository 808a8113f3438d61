// What every tenant-administration change shares (README "Users, roles and sign-in"): who makes it, in which tenant,
// the separation-of-duties rules, and the transaction that commits the change together with its ledger entry.
// Every function of lib/admin takes the acting admin and works inside the admin's OWN tenant only: an id from another
// tenant is "not found" (CG-ACCESS-003), exactly like an id that does not exist. Operators on the CLI use the
// *AsOperator variants, which name no tenant scope and are recorded as the operator's.
import type { Prisma, PrismaClient } from "../generated/prisma/client";
import { appendInTx } from "../adapters/prisma/ledger";
import { adminChangeEntry, type AdminChange, type ChangeActor } from "../domain/admin-change";
import { CasegraphError } from "../domain/failure-codes";
import { clearanceCovers, type Classification } from "../domain/markings";
import type { Actor } from "../auth/actor";

export type Tx = Prisma.TransactionClient;
export type { AdminChange, ChangeActor };

// Separation of duties (README "Users, roles and sign-in"): nobody changes their own permissions, and nobody grants a
// clearance they do not hold themselves. Operators on the CLI (no Actor) are outside the tenant and not capped.

/** CG-ACCESS-005 when an admin targets their own clearance, tags, roles or memberships. */
export function assertNotSelf(actor: Actor, userId: string): void {
  if (actor.userId === userId) throw new CasegraphError("CG-ACCESS-005");
}

/** CG-ACCESS-006 unless the acting admin's own clearance covers `clearance` (an unreadable own clearance covers nothing). */
export function assertMayGrant(actor: Actor, clearance: Classification): void {
  if (!clearanceCovers(actor.clearance, clearance)) {
    throw new CasegraphError("CG-ACCESS-006", undefined, [
      { path: "clearance", message: "Above your own clearance: ask an admin who holds it, or an operator." },
    ]);
  }
}

export const sameSet = (a: readonly string[], b: readonly string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

export function changeActorOf(actor: Actor): ChangeActor {
  return { userId: actor.userId, email: actor.email, tenantId: actor.tenantId, via: actor.via };
}

/** The acting admin's tenant; an actor without one administers nothing. */
/**
 * The CLI's `--by <admin email>`: the admin whose decision a shell command records. They must be an active admin; the
 * change is recorded as theirs, made at the shell (via "cli").
 */
export async function activeAdminByEmail(prisma: PrismaClient, email: string): Promise<ChangeActor> {
  const admin = await prisma.user.findUnique({
    where: { email: email.trim().toLowerCase() },
    select: { id: true, email: true, tenantId: true, roles: true, active: true },
  });
  if (!admin || !admin.active || !admin.roles.includes("admin"))
    throw new CasegraphError("CG-ACCESS-002", `${email} is not an active admin.`);
  return { userId: admin.id, email: admin.email, tenantId: admin.tenantId, via: "cli" };
}

export function tenantOf(actor: ChangeActor): string {
  if (!actor.tenantId) throw new CasegraphError("CG-ACCESS-003");
  return actor.tenantId;
}

/** CG-INPUT-006 on one field (a taken e-mail or license id), worded the same whoever holds the value. */
export function conflict(path: string, message: string): CasegraphError {
  return new CasegraphError("CG-INPUT-006", undefined, [{ path, message }]);
}

/**
 * Runs `change` in a transaction; it returns its result and the one ledger entry describing it (who, what, before →
 * after), appended in the same transaction (the ledger adapter's in-transaction append holds the ledger lock until it
 * commits). Returning `null` as the change means "nothing changed": no entry is written. If the append fails, the
 * change is rolled back and the caller gets CG-AUDIT-001: an unaudited admin change cannot exist.
 */
export async function auditedChange<T>(
  prisma: PrismaClient,
  actor: ChangeActor,
  change: (tx: Tx) => Promise<{ result: T; audit: AdminChange | null }>,
): Promise<T> {
  let ledgerFailed = false;
  try {
    return await prisma.$transaction(
      async (tx) => {
        const { result, audit } = await change(tx);
        if (audit) {
          try {
            await appendInTx(tx, [adminChangeEntry(actor, audit)]);
          } catch (err) {
            ledgerFailed = true;
            throw err;
          }
        }
        return result;
      },
      { timeout: 30_000, maxWait: 30_000 },
    );
  } catch (err) {
    if (ledgerFailed)
      throw new CasegraphError("CG-AUDIT-001", "The change was not made: its audit record could not be written.", [], { cause: err });
    throw err;
  }
}
