// Assembles eval/seventh-domain/workspace.json and questions.jsonl from the pieces in this folder (eval/build-set.mjs).
// Plain Node, no dependencies: `node eval/seventh-domain/src/build.mjs`.
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { buildEvalSet } from "../../build-set.mjs";

buildEvalSet(
  dirname(fileURLToPath(import.meta.url)),
  [
    { graph: "mf-graph.json", evidence: ["mf-evidence-1.json", "mf-evidence-2.json", "mf-evidence-3.json"] },
    { graph: "rs-graph.json", evidence: ["rs-evidence-1.json", "rs-evidence-2.json", "rs-evidence-3.json"] },
  ],
  ["questions-mf.jsonl", "questions-rs.jsonl"],
);
