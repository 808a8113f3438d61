// Answer policies on the pipeline (issue 14 stage 3) with in-memory ports, Z3 as the solver and the AI SDK's mock
// model playing an LLM that leaks, violates a rule and ignores hints.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeZ3, Z3PolicySolver } from "@/lib/adapters/solver/z3";
import { OfflineExtractiveModel } from "@/lib/adapters/model/offline";
import { answerQuestion } from "@/lib/graphrag/answer";
import { ESCALATED_TEXT } from "@/lib/graphrag/hold";
import { PROMPT_VERSION } from "@/lib/graphrag/prompt";
import type { GraphRagResponse } from "@/lib/graphrag/types";
import type { CompiledBundle } from "@/lib/policy/bundle";
import { compilePolicies } from "@/lib/policy/compile";
import type { ProtectedEntity } from "@/lib/policy/detectors";
import { parsePoliciesJsonl } from "@/lib/policy/schema";
import type { AnswerPolicyPorts } from "@/lib/policy-ports";
import type { AnswerModel, EvidenceRecord, HeldAnswer, ReviewQueue } from "@/lib/ports";
import { answerJson, harness, mockLlm, promptsSeen, smallCase, VIEWER, type FakeCase } from "../graphrag/fakes";

const POLICIES = [
  {
    policy_id: "POL-PII-SSN",
    conditions: [],
    actions: [{ type: "prohibited", action: "discloses_ssn" }],
    metadata: {
      source: "privacy.md",
      domain: "general",
      priority: "regulatory",
      owner: "Privacy Office",
      regulatory_linkage: ["Privacy Act"],
    },
  },
  {
    policy_id: "POL-AMOUNT",
    conditions: [{ type: "boolean_flag", parameter: "states_amount", value: true }],
    actions: [{ type: "required", action: "cites_financial_record" }],
    metadata: { source: "financial-sop.md", domain: "general", priority: "agency", owner: "Financial Crimes", regulatory_linkage: [] },
  },
  {
    policy_id: "POL-CI",
    conditions: [],
    actions: [{ type: "prohibited", action: "names_protected_informant" }],
    metadata: { source: "informants.md", domain: "general", priority: "regulatory", owner: "Informant Unit", regulatory_linkage: [] },
  },
]
  .map((p) => JSON.stringify(p))
  .join("\n");

let bundle: CompiledBundle;
const solver = new Z3PolicySolver();
beforeAll(async () => {
  bundle = await compilePolicies(parsePoliciesJsonl(POLICIES), solver);
});
afterAll(() => closeZ3());

const ev = (id: string, type: string, content: string, nodeIds: string[]): EvidenceRecord => ({
  id,
  type,
  content,
  sourceSystem: "RMS",
  collectedAt: "2025-03-05T10:00:00.000Z",
  nodeIds,
  tenantId: "t1",
  classification: "CUI",
  needToKnow: [],
  licenseUses: ["ANALYZE"],
});

function policyCase(withBankRecord = true): FakeCase {
  const c = smallCase();
  c.nodes.push({
    id: "p-ci9",
    name: "CI-9",
    label: "Person",
    properties: { name: "CI-9", protected: "informant" },
    tenantId: "t1",
    classification: "CUI",
    needToKnow: [],
  });
  if (!withBankRecord)
    c.evidence.push(ev("EV-10", "report", "Anna Berg said Boris Kade received 5000 USD for the Dock 7 job.", ["p-boris", "p-anna"]));
  else
    c.evidence.push(
      ev("EV-8", "financial_record", "Bank record: Boris Kade received 5000 USD from Anna Berg on 2 March 2025.", ["p-boris", "p-anna"]),
      ev("EV-9", "intake_form", "Intake form: Anna Berg, SSN 123-45-6789, reported the package at Dock 7.", ["p-anna"]),
      ev("EV-10", "report", "Anna Berg said Boris Kade received 5000 USD for the Dock 7 job.", ["p-boris", "p-anna"]),
    );
  return c;
}

/** The review queue in memory. */
function queue(held: HeldAnswer[]): ReviewQueue {
  return {
    hold: async (h) => void held.push(h),
    discard: async (id) =>
      void held.splice(
        held.findIndex((h) => h.id === id),
        1,
      ),
  };
}

function ports(active: () => CompiledBundle | null = () => bundle): AnswerPolicyPorts {
  return {
    solver,
    store: {
      activeBundle: async () => active(),
      protectedEntities: async (scope) =>
        policyCase()
          .nodes.filter((n) => n.tenantId === scope.tenantId && n.properties.protected)
          .map((n): ProtectedEntity => ({ id: n.id, category: String(n.properties.protected), names: [n.name] })),
    },
  };
}

