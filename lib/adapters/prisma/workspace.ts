// Import and export of casegraph.workspace/v1 bundles. Import is all-or-nothing (one transaction), idempotent
// (upserts that write only what differs), and batched; export is canonical JSON that re-imports to the same state.
// Every change an import makes to tenants, licenses, users and case memberships is a ledger entry in the same
// transaction, in the shape an admin's change has (lib/domain/admin-change.ts); an unchanged re-import writes none.
import "server-only";
import { createHash } from "node:crypto";
import { hashPassword, verifyPassword } from "better-auth/crypto";
import type { PrismaClient } from "../../generated/prisma/client";
import type { Database } from "./db";
import type { SqlSession } from "./migrate";
import { CasegraphError, asCasegraphError } from "../../domain/failure-codes";
import { canonicalJsonPretty } from "../../domain/canonical-json";
import { adminChangeEntry, type AdminChange, type ChangeActor } from "../../domain/admin-change";
import { appendInSession } from "./ledger";
import { parseClassification, type Classification } from "../../domain/markings";
import type { FailureIssue } from "../../domain/failure-codes";
import { contentSha256 } from "../../grounding/lifecycle";
import { bundleEntry, descriptionTerms, SHARED_OWNER, type Playbook } from "../../playbooks/catalogue";
import {
  BUNDLE_FORMAT,
  checkBundle,
  defaultEdgeId,
  edgeSchema,
  evidenceSchema,
  markingOf,
  nodeSchema,
  parseTimestamp,
  sortedTags,
  type CheckedBundle,
  type KnownRefs,
} from "../../workspace/bundle";

/** Rows per INSERT, and per Neo4j mirror call (split there into concurrent lanes of ~2,000: see neo4j/sync.ts). */
export const IMPORT_BATCH = 6_000;

/** Stable user id from the email, so the same bundle gives the same ids everywhere. */
export function userIdFor(email: string): string {
  return "usr_" + createHash("sha256").update(email.toLowerCase()).digest("hex").slice(0, 20);
}

export interface ImportProgress {
  done: number;
  total: number;
}

export interface GraphRows {
  caseId: string;
  tenantId: string;
  nodes: NodeRow[];
  edges: EdgeRow[];
}

export interface ImportOptions {
  onProgress?: (p: ImportProgress) => void;
  /**
   * Called inside the transaction, after PostgreSQL has the case and before commit, once per batch of graph rows:
   * a second graph store (Neo4j) writes here, and if it throws the whole import rolls back.
   */
  mirrorGraph?: (rows: GraphRows) => Promise<void>;
  /** Who runs the import (the operator at the CLI, the demo seed at first start); named in its ledger entries. */
  actor?: ChangeActor;
}

const IMPORT_ACTOR: ChangeActor = { userId: null, email: "import", tenantId: null, via: "import" };

/** What an import wrote: the bundle's counts (evidence less the duplicates left out). */
export type ImportSummary = CheckedBundle["counts"] & {
  /** Evidence not stored because its content repeats another item of the case (CG-GROUND-003, with JSON paths). */
  duplicates?: FailureIssue[];
};

export async function readKnownRefs(prisma: PrismaClient): Promise<KnownRefs> {
  const [tenants, licenses, users, cases, playbooks] = await Promise.all([
    prisma.tenant.findMany({ select: { id: true, evidenceTypes: true } }),
    prisma.license.findMany({ select: { id: true } }),
    prisma.user.findMany({ select: { email: true, tenantId: true } }),
    prisma.case.findMany({ select: { id: true, tenantId: true } }),
    prisma.playbook.findMany({ select: { owner: true, id: true } }),
  ]);
  const playbookOwners = new Map<string, string[]>();
  for (const p of playbooks) playbookOwners.set(p.id, [...(playbookOwners.get(p.id) ?? []), p.owner]);
  return {
    tenants: new Set(tenants.map((t) => t.id)),
    evidenceTypes: new Map(tenants.map((t) => [t.id, t.evidenceTypes])),
    licenses: new Set(licenses.map((l) => l.id)),
    users: new Map(users.map((u) => [u.email, u.tenantId])),
    cases: new Map(cases.map((c) => [c.id, c.tenantId])),
    playbookOwners,
  };
}

