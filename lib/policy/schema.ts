// Seed 001's Policy schema (policies.jsonl: one policy per line) and the vocabulary of variables the enforcement step
// binds. Parsing is strict: an unknown field, operator or priority is a coded error naming its line, never ignored.
import { z } from "zod";
import { CasegraphError, type FailureIssue } from "../domain/failure-codes";
import { fileLines } from "../domain/file-text";

/** Seed 001's priority lattice with Casegraph's names: 1 is the highest. */
export const PRIORITY_LATTICE = { regulatory: 1, core_values: 2, agency: 3, unit: 4, situational: 5 } as const;
export type Priority = keyof typeof PRIORITY_LATTICE;

const identifier = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, "a lower-case identifier (a-z, 0-9, _), at most 64 characters");
const comparison = z.enum(["<", "<=", "==", "!=", ">=", ">"]);

const booleanFlag = z.strictObject({ type: z.literal("boolean_flag"), parameter: identifier, value: z.boolean() });
const timeWindow = z.strictObject({
  type: z.literal("time_window"),
  parameter: identifier,
  operator: comparison,
  value: z.number().int().min(0).max(36_500),
  unit: z.enum(["days", "weeks", "months", "years"]),
});
const amountThreshold = z.strictObject({
  type: z.literal("amount_threshold"),
  parameter: identifier,
  operator: comparison,
  value: z.number().finite(),
});
const enumCondition = z.strictObject({
  type: z.literal("enum"),
  parameter: identifier,
  operator: z.enum(["in", "not_in"]),
  values: z.array(z.string().min(1).max(100)).min(1).max(50),
});

export const conditionSchema = z.discriminatedUnion("type", [booleanFlag, timeWindow, amountThreshold, enumCondition]);
export type Condition = z.infer<typeof conditionSchema>;

export const actionSchema = z.strictObject({ type: z.enum(["required", "prohibited"]), action: identifier });
export type PolicyAction = z.infer<typeof actionSchema>;

/** A bundle-wide answer fact found by a regular expression (seed 001's constraint-derived patterns). */
export const extractorSchema = z.strictObject({
  pattern: z.string().min(1).max(500),
  flags: z
    .string()
    .regex(/^[imsu]*$/)
    .default("i"),
});
export type ExtractorDecl = z.infer<typeof extractorSchema>;

export const policySchema = z.strictObject({
  policy_id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, "letters, digits, '.', '_' or '-', at most 100"),
  conditions: z.array(conditionSchema).max(20),
  actions: z.array(actionSchema).min(1).max(20),
  metadata: z.strictObject({
    source: z.string().min(1).max(300),
    domain: identifier,
    priority: z.enum(Object.keys(PRIORITY_LATTICE) as [Priority, ...Priority[]]),
    owner: z.string().min(1).max(200),
    regulatory_linkage: z.array(z.string().min(1).max(300)).max(20),
    effective_date: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, "YYYY-MM-DD")
      .optional(),
  }),
  /** Answer facts this policy needs that no built-in detector provides: name → regular expression. */
  extractors: z.record(identifier, extractorSchema).optional(),
});
export type Policy = z.infer<typeof policySchema>;

export interface ParsedPolicy {
  policy: Policy;
  /** 1-based line in policies.jsonl. */
  line: number;
}

export const MAX_POLICIES = 500;

/**
 * Parses policies.jsonl. Blank lines and lines starting with `//` are skipped. Every problem is collected with its
 * line (`line 3: $.metadata.priority: …`), then CG-POLICY-080 is thrown with all of them: nothing is half-parsed.
 */
export function parsePoliciesJsonl(text: string): ParsedPolicy[] {
  const issues: FailureIssue[] = [];
  const out: ParsedPolicy[] = [];
  const lines = fileLines(text);
  lines.forEach((raw, i) => {
    const line = i + 1;
    const trimmed = raw.trim();
    if (!trimmed || trimmed.startsWith("//")) return;
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch (err) {
      issues.push({ path: `line ${line}`, message: `not valid JSON (${(err as Error).message})` });
      return;
    }
    const parsed = policySchema.safeParse(json);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) issues.push({ path: `line ${line}: ${jsonPath(issue.path)}`, message: issue.message });
      return;
    }
    out.push({ policy: parsed.data, line });
  });
  if (out.length > MAX_POLICIES) issues.push({ path: `line ${out[MAX_POLICIES]!.line}`, message: `at most ${MAX_POLICIES} policies` });
  const seen = new Map<string, number>();
  for (const p of out) {
    const first = seen.get(p.policy.policy_id);
    if (first !== undefined)
      issues.push({ path: `line ${p.line}: $.policy_id`, message: `duplicate policy_id "${p.policy.policy_id}" (first on line ${first})` });
    else seen.set(p.policy.policy_id, p.line);
    const actions = new Map<string, string>();
    for (const a of p.policy.actions) {
      const other = actions.get(a.action);
      if (other && other !== a.type)
        issues.push({ path: `line ${p.line}: $.actions`, message: `"${a.action}" is both required and prohibited by the same policy` });
      actions.set(a.action, a.type);
    }
  }
  if (issues.length === 0 && out.length === 0) issues.push({ path: "line 1", message: "no policies" });
  if (issues.length)
    throw new CasegraphError(
      "CG-POLICY-080",
      `${issues.length} problem(s) in the policies: ${issues[0]!.path}: ${issues[0]!.message}`,
      issues.slice(0, 100),
    );
  return out;
}

/** The policies as JSON Lines, one per line in policy_id order (what the admin editor saves and `extract` writes). */
export function policiesToJsonl(policies: readonly Policy[]): string {
  return (
    [...policies]
      .sort((a, b) => cmp(a.policy_id, b.policy_id))
      .map((p) => JSON.stringify(p))
      .join("\n") + "\n"
  );
}

export function jsonPath(path: ReadonlyArray<PropertyKey>): string {
  return "$" + path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("");
}

/** Code-point order (locale-independent, so output is byte-identical everywhere). */
export const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
