// The answer-policy step of the pipeline (issue 14, seed 001 stage 3), behind lib/policy-ports.ts. No active bundle →
// no step: prepare() returns null and the pipeline runs as before. Otherwise, before generation it classifies the
// question's domain and selects the rules in force (their scaffold and invariants go into the system prompt, and the
// prompt version names the bundle); after validation it runs the four checks, scores the answer and routes it —
// PASS delivers, AUTO_CORRECT regenerates once with the violations as hints, REGENERATE up to twice with "DO NOT"
// directives, ESCALATE holds the draft for a supervisor (lib/graphrag/hold.ts) and gives the asker a fixed holding
// reply. The offline model cannot take hints: its "regeneration" drops the claims, steps and unknowns that carry a
// violation.
import { z } from "zod";
import type { AnswerPolicyPorts } from "../policy-ports";
import type { AnswerModel, CaseRef } from "../ports";
import type { ProtectedEntity } from "../policy/detectors";
import {
  assess,
  nextStep,
  phrase,
  planEnforcement,
  type Assessment,
  type Compliance,
  type EnforcementPlan,
  type RequestFacts,
} from "../policy/enforce";
import { stripMarkers } from "./claims";
import { validateAnswer, type ModelOutput, type ValidatedAnswer } from "./validate";
import type { AuditFacts } from "./audit";
import type { AnswerCompliance, Asker, RawContext } from "./types";

/** A regeneration: the model asked again with `extraSystem` appended (hints or directives), validated like the first. */
export type Regenerate = (extraSystem: string) => Promise<ValidatedAnswer>;

export interface PolicyOutcome {
  validated: ValidatedAnswer;
  compliance: Compliance;
  escalate: boolean;
  /** The text the detectors read (violations' hits are offsets into it), for the review page. */
  checkedText: string;
}

export interface PolicyRun {
  plan: EnforcementPlan;
  /** Appended to the system prompt of every attempt. */
  system: string;
  promptSuffix: string;
  enforce(first: ValidatedAnswer, rawContext: RawContext, regenerate: Regenerate): Promise<PolicyOutcome>;
}

const today = (now: Date) => now.toISOString().slice(0, 10);

export async function preparePolicy(
  ports: AnswerPolicyPorts | undefined,
  input: { asker: Asker; caseRef: CaseRef; question: string; model: AnswerModel; now: Date },
): Promise<PolicyRun | null> {
  if (!ports) return null;
  const bundle = await ports.store.activeBundle(input.caseRef.tenantId);
  if (!bundle) return null;
  let plan = planEnforcement(bundle, { question: input.question, today: today(input.now) });
  // Keyword confidence under 0.6: a generative model may classify instead (temperature 0, one of the bundle's domains).
  const domainScoped = bundle.conditional_rules.some((r) => r.metadata.domain !== "general");
  if (domainScoped && plan.domain.confidence < 0.6 && input.model.provider !== "offline") {
    const guess = await classifyWithModel(input.model, input.question, bundle.variables.question_domain?.values ?? ["general"]).catch(
      () => null,
    );
    if (guess) plan = planEnforcement(bundle, { question: input.question, today: today(input.now) }, { domain: guess, confidence: 0.6 });
  }
  const request: RequestFacts = {
    askerRoles: input.asker.roles ?? [],
    askerClearance: String(input.asker.clearance),
    caseClassification: String(input.caseRef.classification),
  };
  let entities: Promise<ProtectedEntity[]> | undefined;
  const protectedEntities = () =>
    (entities ??= ports.store.protectedEntities({ tenantId: input.caseRef.tenantId, caseId: input.caseRef.id }));

  return {
    plan,
    system: plan.promptAddendum,
    promptSuffix: plan.promptSuffix,
    async enforce(first, rawContext, regenerate) {
      const evidence = new Map(rawContext.evidenceSnippets.map((s) => [s.id, s]));
      const check = async (v: ValidatedAnswer) => {
        const { text, parts } = readable(v);
        const cited = [...new Set(v.citations.map((c) => c.evidenceId))].flatMap((id) => (evidence.has(id) ? [evidence.get(id)!] : []));
        const a = await assess(
          plan,
          request,
          {
            text,
            claims: v.claims,
            removedUnsupported: v.report.claimSupport.unsupported,
            citedEvidence: cited,
            citationCount: cited.length,
          },
          await protectedEntities(),
          ports.solver,
          today(input.now),
        );
        return { ...a, parts, text };
      };
      let current = first;
      let result = await check(current);
      let attempts = 1;
      const spent = { autoCorrect: 0, regenerate: 0 };
      for (;;) {
        const step = result.pii ? "escalate" : nextStep(result.compliance.action, spent);
        if (step === "deliver" || step === "escalate") {
          const compliance: Compliance = { ...result.compliance, action: step === "deliver" ? "PASS" : "ESCALATE", attempts };
          return { validated: current, compliance, escalate: step === "escalate", checkedText: result.text };
        }
        if (step === "auto_correct") spent.autoCorrect++;
        else spent.regenerate++;
        attempts++;
        current =
          input.model.provider === "offline"
            ? dropViolating(current, plan, result, rawContext, input.question)
            : await regenerate(directives(step, result.hints));
        result = await check(current);
      }
    },
  };
}