/** Validates against the database, then writes everything in one transaction. Throws CasegraphError with issues. */
export async function importBundle(db: Database, raw: unknown, options: ImportOptions = {}): Promise<ImportSummary> {
  const { bundle, issues } = checkBundle(raw, await readKnownRefs(db.prisma));
  if (!bundle) throw new CasegraphError(issues[0]?.code ?? "CG-IMPORT-003", `The bundle has ${issues.length} problem(s).`, issues);
  // Slow password hashes are computed before the transaction opens, so it stays short.
  const passwords = await passwordHashes(db.prisma, bundle);
  const total = bundle.counts.nodes + bundle.counts.edges + bundle.counts.evidence;
  let done = 0;
  const advance = (n: number) => {
    done += n;
    options.onProgress?.({ done, total });
  };
  const duplicates = [...bundle.duplicates];
  try {
    await db.transaction(async (sql) => {
      const changes = await writeDirectory(sql, bundle, passwords);
      for (const [ci, c] of bundle.cases.entries())
        changes.push(...(await writeCase(sql, c, advance, options.mirrorGraph, ci, duplicates)));
      changes.push(...(await writePlaybooks(sql, bundle.playbooks)));
      await appendInSession(
        sql,
        changes.map((change) => adminChangeEntry(options.actor ?? IMPORT_ACTOR, change)),
      );
    });
  } catch (err) {
    if (err instanceof CasegraphError) throw err;
    throw new CasegraphError("CG-IMPORT-013", "The import failed and was rolled back; nothing was written.", [], { cause: err });
  }
  const { tenants, licenses, users, cases, nodes, edges, evidence, playbooks } = bundle.counts;
  return {
    playbooks,
    tenants,
    licenses,
    users,
    cases,
    nodes,
    edges,
    evidence: evidence - (duplicates.length - bundle.duplicates.length),
    ...(duplicates.length ? { duplicates } : {}),
  };
}

async function passwordHashes(prisma: PrismaClient, bundle: CheckedBundle): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const user of bundle.users) {
    if (!user.password) continue;
    const account = await prisma.account.findFirst({
      where: { providerId: "credential", user: { email: user.email } },
      select: { password: true },
    });
    // Re-importing the same password keeps the stored hash: the import changes nothing.
    if (account?.password && (await verifyPassword({ hash: account.password, password: user.password }))) continue;
    out.set(user.email, await hashPassword(user.password));
  }
  return out;
}

// Tag lists travel as one text per row joined by the unit separator (never in tags: they are trimmed printable text).
const SEP = "\x1f";
const joinList = (list: readonly string[]) => list.join(SEP);
const LIST = (param: string) => `CASE WHEN ${param} = '' THEN '{}'::text[] ELSE string_to_array(${param}, chr(31)) END`;

interface UserState {
  id: string;
  email: string;
  name: string;
  tenantId: string;
  roles: string[];
  clearance: string;
  needToKnow: string[];
  active: boolean;
  legalAuthority: string[];
}

