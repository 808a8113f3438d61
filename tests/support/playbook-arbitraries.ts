// Random catalogues, askers and queries for the playbook filter's property tests (unit: the pipeline never suggests
// outside the filter; integration: the SQL filter equals the reference). Labels include values that cannot be read
// (an authority or a risk level another tool wrote, a blank tag) and tenants other than the asker's.
import { fc } from "@fast-check/vitest";
import { CLASSIFICATIONS, ROLES, type Role } from "@/lib/domain/markings";
import { AUTHORITIES, RISK_LEVELS, heldAuthorities, type RiskLevel } from "@/lib/playbooks/catalogue";
import type { SelectionQuery, StoredPlaybook } from "@/lib/playbooks/filter";

export const TENANTS = ["metro", "cyber"] as const;
export const CASE_TYPES = ["fraud", "narcotics", "cyber-intrusion"] as const;
export const JURISDICTIONS = ["metro-city", "state"] as const;
export const TAGS = ["narcotics", "soc", "financial"] as const;
export const VOCABULARY = ["phone", "subscriber", "record", "bank", "cctv", "preserv", "host", "isol", "edr", "telemetri", "canvass"];

const subset = <T>(values: readonly T[], max = values.length) => fc.uniqueArray(fc.constantFrom(...values), { maxLength: max });
/** Often empty (a label that does not restrict), else a subset. */
const mostlyEmpty = (values: readonly string[], max: number) =>
  fc.oneof({ weight: 4, arbitrary: fc.constant([] as string[]) }, { weight: 2, arbitrary: subset(values, max).map((l) => [...l]) });
/** Biased towards the first values (so that enough playbooks pass for the properties to mean something). */
const biased = <T>(values: readonly T[]) => fc.oneof(...values.map((v, i) => ({ weight: values.length - i, arbitrary: fc.constant(v) })));
/** Mostly readable, sometimes not (a value outside the vocabulary, a blank entry). */
const withJunk = <T>(good: fc.Arbitrary<T>, junk: readonly T[]) =>
  fc.oneof({ weight: 19, arbitrary: good }, { weight: 1, arbitrary: fc.constantFrom(...junk) });

export interface PlaybookRow extends Omit<StoredPlaybook, "revision"> {
  caseTypes: string[];
  jurisdictions: string[];
  needToKnow: string[];
  terms: string[];
  requiredAuthority: string;
  minClearance: string;
  riskLevel: string;
  active: boolean;
}

const rowArb = fc.record({
  owner: fc.constantFrom(...TENANTS, "*"),
  version: fc.constantFrom("v1", "v2", "2026.1"),
  caseTypes: withJunk(mostlyEmpty(CASE_TYPES, 2), [[""], ["Fraud"]]),
  jurisdictions: withJunk(mostlyEmpty(JURISDICTIONS, 1), [[""]]),
  needToKnow: withJunk(mostlyEmpty(TAGS, 2), [[""], ["Soc"]]),
  terms: subset(VOCABULARY, 4),
  requiredAuthority: withJunk(biased(AUTHORITIES) as fc.Arbitrary<string>, ["WARRANT", "root", ""]),
  minClearance: biased(CLASSIFICATIONS) as fc.Arbitrary<string>,
  riskLevel: withJunk(biased(RISK_LEVELS) as fc.Arbitrary<string>, ["extreme", "LOW"]),
  active: fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
});

/** A catalogue: unique ids (a shared and a tenant playbook may not share one), descriptions from their terms. */
export const catalogueArb: fc.Arbitrary<PlaybookRow[]> = fc.array(rowArb, { minLength: 4, maxLength: 24 }).map((rows) =>
  rows.map((r, i) => ({
    ...r,
    id: `pb-${String(i).padStart(2, "0")}`,
    description: `Playbook ${i}: ${r.terms.join(" ") || "generic step"}`,
  })),
);

export interface AskerLabels {
  roles: Role[];
  legalAuthority: string[];
}

export const queryArb: fc.Arbitrary<SelectionQuery & AskerLabels> = fc
  .record({
    tenantId: biased([...TENANTS, ""]),
    caseType: fc.option(fc.constantFrom(...CASE_TYPES), { nil: null, freq: 4 }),
    jurisdiction: fc.option(fc.constantFrom(...JURISDICTIONS), { nil: null, freq: 4 }),
    clearance: biased([...[...CLASSIFICATIONS].reverse(), "UNREADABLE" as const]),
    needToKnow: subset([...TAGS, "Financial "]),
    roles: subset(ROLES),
    legalAuthority: subset(["subpoena", "warrant", "court_order", "root"]),
    riskTolerance: fc.option(biased([...RISK_LEVELS].reverse()) as fc.Arbitrary<RiskLevel>, { nil: null, freq: 6 }),
    terms: subset(VOCABULARY, 5),
    minConfidence: biased([0, 0.25, 0.3, 0.5, 0.625, 0.75]),
    maxResults: fc.integer({ min: 1, max: 8 }),
  })
  .map((q) => ({ ...q, authorities: heldAuthorities(q.roles, q.legalAuthority) }));
