// `casegraph switch set <NAME> on|off [--tenant <id>] --by <email>` and `switch list [--tenant <id>]`: kill switches
// from the shell (issue 15). Without --tenant a switch applies to the whole deployment. Every flip is a ledger entry.
import { parseArgs } from "node:util";
import { listSwitches, setSwitchAsOperator } from "../../lib/server/runtime/kill-switches";
import { ALL_TENANTS, parseSwitchName, parseSwitchValue } from "../../lib/grounding/switches";
import { runtime } from "../../lib/server/runtime";
import { UsageError, type Command } from "../command";

const USAGE =
  "switch set <DISABLE_ANSWER_REUSE|DISABLE_MODEL|DISABLE_EXPORTS> on|off [--tenant <id>] --by <email> | switch list [--tenant <id>]";

export default {
  name: "switch",
  usage: [
    "  switch set <NAME> on|off [--tenant <id>] --by <email>   flip a kill switch (a ledger entry; no --tenant: every tenant)",
    "  switch list [--tenant <id>]          kill switches and their state",
  ].join("\n"),
  async run(args) {
    const [sub, ...rest] = args;
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { tenant: { type: "string" }, by: { type: "string" } },
    });
    const { db } = await runtime();
    if (sub === "set") {
      if (positionals.length !== 2 || !values.by) throw new UsageError(USAGE);
      const name = parseSwitchName(positionals[0]);
      const enabled = parseSwitchValue(positionals[1]);
      const scope = values.tenant ?? ALL_TENANTS;
      const row = await setSwitchAsOperator(
        db.prisma,
        { userId: null, email: values.by.trim().toLowerCase(), tenantId: scope === ALL_TENANTS ? null : scope, via: "cli" },
        scope,
        name,
        enabled,
      );
      console.log(JSON.stringify({ ok: true, ...row }));
      return 0;
    }
    if (sub === "list") {
      for (const row of await listSwitches(db.prisma, values.tenant)) console.log(JSON.stringify(row));
      return 0;
    }
    throw new UsageError(USAGE);
  },
} satisfies Command;