const USER_STATE = `id, email, name, tenant_id AS "tenantId", roles, clearance::text AS clearance, need_to_know AS "needToKnow", active,
  legal_authority AS "legalAuthority"`;
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Tenants, licenses and users; returns the changes it made, for the ledger. */
async function writeDirectory(sql: SqlSession, bundle: CheckedBundle, passwords: Map<string, string>): Promise<AdminChange[]> {
  const changes: AdminChange[] = [];
  for (const t of bundle.tenants) {
    const before = (await sql.query<{ id: string; name: string }>(`SELECT id, name FROM "tenant" WHERE id = $1`, [t.id])).rows[0] ?? null;
    await sql.query(
      `INSERT INTO "tenant" (id, name) VALUES ($1, $2)
      ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name WHERE "tenant".name IS DISTINCT FROM EXCLUDED.name`,
      [t.id, t.name],
    );
    const after = { id: t.id, name: t.name };
    if (!same(before, after))
      changes.push({
        kind: before ? "admin.tenant.rename" : "admin.tenant.create",
        target: { type: "tenant", id: t.id, tenantId: t.id },
        before,
        after,
      });
    const rules = await writeEvidenceRules(sql, t);
    if (rules) changes.push({ kind: "admin.tenant.evidence_rules", target: { type: "tenant", id: t.id, tenantId: t.id }, ...rules });
    if (t.riskTolerance !== undefined) {
      const { rows } = await sql.query<{ before: string }>(
        `WITH old AS (SELECT risk_tolerance FROM "tenant" WHERE id = $1)
        UPDATE "tenant" SET risk_tolerance = $2 WHERE id = $1 AND risk_tolerance IS DISTINCT FROM $2
        RETURNING (SELECT risk_tolerance FROM old) AS before`,
        [t.id, t.riskTolerance],
      );
      if (rows[0])
        changes.push({
          kind: "admin.tenant.risk_tolerance",
          target: { type: "tenant", id: t.id, tenantId: t.id },
          before: { riskTolerance: rows[0].before },
          after: { riskTolerance: t.riskTolerance },
        });
    }
  }
  for (const l of bundle.licenses) {
    const allows = [...new Set(l.allows)].sort();
    const found = (
      await sql.query<{ id: string; name: string; allows: string[]; tenant_id: string | null }>(
        `SELECT id, name, allows::text[] AS allows, tenant_id FROM "license" WHERE id = $1`,
        [l.id],
      )
    ).rows[0];
    const before = found ? { id: found.id, name: found.name, allows: [...found.allows].sort() } : null;
    await sql.query(
      `INSERT INTO "license" (id, name, allows) VALUES ($1, $2, $3::text[]::"LicenseUse"[])
      ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, allows = EXCLUDED.allows
      WHERE ("license".name, "license".allows) IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.allows)`,
      [l.id, l.name, allows],
    );
    const after = { id: l.id, name: l.name, allows };
    if (!same(before, after)) {
      changes.push({
        kind: before ? "admin.license.update" : "admin.license.create",
        target: { type: "license", id: l.id, tenantId: found?.tenant_id ?? null },
        before,
        after,
      });
    }
  }
  for (const u of bundle.users) {
    const before = (await sql.query<UserState>(`SELECT ${USER_STATE} FROM "user" WHERE email = $1`, [u.email])).rows[0] ?? null;
    const { rows } = await sql.query<UserState>(
      `INSERT INTO "user" (id, email, name, tenant_id, roles, clearance, need_to_know, active, legal_authority)
      VALUES ($1, $2, $3, $4, $5::text[], $6::"Classification", $7::text[], $8, $9::text[])
      ON CONFLICT (email) DO UPDATE SET name = EXCLUDED.name, roles = EXCLUDED.roles, clearance = EXCLUDED.clearance,
        need_to_know = EXCLUDED.need_to_know, active = EXCLUDED.active, legal_authority = EXCLUDED.legal_authority,
        updated_at = now()
      WHERE ("user".name, "user".roles, "user".clearance, "user".need_to_know, "user".active, "user".legal_authority)
        IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.roles, EXCLUDED.clearance, EXCLUDED.need_to_know, EXCLUDED.active,
          EXCLUDED.legal_authority)
      RETURNING ${USER_STATE}`,
      [
        userIdFor(u.email),
        u.email,
        u.name,
        u.tenant,
        [...new Set(u.roles)].sort(),
        parseClassification(u.clearance),
        sortedTags(u.needToKnow),
        u.active ?? true,
        [...new Set(u.legalAuthority ?? [])].sort(),
      ],
    );
    const after = rows[0] ?? before!;
    const target = { type: "user", id: after.id, tenantId: after.tenantId };
    if (!before) changes.push({ kind: "admin.user.create", target, before: null, after });
    else if (rows[0] && !same(before, after)) changes.push({ kind: "admin.user.update", target, before, after });
    const hash = passwords.get(u.email);
    if (hash) {
      await sql.query(
        `INSERT INTO "account" (id, account_id, provider_id, user_id, password) VALUES ($1, $2, 'credential', $2, $3)
        ON CONFLICT (id) DO UPDATE SET password = EXCLUDED.password, updated_at = now()`,
        ["acc_" + after.id, after.id, hash],
      );
      // A new user's password is part of its creation; a changed one is a reset (never the password or its hash).
      if (before) changes.push({ kind: "admin.user.password_reset", target, before: null, after: { passwordChanged: true } });
    }
  }
  return changes;
}

/** A tenant's accepted evidence types and maximum ages (issue 15), when the bundle gives them; the change, if any. */
async function writeEvidenceRules(
  sql: SqlSession,
  t: CheckedBundle["tenants"][number],
): Promise<{ before: unknown; after: unknown } | null> {
  if (t.evidenceTypes === undefined && t.evidenceMaxAgeDays === undefined) return null;
  const { rows } = await sql.query<{ types: string[]; ages: Record<string, number> }>(
    `SELECT evidence_types AS types, evidence_max_age_days AS ages FROM "tenant" WHERE id = $1`,
    [t.id],
  );
  const before = { evidenceTypes: [...(rows[0]?.types ?? [])].sort(), evidenceMaxAgeDays: sortedObject(rows[0]?.ages ?? {}) };
  const after = {
    evidenceTypes: t.evidenceTypes === undefined ? before.evidenceTypes : [...new Set(t.evidenceTypes)].sort(),
    evidenceMaxAgeDays: t.evidenceMaxAgeDays === undefined ? before.evidenceMaxAgeDays : sortedObject(t.evidenceMaxAgeDays),
  };
  if (same(before, after)) return null;
  await sql.query(`UPDATE "tenant" SET evidence_types = $2::text[], evidence_max_age_days = $3::jsonb WHERE id = $1`, [
    t.id,
    after.evidenceTypes,
    JSON.stringify(after.evidenceMaxAgeDays),
  ]);
  return { before, after };
}

const sortedObject = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

export interface NodeRow {
  id: string;
  label: string;
  name: string;
  properties: Record<string, unknown>;
  classification: Classification;
  needToKnow: string[];
}
export interface EdgeRow {
  id: string;
  source: string;
  target: string;
  type: string;
  properties: Record<string, unknown>;
  classification: Classification;
  needToKnow: string[];
}

