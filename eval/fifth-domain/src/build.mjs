// Assembles eval/fifth-domain/workspace.json and questions.jsonl from the pieces in this folder (eval/build-set.mjs).
// Plain Node, no dependencies: `node eval/fifth-domain/src/build.mjs`.
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { buildEvalSet } from "../../build-set.mjs";

buildEvalSet(
  dirname(fileURLToPath(import.meta.url)),
  [
    { graph: "ea-graph.json", evidence: ["ea-evidence-1.json", "ea-evidence-2.json", "ea-evidence-3.json"] },
    { graph: "cm-graph.json", evidence: ["cm-evidence-1.json", "cm-evidence-2.json", "cm-evidence-3.json"] },
  ],
  ["questions-ea.jsonl", "questions-cm.jsonl"],
);
