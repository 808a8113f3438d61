import { parseArgs } from "node:util";
import { loadActor } from "../../lib/auth/actor";
import { asCasegraphError } from "../../lib/domain/failure-codes";
import { recordRefusedQuestion } from "../../lib/server/answers/graphrag";
import { askWithSuggestions } from "../../lib/server/playbooks/next-steps";
import { runtime } from "../../lib/server/runtime";
import { UsageError, type Command } from "../command";

export default {
  name: "ask",
  usage:
    '  ask --user <email> --case <id> [--thread <id>] "<question>"\n' +
    "                                        answer as that user, with that user's clearance, tags and cases; prints the JSON\n" +
    "                                        (its threadId: pass it as --thread to ask a follow-up in the same thread)",
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        user: { type: "string" },
        case: { type: "string" },
        "max-nodes": { type: "string" },
        "max-snippets": { type: "string" },
        hops: { type: "string" },
        thread: { type: "string" },
      },
    });
    if (!values.user || !values.case || positionals.length === 0) throw new UsageError('ask needs --user <email> --case <id> "<question>"');
    const { db } = await runtime();
    // The user is resolved fresh, as for a signed-in request: a deactivated account is refused (CG-AUTH-003).
    // A refused user (unknown, deactivated) is a refused question like any other: it leaves its ledger entry.
    const actor = await loadActor(db.prisma, { email: values.user }, "cli").catch(async (err) => {
      await recordRefusedQuestion(null, { caseId: values.case, question: positionals.join(" ") }, asCasegraphError(err));
      throw err;
    });
    const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
    const outcome = await askWithSuggestions(actor, {
      caseId: values.case,
      question: positionals.join(" "),
      ...(values["max-nodes"] ? { maxNodes: num(values["max-nodes"]) } : {}),
      ...(values["max-snippets"] ? { maxSnippets: num(values["max-snippets"]) } : {}),
      ...(values.hops ? { hops: num(values.hops) } : {}),
      ...(values.thread !== undefined ? { threadId: values.thread } : {}),
    });
    console.log(JSON.stringify(outcome.body, null, 2));
    return outcome.ok ? 0 : 1;
  },
} satisfies Command;