/** The display name of a node: its `name` property, else title, else its id. */
export function nodeName(id: string, properties: Record<string, unknown>): string {
  for (const key of ["name", "title", "label"]) {
    const v = properties[key];
    if (typeof v === "string" && v.trim()) return v.trim();
  }
  return id;
}

async function writeCase(
  sql: SqlSession,
  c: CheckedBundle["cases"][number],
  advance: (n: number) => void,
  mirrorGraph: ImportOptions["mirrorGraph"],
  caseIndex: number,
  duplicates: FailureIssue[],
): Promise<AdminChange[]> {
  const h = c.header;
  const caseMarking = parseClassification(h.classification) as Classification;
  await sql.query(
    `INSERT INTO "case" (id, tenant_id, title, description, classification, status, case_type, jurisdiction)
    VALUES ($1, $2, $3, $4, $5::"Classification", $6::"CaseStatus", $7, $8)
    ON CONFLICT (id) DO UPDATE SET title = EXCLUDED.title, description = EXCLUDED.description,
      classification = EXCLUDED.classification, status = EXCLUDED.status, case_type = EXCLUDED.case_type,
      jurisdiction = EXCLUDED.jurisdiction, updated_at = now()
    WHERE ("case".title, "case".description, "case".classification, "case".status, "case".case_type, "case".jurisdiction)
      IS DISTINCT FROM (EXCLUDED.title, EXCLUDED.description, EXCLUDED.classification, EXCLUDED.status, EXCLUDED.case_type,
        EXCLUDED.jurisdiction)`,
    [h.id, h.tenant, h.title, h.description, caseMarking, h.status ?? "OPEN", h.caseType ?? null, h.jurisdiction ?? null],
  );
  const memberEmails = [...new Set(h.members.map((m) => m.toLowerCase()))];
  const changes: AdminChange[] = [];
  if (memberEmails.length) {
    const { rows: added } = await sql.query<{ id: string; email: string }>(
      `WITH added AS (
        INSERT INTO "case_member" (case_id, user_id) SELECT $1, id FROM "user" WHERE email = ANY($2::text[])
        ON CONFLICT DO NOTHING RETURNING user_id)
      SELECT u.id, u.email FROM added a JOIN "user" u ON u.id = a.user_id ORDER BY u.email`,
      [h.id, memberEmails],
    );
    for (const u of added) {
      changes.push({
        kind: "admin.membership.add",
        target: { type: "case_member", id: `${h.id}/${u.id}`, tenantId: h.tenant },
        caseId: h.id,
        before: { member: false },
        after: { member: true, user: { id: u.id, email: u.email } },
      });
    }
  }
  const ingesters = [...new Set(h.ingesters.map((m) => m.toLowerCase()))];
  if (ingesters.length) {
    const { rows: granted } = await sql.query<{ id: string; email: string; before: string[]; after: string[] }>(
      `WITH granted AS (
        UPDATE "case_member" m SET permissions = (SELECT array_agg(DISTINCT p ORDER BY p) FROM unnest(m.permissions || '{ingest}'::text[]) p)
         WHERE m.case_id = $1 AND NOT ('ingest' = ANY(m.permissions))
           AND m.user_id IN (SELECT id FROM "user" WHERE email = ANY($2::text[]))
        RETURNING m.user_id, m.permissions)
      SELECT u.id, u.email, array_remove(g.permissions, 'ingest') AS before, g.permissions AS after
        FROM granted g JOIN "user" u ON u.id = g.user_id ORDER BY u.email`,
      [h.id, ingesters],
    );
    for (const u of granted) {
      changes.push({
        kind: "admin.membership.permissions",
        target: { type: "case_member", id: `${h.id}/${u.id}`, tenantId: h.tenant },
        caseId: h.id,
        before: { permissions: u.before, user: { id: u.id, email: u.email } },
        after: { permissions: u.after, user: { id: u.id, email: u.email } },
      });
    }
  }

  for (const batch of chunks(c.rawNodes)) {
    const rows: NodeRow[] = batch.map((raw) => {
      const n = nodeSchema.parse(raw);
      return {
        id: n.id,
        label: n.label,
        name: nodeName(n.id, n.properties),
        properties: n.properties,
        classification: markingOf(n.classification, caseMarking),
        needToKnow: sortedTags(n.needToKnow),
      };
    });
    await insertNodes(sql, h.id, h.tenant, rows);
    await mirrorGraph?.({ caseId: h.id, tenantId: h.tenant, nodes: rows, edges: [] });
    advance(rows.length);
  }
  for (const batch of chunks(c.rawEdges)) {
    const rows: EdgeRow[] = batch.map((raw) => {
      const e = edgeSchema.parse(raw);
      return {
        id: e.id ?? defaultEdgeId(e),
        source: e.source,
        target: e.target,
        type: e.type,
        properties: e.properties ?? {},
        classification: markingOf(e.classification, caseMarking),
        needToKnow: sortedTags(e.needToKnow),
      };
    });
    await insertEdges(sql, h.id, h.tenant, rows);
    await mirrorGraph?.({ caseId: h.id, tenantId: h.tenant, nodes: [], edges: rows });
    advance(rows.length);
  }
  for (const [b, batch] of [...chunks(c.rawEvidence)].entries()) {
    // Duplicates of an earlier item's content (issue 15) are reported, not stored: those within the bundle were found
    // by checkBundle, those of items already stored here.
    const parsed = batch
      .map((raw, j) => ({ index: b * IMPORT_BATCH + j, e: evidenceSchema.parse(raw) }))
      .filter(({ index }) => !c.duplicateEvidence.has(index));
    const stored = await storedContentOwners(
      sql,
      h.id,
      parsed.map(({ e }) => contentSha256(e.content)),
    );
    const rows = parsed
      .filter(({ index, e }) => {
        const owner = stored.get(contentSha256(e.content));
        if (owner === undefined || owner === e.id) return true;
        duplicates.push({
          code: "CG-GROUND-003",
          path: `$.cases[${caseIndex}].evidence[${index}]`,
          message: `evidence "${e.id}" repeats the content of stored "${owner}": not stored`,
        });
        return false;
      })
      .map(({ e }) => e);
    await insertEvidence(
      sql,
      h.id,
      rows.map((e) => ({
        id: e.id,
        tenantId: e.tenant ?? h.tenant,
        type: e.type,
        content: e.content,
        sourceSystem: e.sourceSystem,
        classification: markingOf(e.classification, caseMarking),
        needToKnow: sortedTags(e.needToKnow),
        license: e.license,
        collectedAt: (parseTimestamp(e.collectedAt) as Date).toISOString(),
        metadata: e.metadata ?? {},
        nodeIds: [...new Set(e.nodes)].sort(),
        validUntil: e.validUntil === undefined ? null : (parseTimestamp(e.validUntil) as Date).toISOString(),
      })),
    );
    advance(parsed.length);
  }
  return changes;
}

