import { parseArgs } from "node:util";
import { loadActor } from "../../lib/auth/actor";
import { asCasegraphError } from "../../lib/domain/failure-codes";
import { nextSteps, recordRefusedNextSteps } from "../../lib/server/playbooks/next-steps";
import { runtime } from "../../lib/server/runtime";
import { UsageError, type Command } from "../command";

export default {
  name: "next-steps",
  usage:
    '  next-steps --user <email> --case <id> "<question>" [--evidence EV-1,EV-2] [--max-results n] [--min-confidence x]\n' +
    "                                        playbooks from the catalogue that fit the case and that user (each needs a\n" +
    "                                        supervisor's approval; nothing is executed); prints the JSON",
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        user: { type: "string" },
        case: { type: "string" },
        evidence: { type: "string" },
        "max-results": { type: "string" },
        "min-confidence": { type: "string" },
      },
    });
    if (!values.user || !values.case || positionals.length === 0)
      throw new UsageError('next-steps needs --user <email> --case <id> "<question>"');
    const body = {
      caseId: values.case,
      question: positionals.join(" "),
      ...(values.evidence
        ? {
            followUp: {
              evidenceIds: values.evidence
                .split(",")
                .map((s) => s.trim())
                .filter(Boolean),
            },
          }
        : {}),
      ...(values["max-results"] ? { maxResults: Number(values["max-results"]) } : {}),
      ...(values["min-confidence"] ? { minConfidence: Number(values["min-confidence"]) } : {}),
    };
    const { db } = await runtime();
    // Resolved fresh, as for a signed-in request; an unknown or deactivated user is refused, and that is recorded.
    const actor = await loadActor(db.prisma, { email: values.user }, "cli").catch(async (err) => {
      await recordRefusedNextSteps(null, body, asCasegraphError(err));
      throw err;
    });
    const outcome = await nextSteps(actor, body);
    console.log(JSON.stringify(outcome.body, null, 2));
    return outcome.ok ? 0 : 1;
  },
} satisfies Command;
