// `casegraph evidence revoke <EV-ID> --case <id> --reason "…" --by <admin email>`: an admin's revocation made at the
// shell (issue 15). The revocation and its ledger entry are one transaction.
import { parseArgs } from "node:util";
import { revokeEvidenceByAdmin } from "../../lib/admin/evidence";
import { runtime } from "../../lib/server/runtime";
import { UsageError, type Command } from "../command";

export default {
  name: "evidence",
  usage: '  evidence revoke <EV-ID> --case <id> --reason "…" --by <admin email>   revoke an evidence item (a ledger entry)',
  async run(args) {
    const [sub, ...rest] = args;
    if (sub !== "revoke") throw new UsageError('evidence revoke <EV-ID> --case <id> --reason "…" --by <admin email>');
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { case: { type: "string" }, reason: { type: "string" }, by: { type: "string" } },
    });
    if (positionals.length !== 1 || !values.case || values.reason === undefined || !values.by) {
      throw new UsageError('evidence revoke <EV-ID> --case <id> --reason "…" --by <admin email>');
    }
    const { db } = await runtime();
    const r = await revokeEvidenceByAdmin(db.prisma, values.by, { caseId: values.case, evidenceId: positionals[0], reason: values.reason });
    console.log(JSON.stringify({ ok: true, ...r }));
    return 0;
  },
} satisfies Command;
