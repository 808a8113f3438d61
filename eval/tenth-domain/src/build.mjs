// Assembles eval/tenth-domain/workspace.json and questions.jsonl from the pieces in this folder (eval/build-set.mjs).
// Plain Node, no dependencies: `node eval/tenth-domain/src/build.mjs`.
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { buildEvalSet } from "../../build-set.mjs";

buildEvalSet(
  dirname(fileURLToPath(import.meta.url)),
  [
    { graph: "se-graph.json", evidence: ["se-evidence-1.json", "se-evidence-2.json", "se-evidence-3.json"] },
    { graph: "gp-graph.json", evidence: ["gp-evidence-1.json", "gp-evidence-2.json", "gp-evidence-3.json"] },
  ],
  ["questions-se.jsonl", "questions-gp.jsonl"],
);
