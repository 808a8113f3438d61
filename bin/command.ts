// A CLI command: one file per command under bin/commands/, listed in bin/commands/index.ts.
export interface Command {
  name: string;
  /** Usage lines shown by `casegraph` with no arguments. */
  usage: string;
  run(args: string[]): Promise<number>;
}

/** Marks a usage error: main() prints it with the usage text and exits 2. */
export class UsageError extends Error {}
