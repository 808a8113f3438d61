import { CasegraphError } from "../../lib/domain/failure-codes";
import { runtime } from "../../lib/server/runtime";
import { UsageError, type Command } from "../command";

export default {
  name: "audit",
  usage: "  audit verify                          walk the ledger chain; exit 1 naming the first bad seq",
  async run(args) {
    if (args[0] !== "verify") throw new UsageError("audit verify");
    const { ledger } = await runtime();
    const report = await ledger.verify();
    console.log(JSON.stringify(report));
    if (report.ok) return 0;
    const bad = report.firstBad!;
    const err = new CasegraphError("CG-AUDIT-002", `The ledger chain breaks at seq ${bad.seq} (${bad.fault}).`);
    console.error(JSON.stringify(err.toJSON()));
    return 1;
  },
} satisfies Command;
