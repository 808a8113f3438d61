// compiled_policy_bundle.json (seed 001's schema, plus what Casegraph needs to enforce it without the policies:
// extractors, conflicts with their witnesses, weights, thresholds, domain keywords). The one artifact between compile
// and enforcement. loadBundle() checks its shape, its SHA-256 and its referential integrity: a bundle that fails any
// of them is a coded error, never half-used.
import { createHash } from "node:crypto";
import { z } from "zod";
import { canonicalJson, canonicalJsonPretty } from "../domain/canonical-json";
import { CasegraphError, type FailureIssue } from "../domain/failure-codes";
import { jsonPath, PRIORITY_LATTICE } from "./schema";

export const BUNDLE_SCHEMA_VERSION = "1.0";

const op = z.enum(["<", "<=", "==", "!=", ">=", ">", "in", "not_in"]);
const value = z.union([z.boolean(), z.number().finite(), z.array(z.string())]);
export const testSchema = z.strictObject({ var: z.string(), op, value });
export type Test = z.infer<typeof testSchema>;
export type WitnessValue = boolean | number | string;

const binding = z.discriminatedUnion("kind", [
  z.strictObject({
    kind: z.literal("request"),
    fact: z.enum(["asker_role", "asker_clearance", "case_classification", "question_domain", "evidence_age_days"]),
  }),
  z.strictObject({ kind: z.literal("detector"), detector: z.string() }),
  z.strictObject({ kind: z.literal("regex"), pattern: z.string().min(1).max(500), flags: z.string().regex(/^[imsu]*$/) }),
]);

const ruleMetadata = z.strictObject({
  source: z.string(),
  domain: z.string(),
  priority: z.enum(Object.keys(PRIORITY_LATTICE) as [keyof typeof PRIORITY_LATTICE, ...Array<keyof typeof PRIORITY_LATTICE>]),
  owner: z.string(),
  regulatory_linkage: z.array(z.string()),
  effective_date: z.string().nullable(),
});

const pair = z.tuple([z.string(), z.string()]);

export const bundleSchema = z.strictObject({
  schema_version: z.literal(BUNDLE_SCHEMA_VERSION),
  variables: z.record(
    z.string(),
    z.strictObject({ type: z.enum(["bool", "int", "float", "enum"]), values: z.array(z.string()).nullable(), binding }),
  ),
  conditional_rules: z.array(
    z.strictObject({
      rule_id: z.string(),
      policy_id: z.string(),
      conditions: z.array(testSchema),
      action: z.strictObject({ type: z.enum(["required", "prohibited"]), action: z.string() }),
      metadata: ruleMetadata,
    }),
  ),
  constraints: z.array(z.strictObject({ rule_id: z.string(), policy_id: z.string(), constraint: z.string(), scope: z.string() })),
  decision_nodes: z.array(z.string()),
  compiled_paths: z.array(
    z.strictObject({
      rule_id: z.string(),
      policy_id: z.string(),
      path: z.array(z.strictObject({ var: z.string(), tests: z.array(z.strictObject({ op, value })) })),
      leaf_action: z.string(),
    }),
  ),
  conflicts: z.array(
    z.strictObject({
      policies: pair,
      rules: pair,
      action: z.string(),
      witness: z.record(z.string(), z.union([z.boolean(), z.number(), z.string()])),
      resolution: z.enum(["dominance", "escalation"]),
      winner: z.string().optional(),
    }),
  ),
  dominance_rules: z.array(
    z.strictObject({
      when: z.strictObject({ policies_fire: pair }),
      then: z.strictObject({ mode: z.literal("override"), enforce: z.string(), over: z.string(), action: z.string() }),
    }),
  ),
  escalations: z.array(
    z.strictObject({
      conflict_type: z.literal("required_vs_prohibited"),
      policies: pair,
      action: z.string(),
      owners_to_notify: z.array(z.string()),
    }),
  ),
  priority_lattice: z.record(z.string(), z.number().int()),
  domain_keywords: z.record(z.string(), z.array(z.string())),
  weights: z.strictObject({ smt: z.number().min(0), judge: z.number().min(0), regex: z.number().min(0), coverage: z.number().min(0) }),
  thresholds: z.strictObject({ pass: z.number(), auto_correct: z.number(), regenerate: z.number() }),
  bundle_metadata: z.strictObject({
    policy_count: z.number().int().min(0),
    rule_count: z.number().int().min(0),
    constraint_count: z.number().int().min(0),
    path_count: z.number().int().min(0),
    conflict_count: z.number().int().min(0),
    policy_ids: z.array(z.string()),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
  }),
});

export type CompiledBundle = z.infer<typeof bundleSchema>;
export type BundleRule = CompiledBundle["conditional_rules"][number];
export type BundleConflict = CompiledBundle["conflicts"][number];

export const DEFAULT_WEIGHTS = { smt: 0.55, judge: 0.25, regex: 0.1, coverage: 0.1 } as const;
export const DEFAULT_THRESHOLDS = { pass: 0.95, auto_correct: 0.85, regenerate: 0.7 } as const;

