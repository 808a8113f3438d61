import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { CasegraphError } from "../../lib/domain/failure-codes";
import { env } from "../../lib/env";
import { importWorkspace } from "../../lib/server/runtime/graph";
import { runtime } from "../../lib/server/runtime";
import { cliActor } from "./user";
import { UsageError, type Command } from "../command";
import { withoutByteOrderMark } from "../../lib/domain/file-text";

export async function readBundleFile(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    throw new CasegraphError("CG-IMPORT-014", `Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? "error"}`);
  }
  try {
    return JSON.parse(withoutByteOrderMark(text));
  } catch (err) {
    throw new CasegraphError("CG-IMPORT-001", `${file} is not valid JSON: ${(err as Error).message}`);
  }
}

export default {
  name: "import",
  usage:
    "  import <file>                         import a casegraph.workspace/v1 bundle (all-or-nothing; the graph\n" +
    "                                        also into Neo4j when NEO4J_URI is set)",
  async run(args) {
    const { positionals } = parseArgs({ args, allowPositionals: true });
    if (positionals.length !== 1) throw new UsageError("import needs exactly one file");
    const bundle = await readBundleFile(positionals[0]);
    const { db } = await runtime();
    const started = performance.now();
    const tty = process.stderr.isTTY;
    // With NEO4J_URI set, the graph goes to Neo4j in the same unit of work (lib/adapters/neo4j/sync.ts).
    const summary = await importWorkspace(db, bundle, env(), {
      actor: { ...cliActor(null), via: "import" },
      onProgress: ({ done, total }) => {
        if (!tty) return;
        const rate = Math.round(done / ((performance.now() - started) / 1000));
        process.stderr.write(`\r  ${done}/${total} items  ${rate} items/s   `);
      },
    });
    if (tty) process.stderr.write("\n");
    const seconds = (performance.now() - started) / 1000;
    console.log(JSON.stringify({ ok: true, imported: summary, seconds: Number(seconds.toFixed(2)) }));
    return 0;
  },
} satisfies Command;
