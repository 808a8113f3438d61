// The database role the application should connect as, so that it cannot switch the ledger's protection off:
// not a superuser (only a superuser may SET session_replication_role = replica) and not the owner of the tables (only
// the owner may ALTER TABLE … DISABLE TRIGGER or DROP TRIGGER). Migrations run as the owner (`npm run db:migrate`);
// the server runs as this role. On top of the triggers, the role gets no UPDATE/DELETE/TRUNCATE on the ledger tables.
import "server-only";
import { CasegraphError } from "../../domain/failure-codes";

export function appRoleSql(role: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(role))
    throw new CasegraphError("CG-INPUT-005", "Role names are lowercase letters, digits and _ (max 63).");
  const r = `"${role}"`;
  return [
    `-- Run as the owner of the Casegraph tables (the role that ran the migrations), after \`npm run db:migrate\`.`,
    `-- Create the role first if needed: CREATE ROLE ${r} LOGIN PASSWORD '…' NOSUPERUSER NOCREATEDB NOCREATEROLE;`,
    `GRANT USAGE ON SCHEMA public TO ${r};`,
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${r};`,
    `GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO ${r};`,
    `REVOKE UPDATE, DELETE, TRUNCATE ON "ledger", "ledger_checkpoint" FROM ${r};`,
    `REVOKE DELETE, TRUNCATE ON "ledger_redactable" FROM ${r};`,
    `REVOKE INSERT, UPDATE, DELETE, TRUNCATE ON "_casegraph_migrations" FROM ${r};`,
    "",
  ].join("\n");
}

export interface ConnectionRole {
  role: string;
  superuser: boolean;
  ownsLedger: boolean;
  /** True when this connection could disable the append-only triggers. */
  canBypass: boolean;
}

export async function connectionRole(read: <T>(sql: string, params?: unknown[]) => Promise<T[]>): Promise<ConnectionRole> {
  const rows = await read<{ role: string; superuser: boolean; owns: boolean }>(
    `SELECT current_user::text AS role,
            (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) AS superuser,
            pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE relname = 'ledger' AND relkind = 'r' LIMIT 1), 'USAGE') AS owns`,
  );
  const r = rows[0];
  return { role: r.role, superuser: !!r.superuser, ownsLedger: !!r.owns, canBypass: !!r.superuser || !!r.owns };
}
