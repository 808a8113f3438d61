// The layer boundaries are lint rules (eslint.config.mjs); this checks the rules themselves fire where they should and
// only there, by linting small snippets as if they lived in each layer.
import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: process.cwd() });

async function restricted(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.resolve(file) });
  return result.messages.filter((m) => m.ruleId === "@typescript-eslint/no-restricted-imports").map((m) => m.message);
}

// The first lint loads the config and the TypeScript parser: seconds on a loaded machine.
describe("layer boundaries", { timeout: 60_000 }, () => {
  const pure = ["lib/domain/x.ts", "lib/graphrag/x.ts", "lib/policy/x.ts", "lib/grounding/x.ts", "lib/playbooks/x.ts", "lib/ingest/x.ts"];

  it.each(pure)("%s may not import a framework, driver, database, model SDK or the server side", async (file) => {
    for (const spec of [
      "next/headers",
      "@prisma/client",
      "neo4j-driver",
      "ai",
      "@ai-sdk/openai",
      "pg",
      "better-auth",
      "z3-solver",
      "../generated/prisma/client",
      "@/lib/server/runtime",
      "../adapters/prisma/db",
      "../auth/session",
    ]) {
      expect(await restricted(file, `import { a } from "${spec}";\nexport const b = a;\n`), `${file} ← ${spec}`).toHaveLength(1);
    }
  });

  it.each(pure)("%s may import the ports, other pure code, zod, node built-ins, and server-side types", async (file) => {
    const code = [
      `import type { Ledger } from "../ports";`,
      `import { z } from "zod";`,
      `import { createHash } from "node:crypto";`,
      `import { canonicalJson } from "@/lib/domain/canonical-json";`,
      `import type { Actor } from "../auth/actor";`,
      `export const x = [z, createHash, canonicalJson] as unknown as Ledger & Actor;`,
    ].join("\n");
    expect(await restricted(file, code)).toEqual([]);
  });

  it("client components may not import server code at runtime, but may import its types", async () => {
    expect(
      await restricted("components/x.tsx", `import { runtime } from "@/lib/server/runtime";\nexport const r = runtime;\n`),
    ).toHaveLength(1);
    expect(
      await restricted(
        "components/x.tsx",
        `import { PrismaLedger } from "@/lib/adapters/prisma/ledger";\nexport const r = PrismaLedger;\n`,
      ),
    ).toHaveLength(1);
    expect(await restricted("components/x.tsx", `import type { Actor } from "@/lib/auth/actor";\nexport type A = Actor;\n`)).toEqual([]);
    // Server code itself is free to use them.
    expect(await restricted("lib/server/x.ts", `import { PrismaClient } from "@prisma/client";\nexport const p = PrismaClient;\n`)).toEqual(
      [],
    );
  });
});
