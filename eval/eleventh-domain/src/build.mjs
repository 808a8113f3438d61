// Assembles eval/eleventh-domain/workspace.json and questions.jsonl from the pieces in this folder (eval/build-set.mjs).
// Plain Node, no dependencies: `node eval/eleventh-domain/src/build.mjs`.
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { buildEvalSet } from "../../build-set.mjs";

buildEvalSet(
  dirname(fileURLToPath(import.meta.url)),
  [
    { graph: "rw-graph.json", evidence: ["rw-evidence-1.json", "rw-evidence-2.json", "rw-evidence-3.json"] },
    { graph: "hs-graph.json", evidence: ["hs-evidence-1.json", "hs-evidence-2.json", "hs-evidence-3.json"] },
  ],
  ["questions-rw.jsonl", "questions-hs.jsonl"],
);
