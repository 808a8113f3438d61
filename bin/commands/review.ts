// `casegraph review list|approve|reject` (issues 14 and 15): the review queue from the shell — answers the answer
// policies escalated and answers drafted from expired evidence. Decisions are made as the named supervisor (--by), with
// the same rules and ledger entries as in the UI.
import { parseArgs } from "node:util";
import { loadActor } from "../../lib/auth/actor";
import { expiredHoldNote } from "../../lib/grounding/flags";
import { decideReview } from "../../lib/server/answers/reviews";
import { runtime } from "../../lib/server/runtime";
import { UsageError, type Command } from "../command";

export default {
  name: "review",
  usage: [
    "  review list [--tenant <id>] [--status pending|approved|rejected]   held answers (answer policies, expired evidence)",
    '  review approve|reject <id> --by <supervisor email> [--note "…"]     decide a held answer (approve needs a note)',
  ].join("\n"),
  async run(args) {
    const [sub, ...rest] = args;
    const { db } = await runtime();
    if (sub === "list") {
      const { values } = parseArgs({ args: rest, options: { tenant: { type: "string" }, status: { type: "string" } } });
      if (values.status && !["pending", "approved", "rejected"].includes(values.status))
        throw new UsageError("--status pending|approved|rejected");
      const rows = await db.prisma.answerReview.findMany({
        where: { ...(values.tenant ? { tenantId: values.tenant } : {}), ...(values.status ? { status: values.status } : {}) },
        orderBy: [{ createdAt: "desc" }, { id: "asc" }],
        select: {
          id: true,
          reason: true,
          expiredEvidence: true,
          tenantId: true,
          caseId: true,
          askerEmail: true,
          status: true,
          bundleSha256: true,
          createdAt: true,
          decidedBy: true,
          decidedAt: true,
        },
      });
      for (const { expiredEvidence, ...r } of rows) {
        const expired = Array.isArray(expiredEvidence) ? (expiredEvidence as Array<{ id: string; expiredAt: string }>) : [];
        console.log(JSON.stringify({ ...r, ...(expired.length ? { held: expiredHoldNote(expired), expiredEvidence: expired } : {}) }));
      }
      return 0;
    }
    if (sub === "approve" || sub === "reject") {
      const { values, positionals } = parseArgs({
        args: rest,
        allowPositionals: true,
        options: { by: { type: "string" }, note: { type: "string" } },
      });
      if (positionals.length !== 1 || !values.by) throw new UsageError(`review ${sub} <id> --by <supervisor email> [--note "…"]`);
      const actor = await loadActor(db.prisma, { email: values.by }, "cli");
      const r = await decideReview(db.prisma, actor, positionals[0]!, sub, values.note ?? null);
      console.log(JSON.stringify({ ok: true, ...r }));
      return 0;
    }
    throw new UsageError("review list | review approve | review reject");
  },
} satisfies Command;
