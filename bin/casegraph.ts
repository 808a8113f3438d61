// The casegraph CLI: `npm run casegraph -- <command>` (bin/run.mjs runs the bundle scripts/build-cli.mjs makes of this
// file). Every failure prints a coded error and exits non-zero (1 for a failure, 2 for a usage error).
import { asCasegraphError } from "../lib/domain/failure-codes";
import { closeRuntime } from "../lib/server/runtime";
import { UsageError } from "./command";
import { COMMANDS } from "./commands";

async function main(argv: string[]): Promise<number> {
  const commands = new Map(COMMANDS.map((c) => [c.name, c]));
  const usage = (problem?: string) => {
    if (problem) console.error(`casegraph: ${problem}\n`);
    console.error("casegraph <command>\n\n" + [...commands.values()].map((c) => c.usage).join("\n"));
    return 2;
  };
  const [name, ...rest] = argv;
  const command = name ? commands.get(name) : undefined;
  if (!command) return usage(name ? `unknown command "${name}"` : undefined);
  if (rest.includes("--help") || rest.includes("-h")) {
    console.log(command.usage);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    if (err instanceof UsageError) return usage(err.message);
    // An option the command does not know, or one missing its value, is the caller's mistake, not an internal error.
    if (isArgumentError(err)) {
      console.error(`casegraph ${name}: ${err.message}\n\n${command.usage}`);
      return 2;
    }
    const e = asCasegraphError(err);
    console.error(JSON.stringify(e.toJSON(), null, 2));
    if (e.code === "CG-SYS-002" && process.env.CASEGRAPH_DEBUG) console.error(err);
    return 1;
  } finally {
    await closeRuntime().catch(() => {});
  }
}

/** An error of node:util parseArgs (ERR_PARSE_ARGS_UNKNOWN_OPTION, …_INVALID_OPTION_VALUE, …_UNEXPECTED_POSITIONAL). */
function isArgumentError(err: unknown): err is Error {
  return err instanceof Error && String((err as { code?: unknown }).code ?? "").startsWith("ERR_PARSE_ARGS_");
}

process.exitCode = await main(process.argv.slice(2));
