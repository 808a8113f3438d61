// A synthetic but realistic case for scale tests and benchmarks: people, places, phones, vehicles, meetings and
// events, with evidence documents that mention them by name, and mixed markings. Deterministic for a given seed.
import { BUNDLE_FORMAT } from "./bundle";

export interface GenerateOptions {
  nodes: number;
  evidence: number;
  edges?: number;
  seed?: number;
  caseId?: string;
  tenantId?: string;
}

/** A small seeded PRNG (mulberry32): the same seed gives the same sequence, so generated data and trials replay. */
export function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FIRST = [
  "Amara",
  "Boris",
  "Chen",
  "Dalia",
  "Emil",
  "Farah",
  "Goran",
  "Hana",
  "Ivan",
  "Jana",
  "Kofi",
  "Lena",
  "Marco",
  "Nadia",
  "Oskar",
  "Priya",
  "Quinn",
  "Rosa",
  "Stefan",
  "Tariq",
  "Uma",
  "Viktor",
  "Wen",
  "Ximena",
  "Yusuf",
  "Zora",
];
const LAST = [
  "Albescu",
  "Brandt",
  "Castillo",
  "Dimitrov",
  "Eriksen",
  "Fontaine",
  "Galloway",
  "Haddad",
  "Ishikawa",
  "Jovanovic",
  "Kowalski",
  "Lindqvist",
  "Moreau",
  "Novak",
  "Okonkwo",
  "Petrov",
  "Quintero",
  "Rahman",
  "Sandoval",
  "Takahashi",
  "Ustinov",
  "Varga",
  "Whitfield",
  "Yilmaz",
  "Zeller",
];
const PLACES = ["Pier", "Warehouse", "Cafe", "Garage", "Motel", "Marina", "Depot", "Market", "Station", "Lot"];
const STREETS = ["Harbor", "Canal", "Mill", "Station", "Quarry", "Ferry", "Foundry", "Granary", "Tannery", "Cooper"];
const MAKES = ["Ford Transit", "Toyota Corolla", "BMW 320d", "VW Golf", "Mercedes Sprinter", "Audi A4", "Nissan Qashqai"];
const COLOURS = ["black", "white", "grey", "silver", "dark blue", "red"];
const LABELS = ["Person", "Person", "Person", "Location", "Phone", "Vehicle", "Meeting", "Event", "Organization"] as const;
const EDGE_TYPES: Record<string, string[]> = {
  Person: ["KNOWS", "CALLED", "MET_WITH", "EMPLOYED_BY"],
  Location: ["VISITED", "LOCATED_AT"],
  Phone: ["USES_PHONE", "CALLED"],
  Vehicle: ["DRIVES", "SEEN_AT"],
  Meeting: ["ATTENDED", "HELD_AT"],
  Event: ["INVOLVED_IN", "OCCURRED_AT"],
  Organization: ["MEMBER_OF", "EMPLOYED_BY"],
};
const MARKINGS = ["PUBLIC", "CUI", "CUI", "CUI", "CONFIDENTIAL", "CONFIDENTIAL", "SECRET", "TOP_SECRET"];
const TAGS = ["narcotics", "homicide", "informants", "financial"];
const EVIDENCE_TYPES = ["interview_transcript", "phone_record", "surveillance_note", "lab_report", "financial_record", "patrol_log"];
const SOURCES = ["RMS", "CDR-Import", "Surveillance-Log", "State-Crime-Lab", "Finance-Unit", "Patrol"];
const LICENSES = ["LIC-INTERNAL", "LIC-INTERNAL", "LIC-INTERNAL", "LIC-INTERNAL", "LIC-PARTNER", "LIC-INGEST-ONLY"];

interface GenNode {
  id: string;
  label: string;
  name: string;
}

