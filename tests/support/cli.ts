// Runs the CLI as users run it (`npm run casegraph -- …` = node bin/run.mjs, the bundled CLI), from the repository root.
import { execFile } from "node:child_process";
import path from "node:path";

export const CLI_ENTRY = path.resolve("bin/run.mjs");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** `casegraph <args>`, resolving with its exit code and output whatever the code (the env is added to process.env). */
export function runCli(
  args: string[],
  options: { env?: Record<string, string>; input?: string; timeout?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [CLI_ENTRY, ...args],
      {
        env: { ...process.env, ...options.env },
        cwd: path.dirname(path.dirname(CLI_ENTRY)),
        timeout: options.timeout ?? 120_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
    );
    if (options.input !== undefined) child.stdin?.end(options.input);
  });
}
