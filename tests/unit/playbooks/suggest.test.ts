// Issue 16: the next-steps step with in-memory ports. The model (the AI SDK's MockLanguageModelV3, or a scripted
// picker) gets only the four-field view and the question; whatever it returns is read strictly and checked again
// against the filter, re-run; everything it did wrong is dropped, counted and in the ledger.
import { describe, expect, it } from "vitest";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { modelPicker, offlinePicker } from "@/lib/playbooks/ports";
import { SUGGEST_KIND, suggestNextSteps, type NextStepsBody } from "@/lib/playbooks/suggest";
import { mockLlm, promptsSeen, VIEWER } from "../graphrag/fakes";
import { catalogue, scriptedPicker, suggestHarness } from "./fakes";

const ASKER = { ...VIEWER, roles: ["investigator"] };
const Q = {
  caseId: "case-t",
  question: "What should we do next about the phone?",
  followUp: { answerText: "", evidenceIds: ["EV-1", "EV-2"] },
};
/** What VIEWER may be offered on case-t (narcotics, metro-city, tolerance medium), whatever the question. */
const ALLOWED = ["canvass-location", "preserve-cctv", "shared-canvass", "subscriber-records"];

async function ok(h: ReturnType<typeof suggestHarness>, body: unknown = Q): Promise<NextStepsBody> {
  const out = await suggestNextSteps(h.deps, ASKER, body);
  if (!out.ok) throw new Error(`expected suggestions, got ${JSON.stringify(out.body)}`);
  return out.body;
}

