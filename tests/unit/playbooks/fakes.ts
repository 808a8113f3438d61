// An in-memory catalogue over the reference filter (lib/playbooks/filter.ts — the SQL store equals it, see
// tests/integration/playbook-filter.test.ts), a small demo-like catalogue for tenant t1, and a picker that says
// whatever a test wants.
import { descriptionTerms, type RiskLevel } from "@/lib/playbooks/catalogue";
import { selectFromRows, type Selection, type SelectionQuery, type StoredPlaybook } from "@/lib/playbooks/filter";
import type { NextStepFacts, PlaybookCatalogue, PlaybookPicker } from "@/lib/playbooks/ports";
import type { SuggestDeps } from "@/lib/playbooks/suggest";
import { FakeAccess, FakeEvidenceStore, MemoryLedger, smallCase } from "../graphrag/fakes";

export class MemoryCatalogue implements PlaybookCatalogue {
  selects: SelectionQuery[] = [];
  /** Applied before the n-th select (0-based): lets a test change the catalogue between the model's pick and the re-run. */
  beforeSelect: Array<((rows: StoredPlaybook[]) => void) | undefined> = [];
  constructor(
    public rows: StoredPlaybook[],
    public factsOf: NextStepFacts = { caseType: "narcotics", jurisdiction: "metro-city", riskTolerance: "medium", legalAuthority: [] },
  ) {}
  async select(q: SelectionQuery): Promise<Selection> {
    this.beforeSelect[this.selects.length]?.(this.rows);
    this.selects.push(q);
    return selectFromRows(this.rows, q);
  }
  async existing(tenantId: string, ids: readonly string[]) {
    return new Set(this.rows.filter((r) => (r.owner === tenantId || r.owner === "*") && ids.includes(r.id)).map((r) => r.id));
  }
  async facts(): Promise<NextStepFacts> {
    return this.factsOf;
  }
}

let revision = 0;
export function pb(id: string, description: string, labels: Partial<StoredPlaybook> = {}): StoredPlaybook {
  return {
    owner: "t1",
    id,
    version: "v1",
    description,
    terms: [],
    caseTypes: [],
    jurisdictions: [],
    requiredAuthority: "none",
    minClearance: "CUI",
    riskLevel: "low",
    needToKnow: [],
    active: true,
    revision: ++revision,
    ...labels,
  };
}

/** Tenant t1's catalogue; VIEWER (SECRET, narcotics, investigator, no legal authority) on a narcotics case, tolerance medium. */
export function catalogue(): StoredPlaybook[] {
  const p = (id: string, description: string, labels: Partial<StoredPlaybook> = {}) =>
    pb(id, description, { terms: descriptionTerms(description), ...labels });
  return [
    p("subscriber-records", "Request subscriber records for a phone number from its carrier", {
      caseTypes: ["narcotics"],
      requiredAuthority: "supervisor_approval",
    }),
    p("canvass-location", "Canvass a location for witnesses and private cameras", { riskLevel: "low" }),
    p("preserve-cctv", "Send a preservation request for CCTV footage near a location", { jurisdictions: ["metro-city"] }),
    // Filtered out for VIEWER, each by one label:
    p("bank-records", "Obtain bank records for an account by subpoena", { requiredAuthority: "subpoena" }),
    p("wiretap", "Apply for a wiretap on a phone", { requiredAuthority: "court_order", riskLevel: "high" }),
    p("undercover-buy", "Arrange an undercover purchase at a location", { riskLevel: "high" }),
    p("ci-tasking", "Task a confidential informant about a phone number", { minClearance: "TOP_SECRET" }),
    p("isolate-host", "Isolate a host from the network", { caseTypes: ["cyber-intrusion"] }),
    p("financial-trace", "Trace payments through a front company", { needToKnow: ["financial"] }),
    p("retired-step", "Run a phone dump with the old tool", { active: false }),
    p("other-tenant", "Request subscriber records for a phone number", { owner: "t2" }),
    p("shared-canvass", "Canvass the neighbourhood of a phone's last location", { owner: "*" }),
  ];
}

export const RISK: Record<RiskLevel, number> = { low: 0, medium: 1, high: 2 };

/** A picker that returns `text` (a string, or JSON of an object) and records what it was asked. */
export function scriptedPicker(text: string | object): PlaybookPicker & { requests: Parameters<PlaybookPicker["pick"]>[0][] } {
  const requests: Parameters<PlaybookPicker["pick"]>[0][] = [];
  return {
    provider: "scripted",
    modelId: "scripted-picker",
    requests,
    async pick(r) {
      requests.push(r);
      return typeof text === "string" ? text : JSON.stringify(text);
    },
  };
}

export function suggestHarness(picker: PlaybookPicker, rows = catalogue()) {
  const c = smallCase();
  const ledger = new MemoryLedger();
  const cat = new MemoryCatalogue(rows);
  const deps: SuggestDeps = {
    access: new FakeAccess([c]),
    catalogue: cat,
    evidence: new FakeEvidenceStore([c]),
    picker,
    ledger,
  };
  return { deps, ledger, catalogue: cat };
}
