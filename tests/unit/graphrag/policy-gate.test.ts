// The pipeline's policy gate against a ten-line reference function (docs/architecture.md, step 4), on evidence, nodes and edges.
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import { CLASSIFICATIONS, LICENSE_USES, type Classification, type LicenseUse } from "@/lib/domain/markings";
import type { Viewer } from "@/lib/domain/policy";
import { PolicyGate } from "@/lib/graphrag/policy-filter";
import { reachable } from "@/lib/graphrag/retrieve";
import type { EvidenceRecord, GraphEdgeRecord, GraphNodeRecord } from "@/lib/ports";

// The reference, checkable by eye: same tenant, clearance covers the marking, one shared tag when tagged, and (for
// evidence) a license that allows analysis.
function visible(
  v: Viewer,
  item: { tenantId: string; classification: string; needToKnow: readonly string[]; licenseUses?: readonly LicenseUse[] | null },
  evidence: boolean,
): boolean {
  if (!v.tenantId || item.tenantId !== v.tenantId) return false;
  const rank = (c: string) => (CLASSIFICATIONS as readonly string[]).indexOf(c);
  if (rank(item.classification) < 0 || rank(v.clearance) < 0 || rank(item.classification) > rank(v.clearance)) return false;
  const mine = v.needToKnow.map((t) => t.toLowerCase());
  if (item.needToKnow.length && !item.needToKnow.some((t) => mine.includes(t.toLowerCase()))) return false;
  if (!evidence) return true;
  return (item.licenseUses ?? []).some((u) => u === "ANALYZE" || u === "INTERNAL_USE" || u === "FULL_ACCESS");
}

const tenant = fc.constantFrom("t1", "t2", "");
const classification = fc.constantFrom(...CLASSIFICATIONS) as fc.Arbitrary<Classification>;
const tags = fc.uniqueArray(fc.constantFrom("soc", "SOC", "narcotics", "threat-intel"), { maxLength: 2 });
const viewer: fc.Arbitrary<Viewer> = fc.record({ userId: fc.constant("u"), tenantId: tenant, clearance: classification, needToKnow: tags });
const marking = { tenantId: tenant, classification, needToKnow: tags };
const ids = ["a", "b", "c", "d", "e"];
const evidence: fc.Arbitrary<EvidenceRecord> = fc.record({
  id: fc.constantFrom(...ids.map((i) => `EV-${i}`)),
  ...marking,
  licenseUses: fc.option(fc.uniqueArray(fc.constantFrom(...LICENSE_USES) as fc.Arbitrary<LicenseUse>, { maxLength: 3 }), { nil: null }),
  type: fc.constant("note"),
  content: fc.constant("text"),
  sourceSystem: fc.constant("S"),
  collectedAt: fc.constant("2025-01-01T00:00:00.000Z"),
  nodeIds: fc.constant([]),
});
const node: fc.Arbitrary<GraphNodeRecord> = fc.record({
  id: fc.constantFrom(...ids),
  ...marking,
  label: fc.constant("L"),
  name: fc.constant("N"),
  properties: fc.constant({}),
});
const edge: fc.Arbitrary<GraphEdgeRecord> = fc
  .record({
    source: fc.constantFrom(...ids, "zz"),
    target: fc.constantFrom(...ids),
    ...marking,
    type: fc.constant("T"),
    properties: fc.constant({}),
  })
  .map((e) => ({ ...e, id: `${e.source}:T:${e.target}` }));

