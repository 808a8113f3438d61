import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { CLASSIFICATIONS, LICENSE_USES, type Classification, type LicenseUse } from "@/lib/domain/markings";
import { evidenceDenialReason, mayViewEvidence, visibleGraph, type EvidenceMarking, type Viewer } from "@/lib/domain/policy";

// The reference: ten lines a reviewer can check by eye against docs/architecture.md, step 4.
function reference(v: Viewer, e: EvidenceMarking): boolean {
  if (e.tenantId !== v.tenantId || !v.tenantId) return false;
  const rank = (c: string) => (CLASSIFICATIONS as readonly string[]).indexOf(c);
  if (rank(e.classification) < 0 || rank(v.clearance) < 0 || rank(e.classification) > rank(v.clearance)) return false;
  if (e.needToKnow.length > 0) {
    const mine = v.needToKnow.map((t) => t.toLowerCase());
    if (!e.needToKnow.some((t) => mine.includes(t.toLowerCase()))) return false;
  }
  const uses = e.licenseUses ?? [];
  return uses.includes("ANALYZE") || uses.includes("INTERNAL_USE") || uses.includes("FULL_ACCESS");
}

const tenant = fc.constantFrom("t1", "t2", "");
const classification = fc.constantFrom(...CLASSIFICATIONS) as fc.Arbitrary<Classification>;
const tags = fc.uniqueArray(fc.constantFrom("narcotics", "Homicide", "homicide", "soc", "informants"), { maxLength: 3 });
const viewer: fc.Arbitrary<Viewer> = fc.record({ userId: fc.constant("u"), tenantId: tenant, clearance: classification, needToKnow: tags });
const evidence: fc.Arbitrary<EvidenceMarking> = fc.record({
  tenantId: tenant,
  classification,
  needToKnow: tags,
  licenseUses: fc.option(fc.uniqueArray(fc.constantFrom(...LICENSE_USES) as fc.Arbitrary<LicenseUse>, { maxLength: 5 }), { nil: null }),
});

describe("policy filter", () => {
  test.prop([viewer, evidence], { numRuns: 5000 })("agrees with the reference function", (v, e) => {
    expect(mayViewEvidence(v, e)).toBe(reference(v, e));
  });

  it("denies by default: no license, empty tenant, unknown tenant", () => {
    const v: Viewer = { userId: "u", tenantId: "t1", clearance: "TS_SCI", needToKnow: ["a"] };
    expect(evidenceDenialReason(v, { tenantId: "t1", classification: "PUBLIC", needToKnow: [], licenseUses: null })).toBe("license");
    expect(evidenceDenialReason(v, { tenantId: "t1", classification: "PUBLIC", needToKnow: [], licenseUses: ["INGEST"] })).toBe("license");
    expect(
      evidenceDenialReason({ ...v, tenantId: "" }, { tenantId: "", classification: "PUBLIC", needToKnow: [], licenseUses: ["ANALYZE"] }),
    ).toBe("tenant");
    expect(evidenceDenialReason(v, { tenantId: "t2", classification: "PUBLIC", needToKnow: [], licenseUses: ["ANALYZE"] })).toBe("tenant");
  });

  test.prop([
    viewer,
    fc.array(fc.record({ id: fc.constantFrom("a", "b", "c", "d"), tenantId: tenant, classification, needToKnow: tags }), { maxLength: 6 }),
  ])("an edge is visible only when it and both endpoints are", (v, rawNodes) => {
    const nodes = rawNodes.filter((n, i) => rawNodes.findIndex((m) => m.id === n.id) === i);
    const edges = nodes.flatMap((a) =>
      nodes.map((b) => ({ source: a.id, target: b.id, tenantId: v.tenantId, classification: "PUBLIC" as const, needToKnow: [] })),
    );
    const g = visibleGraph(v, nodes, edges);
    const visibleIds = new Set(g.nodes.map((n) => n.id));
    for (const e of g.edges) expect(visibleIds.has(e.source) && visibleIds.has(e.target)).toBe(true);
    expect(g.edges.length + g.edgeCounts.filtered).toBe(edges.length);
    expect(g.nodes.length + g.nodeCounts.filtered).toBe(nodes.length);
  });
});
