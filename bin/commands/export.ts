import { parseArgs } from "node:util";
import { exportWorkspace } from "../../lib/adapters/prisma/workspace";
import { runtime } from "../../lib/server/runtime";
import { assertExportsAllowed } from "../../lib/server/runtime/kill-switches";
import type { Command } from "../command";
import { assertWritable, writeOutput } from "../output";

export default {
  name: "export",
  usage: "  export [--case <id>] [--out <file>]   canonical JSON of the workspace or one case (stdout by default)",
  async run(args) {
    const { values } = parseArgs({ args, options: { case: { type: "string" }, out: { type: "string" } } });
    if (values.out) await assertWritable(values.out);
    const { db } = await runtime();
    // DISABLE_EXPORTS holds at the shell too: the case's tenant, or every tenant for the whole workspace.
    const tenant = values.case
      ? (await db.prisma.case.findUnique({ where: { id: values.case }, select: { tenantId: true } }))?.tenantId
      : null;
    await assertExportsAllowed(db.prisma, tenant ?? "any tenant");
    const text = await exportWorkspace(db.prisma, { caseId: values.case });
    await writeOutput(text, values.out);
    return 0;
  },
} satisfies Command;
