// Stage 2 (seed 001 "Validation"): policies → IR (typed variables, conditional rules, constraints: a prohibition is
// NOT(action)) → decision graph (decision_nodes ordered bool, enum, numeric; compiled_paths in policy_id order) →
// pairwise conflict detection with the solver (both rules' conditions asserted together; satisfiable + one requires
// what the other prohibits = a conflict, with the solver's witness) → resolution by the priority lattice (dominance)
// or, at equal priority, an escalation naming the owners → one bundle with its SHA-256. Same policies → byte-identical
// bundle: every list is sorted, nothing depends on time or input order.
import { CasegraphError, type FailureIssue } from "../domain/failure-codes";
import {
  bundleHash,
  BUNDLE_SCHEMA_VERSION,
  DEFAULT_THRESHOLDS,
  DEFAULT_WEIGHTS,
  loadBundle,
  type BundleConflict,
  type BundleRule,
  type CompiledBundle,
  type Test,
} from "./bundle";
import { keywordsFor } from "./domains";
import { cmp, PRIORITY_LATTICE, type Condition, type ParsedPolicy } from "./schema";
import type { PolicySolver } from "./solver";
import { builtinVariable, type VariableDef } from "./vocabulary";

const CONDITION_TYPES: Record<Condition["type"], ReadonlyArray<VariableDef["type"]>> = {
  boolean_flag: ["bool"],
  time_window: ["int"],
  amount_threshold: ["int", "float"],
  enum: ["enum"],
};

const DAYS = { days: 1, weeks: 7, months: 30, years: 365 } as const;

/** The variables the policies name, typed and bound; CG-POLICY-081 with line numbers for anything unbound or ill-typed. */
export function buildVariables(policies: readonly ParsedPolicy[]): Record<string, VariableDef> {
  const issues: FailureIssue[] = [];
  const declared = new Map<string, { def: VariableDef; line: number }>();
  for (const { policy, line } of policies) {
    for (const [name, decl] of Object.entries(policy.extractors ?? {})) {
      if (builtinVariable(name)) {
        issues.push({ path: `line ${line}: $.extractors.${name}`, message: `"${name}" is built in and cannot be redefined` });
        continue;
      }
      try {
        new RegExp(decl.pattern, decl.flags);
      } catch {
        issues.push({ path: `line ${line}: $.extractors.${name}.pattern`, message: "not a valid regular expression" });
        continue;
      }
      const def: VariableDef = { type: "bool", values: null, binding: { kind: "regex", pattern: decl.pattern, flags: decl.flags } };
      const prior = declared.get(name);
      if (prior && JSON.stringify(prior.def) !== JSON.stringify(def))
        issues.push({ path: `line ${line}: $.extractors.${name}`, message: `defined differently on line ${prior.line}` });
      else if (!prior) declared.set(name, { def, line });
    }
  }
  const vars: Record<string, VariableDef> = {};
  const domains = new Set<string>(["general"]);
  const resolve = (name: string, where: string): VariableDef | null => {
    const def = vars[name] ?? builtinVariable(name) ?? declared.get(name)?.def ?? null;
    if (!def)
      issues.push({
        path: where,
        message: `"${name}" is not a variable Casegraph binds: use a request fact, a built-in answer fact or declare an extractor`,
      });
    else vars[name] = def;
    return def;
  };
  for (const { policy, line } of policies) {
    domains.add(policy.metadata.domain);
    policy.conditions.forEach((c, i) => {
      const where = `line ${line}: $.conditions[${i}].parameter`;
      const def = resolve(c.parameter, where);
      if (!def) return;
      if (!CONDITION_TYPES[c.type].includes(def.type))
        issues.push({
          path: where,
          message: `"${c.parameter}" is ${def.type}; a ${c.type} condition needs ${CONDITION_TYPES[c.type].join(" or ")}`,
        });
      else if (c.type === "enum") {
        if (c.parameter === "question_domain") c.values.forEach((v) => domains.add(v));
        else {
          const unknown = c.values.filter((v) => !def.values?.includes(v));
          if (unknown.length)
            issues.push({
              path: `line ${line}: $.conditions[${i}].values`,
              message: `not values of ${c.parameter}: ${unknown.join(", ")} (allowed: ${def.values?.join(", ")})`,
            });
        }
      }
    });
    policy.actions.forEach((a, i) => {
      const where = `line ${line}: $.actions[${i}].action`;
      const def = resolve(a.action, where);
      if (def && (def.type !== "bool" || def.binding.kind === "request"))
        issues.push({
          path: where,
          message: `an action must be a boolean answer fact; "${a.action}" is ${def.binding.kind === "request" ? "a request fact" : def.type}`,
        });
    });
  }
  if (issues.length)
    throw new CasegraphError(
      "CG-POLICY-081",
      `${issues.length} problem(s) in the policies: ${issues[0]!.path}: ${issues[0]!.message}`,
      issues.slice(0, 100),
    );
  vars.question_domain = { ...builtinVariable("question_domain")!, values: [...domains].sort(cmp) };
  return Object.fromEntries(
    Object.keys(vars)
      .sort(cmp)
      .map((k) => [k, vars[k]!]),
  );
}