const Q = { caseId: "case-t", question: "What did Anna Berg and Boris Kade do at Dock 7?" };

async function ask(model: AnswerModel, held: HeldAnswer[], question = Q, withBankRecord = true, extra: FakeCase["evidence"] = []) {
  const c = policyCase(withBankRecord);
  c.evidence.push(...extra);
  const h = harness(model, [c], { answerPolicies: ports(), reviews: queue(held) });
  const out = await answerQuestion(h.deps, { ...VIEWER, roles: ["investigator"] }, question);
  if (!out.ok) throw new Error(JSON.stringify(out.body));
  return { body: out.body as GraphRagResponse, h };
}

describe("answer policies on the pipeline", () => {
  it("an answer that leaks an SSN is escalated: held for review, never delivered, the ledger names the bundle", async () => {
    const { mock, model } = mockLlm(
      answerJson({
        answerText: "Anna Berg met Boris Kade at Dock 7 [evidence: EV-1]. Anna Berg's SSN is 123-45-6789 [evidence: EV-9].",
        citations: [
          { evidenceId: "EV-1", claimId: "CLM-1" },
          { evidenceId: "EV-9", claimId: "CLM-2" },
        ],
      }),
    );
    const held: HeldAnswer[] = [];
    const { body, h } = await ask(model, held);
    const a = body.answer;
    expect(mock.doGenerateCalls).toHaveLength(1); // PII escalates at once: no regeneration
    expect(a.responseType).toBe("escalated");
    expect(a.answerText).toBe(ESCALATED_TEXT);
    expect(a.citations).toEqual([]);
    expect(a.claims).toEqual([]);
    expect(JSON.stringify(a)).not.toContain("123-45-6789");
    expect(a.reviewId).toBe(held[0]!.id);
    expect(a.compliance).toMatchObject({
      bundleSha256: bundle.bundle_metadata.sha256,
      action: "ESCALATE",
      attempts: 1,
      checks: { regex: 0, smt: 0 },
    });
    expect(a.compliance!.violations.map((v) => [v.policyId, v.kind])).toEqual([
      ["POL-PII-SSN", "regex"],
      ["POL-PII-SSN", "smt"],
    ]);
    // The draft waits in the review queue, with the SSN, for a supervisor.
    expect(JSON.stringify(held[0]!.draft)).toContain("123-45-6789");
    expect(held[0]).toMatchObject({
      tenantId: "t1",
      caseId: "case-t",
      askerId: VIEWER.userId,
      bundleSha256: bundle.bundle_metadata.sha256,
    });
    const audit = h.ledger.payloads()[0]!;
    expect(audit.response_type).toBe("escalated");
    expect(audit.answer_policy).toEqual({
      bundle_sha256: bundle.bundle_metadata.sha256,
      score: a.compliance!.score,
      action: "ESCALATE",
      attempts: 1,
      violation_count: 2,
      review_id: a.reviewId,
    });
    expect(audit.prompt_version).toBe(`${PROMPT_VERSION}+policy:${bundle.bundle_metadata.sha256.slice(0, 12)}`);
  });

  it("an escalated answer whose ledger entry cannot be written is withheld and its draft leaves the queue", async () => {
    const { model } = mockLlm(
      answerJson({ answerText: "Anna Berg's SSN is 123-45-6789 [evidence: EV-9].", citations: [{ evidenceId: "EV-9", claimId: "CLM-1" }] }),
    );
    const held: HeldAnswer[] = [];
    const h = harness(model, [policyCase()], { answerPolicies: ports(), reviews: queue(held) });
    h.ledger.failNext = 1;
    const out = await answerQuestion(h.deps, VIEWER, Q);
    expect(out.ok).toBe(false);
    expect(out.body).toMatchObject({ error: { code: "CG-AUDIT-001" } });
    expect(JSON.stringify(out.body)).not.toContain("123-45-6789");
    expect(held).toEqual([]);
  });

  it("a rule violation is auto-corrected with the violation as a hint, then passes", async () => {
    const { mock, model } = mockLlm(
      answerJson({
        answerText: "Boris Kade received 5000 USD for the Dock 7 job [evidence: EV-10].",
        citations: [{ evidenceId: "EV-10", claimId: "CLM-1" }],
      }),
      answerJson({
        answerText: "Boris Kade received 5000 USD from Anna Berg [evidence: EV-8].",
        citations: [{ evidenceId: "EV-8", claimId: "CLM-1" }],
      }),
    );
    const held: HeldAnswer[] = [];
    const { body, h } = await ask(model, held);
    const a = body.answer;
    expect(mock.doGenerateCalls).toHaveLength(2);
    expect(promptsSeen(mock)[0]).toContain("NEVER disclose a social-security number");
    expect(promptsSeen(mock)[1]).toMatch(/VIOLATED THESE ANSWER POLICIES[\s\S]*POL-AMOUNT: the answer must cite a financial record/);
    expect(a.responseType).toBe("answer");
    expect(a.citations.map((c) => c.evidenceId)).toEqual(["EV-8"]);
    expect(a.compliance).toMatchObject({ action: "PASS", attempts: 2, score: 1, violations: [] });
    expect(held).toEqual([]);
    expect(h.ledger.payloads()[0]!.answer_policy).toMatchObject({ action: "PASS", attempts: 2 });
  });

  it("a model that ignores the hints is escalated after its retry", async () => {
    const same = answerJson({
      answerText: "Boris Kade received 5000 USD for the Dock 7 job [evidence: EV-10].",
      citations: [{ evidenceId: "EV-10", claimId: "CLM-1" }],
    });
    const { mock, model } = mockLlm(same, same, same);
    const held: HeldAnswer[] = [];
    const { body } = await ask(model, held);
    expect(mock.doGenerateCalls).toHaveLength(2); // one AUTO_CORRECT attempt, then ESCALATE
    expect(body.answer.responseType).toBe("escalated");
    expect(body.answer.compliance).toMatchObject({ action: "ESCALATE", attempts: 2, checks: { smt: 1, coverage: 0 } });
    expect(held).toHaveLength(1);
  });

  it("REGENERATE: up to two regenerations with DO NOT directives; a model that ignores them twice is escalated", async () => {
    // Half the claims unsupported (judge 0.5) and an amount without the bank record (coverage 0): S = 0.775.
    const same = answerJson({
      answerText: "Boris Kade received 5000 USD for the Dock 7 job [evidence: EV-10]. Boris Kade owns a yacht in Monaco [evidence: EV-2].",
      citations: [
        { evidenceId: "EV-10", claimId: "CLM-1" },
        { evidenceId: "EV-2", claimId: "CLM-2" },
      ],
    });
    const { mock, model } = mockLlm(same, same, same, same);
    const held: HeldAnswer[] = [];
    const { body } = await ask(model, held);
    expect(mock.doGenerateCalls).toHaveLength(3);
    const prompts = promptsSeen(mock);
    expect(prompts[1]).toContain("DO NOT violate: POL-AMOUNT");
    expect(prompts[2]).toContain("DO NOT violate: POL-AMOUNT");
    expect(body.answer.responseType).toBe("escalated");
    expect(body.answer.compliance).toMatchObject({
      action: "ESCALATE",
      attempts: 3,
      checks: { smt: 1, regex: 1, coverage: 0, judge: 0.5 },
    });
    expect(held).toHaveLength(1);
  });

  it("naming a protected informant escalates", async () => {
    const { model } = mockLlm(
      answerJson({
        answerText: "Anna Berg met Boris Kade at Dock 7 [evidence: EV-1]. CI-9 reported it.",
        citations: [{ evidenceId: "EV-1", claimId: "CLM-1" }],
        unknowns: ["Whether CI-9 was present is not documented."],
      }),
    );
    const held: HeldAnswer[] = [];
    // The model was shown the informant (an unknown naming someone nothing shown holds would go in validation).
    const note = ev("EV-11", "handler_note", "Handler's note: CI-9 saw Anna Berg meet Boris Kade at Dock 7.", [
      "p-anna",
      "p-boris",
      "p-ci9",
    ]);
    const { body } = await ask(model, held, Q, true, [note]);
    expect(body.answer.responseType).toBe("escalated");
    expect(body.answer.compliance!.violations.map((v) => v.policyId)).toContain("POL-CI");
  });

  it("the offline model 'regenerates' by dropping the violating claims", async () => {
    const held: HeldAnswer[] = [];
    const question = { caseId: "case-t", question: "How much did Anna Berg say Boris Kade received for the Dock 7 job?" };
    // Without the rule's bank record in the case, the amount the offline model quotes from a report is dropped.
    const { body, h } = await ask(new OfflineExtractiveModel(), held, question, false);
    const a = body.answer;
    expect(held).toEqual([]);
    expect(a.compliance).toMatchObject({ action: "PASS", attempts: 2 });
    // The one claim that answered was the amount: what is left states nothing about it.
    expect(a.claims.every((c) => !c.text.includes("5000"))).toBe(true);
    expect(JSON.stringify([a.answerText, a.explanationSteps])).not.toContain("5000 USD");
    expect(h.ledger.payloads()[0]!.answer_policy).toMatchObject({ action: "PASS", attempts: 2 });
    // With it, an answer that quotes the amount rests on the bank record, and passes as is.
    const withBank = (
      await ask(new OfflineExtractiveModel(), held, { caseId: "case-t", question: "How much did Boris Kade receive on 2 March 2025?" })
    ).body.answer;
    expect(withBank.compliance).toMatchObject({ action: "PASS", attempts: 1 });
    expect(withBank.citations.map((c) => c.evidenceId)).toEqual(["EV-8"]);
  });

  it("a draft from expired evidence gets the same checks; it is held once, for its expiry, with the findings", async () => {
    const expired = policyCase();
    expired.evidence.push({
      ...ev("EV-X", "report", "Helena Strand (SSN 123-45-6789) rented storage unit 14 at the Northgate depot on 9 March 2025.", []),
      validUntil: "2025-06-30T00:00:00.000Z",
    });
    const question = { caseId: "case-t", question: "What happened at the Northgate depot?" };
    for (const [answerText, action] of [
      ["Helena Strand rented storage unit 14 at the Northgate depot [evidence: EV-X].", "PASS"],
      ["Helena Strand (SSN 123-45-6789) rented storage unit 14 at the Northgate depot [evidence: EV-X].", "ESCALATE"],
    ] as const) {
      const { model, mock } = mockLlm(answerJson({ answerText, citations: [{ evidenceId: "EV-X", claimId: "CLM-1" }] }));
      const held: HeldAnswer[] = [];
      const h = harness(model, [expired], { answerPolicies: ports(), reviews: queue(held) });
      const out = await answerQuestion(h.deps, { ...VIEWER, roles: ["investigator"] }, question);
      if (!out.ok) throw new Error(JSON.stringify(out.body));
      expect(promptsSeen(mock)[0]).toContain("NEVER disclose a social-security number");
      const a = out.body.answer;
      expect(a).toMatchObject({ responseType: "escalated", heldFor: "expired_evidence" });
      expect(a.compliance).toBeUndefined(); // the findings describe the draft: they wait with it
      expect(JSON.stringify(out.body)).not.toContain("Helena");
      expect(held).toHaveLength(1);
      expect(held[0]).toMatchObject({
        reason: "expired_evidence",
        bundleSha256: bundle.bundle_metadata.sha256,
        compliance: expect.objectContaining({ action }),
        expiredEvidence: [{ id: "EV-X", expiredAt: "2025-06-30T00:00:00.000Z" }],
      });
      expect(h.ledger.payloads()[0]).toMatchObject({
        hold: { reason: "expired_evidence", review_id: a.reviewId },
        answer_policy: { action, review_id: a.reviewId },
      });
    }
  });

  it("no active bundle: the step is skipped, the prompt and the audit are as before", async () => {
    const { model, mock } = mockLlm(
      answerJson({ answerText: "Anna Berg's SSN is 123-45-6789 [evidence: EV-9].", citations: [{ evidenceId: "EV-9", claimId: "CLM-1" }] }),
    );
    const h = harness(model, [policyCase()], { answerPolicies: ports(() => null), reviews: queue([]) });
    const out = await answerQuestion(h.deps, VIEWER, Q);
    expect(out.ok && out.body.answer.compliance).toBeUndefined();
    expect(promptsSeen(mock)[0]).not.toContain("ANSWER POLICIES");
    expect(h.ledger.payloads()[0]!.prompt_version).toBe(PROMPT_VERSION);
    expect(h.ledger.payloads()[0]!.answer_policy).toBeUndefined();
  });

  it("a check that throws counts as failed: the answer is escalated, not passed", async () => {
    const { model } = mockLlm(
      answerJson({
        answerText: "Anna Berg met Boris Kade at Dock 7 [evidence: EV-1].",
        citations: [{ evidenceId: "EV-1", claimId: "CLM-1" }],
      }),
    );
    const held: HeldAnswer[] = [];
    const broken = {
      ...ports(),
      solver: {
        name: "broken",
        witness: async () => null,
        evaluate: async () => {
          throw new Error("solver down");
        },
      },
    };
    const h = harness(model, [policyCase()], { answerPolicies: broken, reviews: queue(held) });
    const out = await answerQuestion(h.deps, VIEWER, Q);
    expect(out.ok && out.body.answer.responseType).toBe("escalated");
    expect(out.ok && out.body.answer.compliance!.violations.some((v) => v.kind === "check_failed")).toBe(true);
  });
});
