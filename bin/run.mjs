#!/usr/bin/env node
// `npm run casegraph -- …`: runs the bundled CLI (scripts/build-cli.mjs), rebuilding it first when any source it is
// made from is newer than the bundle — an edited file is never run stale, and an unchanged tree starts at once.
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { BUNDLE, ROOT, buildCli } from "../scripts/build-cli.mjs";

const SOURCES = ["bin", "lib", "tsconfig.json", "package-lock.json"];

function newestSource() {
  let newest = 0;
  const visit = (p) => {
    const s = statSync(p, { throwIfNoEntry: false });
    if (!s) return;
    if (s.isDirectory()) {
      for (const name of readdirSync(p)) if (name !== "node_modules") visit(path.join(p, name));
    } else if (/\.(ts|tsx|mjs|js|json)$/.test(p)) newest = Math.max(newest, s.mtimeMs);
  };
  for (const s of SOURCES) visit(path.join(ROOT, s));
  return newest;
}

const built = statSync(BUNDLE, { throwIfNoEntry: false })?.mtimeMs ?? 0;
if (built < newestSource()) await buildCli();
await import(pathToFileURL(BUNDLE).href);
