// What the claim-level support checks (issue 13 §1) add to an answer: an answer over a context of 20 evidence snippets
// (the demo workspace's texts, neutralised as the model sees them) with 20 claims and 20 explanation steps, checked
// as validateAnswer checks them. Figures are printed, never asserted. Budget: ≤ 5 ms added per answer.
//
//   npm run bench -- grounding [--iterations 300] [--case case-harbor]
import { cpus, loadavg } from "node:os";
import { parseArgs } from "node:util";
import { isDirective, repeatsDirective } from "../lib/graphrag/directives";
import { SupportChecker } from "../lib/graphrag/ground";
import { splitSentences } from "../lib/graphrag/text";
import { validateAnswer, type ModelOutput } from "../lib/graphrag/validate";
import { demoContext, percentile, printTable } from "./support";

export default async function main(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: { iterations: { type: "string", default: "300" }, case: { type: "string", default: "case-harbor" } },
  });
  const iterations = Number(values.iterations);
  // The context: 20 snippets as the model sees them, their linked nodes, the edges among those.
  const neutraliseStarted = performance.now();
  const { demo: c, context: ctx } = demoContext(values.case!);
  const neutraliseMs = performance.now() - neutraliseStarted;
  const evidence = ctx.evidenceSnippets;

  // The answer: one claim per snippet (its first sentence, and every fourth with a drifted number), one step per
  // snippet citing it and its first linked node.
  const claims = evidence.map((s, i) => {
    const first = splitSentences(s.text)[0].replace(/[.!?]+$/, "");
    return { text: i % 4 === 3 ? first.replace(/\d+/, (d) => String(Number(d) + 7)) : first, id: s.id };
  });
  const output: ModelOutput = {
    responseType: "answer",
    answerText: claims.map((x) => `${x.text} [evidence: ${x.id}].`).join(" "),
    citations: claims.map((x, i) => ({ evidenceId: x.id, claimId: `CLM-${i + 1}` })),
    explanationSteps: evidence.map((s, i) => ({
      stepNumber: i + 1,
      claim: `${s.id} (${s.type.replace(/_/g, " ")}) states: ${splitSentences(s.text)[0]}`,
      citations: [s.id, ...s.nodeIds.slice(0, 1)],
    })),
    unknowns: [],
    confidence: 0.8,
    confidenceJustification: "bench",
  };

  // Wall time, and this process's CPU time (the machine is shared: CPU time is what the checks themselves cost).
  const cpu: Record<string, number[]> = {};
  const time = (fn: () => void, name = "") => {
    const ms: number[] = [];
    const cpuMs: number[] = [];
    for (let i = 0; i < iterations; i++) {
      const c0 = process.cpuUsage();
      const t = performance.now();
      fn();
      ms.push(performance.now() - t);
      const c = process.cpuUsage(c0);
      cpuMs.push((c.user + c.system) / 1000);
    }
    cpu[name] = cpuMs.sort((a, b) => a - b);
    return ms.sort((a, b) => a - b);
  };
  let verdicts = { supported: 0, partial: 0, unsupported: 0 };
  const checksOf = (n: number) => () => {
    // Exactly what validation adds per answer: a fresh checker (its per-item indexes), every claim and step checked,
    // and the directive checks on every claim and step.
    const checker = new SupportChecker(ctx);
    verdicts = { supported: 0, partial: 0, unsupported: 0 };
    for (const x of claims.slice(0, n)) {
      isDirective(x.text);
      repeatsDirective(x.text, []);
      verdicts[checker.claim(x.text, [x.id]).support]++;
    }
    for (const s of output.explanationSteps.slice(0, n)) {
      isDirective(s.claim);
      checker.step(s.claim, s.citations);
    }
  };
  const checks = checksOf(20);
  const first = (() => {
    const t = performance.now();
    checks();
    return performance.now() - t;
  })();
  const added = time(checks, "added");
  // New evidence every time (nothing memoised for it yet, code already warm): each iteration's snippets differ.
  const original = ctx.evidenceSnippets;
  let round = 0;
  const fresh = time(() => {
    round++;
    ctx.evidenceSnippets = original.map((s) => ({ ...s, text: `${s.text} Copy ${round}.` }));
    checks();
  }, "fresh");
  ctx.evidenceSnippets = original;
  // A typical answer: 6 claims and 6 steps over the same 20-snippet context, evidence never seen before.
  const typical = time(() => {
    round++;
    ctx.evidenceSnippets = original.map((s) => ({ ...s, text: `${s.text} Copy ${round}.` }));
    checksOf(6)();
  }, "typical");
  ctx.evidenceSnippets = original;
  checks();
  const validate = time(() => validateAnswer(output, ctx), "validate");
  const row = (what: string, ms: number[], name = "") => ({
    what,
    "p50 ms": percentile(ms, 50).toFixed(2),
    "p95 ms": percentile(ms, 95).toFixed(2),
    "max ms": ms[ms.length - 1].toFixed(2),
    "CPU p50 ms": cpu[name] ? percentile(cpu[name], 50).toFixed(2) : "",
    "CPU p95 ms": cpu[name] ? percentile(cpu[name], 95).toFixed(2) : "",
  });
  printTable(`Claim-level support checks — ${c.id}: 20 snippets, 20 claims, 20 steps, ${iterations} iterations (budget: ≤ 5 ms added)`, [
    row("20 claims + 20 steps (+ directive checks), evidence seen before", added, "added"),
    row("20 claims + 20 steps, evidence never seen before (memos cold)", fresh, "fresh"),
    row("6 claims + 6 steps, evidence never seen before", typical, "typical"),
    {
      what: "20 claims + 20 steps, first call in the process (regexes compiled, JIT cold)",
      "p50 ms": first.toFixed(2),
      "p95 ms": "",
      "max ms": "",
    },
    row("validateAnswer of the 20-claim answer, whole (citations + checks)", validate, "validate"),
    {
      what: "neutralise 20 snippets (context build, incl. directives), first call",
      "p50 ms": neutraliseMs.toFixed(2),
      "p95 ms": "",
      "max ms": "",
    },
  ]);
  console.log(
    `verdicts: ${JSON.stringify(verdicts)} (every fourth claim has a drifted number); load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")} on ${cpus().length} CPUs`,
  );
}
