// Assembles eval/ninth-domain/workspace.json and questions.jsonl from the pieces in this folder (eval/build-set.mjs).
// Plain Node, no dependencies: `node eval/ninth-domain/src/build.mjs`.
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { buildEvalSet } from "../../build-set.mjs";

buildEvalSet(
  dirname(fileURLToPath(import.meta.url)),
  [
    { graph: "dv-graph.json", evidence: ["dv-evidence-1.json", "dv-evidence-2.json", "dv-evidence-3.json"] },
    { graph: "be-graph.json", evidence: ["be-evidence-1.json", "be-evidence-2.json", "be-evidence-3.json"] },
  ],
  ["questions-dv.jsonl", "questions-be.jsonl"],
);
