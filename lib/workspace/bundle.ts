// The casegraph.workspace/v1 bundle: its shape, and a validation pass that reports every problem with its JSON path
// and a coded error. Pure: what already exists in the database comes in as `KnownRefs`.
import { z } from "zod";
import type { FailureCode, FailureIssue } from "../domain/failure-codes";
import { LICENSE_USES, ROLES, normaliseTag, parseClassification, type Classification } from "../domain/markings";
import { contentSha256, forgedMarkerIn } from "../grounding/lifecycle";
import {
  labelProblems,
  LEGAL_AUTHORITIES,
  normaliseLabel,
  playbookInputSchema,
  RISK_LEVELS,
  SHARED_OWNER,
  toPlaybook,
  type Playbook,
} from "../playbooks/catalogue";

export const BUNDLE_FORMAT = "casegraph.workspace/v1";

// Ids and tags are plain printable text: no control characters (they also separate lists in bulk writes).
const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;
const id = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(200, "must be at most 200 characters")
  .regex(NO_CONTROL, "must not contain control characters");
const tags = z.array(z.string().trim().min(1, "must not be empty").regex(NO_CONTROL, "must not contain control characters")).optional();
const json = z.record(z.string(), z.unknown());
const caseLabel = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(80, "must be at most 80 characters")
  .regex(NO_CONTROL, "must not contain control characters")
  .transform(normaliseLabel);

export const tenantSchema = z
  .object({
    id,
    name: z.string().trim().min(1, "must not be empty"),
    /** Evidence types the tenant accepts (issue 15); absent or empty: any. */
    evidenceTypes: z.array(id).optional(),
    /** Maximum age in days per evidence type; older evidence is expired. */
    evidenceMaxAgeDays: z.record(id, z.number().positive("must be a positive number of days").max(1_000_000)).optional(),
    /** How much risk a suggested next step may carry (issue 16); absent: low. */
    riskTolerance: z.enum(RISK_LEVELS, { error: "must be low, medium or high" }).optional(),
  })
  .strict();
export const licenseSchema = z.object({ id, name: z.string().trim().min(1, "must not be empty"), allows: z.array(z.string()) }).strict();
export const userSchema = z
  .object({
    email: z.email("must be an email address"),
    name: z.string().trim().min(1, "must not be empty"),
    tenant: id,
    roles: z.array(z.string()),
    clearance: z.string(),
    needToKnow: tags,
    password: z.string().min(8, "must be at least 8 characters").optional(),
    active: z.boolean().optional(),
    /** Legal process the user may invoke: subpoena, warrant, court_order (issue 16). */
    legalAuthority: z.array(z.string()).optional(),
  })
  .strict();
export const nodeSchema = z
  .object({ id, label: id, properties: json.default({}), classification: z.string().optional(), needToKnow: tags })
  .strict();
export const edgeSchema = z
  .object({
    id: id.optional(),
    source: id,
    target: id,
    type: id,
    properties: json.optional(),
    classification: z.string().optional(),
    needToKnow: tags,
  })
  .strict();
export const evidenceSchema = z
  .object({
    id,
    type: id,
    content: z.string().refine((s) => s.trim().length > 0, "must not be empty"),
    sourceSystem: id,
    classification: z.string().optional(),
    needToKnow: tags,
    license: id,
    tenant: id.optional(),
    collectedAt: z.string(),
    /** After this instant the item is expired (issue 15). */
    validUntil: z.string().optional(),
    metadata: json.optional(),
    nodes: z.array(id).default([]),
  })
  .strict();
export const caseSchema = z
  .object({
    id,
    tenant: id,
    title: z.string().trim().min(1, "must not be empty"),
    description: z.string().default(""),
    classification: z.string(),
    status: z.enum(["OPEN", "CLOSED", "ARCHIVED"]).optional(),
    /** The labels the playbook filter reads (issue 16), compared lower-case. */
    caseType: caseLabel.optional(),
    jurisdiction: caseLabel.optional(),
    members: z.array(z.string()).default([]),
    /** Members who may add evidence from documents (issue 17's `ingest` permission); an import grants, never revokes. */
    ingesters: z.array(z.string()).default([]),
    nodes: z.array(z.unknown()).default([]),
    edges: z.array(z.unknown()).default([]),
    evidence: z.array(z.unknown()).default([]),
  })
  .strict();