export function conditionToTest(c: Condition): Test {
  switch (c.type) {
    case "boolean_flag":
      return { var: c.parameter, op: "==", value: c.value };
    case "time_window":
      return { var: c.parameter, op: c.operator, value: c.value * DAYS[c.unit] };
    case "amount_threshold":
      return { var: c.parameter, op: c.operator, value: c.value };
    case "enum":
      return { var: c.parameter, op: c.operator, value: [...new Set(c.values)].sort(cmp) };
  }
}

const TYPE_ORDER: Record<VariableDef["type"], number> = { bool: 0, enum: 1, int: 2, float: 2 };

/** Variables tested by some rule, bool first, then enum, then numeric; by name within each group. */
export function decisionNodes(variables: Record<string, VariableDef>, rules: readonly BundleRule[]): string[] {
  const used = new Set(rules.flatMap((r) => r.conditions.map((t) => t.var)));
  return [...used].sort((a, b) => TYPE_ORDER[variables[a]!.type] - TYPE_ORDER[variables[b]!.type] || cmp(a, b));
}

/** The implicit test of a domain-scoped rule: it applies only to questions of its domain ("general" applies to all). */
export function domainTests(r: BundleRule): Test[] {
  return r.metadata.domain === "general" ? [] : [{ var: "question_domain", op: "in", value: [r.metadata.domain] }];
}

export async function compilePolicies(policies: readonly ParsedPolicy[], solver: PolicySolver): Promise<CompiledBundle> {
  const variables = buildVariables(policies);
  const sorted = [...policies].sort((a, b) => cmp(a.policy.policy_id, b.policy.policy_id));

  const rules: BundleRule[] = [];
  for (const { policy } of sorted) {
    const conditions = policy.conditions.map(conditionToTest);
    const actions = [...policy.actions].sort((a, b) => cmp(a.action, b.action) || cmp(a.type, b.type));
    actions.forEach((action, i) => {
      rules.push({
        rule_id: `${policy.policy_id}#${i + 1}`,
        policy_id: policy.policy_id,
        conditions,
        action: { type: action.type, action: action.action },
        metadata: {
          source: policy.metadata.source,
          domain: policy.metadata.domain,
          priority: policy.metadata.priority,
          owner: policy.metadata.owner,
          regulatory_linkage: [...policy.metadata.regulatory_linkage],
          effective_date: policy.metadata.effective_date ?? null,
        },
      });
    });
  }
  const nodes = decisionNodes(variables, rules);
  const order = new Map(nodes.map((n, i) => [n, i]));
  for (const r of rules)
    r.conditions.sort(
      (a, b) => order.get(a.var)! - order.get(b.var)! || cmp(a.op, b.op) || cmp(JSON.stringify(a.value), JSON.stringify(b.value)),
    );

  const constraints = rules
    .filter((r) => r.action.type === "prohibited")
    .map((r) => ({
      rule_id: r.rule_id,
      policy_id: r.policy_id,
      constraint: `NOT(${r.action.action})`,
      scope: r.metadata.domain === "general" ? "always" : r.metadata.domain,
    }));

  const compiledPaths = rules.map((r) => ({
    rule_id: r.rule_id,
    policy_id: r.policy_id,
    path: nodes
      .filter((n) => r.conditions.some((t) => t.var === n))
      .map((n) => ({ var: n, tests: r.conditions.filter((t) => t.var === n).map((t) => ({ op: t.op, value: t.value })) })),
    leaf_action: `${r.action.type}:${r.action.action}`,
  }));

  const { conflicts, dominance, escalations } = await detectConflicts(variables, rules, solver);
  const withoutHash = {
    schema_version: BUNDLE_SCHEMA_VERSION,
    variables,
    conditional_rules: rules,
    constraints,
    decision_nodes: nodes,
    compiled_paths: compiledPaths,
    conflicts,
    dominance_rules: dominance,
    escalations,
    priority_lattice: { ...PRIORITY_LATTICE },
    domain_keywords: keywordsFor(variables.question_domain!.values!),
    weights: { ...DEFAULT_WEIGHTS },
    thresholds: { ...DEFAULT_THRESHOLDS },
    bundle_metadata: {
      policy_count: sorted.length,
      rule_count: rules.length,
      constraint_count: constraints.length,
      path_count: compiledPaths.length,
      conflict_count: conflicts.length,
      policy_ids: sorted.map((p) => p.policy.policy_id),
    },
  } as const;
  const bundle = {
    ...withoutHash,
    bundle_metadata: { ...withoutHash.bundle_metadata, sha256: bundleHash(withoutHash as never) },
  } as CompiledBundle;
  return loadBundle(JSON.parse(JSON.stringify(bundle))); // the same checks a loader makes: a compiled bundle always loads
}

