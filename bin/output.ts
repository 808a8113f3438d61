// Where a command's result goes: stdout, or the file --out names. The file is checked before the work starts (an eval
// run of minutes, or an audit export the ledger records, must not end in "cannot write") and written whole: a
// temporary file beside it, then renamed, so a reader never sees half a report.
import { randomBytes } from "node:crypto";
import { access, constants, rename, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { CasegraphError } from "../lib/domain/failure-codes";

/** Throws CG-INPUT-008 unless `file` can be written: its folder exists and is writable, and it is not a folder. */
export async function assertWritable(file: string): Promise<void> {
  const dir = path.dirname(path.resolve(file));
  const problem =
    (await stat(file).then(
      (s) => (s.isDirectory() ? "it is a folder" : null),
      () => null,
    )) ??
    (await access(dir, constants.W_OK).then(
      () => null,
      (err: NodeJS.ErrnoException) => (err.code === "ENOENT" ? `the folder ${dir} does not exist` : `the folder ${dir} is not writable`),
    ));
  if (problem) throw new CasegraphError("CG-INPUT-008", `Cannot write ${file}: ${problem}.`);
}

/** Writes `text` to `file` whole (callers check it with assertWritable before their work), or to stdout. */
export async function writeOutput(text: string, file: string | undefined): Promise<void> {
  if (!file) {
    process.stdout.write(text);
    return;
  }
  const temporary = path.join(path.dirname(path.resolve(file)), `.${path.basename(file)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    await writeFile(temporary, text);
    await rename(temporary, file);
  } catch (err) {
    await unlink(temporary).catch(() => {});
    throw new CasegraphError("CG-INPUT-008", `Cannot write ${file}: ${(err as Error).message}.`, [], { cause: err });
  }
}
