// The ledger entry of a change to users, memberships, licenses or tenants — one shape whoever makes it: an admin in
// the UI, an operator on the CLI, or `casegraph import` (README "Users, roles and sign-in": every such change is a
// ledger entry, before → after, never a password or its hash).

/** Who made a change: a signed-in admin, an operator at the shell, or an import run by one. */
export interface ChangeActor {
  userId: string | null;
  email: string;
  tenantId: string | null;
  via: "session" | "token" | "cli" | "import";
}

export interface AdminChange {
  kind: string;
  target: { type: string; id: string; tenantId?: string | null };
  before: unknown;
  after: unknown;
  caseId?: string | null;
}

/** The ledger append for one change (lib/ports.ts LedgerAppend's fields). */
export function adminChangeEntry(actor: ChangeActor, change: AdminChange) {
  return {
    kind: change.kind,
    tenantId: change.target.tenantId ?? actor.tenantId,
    actorId: actor.userId,
    caseId: change.caseId ?? null,
    payload: {
      actor: { id: actor.userId, email: actor.email, via: actor.via, tenantId: actor.tenantId },
      target: change.target,
      ...(change.caseId ? { caseId: change.caseId } : {}),
      before: change.before ?? null,
      after: change.after ?? null,
    } as Record<string, unknown>,
  };
}
