// The casegraph CLI: `npm run casegraph -- <command>`. Every failure prints a coded error and exits non-zero.
import { createWriteStream } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { once } from "node:events";
import { parseArgs } from "node:util";
import { CasegraphError, asCasegraphError } from "../lib/domain/failure-codes";
import { env } from "../lib/env";
import { migratePostgres } from "../lib/adapters/prisma/db";
import { exportWorkspace, importBundle } from "../lib/adapters/prisma/workspace";
import { generateBundleChunks } from "../lib/workspace/generate";
import { closeRuntime, runtime } from "../lib/server/runtime";

const USAGE = `casegraph <command>

  import <file>                         import a casegraph.workspace/v1 bundle (all-or-nothing)
  export [--case <id>] [--out <file>]   canonical JSON of the workspace or one case (stdout by default)
  generate --nodes N --evidence M [--edges E] [--seed S] [--case <id>] --out <file>
                                        write a synthetic case for scale tests
  audit verify                          walk the ledger chain; exit 1 naming the first bad seq
  db migrate                            apply pending migrations (PostgreSQL: DATABASE_URL)
`;

type Handler = (args: string[]) => Promise<number>;

async function readBundle(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    throw new CasegraphError("CG-IMPORT-014", `Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? "error"}`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CasegraphError("CG-IMPORT-001", `${file} is not valid JSON: ${(err as Error).message}`);
  }
}

const commands: Record<string, Handler> = {
  async import(args) {
    const { positionals } = parseArgs({ args, allowPositionals: true });
    if (positionals.length !== 1) return usage("import needs exactly one file");
    const bundle = await readBundle(positionals[0]);
    const { db } = await runtime();
    const started = performance.now();
    const tty = process.stderr.isTTY;
    const summary = await importBundle(db, bundle, {
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

  async export(args) {
    const { values } = parseArgs({ args, options: { case: { type: "string" }, out: { type: "string" } } });
    const { db } = await runtime();
    const text = await exportWorkspace(db.prisma, { caseId: values.case });
    if (values.out) await writeFile(values.out, text);
    else process.stdout.write(text);
    return 0;
  },

  async generate(args) {
    const { values } = parseArgs({
      args,
      options: {
        nodes: { type: "string" }, evidence: { type: "string" }, edges: { type: "string" }, seed: { type: "string" },
        case: { type: "string" }, out: { type: "string" },
      },
    });
    const nodes = Number(values.nodes), evidence = Number(values.evidence);
    if (!values.out || !(nodes > 0) || !(evidence >= 0)) return usage("generate needs --nodes N --evidence M --out <file>");
    const out = createWriteStream(values.out);
    for (const chunk of generateBundleChunks({
      nodes, evidence, edges: values.edges ? Number(values.edges) : undefined,
      seed: values.seed ? Number(values.seed) : 1, caseId: values.case,
    })) {
      if (!out.write(chunk)) await once(out, "drain");
    }
    out.end();
    await once(out, "finish");
    console.log(JSON.stringify({ ok: true, out: values.out, nodes, evidence }));
    return 0;
  },

  async audit(args) {
    if (args[0] !== "verify") return usage("audit verify");
    const { ledger } = await runtime();
    const report = await ledger.verify();
    console.log(JSON.stringify(report));
    if (report.ok) return 0;
    const err = new CasegraphError("CG-AUDIT-002", `The ledger chain breaks at seq ${report.firstBad!.seq} (${report.firstBad!.fault}).`);
    console.error(JSON.stringify(err.toJSON()));
    return 1;
  },

  async db(args) {
    if (args[0] !== "migrate") return usage("db migrate");
    const url = env().DATABASE_URL;
    // The embedded database migrates itself when opened.
    const applied = url ? await migratePostgres(url) : (await runtime(), ["(embedded database migrated on open)"]);
    console.log(JSON.stringify({ ok: true, applied }));
    return 0;
  },
};

function usage(problem?: string): number {
  if (problem) console.error(`casegraph: ${problem}\n`);
  console.error(USAGE);
  return 2;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const handler = name ? commands[name] : undefined;
  if (!handler) return usage(name ? `unknown command "${name}"` : undefined);
  try {
    return await handler(rest);
  } catch (err) {
    const e = asCasegraphError(err);
    console.error(JSON.stringify(e.toJSON(), null, 2));
    if (e.code === "CG-SYS-002" && process.env.CASEGRAPH_DEBUG) console.error(err);
    return 1;
  } finally {
    await closeRuntime().catch(() => {});
  }
}

process.exitCode = await main(process.argv.slice(2));
