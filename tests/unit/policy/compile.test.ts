import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { closeZ3, Z3PolicySolver } from "@/lib/adapters/solver/z3";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { loadBundle, serializeBundle } from "@/lib/policy/bundle";
import { compilePolicies, compileSummary } from "@/lib/policy/compile";
import { parsePoliciesJsonl } from "@/lib/policy/schema";

const solver = new Z3PolicySolver();
afterAll(() => closeZ3());

const line = (p: Record<string, unknown>) => JSON.stringify(p);
const policy = (
  id: string,
  conditions: unknown[],
  actions: unknown[],
  priority = "agency",
  owner = `Owner of ${id}`,
  domain = "general",
) => ({
  policy_id: id,
  conditions,
  actions,
  metadata: { source: "test.md", domain, priority, owner, regulatory_linkage: [] },
});

async function compile(text: string) {
  return compilePolicies(parsePoliciesJsonl(text), solver);
}

function codeOf(fn: () => unknown): { code: string; issues: Array<{ path?: string; message: string }> } {
  try {
    fn();
  } catch (err) {
    if (err instanceof CasegraphError) return { code: err.code, issues: err.issues };
    throw err;
  }
  throw new Error("expected a CasegraphError");
}

describe("policy compile (seed 001 stage 2)", () => {
  it("is deterministic: same policies in any line order → byte-identical bundle and hash", async () => {
    const text = readFileSync("tests/fixtures/policies/basic.jsonl", "utf8");
    const reversed = text.trim().split("\n").reverse().join("\n");
    const [a, b] = [await compile(text), await compile(reversed)];
    expect(serializeBundle(a)).toBe(serializeBundle(b));
    expect(a.bundle_metadata.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(loadBundle(serializeBundle(a))).toEqual(a);
  });

  it("builds the IR and the decision graph: prohibited → NOT(action), nodes bool then enum then numeric, paths in policy_id order", async () => {
    const b = await compile(
      [
        line(
          policy(
            "B-2",
            [
              { type: "time_window", parameter: "evidence_age_days", operator: "<=", value: 2, unit: "weeks" },
              { type: "boolean_flag", parameter: "states_amount", value: true },
            ],
            [{ type: "prohibited", action: "discloses_phone" }],
          ),
        ),
        line(
          policy(
            "A-1",
            [{ type: "enum", parameter: "asker_role", operator: "in", values: ["investigator"] }],
            [
              { type: "prohibited", action: "names_protected_juvenile" },
              { type: "required", action: "cites_evidence" },
            ],
          ),
        ),
      ].join("\n"),
    );
    expect(b.decision_nodes).toEqual(["states_amount", "asker_role", "evidence_age_days"]);
    expect(b.compiled_paths.map((p) => p.rule_id)).toEqual(["A-1#1", "A-1#2", "B-2#1"]);
    expect(b.constraints.map((c) => c.constraint)).toEqual(["NOT(names_protected_juvenile)", "NOT(discloses_phone)"]);
    expect(b.compiled_paths[2]!.path).toEqual([
      { var: "states_amount", tests: [{ op: "==", value: true }] },
      { var: "evidence_age_days", tests: [{ op: "<=", value: 14 }] },
    ]);
    expect(b.variables.evidence_age_days!.type).toBe("int");
    expect(compileSummary(b)).toMatchObject({ ok: true, policyCount: 2, ruleCount: 3, constraintCount: 2, pathCount: 3, conflicts: [] });
  });

  it("Z3 finds a witness for a real conflict and resolves it by the priority lattice", async () => {
    const b = await compile(
      [
        line(
          policy(
            "P-REG",
            [{ type: "enum", parameter: "asker_role", operator: "in", values: ["investigator"] }],
            [{ type: "prohibited", action: "states_amount" }],
            "regulatory",
          ),
        ),
        line(
          policy(
            "P-UNIT",
            [{ type: "amount_threshold", parameter: "answer_max_amount", operator: ">=", value: 10000 }],
            [{ type: "required", action: "states_amount" }],
            "unit",
          ),
        ),
      ].join("\n"),
    );
    expect(b.conflicts).toHaveLength(1);
    const c = b.conflicts[0]!;
    expect(c).toMatchObject({ policies: ["P-REG", "P-UNIT"], action: "states_amount", resolution: "dominance", winner: "P-REG" });
    // The witness is a concrete assignment under which both rules fire.
    expect(c.witness.asker_role).toBe("investigator");
    expect(c.witness.answer_max_amount as number).toBeGreaterThanOrEqual(10000);
    expect(b.dominance_rules).toEqual([
      {
        when: { policies_fire: ["P-REG", "P-UNIT"] },
        then: { mode: "override", enforce: "P-REG", over: "P-UNIT", action: "states_amount" },
      },
    ]);
    expect(b.escalations).toEqual([]);
  });

  it("equal priority → an escalation naming both owners", async () => {
    const b = await compile(
      readFileSync("tests/fixtures/policies/basic.jsonl", "utf8").replace(
        '"operator":">","value":3,"unit":"months"',
        '"operator":">","value":7,"unit":"days"',
      ),
    );
    expect(b.conflicts.map((c) => [c.policies, c.resolution, c.witness])).toEqual([
      [["POL-FRESH", "POL-STALE"], "escalation", { evidence_age_days: expect.any(Number) }],
    ]);
    const age = b.conflicts[0]!.witness.evidence_age_days as number;
    expect(age > 7 && age <= 30).toBe(true);
    expect(b.escalations).toEqual([
      {
        conflict_type: "required_vs_prohibited",
        policies: ["POL-FRESH", "POL-STALE"],
        action: "cites_evidence",
        owners_to_notify: ["Unit A", "Unit B"],
      },
    ]);
  });

  it("disjoint conditions are not conflicts (windows that cannot overlap, contradictory flags, different domains)", async () => {
    const basic = await compile(readFileSync("tests/fixtures/policies/basic.jsonl", "utf8")); // ≤ 30 days vs > 90 days
    expect(basic.conflicts).toEqual([]);
    const flags = await compile(
      [
        line(
          policy(
            "F-1",
            [{ type: "boolean_flag", parameter: "states_amount", value: true }],
            [{ type: "required", action: "cites_financial_record" }],
          ),
        ),
        line(
          policy(
            "F-2",
            [{ type: "boolean_flag", parameter: "states_amount", value: false }],
            [{ type: "prohibited", action: "cites_financial_record" }],
          ),
        ),
        line(policy("D-1", [], [{ type: "required", action: "discloses_phone" }], "agency", "o", "victims")),
        line(policy("D-2", [], [{ type: "prohibited", action: "discloses_phone" }], "agency", "o", "financial")),
        line(
          policy(
            "E-1",
            [{ type: "enum", parameter: "asker_role", operator: "in", values: ["supervisor"] }],
            [{ type: "required", action: "cites_evidence" }],
          ),
        ),
        line(
          policy(
            "E-2",
            [{ type: "enum", parameter: "asker_role", operator: "not_in", values: ["supervisor"] }],
            [{ type: "prohibited", action: "cites_evidence" }],
          ),
        ),
      ].join("\n"),
    );
    expect(flags.conflicts).toEqual([]);
  });

  it("schema errors name their line; unbound variables and wrong types are coded errors", () => {
    const bad = [
      line(policy("OK-1", [], [{ type: "required", action: "cites_evidence" }])),
      "",
      '{"policy_id":"X","conditions":[],"actions":[],"metadata":{}}',
      "{not json",
    ].join("\n");
    const e = codeOf(() => parsePoliciesJsonl(bad));
    expect(e.code).toBe("CG-POLICY-080");
    expect(e.issues.map((i) => i.path)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^line 3: \$\.actions/),
        expect.stringMatching(/^line 3: \$\.metadata\.source/),
        "line 4",
      ]),
    );
    const unbound = parsePoliciesJsonl(
      line(
        policy("U-1", [{ type: "boolean_flag", parameter: "has_receipt", value: true }], [{ type: "required", action: "cites_evidence" }]),
      ),
    );
    return compilePolicies(unbound, solver).then(
      () => expect.unreachable(),
      (err: CasegraphError) => {
        expect(err.code).toBe("CG-POLICY-081");
        expect(err.issues[0]!.path).toBe("line 1: $.conditions[0].parameter");
      },
    );
  });

  it("refuses tampered and dangling bundles when loading", async () => {
    const b = await compile(readFileSync("tests/fixtures/policies/basic.jsonl", "utf8"));
    expect(codeOf(() => loadBundle("{")).code).toBe("CG-POLICY-082");
    expect(codeOf(() => loadBundle({ ...b, weights: "x" })).code).toBe("CG-POLICY-083");
    const edited = JSON.parse(serializeBundle(b));
    edited.weights.smt = 0.1;
    expect(codeOf(() => loadBundle(edited)).code).toBe("CG-POLICY-084");
  });

  it("extractors declared by a policy bind custom answer facts", async () => {
    const b = await compile(
      line({
        ...policy("X-1", [], [{ type: "prohibited", action: "speculates_guilt" }]),
        extractors: { speculates_guilt: { pattern: "\\b(?:definitely|clearly) guilty\\b", flags: "i" } },
      }),
    );
    expect(b.variables.speculates_guilt).toEqual({
      type: "bool",
      values: null,
      binding: { kind: "regex", pattern: "\\b(?:definitely|clearly) guilty\\b", flags: "i" },
    });
  });
});
