// Assembles a held-out eval set's workspace.json and questions.jsonl from the pieces in its src/ folder, checking ids
// on the way (edge ends, evidence nodes, members, question users, cases and gold). Plain Node, no dependencies; each
// set's src/build.mjs names its pieces and calls this.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * @param {string} here the set's src/ folder
 * @param {{ graph: string, evidence: string[] }[]} CASES each case's graph file and evidence files
 * @param {string[]} QUESTIONS the question files, in order
 */
export function buildEvalSet(here, CASES, QUESTIONS) {
  const read = (name) => JSON.parse(readFileSync(join(here, name), "utf8"));
  const meta = read("meta.json");
  const problems = [];
  const cases = CASES.map(({ graph, evidence }) => {
    const c = read(graph);
    c.evidence = evidence.flatMap(read);
    const nodeIds = new Set(c.nodes.map((n) => n.id));
    for (const e of c.edges) {
      if (!nodeIds.has(e.source) || !nodeIds.has(e.target)) problems.push(`${c.id}: edge ${e.source}->${e.target}`);
    }
    const seen = new Set();
    for (const ev of c.evidence) {
      if (seen.has(ev.id)) problems.push(`${c.id}: duplicate evidence ${ev.id}`);
      seen.add(ev.id);
      for (const n of ev.nodes) if (!nodeIds.has(n)) problems.push(`${ev.id}: unknown node ${n}`);
    }
    return c;
  });

  const users = new Set(meta.users.map((u) => u.email));
  const evidenceIds = new Set(cases.flatMap((c) => c.evidence.map((e) => e.id)));
  const caseIds = new Set(cases.map((c) => c.id));
  for (const c of cases) for (const m of c.members) if (!users.has(m)) problems.push(`${c.id}: unknown member ${m}`);

  const lines = QUESTIONS.flatMap((name) =>
    readFileSync(join(here, name), "utf8")
      .split("\n")
      .filter((l) => l.trim()),
  );
  const qids = new Set();
  for (const line of lines) {
    const q = JSON.parse(line);
    if (qids.has(q.id)) problems.push(`duplicate question ${q.id}`);
    qids.add(q.id);
    if (!users.has(q.user)) problems.push(`${q.id}: unknown user ${q.user}`);
    if (!caseIds.has(q.case)) problems.push(`${q.id}: unknown case ${q.case}`);
    for (const g of q.gold ?? []) if (!evidenceIds.has(g)) problems.push(`${q.id}: unknown gold ${g}`);
  }

  if (problems.length) {
    console.error(problems.join("\n"));
    process.exit(1);
  }
  const bundle = { ...meta, cases };
  writeFileSync(join(here, "..", "workspace.json"), JSON.stringify(bundle, null, 2) + "\n");
  writeFileSync(join(here, "..", "questions.jsonl"), lines.join("\n") + "\n");
  const count = (k) => cases.reduce((n, c) => n + c[k].length, 0);
  console.log(
    `workspace.json: ${meta.tenants.length} tenants, ${meta.licenses.length} licenses, ${meta.users.length} users, ` +
      `${cases.length} cases, ${count("nodes")} nodes, ${count("edges")} edges, ${count("evidence")} evidence items`,
  );
  console.log(`questions.jsonl: ${lines.length} lines`);
}