export interface EvidenceRow {
  id: string;
  tenantId: string;
  type: string;
  content: string;
  sourceSystem: string;
  classification: Classification;
  needToKnow: string[];
  license: string;
  /** ISO-8601. */
  collectedAt: string;
  metadata: Record<string, unknown>;
  nodeIds: string[];
  validUntil: string | null;
}

/** Inserts (or updates, when they differ) evidence rows of one case in one statement. */
export async function insertEvidence(sql: SqlSession, caseId: string, rows: readonly EvidenceRow[]): Promise<void> {
  if (!rows.length) return;
  await sql.query(
    `INSERT INTO "evidence" (case_id, id, tenant_id, type, content, source_system, classification,
      need_to_know, license_id, collected_at, metadata, node_ids, valid_until)
    SELECT $1, r.id, r.tenant_id, r.type, r.content, r.source_system, r.classification::"Classification",
      ${LIST("r.ntk")}, r.license_id, r.collected_at::timestamptz, r.metadata::jsonb, ${LIST("r.nodes")}, nullif(r.valid_until, '')::timestamptz
    FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[],
      $11::text[], $12::text[], $13::text[])
      AS r(id, tenant_id, type, content, source_system, classification, ntk, license_id, collected_at, metadata, nodes, valid_until)
    ON CONFLICT (case_id, id) DO UPDATE SET tenant_id = EXCLUDED.tenant_id, type = EXCLUDED.type, content = EXCLUDED.content,
      source_system = EXCLUDED.source_system, classification = EXCLUDED.classification, need_to_know = EXCLUDED.need_to_know,
      license_id = EXCLUDED.license_id, collected_at = EXCLUDED.collected_at, metadata = EXCLUDED.metadata,
      node_ids = EXCLUDED.node_ids, valid_until = EXCLUDED.valid_until
    WHERE ("evidence".tenant_id, "evidence".type, "evidence".content, "evidence".source_system, "evidence".classification,
           "evidence".need_to_know, "evidence".license_id, "evidence".collected_at, "evidence".metadata, "evidence".node_ids,
           "evidence".valid_until)
      IS DISTINCT FROM (EXCLUDED.tenant_id, EXCLUDED.type, EXCLUDED.content, EXCLUDED.source_system, EXCLUDED.classification,
           EXCLUDED.need_to_know, EXCLUDED.license_id, EXCLUDED.collected_at, EXCLUDED.metadata, EXCLUDED.node_ids,
           EXCLUDED.valid_until)`,
    [
      caseId,
      rows.map((e) => e.id),
      rows.map((e) => e.tenantId),
      rows.map((e) => e.type),
      rows.map((e) => e.content),
      rows.map((e) => e.sourceSystem),
      rows.map((e) => e.classification),
      rows.map((e) => joinList(e.needToKnow)),
      rows.map((e) => e.license),
      rows.map((e) => e.collectedAt),
      rows.map((e) => JSON.stringify(e.metadata)),
      rows.map((e) => joinList(e.nodeIds)),
      rows.map((e) => e.validUntil ?? ""),
    ],
  );
}

