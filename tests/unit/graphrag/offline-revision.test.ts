// The offline answerer's revision is a digest of its sources (every lib/ module it imports, transitively): it is part
// of the answer-reuse key, so an answer stored by an earlier build is never served by one that answers differently.
// When this fails you changed how the offline model answers: set OFFLINE_MODEL_REVISION to the digest it prints.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OFFLINE_MODEL_REVISION } from "@/lib/adapters/model/offline";

const ROOT = path.resolve("lib/adapters/model/offline.ts");
const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']/g;

/** `file` and every lib/ module it imports, transitively, sorted. */
function closure(file: string, seen = new Set<string>()): string[] {
  if (seen.has(file)) return [...seen];
  seen.add(file);
  for (const [, spec] of readFileSync(file, "utf8").matchAll(IMPORT)) {
    const base = spec.startsWith("@/") ? path.resolve(spec.slice(2)) : spec.startsWith(".") ? path.resolve(path.dirname(file), spec) : null;
    if (!base) continue;
    const found = [`${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")].find((f) => existsSync(f));
    if (found) closure(found, seen);
  }
  return [...seen].sort();
}

describe("the offline answerer's revision", () => {
  it("is the digest of its sources, so the reuse key changes whenever the answerer does", () => {
    const files = closure(ROOT);
    expect(files.some((f) => f.endsWith("lib/graphrag/extractive.ts"))).toBe(true);
    const digest = createHash("sha256");
    // The constant's own line aside, or setting it would change what it digests.
    const source = (f: string) => readFileSync(f, "utf8").replace(/^export const OFFLINE_MODEL_REVISION = .*$/m, "");
    for (const f of files) digest.update(`${path.relative(process.cwd(), f)}\n${source(f)}\n`);
    const expected = digest.digest("hex").slice(0, 12);
    expect(OFFLINE_MODEL_REVISION, `the offline answerer's sources changed: set OFFLINE_MODEL_REVISION to "${expected}"`).toBe(expected);
  });
});
