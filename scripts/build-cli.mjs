// Bundles the CLI (bin/casegraph.ts, the lib/ code it uses and most dependencies) into one ES module, so a call starts
// in about half a second instead of transpiling TypeScript for ~4 s. Packages that load files of their own at run time
// (wasm, engines) or are large and rarely needed stay in node_modules. Run at install (postinstall) and by bin/run.mjs
// whenever a source file is newer than the bundle.
import { build } from "esbuild";
import { mkdir, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const BUNDLE = path.join(ROOT, ".cache", "cli", "casegraph.mjs");

export async function buildCli() {
  const out = await build({
    write: false,
    entryPoints: [path.join(ROOT, "bin", "casegraph.ts")],
    outfile: BUNDLE,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    external: [
      "z3-solver",
      "unpdf",
      "mammoth",
      "mailparser",
      "csv-parse",
      "file-type",
      "htmlparser2",
      "@electric-sql/pglite",
      "@prisma/*",
      "pglite-prisma-adapter",
      "pg",
      "pg-*",
      "better-auth",
      "better-auth/*",
      "@better-auth/*",
    ],
    tsconfig: path.join(ROOT, "tsconfig.json"),
    // Server modules import "server-only" (it throws outside React Server Components); the CLI is server code too.
    alias: { "server-only": path.join(ROOT, "node_modules", "server-only", "empty.js") },
    sourcemap: "linked",
    logLevel: "warning",
    // Bundled ESM has no require(); some dependencies' CommonJS entry points still need one.
    banner: { js: "import { createRequire as __cgRequire } from 'node:module'; const require = __cgRequire(import.meta.url);" },
  });
  // Written aside and renamed into place: a CLI started meanwhile (tests run several) never reads half a bundle.
  await mkdir(path.dirname(BUNDLE), { recursive: true });
  for (const file of out.outputFiles) {
    const tmp = `${file.path}.${process.pid}.tmp`;
    await writeFile(tmp, file.contents);
    await rename(tmp, file.path);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildCli();
