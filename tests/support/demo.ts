import { readFileSync } from "node:fs";

/** A fresh deep copy of the demo bundle, for tests that alter it. */
export function demoBundle(): Record<string, any> {
  return JSON.parse(readFileSync("prisma/demo/workspace.json", "utf8"));
}