const topSchema = z
  .object({
    format: z.string(),
    tenants: z.array(z.unknown()).default([]),
    licenses: z.array(z.unknown()).default([]),
    users: z.array(z.unknown()).default([]),
    cases: z.array(z.unknown()).default([]),
    playbooks: z.array(z.unknown()).default([]),
  })
  .strict();

export type TenantItem = z.infer<typeof tenantSchema>;
export type LicenseItem = z.infer<typeof licenseSchema>;
export type UserItem = z.infer<typeof userSchema>;
export type NodeItem = z.infer<typeof nodeSchema>;
export type EdgeItem = z.infer<typeof edgeSchema>;
export type EvidenceItem = z.infer<typeof evidenceSchema>;
export type CaseHeader = z.infer<typeof caseSchema>;

/** A bundle whose structure passed validation; items are parsed lazily, batch by batch, when imported. */
export interface CheckedBundle {
  tenants: TenantItem[];
  licenses: LicenseItem[];
  users: UserItem[];
  cases: Array<{
    header: CaseHeader;
    rawNodes: unknown[];
    rawEdges: unknown[];
    rawEvidence: unknown[];
    /** Indexes of evidence items whose content repeats an earlier item of the case: reported, not stored. */
    duplicateEvidence: ReadonlySet<number>;
  }>;
  /** Evidence left out as duplicates of an earlier item's content (CG-GROUND-003), with their JSON paths. */
  duplicates: FailureIssue[];
  /** The playbook catalogue entries (issue 16), canonical. */
  playbooks: Playbook[];
  counts: {
    tenants: number;
    licenses: number;
    users: number;
    cases: number;
    nodes: number;
    edges: number;
    evidence: number;
    playbooks: number;
  };
}

/** What the database already holds, so a bundle may refer to it. */
export interface KnownRefs {
  tenants: ReadonlySet<string>;
  licenses: ReadonlySet<string>;
  /** email → tenant id */
  users: ReadonlyMap<string, string>;
  /** case id → tenant id */
  cases: ReadonlyMap<string, string>;
  /** tenant id → evidence types it accepts (absent or empty: any). */
  evidenceTypes?: ReadonlyMap<string, readonly string[]>;
  /** playbook id → its owners in the catalogue (a tenant id, or '*' for shared). */
  playbookOwners?: ReadonlyMap<string, readonly string[]>;
}

export const NO_KNOWN_REFS: KnownRefs = { tenants: new Set(), licenses: new Set(), users: new Map(), cases: new Map() };

export function defaultEdgeId(edge: Pick<EdgeItem, "source" | "type" | "target">): string {
  return `${edge.source}:${edge.type}:${edge.target}`;
}