export interface PlaybookRow {
  owner: string;
  id: string;
  version: string;
  description: string;
  case_types: string[];
  jurisdictions: string[];
  required_authority: string;
  min_clearance: string;
  risk_level: string;
  need_to_know: string[];
  active: boolean;
}

/** A stored playbook as a bundle entry (what export writes; labels as stored). */
export function playbookEntry(r: PlaybookRow) {
  return bundleEntry({
    id: r.id,
    version: r.version,
    description: r.description,
    caseTypes: r.case_types,
    jurisdictions: r.jurisdictions,
    requiredAuthority: r.required_authority as Playbook["requiredAuthority"],
    minClearance: r.min_clearance as Playbook["minClearance"],
    riskLevel: r.risk_level as Playbook["riskLevel"],
    tenant: r.owner === SHARED_OWNER ? null : r.owner,
    needToKnow: r.need_to_know,
    active: r.active,
  });
}

const PLAYBOOK_COLUMNS = `owner, id, version, description, case_types, jurisdictions, required_authority, min_clearance::text AS min_clearance,
  risk_level, need_to_know, active`;

/**
 * The catalogue's entries (issue 16), written only where they differ (an unchanged one keeps its revision, so the
 * catalogue's version moves only with a real change); each change is a ledger entry like an admin's.
 */
export async function writePlaybooks(sql: SqlSession, playbooks: readonly Playbook[], updatedBy = "import"): Promise<AdminChange[]> {
  const changes: AdminChange[] = [];
  for (const p of playbooks) {
    const owner = p.tenant ?? SHARED_OWNER;
    const found = (await sql.query<PlaybookRow>(`SELECT ${PLAYBOOK_COLUMNS} FROM "playbook" WHERE owner = $1 AND id = $2`, [owner, p.id]))
      .rows[0];
    const before = found ? playbookEntry(found) : null;
    const after = bundleEntry(p);
    if (same(before, after)) continue;
    await sql.query(
      `INSERT INTO "playbook" (owner, id, version, description, terms, case_types, jurisdictions, required_authority, min_clearance,
        risk_level, need_to_know, active, updated_by)
      VALUES ($1, $2, $3, $4, $5::text[], $6::text[], $7::text[], $8, $9::"Classification", $10, $11::text[], $12, $13)
      ON CONFLICT (owner, id) DO UPDATE SET version = EXCLUDED.version, description = EXCLUDED.description, terms = EXCLUDED.terms,
        case_types = EXCLUDED.case_types, jurisdictions = EXCLUDED.jurisdictions, required_authority = EXCLUDED.required_authority,
        min_clearance = EXCLUDED.min_clearance, risk_level = EXCLUDED.risk_level, need_to_know = EXCLUDED.need_to_know,
        active = EXCLUDED.active, updated_by = EXCLUDED.updated_by`,
      [
        owner,
        p.id,
        p.version,
        p.description,
        descriptionTerms(p.description),
        p.caseTypes,
        p.jurisdictions,
        p.requiredAuthority,
        p.minClearance,
        p.riskLevel,
        p.needToKnow,
        p.active,
        updatedBy,
      ],
    );
    changes.push({
      kind: before ? "admin.playbook.update" : "admin.playbook.create",
      target: { type: "playbook", id: `${owner}/${p.id}`, tenantId: p.tenant },
      before,
      after,
    });
  }
  return changes;
}

/** Content digest → id of the stored item of the case holding it (the lowest id when several do). */
async function storedContentOwners(sql: SqlSession, caseId: string, digests: string[]): Promise<Map<string, string>> {
  if (!digests.length) return new Map();
  const { rows } = await sql.query<{ id: string; d: string }>(
    `SELECT min(id COLLATE "C") AS id, content_sha256 AS d FROM "evidence"
    WHERE case_id = $1 AND content_sha256 = ANY($2::text[]) GROUP BY content_sha256`,
    [caseId, [...new Set(digests)]],
  );
  return new Map(rows.map((r) => [r.d, r.id]));
}

