import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { CasegraphError } from "../../lib/domain/failure-codes";
import { parseQuestions } from "../../lib/eval/metrics";
import { runEval } from "../../lib/server/answers/eval";
import { UsageError, type Command } from "../command";
import { assertWritable, writeOutput } from "../output";

export default {
  name: "eval",
  usage:
    "  eval <questions.jsonl> [--out report.json]\n" +
    "                                        ask each labelled question as its user (twice) with the configured model; print\n" +
    "                                        citation precision/recall, abstention, refusals, claim support, leaks, injections,\n" +
    "                                        determinism and latency",
  async run(args) {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { out: { type: "string" } } });
    if (positionals.length !== 1) throw new UsageError("eval <questions.jsonl> [--out report.json]");
    const text = await readFile(positionals[0]!, "utf8").catch(() => {
      throw new CasegraphError("CG-EVAL-001", `Cannot read ${positionals[0]}.`);
    });
    const questions = parseQuestions(text);
    if (values.out) await assertWritable(values.out);
    const tty = process.stderr.isTTY;
    const report = await runEval(questions, (done) => tty && process.stderr.write(`\r${done}/${questions.length}`));
    if (tty) process.stderr.write("\n");
    console.table(
      report.results.map((r) => ({
        id: r.id,
        kind: r.kind,
        thread: r.thread ? `${r.thread} #${r.turn ?? "?"}` : "",
        response: r.responseType,
        cited: r.cited.join(" "),
        ok: r.ok ? "yes" : "NO",
        ms: Math.round(r.latencyMs),
      })),
    );
    console.log(JSON.stringify(report.summary, null, 2));
    for (const r of report.results) if (r.labelError) console.error(`warning: ${r.id}: ${r.labelError}`);
    if (values.out) await writeOutput(JSON.stringify(report, null, 2) + "\n", values.out);
    return 0;
  },
} satisfies Command;