export function pathOf(segments: ReadonlyArray<string | number | symbol>): string {
  return "$" + segments.map((s) => (typeof s === "number" ? `[${s}]` : `.${String(s)}`)).join("");
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/;

export function parseTimestamp(raw: string): Date | null {
  if (!ISO_DATE.test(raw)) return null;
  const d = new Date(raw);
  return Number.isNaN(d.getTime()) ? null : d;
}

export function sortedTags(list: readonly string[] | undefined): string[] {
  return [...new Set((list ?? []).map(normaliseTag))].sort();
}

/** Classification of an item: its own marking, else the case's. Callers validated it. */
export function markingOf(raw: string | undefined, caseMarking: Classification): Classification {
  return raw === undefined ? caseMarking : (parseClassification(raw) as Classification);
}

class IssueList {
  readonly items: FailureIssue[] = [];
  constructor(private readonly limit = 500) {}
  add(code: FailureCode, path: string, message: string) {
    if (this.items.length < this.limit) this.items.push({ code, path, message });
  }
  fromZod(error: z.ZodError, base: ReadonlyArray<string | number>) {
    for (const issue of error.issues) {
      const path = pathOf([...base, ...(issue.path as Array<string | number>)]);
      const empty = issue.message === "must not be empty";
      this.add(empty ? "CG-IMPORT-011" : "CG-IMPORT-003", path, issue.message);
    }
  }
}

function parseWith<T>(schema: z.ZodType<T>, raw: unknown, base: Array<string | number>, issues: IssueList): T | null {
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  issues.fromZod(r.error, base);
  return null;
}

function checkMarking(raw: string | undefined, path: string, issues: IssueList) {
  if (raw !== undefined && !parseClassification(raw)) {
    issues.add("CG-IMPORT-004", path, `unknown marking "${raw}"`);
  }
}

/**
 * Validates a whole bundle and returns every problem found (up to a limit), each with a coded error and JSON path.
 * Keeps only id sets while walking the items, so a 100k-evidence bundle is not copied.
 */
export function checkBundle(raw: unknown, known: KnownRefs = NO_KNOWN_REFS): { bundle?: CheckedBundle; issues: FailureIssue[] } {
  const issues = new IssueList();
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    issues.add("CG-IMPORT-003", "$", "the bundle must be a JSON object");
    return { issues: issues.items };
  }
  const format = (raw as { format?: unknown }).format;
  if (format !== BUNDLE_FORMAT) {
    issues.add("CG-IMPORT-002", "$.format", `expected "${BUNDLE_FORMAT}", got ${JSON.stringify(format ?? null)}`);
    return { issues: issues.items };
  }
  const top = parseWith(topSchema, raw, [], issues);
  if (!top) return { issues: issues.items };

  const tenants = new Set(known.tenants);
  const bundleTenants: TenantItem[] = [];
  top.tenants.forEach((t, i) => {
    const item = parseWith(tenantSchema, t, ["tenants", i], issues);
    if (!item) return;
    if (bundleTenants.some((x) => x.id === item.id))
      issues.add("CG-IMPORT-005", pathOf(["tenants", i, "id"]), `duplicate tenant id "${item.id}"`);
    bundleTenants.push(item);
    tenants.add(item.id);
  });
  // A tenant's accepted evidence types: the bundle's list when it gives one, else what is stored.
  const acceptedTypes = new Map(known.evidenceTypes ?? []);
  for (const t of bundleTenants) if (t.evidenceTypes !== undefined) acceptedTypes.set(t.id, t.evidenceTypes);

  const licenses = new Set(known.licenses);
  const bundleLicenses: LicenseItem[] = [];
  top.licenses.forEach((l, i) => {
    const item = parseWith(licenseSchema, l, ["licenses", i], issues);
    if (!item) return;
    if (bundleLicenses.some((x) => x.id === item.id))
      issues.add("CG-IMPORT-005", pathOf(["licenses", i, "id"]), `duplicate license id "${item.id}"`);
    item.allows.forEach((use, j) => {
      if (!(LICENSE_USES as readonly string[]).includes(use))
        issues.add("CG-IMPORT-012", pathOf(["licenses", i, "allows", j]), `unknown license use "${use}"`);
    });
    bundleLicenses.push(item);
    licenses.add(item.id);
  });

  const users = new Map(known.users);
  const bundleUsers: UserItem[] = [];
  const seenEmails = new Set<string>();
  top.users.forEach((u, i) => {
    const item = parseWith(userSchema, u, ["users", i], issues);
    if (!item) return;
    const email = item.email.toLowerCase();
    if (seenEmails.has(email)) issues.add("CG-IMPORT-005", pathOf(["users", i, "email"]), `duplicate user "${email}"`);
    seenEmails.add(email);
    if (!tenants.has(item.tenant)) issues.add("CG-IMPORT-008", pathOf(["users", i, "tenant"]), `unknown tenant "${item.tenant}"`);
    const priorTenant = known.users.get(email);
    if (priorTenant && priorTenant !== item.tenant)
      issues.add("CG-IMPORT-013", pathOf(["users", i, "tenant"]), `user "${email}" already belongs to another tenant`);
    if (item.roles.length === 0) issues.add("CG-IMPORT-012", pathOf(["users", i, "roles"]), "a user needs at least one role");
    item.roles.forEach((role, j) => {
      if (!(ROLES as readonly string[]).includes(role))
        issues.add("CG-IMPORT-012", pathOf(["users", i, "roles", j]), `unknown role "${role}"`);
    });
    if (!parseClassification(item.clearance))
      issues.add("CG-IMPORT-004", pathOf(["users", i, "clearance"]), `unknown marking "${item.clearance}"`);
    item.legalAuthority?.forEach((a, j) => {
      if (!(LEGAL_AUTHORITIES as readonly string[]).includes(a))
        issues.add(
          "CG-IMPORT-012",
          pathOf(["users", i, "legalAuthority", j]),
          `unknown legal authority "${a}" (${LEGAL_AUTHORITIES.join(", ")})`,
        );
    });
    users.set(email, item.tenant);
    bundleUsers.push({ ...item, email });
  });

  const counts = {
    tenants: bundleTenants.length,
    licenses: bundleLicenses.length,
    users: bundleUsers.length,
    cases: 0,
    nodes: 0,
    edges: 0,
    evidence: 0,
    playbooks: 0,
  };
  const cases: CheckedBundle["cases"] = [];
  const caseIds = new Set<string>();
  const duplicates: FailureIssue[] = [];
  top.cases.forEach((c, ci) => {
    const header = parseWith(caseSchema, c, ["cases", ci], issues);
    if (!header) return;
    const at = (...rest: Array<string | number>) => pathOf(["cases", ci, ...rest]);
    if (caseIds.has(header.id)) issues.add("CG-IMPORT-005", at("id"), `duplicate case id "${header.id}"`);
    caseIds.add(header.id);
    if (!tenants.has(header.tenant)) issues.add("CG-IMPORT-008", at("tenant"), `unknown tenant "${header.tenant}"`);
    const priorTenant = known.cases.get(header.id);
    if (priorTenant && priorTenant !== header.tenant)
      issues.add("CG-IMPORT-013", at("id"), `case "${header.id}" already exists in another tenant`);
    checkMarking(header.classification, at("classification"), issues);
    header.members.forEach((m, j) => {
      const memberTenant = users.get(m.toLowerCase());
      if (!memberTenant) issues.add("CG-IMPORT-009", at("members", j), `unknown member "${m}"`);
      else if (memberTenant !== header.tenant) issues.add("CG-IMPORT-009", at("members", j), `member "${m}" belongs to another tenant`);
    });
    const members = new Set(header.members.map((m) => m.toLowerCase()));
    header.ingesters.forEach((m, j) => {
      if (!members.has(m.toLowerCase())) issues.add("CG-IMPORT-009", at("ingesters", j), `"${m}" is not a member of the case`);
    });

    const nodeIds = new Set<string>();
    header.nodes.forEach((n, i) => {
      const node = parseWith(nodeSchema, n, ["cases", ci, "nodes", i], issues);
      if (!node) return;
      if (nodeIds.has(node.id)) issues.add("CG-IMPORT-005", at("nodes", i, "id"), `duplicate node id "${node.id}"`);
      nodeIds.add(node.id);
      checkMarking(node.classification, at("nodes", i, "classification"), issues);
    });
    const edgeIds = new Set<string>();
    header.edges.forEach((e, i) => {
      const edge = parseWith(edgeSchema, e, ["cases", ci, "edges", i], issues);
      if (!edge) return;
      const edgeId = edge.id ?? defaultEdgeId(edge);
      if (edgeIds.has(edgeId)) issues.add("CG-IMPORT-005", at("edges", i, "id"), `duplicate edge id "${edgeId}"`);
      edgeIds.add(edgeId);
      for (const end of ["source", "target"] as const) {
        if (!nodeIds.has(edge[end])) issues.add("CG-IMPORT-006", at("edges", i, end), `no node "${edge[end]}" in case "${header.id}"`);
      }
      checkMarking(edge.classification, at("edges", i, "classification"), issues);
    });
    const evidenceIds = new Set<string>();
    const contentOwner = new Map<string, string>();
    const duplicateEvidence = new Set<number>();
    header.evidence.forEach((e, i) => {
      const ev = parseWith(evidenceSchema, e, ["cases", ci, "evidence", i], issues);
      if (!ev) return;
      if (evidenceIds.has(ev.id)) issues.add("CG-IMPORT-005", at("evidence", i, "id"), `duplicate evidence id "${ev.id}"`);
      // Issue 15: a tenant's accepted types, forged provenance or identity markers, and content seen before.
      const tenant = ev.tenant ?? header.tenant;
      const accepted = acceptedTypes.get(tenant);
      if (accepted?.length && !accepted.includes(ev.type)) {
        issues.add("CG-GROUND-001", at("evidence", i, "type"), `evidence type "${ev.type}" is not accepted by tenant "${tenant}"`);
      }
      const forged = forgedMarkerIn(ev.content);
      if (forged) {
        issues.add(
          "CG-GROUND-002",
          at("evidence", i, "content"),
          forged.reason === "provenance"
            ? "the text carries a provenance block (footer spoofing)"
            : "the text carries an identity-injection marker",
        );
      }
      if (ev.validUntil !== undefined && !parseTimestamp(ev.validUntil)) {
        issues.add("CG-GROUND-004", at("evidence", i, "validUntil"), `not an ISO-8601 timestamp: "${ev.validUntil}"`);
      }
      const digest = contentSha256(ev.content);
      const owner = contentOwner.get(digest);
      if (owner !== undefined && owner !== ev.id) {
        duplicateEvidence.add(i);
        duplicates.push({
          code: "CG-GROUND-003",
          path: at("evidence", i),
          message: `evidence "${ev.id}" repeats the content of "${owner}": stored once, as "${owner}"`,
        });
        return;
      }
      contentOwner.set(digest, ev.id);
      evidenceIds.add(ev.id);
      checkMarking(ev.classification, at("evidence", i, "classification"), issues);
      if (!licenses.has(ev.license)) issues.add("CG-IMPORT-007", at("evidence", i, "license"), `unknown license "${ev.license}"`);
      if (ev.tenant !== undefined && !tenants.has(ev.tenant))
        issues.add("CG-IMPORT-008", at("evidence", i, "tenant"), `unknown tenant "${ev.tenant}"`);
      if (!parseTimestamp(ev.collectedAt))
        issues.add("CG-IMPORT-010", at("evidence", i, "collectedAt"), `not an ISO-8601 timestamp: "${ev.collectedAt}"`);
      ev.nodes.forEach((nodeId, j) => {
        if (!nodeIds.has(nodeId)) issues.add("CG-IMPORT-006", at("evidence", i, "nodes", j), `no node "${nodeId}" in case "${header.id}"`);
      });
    });
    counts.cases++;
    counts.nodes += nodeIds.size;
    counts.edges += edgeIds.size;
    counts.evidence += evidenceIds.size;
    cases.push({ header, rawNodes: header.nodes, rawEdges: header.edges, rawEvidence: header.evidence, duplicateEvidence });
  });

  const playbooks = checkPlaybooks(top.playbooks, tenants, known, issues);
  counts.playbooks = playbooks.length;

  if (issues.items.length) return { issues: issues.items };
  return {
    bundle: { tenants: bundleTenants, licenses: bundleLicenses, users: bundleUsers, cases, counts, duplicates, playbooks },
    issues: [],
  };
}