export async function insertNodes(sql: SqlSession, caseId: string, tenantId: string, rows: NodeRow[]) {
  await sql.query(
    `INSERT INTO "graph_node" (case_id, id, tenant_id, label, name, properties, classification, need_to_know)
    SELECT $1, r.id, $2, r.label, r.name, r.properties::jsonb, r.classification::"Classification", ${LIST("r.ntk")}
    FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
      AS r(id, label, name, properties, classification, ntk)
    ON CONFLICT (case_id, id) DO UPDATE SET label = EXCLUDED.label, name = EXCLUDED.name, properties = EXCLUDED.properties,
      classification = EXCLUDED.classification, need_to_know = EXCLUDED.need_to_know
    WHERE ("graph_node".label, "graph_node".name, "graph_node".properties, "graph_node".classification, "graph_node".need_to_know)
      IS DISTINCT FROM (EXCLUDED.label, EXCLUDED.name, EXCLUDED.properties, EXCLUDED.classification, EXCLUDED.need_to_know)`,
    [
      caseId,
      tenantId,
      rows.map((n) => n.id),
      rows.map((n) => n.label),
      rows.map((n) => n.name),
      rows.map((n) => JSON.stringify(n.properties)),
      rows.map((n) => n.classification),
      rows.map((n) => joinList(n.needToKnow)),
    ],
  );
}

export async function insertEdges(sql: SqlSession, caseId: string, tenantId: string, rows: EdgeRow[]) {
  await sql.query(
    `INSERT INTO "graph_edge" (case_id, id, tenant_id, source, target, type, properties, classification, need_to_know)
    SELECT $1, r.id, $2, r.source, r.target, r.type, r.properties::jsonb, r.classification::"Classification", ${LIST("r.ntk")}
    FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[])
      AS r(id, source, target, type, properties, classification, ntk)
    ON CONFLICT (case_id, id) DO UPDATE SET source = EXCLUDED.source, target = EXCLUDED.target, type = EXCLUDED.type,
      properties = EXCLUDED.properties, classification = EXCLUDED.classification, need_to_know = EXCLUDED.need_to_know
    WHERE ("graph_edge".source, "graph_edge".target, "graph_edge".type, "graph_edge".properties, "graph_edge".classification,
           "graph_edge".need_to_know)
      IS DISTINCT FROM (EXCLUDED.source, EXCLUDED.target, EXCLUDED.type, EXCLUDED.properties, EXCLUDED.classification,
           EXCLUDED.need_to_know)`,
    [
      caseId,
      tenantId,
      rows.map((e) => e.id),
      rows.map((e) => e.source),
      rows.map((e) => e.target),
      rows.map((e) => e.type),
      rows.map((e) => JSON.stringify(e.properties)),
      rows.map((e) => e.classification),
      rows.map((e) => joinList(e.needToKnow)),
    ],
  );
}

function* chunks<T>(items: readonly T[], size = IMPORT_BATCH): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

// ---------------------------------------------------------------------------------------------------------------
// Export

/** The workspace (or one case with the tenant, licenses and members it needs) as canonical, re-importable JSON. */
export async function exportWorkspace(prisma: PrismaClient, options: { caseId?: string } = {}): Promise<string> {
  try {
    return canonicalJsonPretty(await exportObject(prisma, options));
  } catch (err) {
    throw asCasegraphError(err);
  }
}

/** The bundle's `ingesters`: absent when nobody holds the permission (bundles from before it stay byte-identical). */
function ingestersOf(members: Array<{ permissions: string[]; user: { email: string } }>) {
  const emails = members
    .filter((m) => m.permissions.includes("ingest"))
    .map((m) => m.user.email)
    .sort();
  return emails.length ? { ingesters: emails } : {};
}

