// DESIGN.md: lib/domain and lib/graphrag import nothing from Next.js, Prisma, neo4j-driver or the AI SDK — they take
// ports, so every entry point (route, server action, CLI, bench, tests) runs the same pipeline.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";

const FORBIDDEN = [/^next(\/|$)/, /^@prisma\//, /generated\/prisma/, /^neo4j-driver/, /^ai(\/|$)/, /^@ai-sdk\//, /adapters\//, /\/server\//, /^react/];

describe("the pipeline's import boundary", () => {
  it("lib/graphrag imports only lib/domain, lib/ports, zod and node built-ins", async () => {
    const dir = path.resolve("lib/graphrag");
    const files = (await readdir(dir)).filter((f) => f.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(8);
    for (const f of files) {
      const text = await readFile(path.join(dir, f), "utf8");
      const specifiers = [...text.matchAll(/^\s*(?:import|export)[^'"]*?from\s+["']([^"']+)["']/gm)].map((m) => m[1]);
      for (const s of specifiers) {
        expect(FORBIDDEN.some((re) => re.test(s)), `${f} imports ${s}`).toBe(false);
      }
    }
  });
});