function directives(step: "auto_correct" | "regenerate", hints: readonly string[]): string {
  const list = hints.map((h, i) => `${i + 1}) ${h}`).join("\n");
  return step === "auto_correct"
    ? `\n\nYOUR PREVIOUS ANSWER VIOLATED THESE ANSWER POLICIES; correct it:\n${list}`
    : `\n\nYOUR PREVIOUS ANSWER VIOLATED THESE ANSWER POLICIES. DO NOT repeat any of it:\n${hints.map((h, i) => `${i + 1}) DO NOT violate: ${h}`).join("\n")}`;
}

/** The text the detectors read (what the asker would read), and where each claim, step and unknown sits in it. */
function readable(v: ValidatedAnswer) {
  const parts: Array<{ kind: "claim" | "step" | "unknown"; index: number; from: number; to: number }> = [];
  let text = "";
  const add = (kind: "claim" | "step" | "unknown", index: number, s: string) => {
    parts.push({ kind, index, from: text.length, to: text.length + s.length });
    text += s + "\n";
  };
  if (v.claims.length) v.claims.forEach((c, i) => add("claim", i, c.text));
  else add("claim", -1, stripMarkers(v.answerText));
  v.explanationSteps.forEach((s, i) => add("step", i, s.claim));
  v.unknowns.forEach((u, i) => add("unknown", i, u));
  return { text, parts };
}

/**
 * The offline model's regeneration: the same answer without the claims, steps and unknowns where a violation was
 * found (or that trigger a rule's condition, e.g. an amount stated without the financial record it needs), and without
 * partly supported claims when the judge scored below 1; then validated again like any model output.
 */
function dropViolating(
  v: ValidatedAnswer,
  plan: EnforcementPlan,
  result: Assessment & { parts: ReturnType<typeof readable>["parts"]; text: string },
  rawContext: RawContext,
  question: string,
): ValidatedAnswer {
  const hits = result.compliance.violations.flatMap((x) => x.hits ?? []);
  // A required action not taken: drop what made its rule fire — the answer facts its conditions test, e.g. the amounts.
  for (const x of result.compliance.violations) {
    const rule = x.kind === "coverage" ? plan.rules.find((r) => r.rule_id === x.ruleId) : undefined;
    for (const t of rule?.conditions ?? []) hits.push(...(result.factHits[t.var] ?? []));
  }
  const bad = (kind: string, index: number) =>
    result.parts.some((p) => p.kind === kind && p.index === index && hits.some((h) => h.at < p.to && h.at + h.length > p.from));
  const dropPartial = result.compliance.checks.judge < 1;
  const claims = v.claims.filter((c, i) => !bad("claim", i) && !(dropPartial && c.support === "partial"));
  const output: ModelOutput = {
    responseType: claims.length ? "answer" : "no_evidence",
    answerText: claims.map((c) => `${c.text} [evidence: ${c.evidenceIds.join(", ")}].`).join(" "),
    citations: claims.flatMap((c) => c.evidenceIds.map((evidenceId) => ({ evidenceId, claimId: c.claimId }))),
    explanationSteps: v.explanationSteps
      .filter((_, i) => !bad("step", i))
      .map((s) => ({ stepNumber: s.stepNumber, claim: s.claim, citations: s.citations })),
    unknowns: v.unknowns.filter((_, i) => !bad("unknown", i)),
    confidence: v.report.modelConfidence,
    confidenceJustification: v.confidenceJustification,
  };
  return validateAnswer(output, rawContext, { question });
}

async function classifyWithModel(model: AnswerModel, question: string, domains: readonly string[]): Promise<string | null> {
  const schema = z.object({ domain: z.enum(domains as [string, ...string[]]) });
  const { text } = await model.generate({
    promptVersion: "policy_domain_v1",
    system: `Classify the investigator's question into exactly one domain: ${domains.join(", ")}. Output JSON {"domain": "..."} only.`,
    prompt: question,
    context: null,
    question,
    attempt: 1,
    schema,
  });
  const parsed = schema.safeParse(JSON.parse(text));
  return parsed.success ? parsed.data.domain : null;
}

export { phrase };

/** The answer policies' verdict on a draft when a bundle is active; without one the first draft stands unchanged. */
export async function enforcePolicies(
  run: PolicyRun | null,
  first: ValidatedAnswer,
  rawContext: RawContext,
  regenerate: Regenerate,
): Promise<{ validated: ValidatedAnswer; outcome: PolicyOutcome | null }> {
  const outcome = run ? await run.enforce(first, rawContext, regenerate) : null;
  return { validated: outcome?.validated ?? first, outcome };
}

/** answer.compliance: the verdict as the answer carries it. */
export function answerCompliance(c: Compliance): AnswerCompliance {
  return {
    bundleSha256: c.bundleSha256,
    score: c.score,
    action: c.action,
    checks: c.checks,
    violations: c.violations.map((v) => ({ policyId: v.policyId, kind: v.kind, detail: v.detail })),
    attempts: c.attempts,
  };
}

/** The verdict as the request's ledger entry records it, with the review its draft waits in (if held). */
export function auditedCompliance(c: Compliance, reviewId: string | null): NonNullable<AuditFacts["compliance"]> {
  return {
    bundleSha256: c.bundleSha256,
    score: c.score,
    action: c.action,
    attempts: c.attempts,
    violations: c.violations.length,
    reviewId,
  };
}