/** The bundle's hash: SHA-256 of its canonical JSON with bundle_metadata.sha256 left out. */
export function bundleHash(
  bundle: Omit<CompiledBundle, "bundle_metadata"> & {
    bundle_metadata: Omit<CompiledBundle["bundle_metadata"], "sha256"> & { sha256?: string };
  },
): string {
  const { sha256: _omit, ...meta } = bundle.bundle_metadata;
  return createHash("sha256")
    .update(canonicalJson({ ...bundle, bundle_metadata: meta }))
    .digest("hex");
}

/** The file's bytes: canonical (sorted keys), pretty, newline-terminated — byte-identical for the same policies. */
export function serializeBundle(bundle: CompiledBundle): string {
  return canonicalJsonPretty(bundle);
}

/**
 * Parses and checks a bundle: JSON → CG-POLICY-082; shape → CG-POLICY-083 (with JSON paths); hash → CG-POLICY-084;
 * referential integrity (every rule, path, constraint, conflict, dominance rule and escalation names rules, policies
 * and variables the bundle holds; regex extractors compile) → CG-POLICY-085.
 */
export function loadBundle(input: string | unknown): CompiledBundle {
  let json: unknown = input;
  if (typeof input === "string") {
    try {
      json = JSON.parse(input);
    } catch (err) {
      throw new CasegraphError("CG-POLICY-082", undefined, [{ message: (err as Error).message }]);
    }
  }
  const parsed = bundleSchema.safeParse(json);
  if (!parsed.success) {
    throw new CasegraphError(
      "CG-POLICY-083",
      undefined,
      parsed.error.issues.slice(0, 50).map((i) => ({ path: jsonPath(i.path), message: i.message })),
    );
  }
  const bundle = parsed.data;
  if (bundleHash(bundle) !== bundle.bundle_metadata.sha256) throw new CasegraphError("CG-POLICY-084");
  const problems = integrityProblems(bundle);
  if (problems.length) throw new CasegraphError("CG-POLICY-085", `${problems[0]!.path}: ${problems[0]!.message}`, problems.slice(0, 50));
  return bundle;
}

export function integrityProblems(b: CompiledBundle): FailureIssue[] {
  const out: FailureIssue[] = [];
  const vars = new Set(Object.keys(b.variables));
  const rules = new Map(b.conditional_rules.map((r) => [r.rule_id, r]));
  const policies = new Set(b.bundle_metadata.policy_ids);
  const checkTest = (path: string, t: { var: string }) => {
    if (!vars.has(t.var)) out.push({ path, message: `unknown variable "${t.var}"` });
  };
  if (rules.size !== b.conditional_rules.length) out.push({ path: "$.conditional_rules", message: "duplicate rule_id" });
  b.conditional_rules.forEach((r, i) => {
    if (!policies.has(r.policy_id)) out.push({ path: `$.conditional_rules[${i}].policy_id`, message: `unknown policy "${r.policy_id}"` });
    r.conditions.forEach((t, j) => checkTest(`$.conditional_rules[${i}].conditions[${j}]`, t));
    if (b.variables[r.action.action]?.type !== "bool")
      out.push({ path: `$.conditional_rules[${i}].action`, message: `"${r.action.action}" is not a boolean variable` });
  });
  b.constraints.forEach((c, i) => {
    const r = rules.get(c.rule_id);
    if (!r || r.policy_id !== c.policy_id || r.action.type !== "prohibited")
      out.push({ path: `$.constraints[${i}]`, message: `names no prohibition rule "${c.rule_id}"` });
  });
  b.compiled_paths.forEach((p, i) => {
    if (!rules.has(p.rule_id)) out.push({ path: `$.compiled_paths[${i}].rule_id`, message: `unknown rule "${p.rule_id}"` });
    p.path.forEach((s, j) => {
      if (!b.decision_nodes.includes(s.var))
        out.push({ path: `$.compiled_paths[${i}].path[${j}].var`, message: `"${s.var}" is not a decision node` });
    });
  });
  b.decision_nodes.forEach((v, i) => {
    if (!vars.has(v)) out.push({ path: `$.decision_nodes[${i}]`, message: `unknown variable "${v}"` });
  });
  b.conflicts.forEach((c, i) => {
    c.rules.forEach((id) => !rules.has(id) && out.push({ path: `$.conflicts[${i}].rules`, message: `unknown rule "${id}"` }));
    Object.keys(c.witness).forEach(
      (v) => !vars.has(v) && out.push({ path: `$.conflicts[${i}].witness`, message: `unknown variable "${v}"` }),
    );
  });
  const pairs: Array<[string, readonly string[]]> = [
    ...b.dominance_rules.map(
      (d, i) => [`$.dominance_rules[${i}]`, [...d.when.policies_fire, d.then.enforce, d.then.over]] as [string, string[]],
    ),
    ...b.escalations.map((e, i) => [`$.escalations[${i}]`, e.policies] as [string, string[]]),
  ];
  for (const [path, ids] of pairs) for (const id of ids) if (!policies.has(id)) out.push({ path, message: `unknown policy "${id}"` });
  for (const [name, def] of Object.entries(b.variables)) {
    if (def.binding.kind === "regex") {
      try {
        new RegExp(def.binding.pattern, def.binding.flags);
      } catch {
        out.push({ path: `$.variables.${name}.binding.pattern`, message: "not a valid regular expression" });
      }
    }
    if (def.type === "enum" && !def.values?.length) out.push({ path: `$.variables.${name}.values`, message: "an enum needs values" });
  }
  return out;
}
