// `casegraph ingest --case <id> --by <email> [markings] <files…>`: documents into marked, linked, citable evidence
// (issue 17), as that user (who must be allowed to ingest into the case). Each file is all-or-nothing; the rest of the
// batch goes on. Prints the batch result as JSON; exit 0 when every file was ingested (or already held), 1 otherwise.
import { parseArgs } from "node:util";
import { loadActor } from "../../lib/auth/actor";
import { ingestForActor } from "../../lib/server/ingest";
import { runtime } from "../../lib/server/runtime";
import { UsageError, type Command } from "../command";

const USAGE =
  "ingest --case <id> --by <email> [--classification X] [--need-to-know a,b] [--license L] [--source-system S]\n" +
  "       [--collected-at T] [--type T] <files…>";

export default {
  name: "ingest",
  usage:
    "  ingest --case <id> --by <email> [--classification X --need-to-know a,b --license L --source-system S\n" +
    "         --collected-at T --type T] <files…>   add documents (PDF, DOCX, HTML, Markdown, text, .eml, CSV call\n" +
    "                                        records) as evidence; unlicensed unless --license (invisible to analysis)",
  async run(args) {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        case: { type: "string" },
        by: { type: "string" },
        classification: { type: "string" },
        "need-to-know": { type: "string" },
        license: { type: "string" },
        "source-system": { type: "string" },
        "collected-at": { type: "string" },
        type: { type: "string" },
      },
    });
    if (!values.case || !values.by || positionals.length === 0) throw new UsageError(USAGE);
    const { db } = await runtime();
    const actor = await loadActor(db.prisma, { email: values.by }, "cli");
    const tty = process.stderr.isTTY;
    const started = performance.now();
    const result = await ingestForActor(
      actor,
      values.case,
      positionals.map((p) => ({ name: p, path: p })),
      {
        channel: "cli",
        markings: {
          classification: values.classification,
          needToKnow: values["need-to-know"],
          license: values.license,
          sourceSystem: values["source-system"],
          collectedAt: values["collected-at"],
          type: values.type,
        },
        onProgress: (p) => {
          if (!tty) return;
          const items = p.items === undefined ? "" : ` ${p.items} items`;
          process.stderr.write(`\r\x1b[K  [${p.filesDone}/${p.filesTotal}] ${p.file}: ${p.phase}${items}`);
          if (p.phase === "done" || p.phase === "failed") process.stderr.write("\n");
        },
      },
    );
    const seconds = Number(((performance.now() - started) / 1000).toFixed(2));
    console.log(JSON.stringify({ ok: result.refused === 0, ...result, seconds }, null, 2));
    return result.refused === 0 ? 0 : 1;
  },
} satisfies Command;
