// Assembles eval/eighth-domain/workspace.json and questions.jsonl from the pieces in this folder (eval/build-set.mjs).
// Plain Node, no dependencies: `node eval/eighth-domain/src/build.mjs`.
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { buildEvalSet } from "../../build-set.mjs";

buildEvalSet(
  dirname(fileURLToPath(import.meta.url)),
  [
    { graph: "ar-graph.json", evidence: ["ar-evidence-1.json", "ar-evidence-2.json", "ar-evidence-3.json"] },
    { graph: "aq-graph.json", evidence: ["aq-evidence-1.json", "aq-evidence-2.json", "aq-evidence-3.json"] },
  ],
  ["questions-ar.jsonl", "questions-aq.jsonl"],
);
