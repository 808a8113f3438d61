// Where a CLI command's --out goes: refused up front with a coded error, written whole, never half a file.
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertWritable, writeOutput } from "@/bin/output";
import { CasegraphError } from "@/lib/domain/failure-codes";

describe("CLI output files", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-out-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const refusal = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (e: unknown) => (e instanceof CasegraphError ? `${e.code} ${e.message}` : String(e)),
    );

  it("refuses a folder that does not exist, or a folder itself, naming why (CG-INPUT-008)", async () => {
    expect(await refusal(assertWritable(path.join(dir, "no", "such", "report.json")))).toMatch(/^CG-INPUT-008 .*does not exist/);
    expect(await refusal(assertWritable(dir))).toMatch(/^CG-INPUT-008 .*it is a folder/);
    expect(await refusal(assertWritable(path.join(dir, "report.json")))).toBeNull();
  });

  it("replaces a file whole and leaves no temporary file beside it", async () => {
    const file = path.join(dir, "report.json");
    await writeFile(file, "old contents that are longer than the new ones");
    await writeOutput("new\n", file);
    expect(await readFile(file, "utf8")).toBe("new\n");
    expect(await readdir(dir)).toEqual(["report.json"]);
    expect(await refusal(writeOutput("x", path.join(dir, "gone", "r.json")))).toMatch(/^CG-INPUT-008/);
  });
});
