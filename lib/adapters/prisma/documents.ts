// Ingested documents in PostgreSQL/PGlite (issue 17): the document row (markings, regular text and structure, counts),
// the case facts ingest needs (nodes to link against, licenses the tenant may use, accepted evidence types), and
// reads for the viewer. Evidence, nodes and edges go through the importer's inserts (workspace.ts), in the caller's
// transaction, with the ledger entry, so a document is written whole or not at all.
import "server-only";
import type { PrismaClient } from "../../generated/prisma/client";
import type { SqlSession } from "./migrate";
import type { DocumentMarkings } from "../../ingest/markings";
import type { LinkNode } from "../../ingest/link";
import { propertiesObject } from "../../domain/graph-contract";
import { readClassification, readLicenseUses, readMarking, type LicenseUse, type StoredClassification } from "../../domain/markings";

/** What identifies a document and its original, written and read alike. */
interface DocumentFacts {
  caseId: string;
  id: string;
  tenantId: string;
  sha256: string;
  name: string;
  kind: string;
  mediaType: string;
  size: number;
  pages: number | null;
  parentId: string | null;
}

export interface DocumentRow extends DocumentFacts {
  markings: DocumentMarkings & { type: string };
  metadata: Record<string, unknown>;
  text: string;
  structure: unknown;
  counts: Record<string, unknown>;
  uploadedBy: string;
}

export async function insertDocument(sql: SqlSession, d: DocumentRow): Promise<void> {
  await sql.query(
    `INSERT INTO "document" (case_id, id, tenant_id, sha256, name, kind, media_type, size, pages, parent_id, classification,
      need_to_know, license_id, source_system, collected_at, evidence_type, metadata, text, structure, counts, uploaded_by)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::"Classification", $12::text[], $13, $14, $15::timestamptz, $16,
      $17::jsonb, $18, $19::jsonb, $20::jsonb, $21)`,
    [
      d.caseId,
      d.id,
      d.tenantId,
      d.sha256,
      d.name,
      d.kind,
      d.mediaType,
      d.size,
      d.pages,
      d.parentId,
      d.markings.classification,
      d.markings.needToKnow,
      d.markings.license,
      d.markings.sourceSystem,
      d.markings.collectedAt,
      d.markings.type,
      JSON.stringify(d.metadata),
      d.text,
      JSON.stringify(d.structure),
      JSON.stringify(d.counts),
      d.uploadedBy,
    ],
  );
}

/** The document of the case holding these bytes already (dedup), if any. */
export async function documentBySha(prisma: PrismaClient, caseId: string, sha256: string): Promise<{ id: string; name: string } | null> {
  return prisma.document.findUnique({ where: { caseId_sha256: { caseId, sha256 } }, select: { id: true, name: true } });
}

/** Every node of the case, as the linker reads them (PostgreSQL holds the graph whichever store answers reads). */
export async function linkNodesOf(prisma: PrismaClient, caseId: string): Promise<LinkNode[]> {
  const rows = await prisma.graphNode.findMany({
    where: { caseId },
    select: { id: true, label: true, name: true, properties: true },
    orderBy: { id: "asc" },
  });
  return rows.map((r) => ({ id: r.id, label: r.label, name: r.name, properties: propertiesObject(r.properties) }));
}

/** The facts of a case ingest needs: its tenant, classification, the licenses usable there and accepted types. */
export async function ingestFactsOf(
  prisma: PrismaClient,
  caseId: string,
): Promise<{ tenantId: string; classification: StoredClassification; licenses: Set<string>; evidenceTypes: string[] } | null> {
  const c = await prisma.case.findUnique({
    where: { id: caseId },
    select: { tenantId: true, tenant: { select: { evidenceTypes: true } } },
  });
  if (!c) return null;
  const [marking] = await prisma.$queryRaw<Array<{ classification: string }>>`
    SELECT classification::text AS classification FROM "case" WHERE id = ${caseId}`;
  const licenses = await prisma.license.findMany({
    where: { OR: [{ tenantId: null }, { tenantId: c.tenantId }] },
    select: { id: true },
  });
  return {
    tenantId: c.tenantId,
    classification: readClassification(marking?.classification),
    licenses: new Set(licenses.map((l) => l.id)),
    evidenceTypes: c.tenant.evidenceTypes,
  };
}

/** A document as the viewer reads it, with its markings as stored (the policy gate decides who sees it). */
export interface StoredDocument extends DocumentFacts {
  classification: StoredClassification;
  needToKnow: string[];
  licenseId: string;
  licenseUses: LicenseUse[] | null;
  sourceSystem: string;
  collectedAt: string;
  evidenceType: string;
  metadata: Record<string, unknown>;
  text: string;
  counts: Record<string, unknown>;
  uploadedBy: string;
  createdAt: string;
}

export async function documentById(prisma: PrismaClient, caseId: string, id: string): Promise<StoredDocument | null> {
  const [r] = await prisma.$queryRaw<
    Array<{
      case_id: string;
      id: string;
      tenant_id: string;
      sha256: string;
      name: string;
      kind: string;
      media_type: string;
      size: bigint | number;
      pages: number | null;
      parent_id: string | null;
      classification: string;
      need_to_know: unknown;
      license_id: string;
      license_uses: unknown;
      source_system: string;
      collected_at: Date;
      evidence_type: string;
      metadata: unknown;
      text: string;
      counts: unknown;
      uploaded_by: string;
      created_at: Date;
    }>
  >`
    SELECT d.case_id, d.id, d.tenant_id, d.sha256, d.name, d.kind, d.media_type, d.size, d.pages, d.parent_id,
      d.classification::text AS classification, d.need_to_know, d.license_id, l.allows::text[] AS license_uses,
      d.source_system, d.collected_at, d.evidence_type, d.metadata, d.text, d.counts, d.uploaded_by, d.created_at
    FROM "document" d LEFT JOIN "license" l ON l.id = d.license_id
    WHERE d.case_id = ${caseId} AND d.id = ${id}`;
  if (!r) return null;
  const marking = readMarking({ tenantId: r.tenant_id, classification: r.classification, needToKnow: r.need_to_know });
  return {
    caseId: r.case_id,
    id: r.id,
    tenantId: marking.tenantId,
    sha256: r.sha256,
    name: r.name,
    kind: r.kind,
    mediaType: r.media_type,
    size: Number(r.size),
    pages: r.pages,
    parentId: r.parent_id,
    classification: marking.classification,
    needToKnow: marking.needToKnow,
    licenseId: r.license_id,
    licenseUses: readLicenseUses(r.license_uses),
    sourceSystem: r.source_system,
    collectedAt: r.collected_at.toISOString(),
    evidenceType: r.evidence_type,
    metadata: propertiesObject(r.metadata),
    text: r.text,
    counts: propertiesObject(r.counts),
    uploadedBy: r.uploaded_by,
    createdAt: r.created_at.toISOString(),
  };
}

/** Whether the user is a member of the case holding the `ingest` permission. */
export async function memberPermissions(prisma: PrismaClient, caseId: string, userId: string): Promise<string[] | null> {
  const m = await prisma.caseMember.findUnique({ where: { caseId_userId: { caseId, userId } }, select: { permissions: true } });
  return m ? m.permissions : null;
}