async function exportObject(prisma: PrismaClient, { caseId }: { caseId?: string }) {
  const cases = await prisma.case.findMany({
    where: caseId ? { id: caseId } : {},
    orderBy: { id: "asc" },
    include: { members: { include: { user: { select: { email: true } } } } },
  });
  if (caseId && cases.length === 0) throw new CasegraphError("CG-ACCESS-003", `No case "${caseId}".`);
  const caseIds = cases.map((c) => c.id);
  const [nodes, edges, evidence] = await Promise.all([
    prisma.graphNode.findMany({
      where: { caseId: { in: caseIds } },
      orderBy: [{ caseId: "asc" }, { id: "asc" }],
      select: { caseId: true, id: true, label: true, properties: true, classification: true, needToKnow: true },
    }),
    prisma.graphEdge.findMany({
      where: { caseId: { in: caseIds } },
      orderBy: [{ caseId: "asc" }, { id: "asc" }],
      select: { caseId: true, id: true, source: true, target: true, type: true, properties: true, classification: true, needToKnow: true },
    }),
    prisma.evidence.findMany({
      where: { caseId: { in: caseIds } },
      orderBy: [{ caseId: "asc" }, { id: "asc" }],
      select: {
        caseId: true,
        id: true,
        tenantId: true,
        type: true,
        content: true,
        sourceSystem: true,
        classification: true,
        needToKnow: true,
        licenseId: true,
        collectedAt: true,
        metadata: true,
        nodeIds: true,
        validUntil: true,
      },
    }),
  ]);

  const memberEmails = new Set(cases.flatMap((c) => c.members.map((m) => m.user.email)));
  const users = await prisma.user.findMany({
    where: caseId ? { email: { in: [...memberEmails] } } : {},
    orderBy: { email: "asc" },
  });
  const tenantIds = new Set([...cases.map((c) => c.tenantId), ...users.map((u) => u.tenantId), ...evidence.map((e) => e.tenantId)]);
  const licenseIds = new Set(evidence.map((e) => e.licenseId));
  const [tenants, licenses, playbooks] = await Promise.all([
    prisma.tenant.findMany({ where: caseId ? { id: { in: [...tenantIds] } } : {}, orderBy: { id: "asc" } }),
    prisma.license.findMany({ where: caseId ? { id: { in: [...licenseIds] } } : {}, orderBy: { id: "asc" } }),
    // The catalogue: all of it, or the exported tenants' playbooks and the shared ones.
    prisma.$queryRawUnsafe<PlaybookRow[]>(
      `SELECT ${PLAYBOOK_COLUMNS} FROM "playbook" ${caseId ? `WHERE owner = ANY($1::text[])` : ""}`,
      ...(caseId ? [[...tenantIds, SHARED_OWNER]] : []),
    ),
  ]);
  const byOwnerAndId = (a: PlaybookRow, b: PlaybookRow) => (a.owner === b.owner ? (a.id < b.id ? -1 : 1) : a.owner < b.owner ? -1 : 1);

  const byCase = <T extends { caseId: string }>(rows: T[]) => {
    const m = new Map<string, T[]>();
    for (const r of rows) (m.get(r.caseId) ?? m.set(r.caseId, []).get(r.caseId)!).push(r);
    return m;
  };
  const nodesBy = byCase(nodes),
    edgesBy = byCase(edges),
    evidenceBy = byCase(evidence);

  return {
    format: BUNDLE_FORMAT,
    tenants: tenants.map((t) => ({
      id: t.id,
      name: t.name,
      ...(t.riskTolerance !== "low" ? { riskTolerance: t.riskTolerance } : {}),
      ...(t.evidenceTypes.length ? { evidenceTypes: [...t.evidenceTypes].sort() } : {}),
      ...(Object.keys(t.evidenceMaxAgeDays as object).length ? { evidenceMaxAgeDays: t.evidenceMaxAgeDays } : {}),
    })),
    licenses: licenses.map((l) => ({ id: l.id, name: l.name, allows: [...l.allows].sort() })),
    users: users.map((u) => ({
      email: u.email,
      name: u.name,
      tenant: u.tenantId,
      roles: [...u.roles].sort(),
      clearance: u.clearance,
      needToKnow: [...u.needToKnow].sort(),
      active: u.active,
      ...(u.legalAuthority.length ? { legalAuthority: [...u.legalAuthority].sort() } : {}),
    })),
    cases: cases.map((c) => ({
      id: c.id,
      tenant: c.tenantId,
      title: c.title,
      description: c.description,
      classification: c.classification,
      status: c.status,
      ...(c.caseType !== null ? { caseType: c.caseType } : {}),
      ...(c.jurisdiction !== null ? { jurisdiction: c.jurisdiction } : {}),
      members: c.members.map((m) => m.user.email).sort(),
      ...ingestersOf(c.members),
      nodes: (nodesBy.get(c.id) ?? []).map((n) => ({
        id: n.id,
        label: n.label,
        properties: n.properties,
        classification: n.classification,
        needToKnow: n.needToKnow,
      })),
      edges: (edgesBy.get(c.id) ?? []).map((e) => ({
        id: e.id,
        source: e.source,
        target: e.target,
        type: e.type,
        properties: e.properties,
        classification: e.classification,
        needToKnow: e.needToKnow,
      })),
      evidence: (evidenceBy.get(c.id) ?? []).map((e) => ({
        id: e.id,
        type: e.type,
        content: e.content,
        sourceSystem: e.sourceSystem,
        classification: e.classification,
        needToKnow: e.needToKnow,
        license: e.licenseId,
        tenant: e.tenantId,
        collectedAt: e.collectedAt.toISOString(),
        metadata: e.metadata,
        nodes: e.nodeIds,
        ...(e.validUntil ? { validUntil: e.validUntil.toISOString() } : {}),
      })),
    })),
    ...(playbooks.length ? { playbooks: [...playbooks].sort(byOwnerAndId).map(playbookEntry) } : {}),
  };
}
