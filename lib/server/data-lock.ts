// PGlite is a single-process database: two processes on one data folder would corrupt it. A pid lock file turns
// that into a clear, coded error instead.
import "server-only";
import { unlinkSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { CasegraphError } from "../domain/failure-codes";

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function acquireDataDirLock(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, "casegraph.lock");
  const holder = Number.parseInt(await readFile(file, "utf8").catch(() => ""), 10);
  if (holder && holder !== process.pid && alive(holder)) {
    throw new CasegraphError(
      "CG-SYS-001",
      `The embedded database in ${dataDir} is in use by process ${holder}. Stop it, or set DATABASE_URL to use PostgreSQL.`,
    );
  }
  await writeFile(file, String(process.pid));
  process.once("exit", () => {
    try {
      unlinkSync(file);
    } catch {
      // Already gone: nothing to release.
    }
  });
}
