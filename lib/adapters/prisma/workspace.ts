// Import and export of casegraph.workspace/v1 bundles. Import is all-or-nothing (one transaction), idempotent
// (upserts that write only what differs), and batched; export is canonical JSON that re-imports to the same state.
import { createHash } from "node:crypto";
import { hashPassword, verifyPassword } from "better-auth/crypto";
import type { PrismaClient } from "../../generated/prisma/client";
import { CasegraphError, asCasegraphError } from "../../domain/failure-codes";
import { canonicalJsonPretty } from "../../domain/canonical-json";
import { parseClassification, type Classification } from "../../domain/markings";
import {
  BUNDLE_FORMAT, checkBundle, defaultEdgeId, edgeSchema, evidenceSchema, markingOf, nodeSchema, parseTimestamp,
  sortedTags, type CheckedBundle, type KnownRefs,
} from "../../workspace/bundle";

type Tx = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

export const IMPORT_BATCH = 2_000;

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
}

export interface ImportSummary {
  tenants: number;
  licenses: number;
  users: number;
  cases: number;
  nodes: number;
  edges: number;
  evidence: number;
}

export async function readKnownRefs(prisma: PrismaClient): Promise<KnownRefs> {
  const [tenants, licenses, users, cases] = await Promise.all([
    prisma.tenant.findMany({ select: { id: true } }),
    prisma.license.findMany({ select: { id: true } }),
    prisma.user.findMany({ select: { email: true, tenantId: true } }),
    prisma.case.findMany({ select: { id: true, tenantId: true } }),
  ]);
  return {
    tenants: new Set(tenants.map((t) => t.id)),
    licenses: new Set(licenses.map((l) => l.id)),
    users: new Map(users.map((u) => [u.email, u.tenantId])),
    cases: new Map(cases.map((c) => [c.id, c.tenantId])),
  };
}