/** Pairwise, in rule order: both rules' conditions (and domains) asserted together; the solver decides. */
async function detectConflicts(variables: Record<string, VariableDef>, rules: readonly BundleRule[], solver: PolicySolver) {
  const conflicts: BundleConflict[] = [];
  for (let i = 0; i < rules.length; i++) {
    for (let j = i + 1; j < rules.length; j++) {
      const [a, b] = [rules[i]!, rules[j]!];
      if (a.policy_id === b.policy_id || a.action.action !== b.action.action || a.action.type === b.action.type) continue;
      const witness = await solver.witness(variables, [...a.conditions, ...domainTests(a), ...b.conditions, ...domainTests(b)]);
      if (!witness) continue;
      const [first, second] = cmp(a.policy_id, b.policy_id) <= 0 ? [a, b] : [b, a];
      const pa = PRIORITY_LATTICE[first.metadata.priority];
      const pb = PRIORITY_LATTICE[second.metadata.priority];
      const winner = pa === pb ? undefined : pa < pb ? first.policy_id : second.policy_id;
      conflicts.push({
        policies: [first.policy_id, second.policy_id],
        rules: [first.rule_id, second.rule_id],
        action: a.action.action,
        witness: Object.fromEntries(
          Object.keys(witness)
            .sort(cmp)
            .map((k) => [k, witness[k]!]),
        ),
        resolution: winner ? "dominance" : "escalation",
        ...(winner ? { winner } : {}),
      });
    }
  }
  conflicts.sort(
    (x, y) =>
      cmp(x.policies.join("\u0000"), y.policies.join("\u0000")) ||
      cmp(x.action, y.action) ||
      cmp(x.rules.join("\u0000"), y.rules.join("\u0000")),
  );
  const byRule = new Map(rules.map((r) => [r.rule_id, r]));
  const seen = new Set<string>();
  const dominance: CompiledBundle["dominance_rules"] = [];
  const escalations: CompiledBundle["escalations"] = [];
  for (const c of conflicts) {
    const key = `${c.policies.join("\u0000")}\u0000${c.action}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (c.winner) {
      const loser = c.policies[0] === c.winner ? c.policies[1] : c.policies[0];
      dominance.push({ when: { policies_fire: c.policies }, then: { mode: "override", enforce: c.winner, over: loser, action: c.action } });
    } else {
      const owners = [...new Set(c.rules.map((id) => byRule.get(id)!.metadata.owner))].sort(cmp);
      escalations.push({ conflict_type: "required_vs_prohibited", policies: c.policies, action: c.action, owners_to_notify: owners });
    }
  }
  return { conflicts, dominance, escalations };
}

export interface CompileSummary {
  ok: true;
  bundleSha256: string;
  policyCount: number;
  ruleCount: number;
  constraintCount: number;
  pathCount: number;
  conflicts: Array<{
    policies: [string, string];
    action: string;
    witness: Record<string, boolean | number | string>;
    resolution: "dominance" | "escalation";
    winner?: string;
  }>;
}

export function compileSummary(b: CompiledBundle): CompileSummary {
  return {
    ok: true,
    bundleSha256: b.bundle_metadata.sha256,
    policyCount: b.bundle_metadata.policy_count,
    ruleCount: b.bundle_metadata.rule_count,
    constraintCount: b.bundle_metadata.constraint_count,
    pathCount: b.bundle_metadata.path_count,
    conflicts: b.conflicts.map((c) => ({
      policies: c.policies,
      action: c.action,
      witness: c.witness,
      resolution: c.resolution,
      ...(c.winner ? { winner: c.winner } : {}),
    })),
  };
}
