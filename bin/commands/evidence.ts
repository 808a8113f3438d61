// `casegraph evidence revoke <EV-ID> --case <id> --reason "…" --by <admin email>`: an admin's revocation made at the
// shell (issue 15). `casegraph evidence license --case <id> --document <id> --license <L> --by <admin email>`: license
// the evidence made from an ingested document (issue 17; UNLICENSED withdraws it). Each change and its ledger entry
// are one transaction.
import { parseArgs } from "node:util";
import { licenseDocumentByAdmin } from "../../lib/admin/documents";
import { revokeEvidenceByAdmin } from "../../lib/admin/evidence";
import { runtime } from "../../lib/server/runtime";
import { UsageError, type Command } from "../command";

const REVOKE = 'evidence revoke <EV-ID> --case <id> --reason "…" --by <admin email>';
const LICENSE = "evidence license --case <id> --document <id> --license <L> --by <admin email>";

export default {
  name: "evidence",
  usage:
    `  ${REVOKE}   revoke an evidence item (a ledger entry)\n` +
    `  ${LICENSE}\n` +
    "                                        license the evidence made from a document (UNLICENSED: invisible again)",
  async run(args) {
    const [sub, ...rest] = args;
    if (sub === "license") {
      const { values } = parseArgs({
        args: rest,
        options: { case: { type: "string" }, document: { type: "string" }, license: { type: "string" }, by: { type: "string" } },
      });
      if (!values.case || !values.document || !values.license || !values.by) throw new UsageError(LICENSE);
      const { db } = await runtime();
      const r = await licenseDocumentByAdmin(db.prisma, values.by, {
        caseId: values.case,
        documentId: values.document,
        license: values.license,
      });
      console.log(JSON.stringify({ ok: true, ...r }));
      return 0;
    }
    if (sub !== "revoke") throw new UsageError(`${REVOKE}\n${LICENSE}`);
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { case: { type: "string" }, reason: { type: "string" }, by: { type: "string" } },
    });
    if (positionals.length !== 1 || !values.case || values.reason === undefined || !values.by) throw new UsageError(REVOKE);
    const { db } = await runtime();
    const r = await revokeEvidenceByAdmin(db.prisma, values.by, { caseId: values.case, evidenceId: positionals[0], reason: values.reason });
    console.log(JSON.stringify({ ok: true, ...r }));
    return 0;
  },
} satisfies Command;