/** Validates against the database, then writes everything in one transaction. Throws CasegraphError with issues. */
export async function importBundle(prisma: PrismaClient, raw: unknown, options: ImportOptions = {}): Promise<ImportSummary> {
  const { bundle, issues } = checkBundle(raw, await readKnownRefs(prisma));
  if (!bundle) throw new CasegraphError(issues[0]?.code ?? "CG-IMPORT-003", `The bundle has ${issues.length} problem(s).`, issues);
  // Slow password hashes are computed before the transaction opens, so it stays short.
  const passwords = await passwordHashes(prisma, bundle);
  const total = bundle.counts.nodes + bundle.counts.edges + bundle.counts.evidence;
  let done = 0;
  const advance = (n: number) => {
    done += n;
    options.onProgress?.({ done, total });
  };
  try {
    await prisma.$transaction(
      async (tx) => {
        await writeDirectory(tx, bundle, passwords);
        for (const c of bundle.cases) await writeCase(tx, c, advance, options.mirrorGraph);
      },
      { timeout: 60 * 60_000, maxWait: 30_000 },
    );
  } catch (err) {
    if (err instanceof CasegraphError) throw err;
    throw new CasegraphError("CG-IMPORT-013", "The import failed and was rolled back; nothing was written.", [], { cause: err });
  }
  const { tenants, licenses, users, cases, nodes, edges, evidence } = bundle.counts;
  return { tenants, licenses, users, cases, nodes, edges, evidence };
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

async function writeDirectory(tx: Tx, bundle: CheckedBundle, passwords: Map<string, string>) {
  for (const t of bundle.tenants) {
    await tx.$executeRaw`INSERT INTO "tenant" (id, name) VALUES (${t.id}, ${t.name})
      ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name WHERE "tenant".name IS DISTINCT FROM EXCLUDED.name`;
  }
  for (const l of bundle.licenses) {
    const allows = [...new Set(l.allows)].sort();
    await tx.$executeRaw`INSERT INTO "license" (id, name, allows) VALUES (${l.id}, ${l.name}, ${allows}::text[]::"LicenseUse"[])
      ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name, allows = EXCLUDED.allows
      WHERE ("license".name, "license".allows) IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.allows)`;
  }
  for (const u of bundle.users) {
    const roles = [...new Set(u.roles)].sort();
    const clearance = parseClassification(u.clearance) as Classification;
    const active = u.active ?? true;
    await tx.$executeRaw`INSERT INTO "user" (id, email, name, tenant_id, roles, clearance, need_to_know, active)
      VALUES (${userIdFor(u.email)}, ${u.email}, ${u.name}, ${u.tenant}, ${roles}::text[], ${clearance}::"Classification",
              ${sortedTags(u.needToKnow)}::text[], ${active})
      ON CONFLICT (email) DO UPDATE SET name = EXCLUDED.name, roles = EXCLUDED.roles, clearance = EXCLUDED.clearance,
        need_to_know = EXCLUDED.need_to_know, active = EXCLUDED.active, updated_at = now()
      WHERE ("user".name, "user".roles, "user".clearance, "user".need_to_know, "user".active)
        IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.roles, EXCLUDED.clearance, EXCLUDED.need_to_know, EXCLUDED.active)`;
    const hash = passwords.get(u.email);
    if (hash) {
      const user = await tx.user.findUniqueOrThrow({ where: { email: u.email }, select: { id: true } });
      await tx.$executeRaw`INSERT INTO "account" (id, account_id, provider_id, user_id, password)
        VALUES (${"acc_" + user.id}, ${user.id}, 'credential', ${user.id}, ${hash})
        ON CONFLICT (id) DO UPDATE SET password = EXCLUDED.password, updated_at = now()`;
    }
  }
}

export interface NodeRow {
  id: string; label: string; name: string; properties: Record<string, unknown>;
  classification: Classification; needToKnow: string[];
}
export interface EdgeRow {
  id: string; source: string; target: string; type: string; properties: Record<string, unknown>;
  classification: Classification; needToKnow: string[];
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
  tx: Tx,
  c: CheckedBundle["cases"][number],
  advance: (n: number) => void,
  mirrorGraph: ImportOptions["mirrorGraph"],
) {
  const h = c.header;
  const caseMarking = parseClassification(h.classification) as Classification;
  await tx.$executeRaw`INSERT INTO "case" (id, tenant_id, title, description, classification, status)
    VALUES (${h.id}, ${h.tenant}, ${h.title}, ${h.description}, ${caseMarking}::"Classification", ${h.status ?? "OPEN"}::"CaseStatus")
    ON CONFLICT (id) DO UPDATE SET title = EXCLUDED.title, description = EXCLUDED.description,
      classification = EXCLUDED.classification, status = EXCLUDED.status, updated_at = now()
    WHERE ("case".title, "case".description, "case".classification, "case".status)
      IS DISTINCT FROM (EXCLUDED.title, EXCLUDED.description, EXCLUDED.classification, EXCLUDED.status)`;
  const memberEmails = [...new Set(h.members.map((m) => m.toLowerCase()))];
  if (memberEmails.length) {
    await tx.$executeRaw`INSERT INTO "case_member" (case_id, user_id)
      SELECT ${h.id}, id FROM "user" WHERE email = ANY(${memberEmails}::text[]) ON CONFLICT DO NOTHING`;
  }

  for (const batch of chunks(c.rawNodes)) {
    const rows: NodeRow[] = batch.map((raw) => {
      const n = nodeSchema.parse(raw);
      return { id: n.id, label: n.label, name: nodeName(n.id, n.properties), properties: n.properties,
        classification: markingOf(n.classification, caseMarking), needToKnow: sortedTags(n.needToKnow) };
    });
    await insertNodes(tx, h.id, h.tenant, rows);
    await mirrorGraph?.({ caseId: h.id, tenantId: h.tenant, nodes: rows, edges: [] });
    advance(rows.length);
  }
  for (const batch of chunks(c.rawEdges)) {
    const rows: EdgeRow[] = batch.map((raw) => {
      const e = edgeSchema.parse(raw);
      return { id: e.id ?? defaultEdgeId(e), source: e.source, target: e.target, type: e.type, properties: e.properties ?? {},
        classification: markingOf(e.classification, caseMarking), needToKnow: sortedTags(e.needToKnow) };
    });
    await insertEdges(tx, h.id, h.tenant, rows);
    await mirrorGraph?.({ caseId: h.id, tenantId: h.tenant, nodes: [], edges: rows });
    advance(rows.length);
  }
  for (const batch of chunks(c.rawEvidence)) {
    const rows = batch.map((raw) => evidenceSchema.parse(raw));
    await tx.$executeRaw`INSERT INTO "evidence" (case_id, id, tenant_id, type, content, source_system, classification,
        need_to_know, license_id, collected_at, metadata, node_ids)
      SELECT ${h.id}, r.id, r.tenant_id, r.type, r.content, r.source_system, r.classification::"Classification",
        ARRAY(SELECT jsonb_array_elements_text(r.ntk::jsonb)), r.license_id, r.collected_at::timestamptz, r.metadata::jsonb,
        ARRAY(SELECT jsonb_array_elements_text(r.nodes::jsonb))
      FROM unnest(${rows.map((e) => e.id)}::text[], ${rows.map((e) => e.tenant ?? h.tenant)}::text[],
        ${rows.map((e) => e.type)}::text[], ${rows.map((e) => e.content)}::text[], ${rows.map((e) => e.sourceSystem)}::text[],
        ${rows.map((e) => markingOf(e.classification, caseMarking))}::text[],
        ${rows.map((e) => JSON.stringify(sortedTags(e.needToKnow)))}::text[], ${rows.map((e) => e.license)}::text[],
        ${rows.map((e) => (parseTimestamp(e.collectedAt) as Date).toISOString())}::text[],
        ${rows.map((e) => JSON.stringify(e.metadata ?? {}))}::text[],
        ${rows.map((e) => JSON.stringify([...new Set(e.nodes)].sort()))}::text[])
        AS r(id, tenant_id, type, content, source_system, classification, ntk, license_id, collected_at, metadata, nodes)
      ON CONFLICT (case_id, id) DO UPDATE SET tenant_id = EXCLUDED.tenant_id, type = EXCLUDED.type, content = EXCLUDED.content,
        source_system = EXCLUDED.source_system, classification = EXCLUDED.classification, need_to_know = EXCLUDED.need_to_know,
        license_id = EXCLUDED.license_id, collected_at = EXCLUDED.collected_at, metadata = EXCLUDED.metadata,
        node_ids = EXCLUDED.node_ids
      WHERE ("evidence".tenant_id, "evidence".type, "evidence".content, "evidence".source_system, "evidence".classification,
             "evidence".need_to_know, "evidence".license_id, "evidence".collected_at, "evidence".metadata, "evidence".node_ids)
        IS DISTINCT FROM (EXCLUDED.tenant_id, EXCLUDED.type, EXCLUDED.content, EXCLUDED.source_system, EXCLUDED.classification,
             EXCLUDED.need_to_know, EXCLUDED.license_id, EXCLUDED.collected_at, EXCLUDED.metadata, EXCLUDED.node_ids)`;
    advance(rows.length);
  }
}

async function insertNodes(tx: Tx, caseId: string, tenantId: string, rows: NodeRow[]) {
  await tx.$executeRaw`INSERT INTO "graph_node" (case_id, id, tenant_id, label, name, properties, classification, need_to_know)
    SELECT ${caseId}, r.id, ${tenantId}, r.label, r.name, r.properties::jsonb, r.classification::"Classification",
      ARRAY(SELECT jsonb_array_elements_text(r.ntk::jsonb))
    FROM unnest(${rows.map((n) => n.id)}::text[], ${rows.map((n) => n.label)}::text[], ${rows.map((n) => n.name)}::text[],
      ${rows.map((n) => JSON.stringify(n.properties))}::text[], ${rows.map((n) => n.classification)}::text[],
      ${rows.map((n) => JSON.stringify(n.needToKnow))}::text[]) AS r(id, label, name, properties, classification, ntk)
    ON CONFLICT (case_id, id) DO UPDATE SET label = EXCLUDED.label, name = EXCLUDED.name, properties = EXCLUDED.properties,
      classification = EXCLUDED.classification, need_to_know = EXCLUDED.need_to_know
    WHERE ("graph_node".label, "graph_node".name, "graph_node".properties, "graph_node".classification, "graph_node".need_to_know)
      IS DISTINCT FROM (EXCLUDED.label, EXCLUDED.name, EXCLUDED.properties, EXCLUDED.classification, EXCLUDED.need_to_know)`;
}

async function insertEdges(tx: Tx, caseId: string, tenantId: string, rows: EdgeRow[]) {
  await tx.$executeRaw`INSERT INTO "graph_edge" (case_id, id, tenant_id, source, target, type, properties, classification, need_to_know)
    SELECT ${caseId}, r.id, ${tenantId}, r.source, r.target, r.type, r.properties::jsonb, r.classification::"Classification",
      ARRAY(SELECT jsonb_array_elements_text(r.ntk::jsonb))
    FROM unnest(${rows.map((e) => e.id)}::text[], ${rows.map((e) => e.source)}::text[], ${rows.map((e) => e.target)}::text[],
      ${rows.map((e) => e.type)}::text[], ${rows.map((e) => JSON.stringify(e.properties))}::text[],
      ${rows.map((e) => e.classification)}::text[], ${rows.map((e) => JSON.stringify(e.needToKnow))}::text[])
      AS r(id, source, target, type, properties, classification, ntk)
    ON CONFLICT (case_id, id) DO UPDATE SET source = EXCLUDED.source, target = EXCLUDED.target, type = EXCLUDED.type,
      properties = EXCLUDED.properties, classification = EXCLUDED.classification, need_to_know = EXCLUDED.need_to_know
    WHERE ("graph_edge".source, "graph_edge".target, "graph_edge".type, "graph_edge".properties, "graph_edge".classification,
           "graph_edge".need_to_know)
      IS DISTINCT FROM (EXCLUDED.source, EXCLUDED.target, EXCLUDED.type, EXCLUDED.properties, EXCLUDED.classification,
           EXCLUDED.need_to_know)`;
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

async function exportObject(prisma: PrismaClient, { caseId }: { caseId?: string }) {
  const cases = await prisma.case.findMany({
    where: caseId ? { id: caseId } : {},
    orderBy: { id: "asc" },
    include: { members: { include: { user: { select: { email: true } } } } },
  });
  if (caseId && cases.length === 0) throw new CasegraphError("CG-ACCESS-003", `No case "${caseId}".`);
  const caseIds = cases.map((c) => c.id);
  const [nodes, edges, evidence] = await Promise.all([
    prisma.graphNode.findMany({ where: { caseId: { in: caseIds } }, orderBy: [{ caseId: "asc" }, { id: "asc" }],
      select: { caseId: true, id: true, label: true, properties: true, classification: true, needToKnow: true } }),
    prisma.graphEdge.findMany({ where: { caseId: { in: caseIds } }, orderBy: [{ caseId: "asc" }, { id: "asc" }],
      select: { caseId: true, id: true, source: true, target: true, type: true, properties: true, classification: true, needToKnow: true } }),
    prisma.evidence.findMany({ where: { caseId: { in: caseIds } }, orderBy: [{ caseId: "asc" }, { id: "asc" }],
      select: { caseId: true, id: true, tenantId: true, type: true, content: true, sourceSystem: true, classification: true,
        needToKnow: true, licenseId: true, collectedAt: true, metadata: true, nodeIds: true } }),
  ]);

  const memberEmails = new Set(cases.flatMap((c) => c.members.map((m) => m.user.email)));
  const users = await prisma.user.findMany({
    where: caseId ? { email: { in: [...memberEmails] } } : {},
    orderBy: { email: "asc" },
  });
  const tenantIds = new Set([...cases.map((c) => c.tenantId), ...users.map((u) => u.tenantId), ...evidence.map((e) => e.tenantId)]);
  const licenseIds = new Set(evidence.map((e) => e.licenseId));
  const [tenants, licenses] = await Promise.all([
    prisma.tenant.findMany({ where: caseId ? { id: { in: [...tenantIds] } } : {}, orderBy: { id: "asc" } }),
    prisma.license.findMany({ where: caseId ? { id: { in: [...licenseIds] } } : {}, orderBy: { id: "asc" } }),
  ]);

  const byCase = <T extends { caseId: string }>(rows: T[]) => {
    const m = new Map<string, T[]>();
    for (const r of rows) (m.get(r.caseId) ?? m.set(r.caseId, []).get(r.caseId)!).push(r);
    return m;
  };
  const nodesBy = byCase(nodes), edgesBy = byCase(edges), evidenceBy = byCase(evidence);

  return {
    format: BUNDLE_FORMAT,
    tenants: tenants.map((t) => ({ id: t.id, name: t.name })),
    licenses: licenses.map((l) => ({ id: l.id, name: l.name, allows: [...l.allows].sort() })),
    users: users.map((u) => ({
      email: u.email, name: u.name, tenant: u.tenantId, roles: [...u.roles].sort(), clearance: u.clearance,
      needToKnow: [...u.needToKnow].sort(), active: u.active,
    })),
    cases: cases.map((c) => ({
      id: c.id, tenant: c.tenantId, title: c.title, description: c.description, classification: c.classification,
      status: c.status,
      members: c.members.map((m) => m.user.email).sort(),
      nodes: (nodesBy.get(c.id) ?? []).map((n) => ({
        id: n.id, label: n.label, properties: n.properties, classification: n.classification, needToKnow: n.needToKnow,
      })),
      edges: (edgesBy.get(c.id) ?? []).map((e) => ({
        id: e.id, source: e.source, target: e.target, type: e.type, properties: e.properties,
        classification: e.classification, needToKnow: e.needToKnow,
      })),
      evidence: (evidenceBy.get(c.id) ?? []).map((e) => ({
        id: e.id, type: e.type, content: e.content, sourceSystem: e.sourceSystem, classification: e.classification,
        needToKnow: e.needToKnow, license: e.licenseId, tenant: e.tenantId, collectedAt: e.collectedAt.toISOString(),
        metadata: e.metadata, nodes: e.nodeIds,
      })),
    })),
  };
}
