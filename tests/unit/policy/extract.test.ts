// Stage 1's extractor: regularised sections → the model classifies them → extracts policies with structured output →
// each checked against the schema and the vocabulary, with one retry naming the problem. The offline model cannot.
import { describe, expect, it } from "vitest";
import { OfflineExtractiveModel } from "@/lib/adapters/model/offline";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { extractPolicies, regularise } from "@/lib/policy/extract";
import type { AnswerModel, AnswerModelRequest } from "@/lib/ports";

const DOC = `# Purpose
This order explains how informant files are kept.

# Informant identity
Answers must never name a registered confidential informant.

<h2>Amounts</h2>`;

function scripted(...outputs: unknown[]): AnswerModel & { requests: AnswerModelRequest[] } {
  const requests: AnswerModelRequest[] = [];
  return {
    provider: "scripted",
    modelId: "scripted",
    requests,
    async generate(r) {
      requests.push(r);
      return { text: JSON.stringify(outputs[Math.min(requests.length - 1, outputs.length - 1)]) };
    },
    async probe() {
      return { provider: "scripted", id: "scripted", ok: true };
    },
  };
}

const policy = (action: string) => ({
  policy_id: "GO-7-CI",
  conditions: [],
  actions: [{ type: "prohibited", action }],
  metadata: { source: "model says", domain: "general", priority: "regulatory", owner: "Informant Unit", regulatory_linkage: [] },
});

describe("policy extract", () => {
  it("regularises Markdown and HTML into sections", () => {
    expect(regularise(DOC, "md").map((s) => s.heading)).toEqual(["Purpose", "Informant identity"]);
    expect(regularise("<h1>A</h1><p>x &amp; y</p><script>bad()</script><h2>B</h2><p>z</p>", "html")).toEqual([
      { heading: "A", text: "x & y" },
      { heading: "B", text: "z" },
    ]);
  });

  it("with the offline model: a coded error saying it needs a generative model", async () => {
    await expect(extractPolicies(new OfflineExtractiveModel(), "go7.md", regularise(DOC, "md"))).rejects.toMatchObject({
      code: "CG-POLICY-087",
    });
  });

  it("classifies, extracts with the schema, and retries once when the model names a variable nothing binds", async () => {
    const model = scripted(
      {
        sections: [
          { index: 0, isPolicy: false, confidence: 0.9 },
          { index: 1, isPolicy: true, confidence: 0.95 },
        ],
      },
      { policies: [policy("reveal_informant")] },
      { policies: [policy("names_protected_informant")] },
    );
    const r = await extractPolicies(model, "go7.md", regularise(DOC, "md"));
    expect(r.policies).toEqual([{ ...policy("names_protected_informant"), metadata: { ...policy("x").metadata, source: "go7.md" } }]);
    expect(r).toMatchObject({ sections: 2, policySections: 1, rejected: [] });
    expect(model.requests).toHaveLength(3);
    expect(model.requests[2]!.prompt).toMatch(/refused: .*reveal_informant/);
  });

  it("unusable output is a coded error, not an empty proposal", async () => {
    const err = await extractPolicies(scripted({ nonsense: true }), "go7.md", regularise(DOC, "md")).catch((e) => e);
    expect(err).toBeInstanceOf(CasegraphError);
    expect(err.code).toBe("CG-POLICY-090");
  });
});