describe("policy gate", () => {
  test.prop([viewer, fc.array(evidence, { maxLength: 12 }), fc.array(evidence, { maxLength: 6 })], { numRuns: 1500 })(
    "evidence: exactly the reference's visible items pass, each distinct item counted once across batches",
    (v, batch1, batch2) => {
      const gate = new PolicyGate(v);
      const out = [...gate.evidence(batch1), ...gate.evidence(batch2)];
      for (const e of out) expect(visible(v, e, true)).toBe(true);
      for (const e of [...batch1, ...batch2]) if (!visible(v, e, true)) expect(out).not.toContain(e);
      // Counted once per distinct id; an id counts as hidden if any sighting of it was hidden.
      const byId = new Map<string, boolean>();
      for (const e of [...batch1, ...batch2]) byId.set(e.id, (byId.get(e.id) ?? true) && visible(v, e, true));
      const s = gate.summary();
      expect(s.evidence.allowed).toBe([...byId.values()].filter(Boolean).length);
      expect(s.evidence.filtered).toBe([...byId.values()].filter((x) => !x).length);
    },
    60_000,
  );

  test.prop(
    [viewer, fc.uniqueArray(node, { selector: (n) => n.id, maxLength: 5 }), fc.uniqueArray(edge, { selector: (e) => e.id, maxLength: 10 })],
    { numRuns: 1500 },
  )(
    "graph: a node passes iff the reference allows it; an edge iff it and both endpoints do; edges to unretrieved nodes are dropped uncounted",
    (v, nodes, edges) => {
      const gate = new PolicyGate(v);
      const shownNodes = gate.nodes(nodes);
      const shownEdges = gate.edges(edges);
      expect(shownNodes).toEqual(nodes.filter((n) => visible(v, n, false)));
      const known = new Map(nodes.map((n) => [n.id, n]));
      const inSubgraph = edges.filter((e) => known.has(e.source) && known.has(e.target));
      expect(shownEdges).toEqual(
        inSubgraph.filter(
          (e) => visible(v, e, false) && visible(v, known.get(e.source)!, false) && visible(v, known.get(e.target)!, false),
        ),
      );
      const s = gate.summary();
      expect(s.edges.allowed + s.edges.filtered).toBe(inSubgraph.length);
      expect(s.nodes.filtered).toBe(nodes.length - shownNodes.length);
      expect(s.filtered).toBe(s.evidence.filtered + s.nodes.filtered + s.edges.filtered);
    },
    60_000,
  );

  it("denies by default: no tenant, unknown license, missing tags", () => {
    const v: Viewer = { userId: "u", tenantId: "t1", clearance: "TS_SCI", needToKnow: [] };
    const gate = new PolicyGate(v);
    const e = {
      id: "E",
      type: "n",
      content: "c",
      sourceSystem: "s",
      collectedAt: "",
      nodeIds: [],
      tenantId: "t1",
      classification: "PUBLIC" as const,
      needToKnow: [],
    };
    expect(gate.evidence([{ ...e, licenseUses: null }])).toEqual([]);
    expect(gate.evidence([{ ...e, id: "F", licenseUses: ["INGEST", "EXPORT"] }])).toEqual([]);
    expect(gate.evidence([{ ...e, id: "G", licenseUses: ["ANALYZE"], needToKnow: ["soc"] }])).toEqual([]);
    expect(new PolicyGate({ ...v, tenantId: "" }).evidence([{ ...e, tenantId: "", licenseUses: ["FULL_ACCESS"] }])).toEqual([]);
    expect(gate.summary().evidence.byReason).toEqual({ tenant: 0, unreadable_marking: 0, classification: 0, need_to_know: 1, license: 2 });
  });

  it("keeps only nodes reachable from a visible seed through visible edges (no path through a hidden node)", () => {
    const e = (s: string, t: string) => ({
      id: `${s}-${t}`,
      source: s,
      target: t,
      type: "T",
      properties: {},
      tenantId: "t",
      classification: "CUI" as const,
      needToKnow: [],
    });
    // seed — a — (hidden h) — b : b is only reachable through h, so it is dropped.
    const dist = reachable(["seed"], ["seed", "a", "b"], [e("seed", "a"), e("b", "c")], 2);
    expect([...dist.entries()]).toEqual([
      ["seed", 0],
      ["a", 1],
    ]);
  });
});
