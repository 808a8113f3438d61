// What answer-policy enforcement (issue 14) adds to an answer, without the model: the demo tenant's bundle (9
// policies, 10 rules), an answer over 20 snippets of the demo case (the offline model's, validated), the step's
// pre-generation (domain, rules in force, scaffold) and post-generation (bindings, detectors, Z3 evaluation of every
// rule, judge, coverage, score) with Z3 warm. Printed, never asserted. Budget: ≤ 10 ms per answer.
//
//   npm run bench -- policy [--iterations 300]
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { extractiveAnswer } from "../lib/adapters/model/offline";
import { closeZ3, Z3PolicySolver } from "../lib/adapters/solver/z3";
import { preparePolicy } from "../lib/graphrag/policy-step";
import type { RawContext } from "../lib/graphrag/types";
import { validateAnswer, type ModelOutput } from "../lib/graphrag/validate";
import type { CaseRef } from "../lib/ports";
import { compilePolicies } from "../lib/policy/compile";
import { parsePoliciesJsonl } from "../lib/policy/schema";
import type { AnswerPolicyPorts } from "../lib/policy-ports";
import { demoContext, percentile, printTable } from "./support";

export default async function main(argv: string[]) {
  const { values } = parseArgs({ args: argv, options: { iterations: { type: "string", default: "300" } } });
  const iterations = Number(values.iterations);
  const { demo: c, context } = demoContext("case-harbor");
  const ctx: RawContext = { ...context, edges: [] };
  const protectedEntities = c.nodes
    .filter((n) => n.properties.protected)
    .map((n) => ({ id: n.id, category: String(n.properties.protected), names: [String(n.properties.name ?? n.id)] }));

  const solver = new Z3PolicySolver();
  const compileStarted = performance.now();
  const bundle = await compilePolicies(parsePoliciesJsonl(readFileSync("prisma/demo/policies/metro-pd.jsonl", "utf8")), solver);
  const compileMs = performance.now() - compileStarted;
  const ports: AnswerPolicyPorts = {
    solver,
    store: { activeBundle: async () => bundle, protectedEntities: async () => protectedEntities },
  };
  const caseRef: CaseRef = { id: c.id, tenantId: "metro-pd", title: c.id, classification: "CUI", hiddenCounts: "case" };
  const asker = {
    userId: "u",
    tenantId: "metro-pd",
    clearance: "SECRET" as const,
    needToKnow: ["narcotics", "homicide"],
    roles: ["investigator"],
  };
  const question = "Who met at Pier 9 and what was in the van?";
  const typical = validateAnswer(extractiveAnswer(ctx, question) as ModelOutput, ctx);
  const leaking: ModelOutput = {
    ...(extractiveAnswer(ctx, question) as ModelOutput),
    unknowns: ["The victim's SSN 123-45-6789 is not in the evidence."],
  };
  const leak = validateAnswer(leaking, ctx);
  const never = async () => {
    throw new Error("no regeneration in the bench");
  };

  const once = async (draft: typeof typical) => {
    const run = (await preparePolicy(ports, {
      asker,
      caseRef,
      question,
      model: { provider: "offline" } as never,
      now: new Date("2026-01-01T00:00:00Z"),
    }))!;
    return run.enforce(draft, ctx, never);
  };
  const firstStarted = performance.now();
  const firstOutcome = await once(typical);
  const firstMs = performance.now() - firstStarted;
  const time = async (draft: typeof typical) => {
    const ms: number[] = [];
    let last = firstOutcome;
    for (let i = 0; i < iterations; i++) {
      const t = performance.now();
      last = await once(draft);
      ms.push(performance.now() - t);
    }
    return { ms: ms.sort((a, b) => a - b), last };
  };
  const pass = await time(typical);
  const esc = await time(leak);
  const row = (what: string, r: { ms: number[]; last: typeof firstOutcome }) => ({
    what,
    action: r.last.compliance.action,
    score: r.last.compliance.score,
    "p50 ms": percentile(r.ms, 50).toFixed(2),
    "p95 ms": percentile(r.ms, 95).toFixed(2),
    "max ms": r.ms[r.ms.length - 1]!.toFixed(2),
  });
  printTable(
    `Answer-policy enforcement — demo metro-pd bundle (${bundle.bundle_metadata.rule_count} rules), case-harbor, 20 snippets, ${typical.claims.length} claims, ${iterations} iterations, Z3 warm (budget: ≤ 10 ms)`,
    [
      row("typical answer (pre- + post-generation, one attempt)", pass),
      row("answer leaking an SSN in an unknown (escalated)", esc),
      {
        what: "first answer in the process (Z3 model and regexes cold)",
        action: firstOutcome.compliance.action,
        score: firstOutcome.compliance.score,
        "p50 ms": firstMs.toFixed(2),
        "p95 ms": "",
        "max ms": "",
      },
      {
        what: "compile the demo policies (9 policies, pairwise Z3 checks)",
        action: "",
        score: "",
        "p50 ms": compileMs.toFixed(2),
        "p95 ms": "",
        "max ms": "",
      },
    ],
  );
  console.log(
    `load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")} on ${cpus().length} CPUs`,
  );
  await closeZ3();
}