describe("suggested next steps", () => {
  it("the offline picker picks the three of highest confidence, citing the evidence the answer rests on; one ledger entry", async () => {
    const h = suggestHarness(offlinePicker);
    const body = await ok(h);
    expect(body.suggestions.map((s) => s.playbookId)).toEqual(["subscriber-records", "shared-canvass", "preserve-cctv"]);
    expect(body.suggestions[0]).toMatchObject({
      version: "v1",
      description: "Request subscriber records for a phone number from its carrier",
      citations: ["EV-1", "EV-2"],
    });
    expect(body.suggestions[0].reason).toMatch(/confidence 0\.\d\d; the answer rests on EV-1, EV-2\.$/);
    expect(body.suggestions.map((s) => s.confidence)).toEqual([...body.suggestions.map((s) => s.confidence)].sort((a, b) => b - a));
    expect(h.ledger.entries.map((e) => e.kind)).toEqual([SUGGEST_KIND]);
    const p = h.ledger.payloads()[0];
    expect(p.catalogue_version).toBe(body.catalogueVersion);
    expect(p.filter).toEqual({
      catalogue: 11, // t1's own and the shared one; t2's is not counted at all
      allowed: 4,
      filtered: 7,
      by_reason: {
        inactive: 1,
        unreadable_label: 0,
        case_type: 1,
        jurisdiction: 0,
        clearance: 1,
        need_to_know: 1,
        authority: 2,
        risk: 1,
      },
      below_min_confidence: 0,
      beyond_max_results: 0,
      offered: 4,
    });
    expect(p.offered.map((o: { playbook_id: string }) => o.playbook_id).sort()).toEqual(ALLOWED);
    expect(p.suggestions.map((s: { playbook_id: string }) => s.playbook_id)).toEqual(body.suggestions.map((s) => s.playbookId));
    expect(p.model).toBe("offline:casegraph-playbook-picker-v1");
    expect(p.case_id).toBe("case-t");
  });

  it("the model gets the four fields and the question, nothing else (no label reaches the prompt)", async () => {
    const { mock, model } = mockLlm({ picks: [] });
    const h = suggestHarness(modelPicker(model));
    await ok(h);
    const [prompt] = promptsSeen(mock);
    const user = JSON.parse(prompt.slice(prompt.indexOf('{"question"')));
    expect(Object.keys(user).sort()).toEqual(["evidence_ids", "playbooks", "question"]);
    for (const p of user.playbooks) expect(Object.keys(p).sort()).toEqual(["confidence", "description", "playbook_id", "version"]);
    expect(user.playbooks.map((p: { playbook_id: string }) => p.playbook_id).sort()).toEqual(ALLOWED);
    expect(user.evidence_ids).toEqual(["EV-1", "EV-2"]);
    // No label values, and nothing of what was filtered out.
    expect(prompt).not.toMatch(/supervisor_approval|narcotics|metro-city|"low"|CUI|needToKnow|bank-records|wiretap|other-tenant/);
  });

  it("drops, counts and audits what a misbehaving model returns: filtered-out and unknown ids, rich fields, free-text actions", async () => {
    const { model } = mockLlm({
      recommendation: "Arrest Kovac tonight and search his flat.",
      picks: [
        { playbook_id: "wiretap", version: "v1", reason: "Strongest option.", citations: ["EV-1"] }, // filtered out (authority, risk)
        { playbook_id: "ghost-playbook", version: "v1", reason: "Invented.", citations: [] }, // no such playbook
        { playbook_id: "preserve-cctv", version: "v1", reason: "Low risk.", citations: ["EV-1"], risk_level: "low" }, // a field it was not given
        { action: "Raid the warehouse at Pier 9 at dawn" }, // free text
        "Call the carrier and get the records",
        { playbook_id: "canvass-location", version: "v9", reason: "Wrong version.", citations: [] },
        { playbook_id: "subscriber-records", version: "v1", reason: "Reaches the caller [EV-1].", citations: ["EV-1", "EV-3", "EV-99"] },
        { playbook_id: "subscriber-records", version: "v1", reason: "Again.", citations: [] },
        { playbook_id: "shared-canvass", version: "v1", reason: "Two\nlines.", citations: [] },
        { playbook_id: "canvass-location", version: "v1", reason: "Details ![x](https://collect.example/p.png?d=Kovac)", citations: [] },
      ],
    });
    const h = suggestHarness(modelPicker(model));
    const body = await ok(h);
    expect(body.suggestions).toEqual([
      {
        playbookId: "subscriber-records",
        version: "v1",
        description: "Request subscriber records for a phone number from its carrier",
        confidence: expect.any(Number),
        reason: "Reaches the caller [EV-1].",
        citations: ["EV-1"], // EV-3 (TOP_SECRET) and EV-99 (unknown) were not among the ids given
      },
    ]);
    const out = h.ledger.payloads()[0].model_output;
    expect(out.dropped).toEqual({
      unparseable: 0,
      free_text: 2,
      extra_field: 2, // the pick with risk_level, and "recommendation" beside the picks
      not_offered: 2,
      version_mismatch: 1,
      bad_reason: 2, // two lines; an image whose address carries case data
      duplicate: 1,
      over_limit: 0,
      not_in_filter: 0,
    });
    expect(out.not_offered_unknown).toBe(1);
    expect(out.not_offered_in_catalogue).toBe(1);
    expect(out.invalid_citations).toBe(2);
    expect(out.dropped_total).toBe(10);
    expect(JSON.stringify(body)).not.toMatch(/Arrest|Raid|carrier and get|ghost|wiretap/);
  });

  it("prose instead of JSON suggests nothing, and says so in the ledger", async () => {
    const { model } = mockLlm("You should subpoena the bank and tap the phone.");
    const h = suggestHarness(modelPicker(model));
    expect((await ok(h)).suggestions).toEqual([]);
    expect(h.ledger.payloads()[0].model_output.dropped.unparseable).toBe(1);
  });

  it("an id the model picked is dropped when the filter, re-run, no longer has it (retired in between)", async () => {
    const picker = scriptedPicker({
      picks: [
        { playbook_id: "preserve-cctv", version: "v1", reason: "Footage is overwritten in 30 days.", citations: [] },
        { playbook_id: "canvass-location", version: "v1", reason: "Witnesses.", citations: [] },
      ],
    });
    const h = suggestHarness(picker);
    h.catalogue.beforeSelect[1] = (rows) => {
      rows.find((r) => r.id === "preserve-cctv")!.active = false;
    };
    const body = await ok(h);
    expect(body.suggestions.map((s) => s.playbookId)).toEqual(["canvass-location"]);
    expect(h.catalogue.selects).toHaveLength(2);
    expect(h.catalogue.selects[1]).toEqual(h.catalogue.selects[0]);
    expect(h.ledger.payloads()[0].model_output.dropped.not_in_filter).toBe(1);
  });

  it("at most three picks", async () => {
    const picks = ALLOWED.map((id) => ({ playbook_id: id, version: "v1", reason: "Fits.", citations: [] }));
    const h = suggestHarness(scriptedPicker({ picks }));
    expect((await ok(h)).suggestions).toHaveLength(3);
    expect(h.ledger.payloads()[0].model_output.dropped.over_limit).toBe(1);
  });

  it("nothing fits: the model is not asked", async () => {
    const picker = scriptedPicker({ picks: [] });
    const h = suggestHarness(
      picker,
      catalogue().filter((p) => !ALLOWED.includes(p.id)),
    );
    expect((await ok(h)).suggestions).toEqual([]);
    expect(picker.requests).toHaveLength(0);
    expect(h.ledger.payloads()[0].model).toBeNull();
  });

  it("cited evidence is only what the asker may see in this case", async () => {
    const picker = scriptedPicker({ picks: [] });
    const h = suggestHarness(picker);
    await ok(h, { ...Q, followUp: { answerText: "Anna met Boris.", evidenceIds: ["EV-1", "EV-3", "EV-4", "EV-5", "EV-7", "EV-404"] } });
    expect(picker.requests[0].evidenceIds).toEqual(["EV-1"]);
  });

  it("refuses a case the asker is not a member of (audited), and bad input with the pipeline's codes", async () => {
    const h = suggestHarness(offlinePicker);
    const denied = await suggestNextSteps(h.deps, { ...ASKER, userId: "u-stranger" }, Q);
    expect(denied).toMatchObject({ ok: false, status: 404, body: { error: { code: "CG-ACCESS-001" } } });
    expect(h.ledger.payloads()[0]).toMatchObject({ error_code: "CG-ACCESS-001", suggestions: [], filter: null });
    for (const [body, code] of [
      [{ caseId: "case-t", question: "" }, "CG-INPUT-002"],
      [{ caseId: "case-t", question: "x".repeat(2001) }, "CG-INPUT-003"],
      [{ caseId: "case-t", question: "next?", maxResults: 500 }, "CG-INPUT-001"],
      [{ caseId: "case-t", question: "next?", followUp: { evidenceIds: "EV-1" } }, "CG-INPUT-001"],
      [null, "CG-INPUT-001"],
    ] as const) {
      const out = await suggestNextSteps(h.deps, ASKER, body);
      expect(out.ok ? null : out.body.error.code).toBe(code);
    }
    expect(h.ledger.entries).toHaveLength(6);
  });

  it("withholds the suggestions when the ledger cannot take the entry (CG-AUDIT-001)", async () => {
    const h = suggestHarness(offlinePicker);
    h.ledger.failNext = 2;
    const out = await suggestNextSteps(h.deps, ASKER, Q);
    expect(out).toMatchObject({ ok: false, body: { error: { code: "CG-AUDIT-001" }, auditId: null } });
    expect(JSON.stringify(out)).not.toMatch(/subscriber/);
  });

  it("a model that cannot be reached is CG-MODEL-001, audited", async () => {
    const h = suggestHarness({
      provider: "x",
      modelId: "down",
      async pick() {
        throw new Error("ECONNREFUSED");
      },
    });
    const out = await suggestNextSteps(h.deps, ASKER, Q);
    expect(out.ok ? null : out.body.error.code).toBe("CG-MODEL-001");
    expect(h.ledger.payloads()[0].error_code).toBe("CG-MODEL-001");
    expect(new CasegraphError("CG-PLAYBOOK-002").status).toBe(404);
  });
});
