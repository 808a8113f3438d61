// Assembles eval/fourth-domain/workspace.json and questions.jsonl from the pieces in this folder (eval/build-set.mjs).
// Plain Node, no dependencies: `node eval/fourth-domain/src/build.mjs`.
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { buildEvalSet } from "../../build-set.mjs";

buildEvalSet(
  dirname(fileURLToPath(import.meta.url)),
  [
    { graph: "nc-graph.json", evidence: ["nc-evidence-1.json", "nc-evidence-2.json", "nc-evidence-3.json"] },
    { graph: "wt-graph.json", evidence: ["wt-evidence-1.json", "wt-evidence-2.json", "wt-evidence-3.json"] },
  ],
  ["questions-nc.jsonl", "questions-wt.jsonl"],
);