/**
 * The `playbooks` section (issue 16): each entry's shape and labels (CG-PLAYBOOK-001), its tenant (shared when
 * absent), one entry per tenant and id, and no id both shared and a tenant's (CG-PLAYBOOK-003) — in the bundle or
 * against the catalogue stored.
 */
function checkPlaybooks(raw: unknown[], tenants: ReadonlySet<string>, known: KnownRefs, issues: IssueList): Playbook[] {
  const out: Playbook[] = [];
  const owners = new Map<string, Set<string>>();
  for (const [pid, list] of known.playbookOwners ?? []) owners.set(pid, new Set(list));
  const inBundle = new Set<string>();
  raw.forEach((entry, i) => {
    const at = (...rest: Array<string | number>) => pathOf(["playbooks", i, ...rest]);
    const r = playbookInputSchema.safeParse(entry);
    if (!r.success) {
      for (const issue of r.error.issues) issues.add("CG-PLAYBOOK-001", at(...(issue.path as Array<string | number>)), issue.message);
      return;
    }
    const problems = labelProblems(r.data);
    for (const p of problems) issues.add("CG-PLAYBOOK-001", at(p.path), p.message);
    if (r.data.tenant !== undefined && !tenants.has(r.data.tenant))
      issues.add("CG-IMPORT-008", at("tenant"), `unknown tenant "${r.data.tenant}"`);
    if (problems.length) return;
    const p = toPlaybook(r.data);
    const owner = p.tenant ?? SHARED_OWNER;
    if (inBundle.has(`${owner}\u0000${p.id}`))
      issues.add("CG-IMPORT-005", at("id"), `duplicate playbook "${p.id}" for ${p.tenant ?? "shared"}`);
    inBundle.add(`${owner}\u0000${p.id}`);
    const held = owners.get(p.id) ?? new Set<string>();
    if ([...held].some((o) => o !== owner && (o === SHARED_OWNER || owner === SHARED_OWNER)))
      issues.add("CG-PLAYBOOK-003", at("id"), `playbook id "${p.id}" is both shared and a tenant's`);
    owners.set(p.id, held.add(owner));
    out.push(p);
  });
  return out;
}
