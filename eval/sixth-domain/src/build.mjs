// Assembles eval/sixth-domain/workspace.json and questions.jsonl from the pieces in this folder (eval/build-set.mjs).
// Plain Node, no dependencies: `node eval/sixth-domain/src/build.mjs`.
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { buildEvalSet } from "../../build-set.mjs";

buildEvalSet(
  dirname(fileURLToPath(import.meta.url)),
  [
    { graph: "lx-graph.json", evidence: ["lx-evidence-1.json", "lx-evidence-2.json", "lx-evidence-3.json"] },
    { graph: "ct-graph.json", evidence: ["ct-evidence-1.json", "ct-evidence-2.json", "ct-evidence-3.json"] },
  ],
  ["questions-lx.jsonl", "questions-ct.jsonl"],
);
