// Pre-generation: the question's domain by keyword dictionaries, the rules in force (domain, effective date), the
// scaffold and invariants in the prompt (seed 001 "During-Generation"), and seed 001's routing table.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeZ3, Z3PolicySolver } from "@/lib/adapters/solver/z3";
import type { CompiledBundle } from "@/lib/policy/bundle";
import { compilePolicies } from "@/lib/policy/compile";
import { classifyDomain, keywordsFor } from "@/lib/policy/domains";
import { nextStep, planEnforcement } from "@/lib/policy/enforce";
import { parsePoliciesJsonl } from "@/lib/policy/schema";

const meta = (domain: string, effective_date?: string) => ({
  source: "sop.md",
  domain,
  priority: "agency",
  owner: "O",
  regulatory_linkage: [],
  ...(effective_date ? { effective_date } : {}),
});
const POLICIES = [
  { policy_id: "G-1", conditions: [], actions: [{ type: "prohibited", action: "discloses_ssn" }], metadata: meta("general") },
  {
    policy_id: "F-1",
    conditions: [{ type: "boolean_flag", parameter: "states_amount", value: true }],
    actions: [{ type: "required", action: "cites_financial_record" }],
    metadata: meta("financial"),
  },
  {
    policy_id: "J-1",
    conditions: [{ type: "enum", parameter: "asker_role", operator: "not_in", values: ["supervisor"] }],
    actions: [{ type: "prohibited", action: "names_protected_juvenile" }],
    metadata: meta("juveniles", "2027-01-01"),
  },
]
  .map((p) => JSON.stringify(p))
  .join("\n");

let bundle: CompiledBundle;
beforeAll(async () => {
  bundle = await compilePolicies(parsePoliciesJsonl(POLICIES), new Z3PolicySolver());
});
afterAll(() => closeZ3());

describe("pre-generation", () => {
  it("classifies by keywords, with a confidence; nothing matched → general", () => {
    const dict = keywordsFor(["financial", "juveniles", "general"]);
    expect(classifyDomain("How much money was wired to the bank account?", dict)).toEqual({ domain: "financial", confidence: 1 });
    expect(classifyDomain("Was the minor at the bank?", dict)).toEqual({ domain: "financial", confidence: 0.5 }); // a tie: code-point order
    expect(classifyDomain("Who met at the pier?", dict)).toEqual({ domain: "general", confidence: 0 });
  });

  it("selects the general rules and the question's domain's, already in effect", () => {
    const ids = (q: string, today = "2026-06-01") => planEnforcement(bundle, { question: q, today }).rules.map((r) => r.policy_id);
    expect(ids("How much money moved through the account?")).toEqual(["F-1", "G-1"]);
    expect(ids("What did the juvenile say?")).toEqual(["G-1"]); // J-1 takes effect in 2027
    expect(ids("What did the juvenile say?", "2027-01-01")).toEqual(["G-1", "J-1"]);
    expect(ids("Who met at the pier?")).toEqual(["G-1"]);
  });

  it("puts invariants and the STEP scaffold in the prompt, and names the bundle in the prompt version", () => {
    const plan = planEnforcement(bundle, { question: "How much money moved?", today: "2026-06-01" });
    expect(plan.promptAddendum).toContain("1) NEVER disclose a social-security number. (per G-1, source: sop.md)");
    expect(plan.promptAddendum).toMatch(
      /STEP 1: Determine states amount\. If unknown, DO NOT assume\.\nSTEP 2: If states_amount == true THEN you MUST cite a financial record .*\(per F-1, source: sop\.md\)\nSTEP 3: FINAL/,
    );
    expect(plan.promptSuffix).toBe(`+policy:${bundle.bundle_metadata.sha256.slice(0, 12)}`);
  });

  it("routes as seed 001's table: one auto-correction, two regenerations, then escalation", () => {
    expect(nextStep("PASS", { autoCorrect: 0, regenerate: 0 })).toBe("deliver");
    expect(nextStep("AUTO_CORRECT", { autoCorrect: 0, regenerate: 0 })).toBe("auto_correct");
    expect(nextStep("AUTO_CORRECT", { autoCorrect: 1, regenerate: 0 })).toBe("escalate");
    expect(nextStep("REGENERATE", { autoCorrect: 1, regenerate: 1 })).toBe("regenerate");
    expect(nextStep("REGENERATE", { autoCorrect: 0, regenerate: 2 })).toBe("escalate");
    expect(nextStep("ESCALATE", { autoCorrect: 0, regenerate: 0 })).toBe("escalate");
  });
});