/** Yields the bundle as JSON text chunks, so a 100k-evidence case never sits in memory as one string. */
export function* generateBundleChunks(options: GenerateOptions): Generator<string> {
  const rand = prng(options.seed ?? 1);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)];
  const caseId = options.caseId ?? `case-gen-${options.seed ?? 1}`;
  const tenant = options.tenantId ?? "gen-tenant";
  const nodes: GenNode[] = [];
  for (let i = 0; i < options.nodes; i++) {
    const label = pick(LABELS);
    const id = `${label.slice(0, 3).toUpperCase()}-${String(i + 1).padStart(6, "0")}`;
    let name: string;
    switch (label) {
      case "Person":
        name = `${pick(FIRST)} ${pick(LAST)}`;
        break;
      case "Location":
        name = `${pick(STREETS)} ${pick(PLACES)} ${1 + Math.floor(rand() * 90)}`;
        break;
      case "Phone":
        name = `+1-555-${String(Math.floor(rand() * 9000) + 1000)}-${i}`;
        break;
      case "Vehicle":
        name = `${pick(COLOURS)} ${pick(MAKES)} plate ${String.fromCharCode(65 + (i % 26))}${(i * 7919) % 100000}`;
        break;
      case "Meeting":
        name = `Meeting ${i} at ${pick(STREETS)} ${pick(PLACES)}`;
        break;
      case "Event":
        name = `Incident ${i} on ${pick(STREETS)} Street`;
        break;
      default:
        name = `${pick(LAST)} ${pick(["Logistics", "Holdings", "Imports", "Freight"])}`;
    }
    nodes.push({ id, label, name });
  }
  const marking = () => pick(MARKINGS);
  const tags = () => (rand() < 0.3 ? [pick(TAGS)] : []);

  yield `{"format":${JSON.stringify(BUNDLE_FORMAT)},\n"tenants":[{"id":${JSON.stringify(tenant)},"name":"Generated Tenant"}],\n`;
  yield (
    `"licenses":[{"id":"LIC-INTERNAL","name":"Internal analysis","allows":["ANALYZE","EXPORT","INGEST","INTERNAL_USE"]},` +
    `{"id":"LIC-PARTNER","name":"Partner-shared","allows":["ANALYZE","INGEST"]},` +
    `{"id":"LIC-INGEST-ONLY","name":"Ingest only","allows":["INGEST"]}],\n`
  );
  yield (
    `"users":[{"email":"gen.analyst@gen.example","name":"Generated Analyst","tenant":${JSON.stringify(tenant)},` +
    `"roles":["investigator"],"clearance":"SECRET","needToKnow":["narcotics","homicide"]}],\n`
  );
  yield (
    `"cases":[{"id":${JSON.stringify(caseId)},"tenant":${JSON.stringify(tenant)},"title":"Generated case ${caseId}",` +
    `"description":"Synthetic case for scale tests.","classification":"CUI","members":["gen.analyst@gen.example"],\n"nodes":[\n`
  );
  for (let i = 0; i < nodes.length; i++) {
    const n = nodes[i];
    const props: Record<string, unknown> = { name: n.name };
    if (n.label === "Person") props.age = 20 + Math.floor(rand() * 50);
    const m = rand() < 0.15 ? marking() : undefined;
    const t = rand() < 0.1 ? tags() : [];
    yield (
      JSON.stringify({
        id: n.id,
        label: n.label,
        properties: props,
        ...(m ? { classification: m } : {}),
        ...(t.length ? { needToKnow: t } : {}),
      }) + (i < nodes.length - 1 ? ",\n" : "\n")
    );
  }
  yield `],\n"edges":[\n`;
  const edgeCount = options.edges ?? Math.round(options.nodes * 1.5);
  const seen = new Set<string>();
  let written = 0;
  for (let attempts = 0; written < edgeCount && attempts < edgeCount * 4; attempts++) {
    const ai = Math.floor(rand() * nodes.length);
    const a = nodes[ai];
    // Prefer near neighbours so the graph has local structure, not uniform noise.
    const b = nodes[(ai + 1 + Math.floor(rand() * Math.min(50, nodes.length - 1))) % nodes.length];
    if (!a || !b || a === b) continue;
    const type = pick(EDGE_TYPES[a.label] ?? ["RELATED_TO"]);
    const id = `${a.id}:${type}:${b.id}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const m = rand() < 0.1 ? marking() : undefined;
    yield (written ? ",\n" : "") + JSON.stringify({ id, source: a.id, target: b.id, type, ...(m ? { classification: m } : {}) });
    written++;
  }
  yield `\n],\n"evidence":[\n`;
  const base = Date.UTC(2026, 0, 1);
  for (let i = 0; i < options.evidence; i++) {
    const about = [pick(nodes), pick(nodes), pick(nodes)].filter((n, k, arr) => arr.indexOf(n) === k);
    const type = pick(EVIDENCE_TYPES);
    const when = new Date(base + Math.floor(rand() * 300 * 86_400_000));
    const day = when.toISOString().slice(0, 10);
    const time = when.toISOString().slice(11, 16);
    const [x, y, z] = [about[0], about[1] ?? about[0], about[2] ?? about[0]];
    const content = {
      interview_transcript: `Interview transcript, ${day}. Q: Where were you at ${time}? A: I was with ${x.name} near ${z.name}. Q: Did you see ${y.name}? A: Only briefly; ${y.name} left in a hurry.`,
      phone_record: `Call detail record ${day} ${time}: ${x.name} placed a ${1 + Math.floor(rand() * 40)}-minute call associated with ${y.name}; the handset registered on a cell near ${z.name}.`,
      surveillance_note: `Surveillance log ${day}, ${time}: officers observed ${x.name} meeting ${y.name} outside ${z.name}. A package changed hands and both left separately.`,
      lab_report: `Lab report, exhibit ${1000 + i}, ${day}: material recovered in connection with ${x.name} and ${z.name} tested positive; fingerprints matched ${y.name}.`,
      financial_record: `Bank record ${day}: transfer of ${(1 + Math.floor(rand() * 95)) * 1000} USD from an account linked to ${x.name} to ${y.name}, referencing ${z.name}.`,
      patrol_log: `Patrol log ${day} ${time}: unit stopped at ${z.name}; ${x.name} was present, ${y.name} was reported nearby.`,
    }[type]!;
    const m = marking();
    const t = tags();
    yield (
      (i ? ",\n" : "") +
      JSON.stringify({
        id: `EV-${String(i + 1).padStart(7, "0")}`,
        type,
        content,
        sourceSystem: SOURCES[EVIDENCE_TYPES.indexOf(type)],
        classification: m,
        ...(t.length ? { needToKnow: t } : {}),
        license: pick(LICENSES),
        collectedAt: when.toISOString(),
        nodes: about.map((n) => n.id),
      })
    );
  }
  yield `\n]}]}\n`;
}
