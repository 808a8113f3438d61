// Licensing a document's evidence (issue 17): evidence ingested without a license (UNLICENSED, the default) is stored
// but invisible to analysis until an admin of the case's tenant licenses it. Licensing sets the document's license and
// every evidence item made from it, in one transaction with its ledger entry; from the next request on the stores
// read the new license (the policy gate decides visibility, reuse re-checks it). Setting UNLICENSED withdraws it again.
import type { PrismaClient } from "../generated/prisma/client";
import type { Actor } from "../auth/actor";
import { ingestFactsOf } from "../adapters/prisma/documents";
import { CasegraphError } from "../domain/failure-codes";
import { denialReason } from "../domain/policy";
import { readClassification } from "../domain/markings";
import { NO_LICENSE } from "../ingest/markings";
import { activeAdminByEmail, auditedChange, changeActorOf, tenantOf, type ChangeActor } from "./change";

export const LICENSE_DOCUMENT_KIND = "document.license";

export interface LicenseDocumentInput {
  caseId: string;
  documentId: string;
  license: string;
}

export interface DocumentLicense {
  caseId: string;
  documentId: string;
  license: string;
  previous: string;
  /** Evidence items made from the document whose license changed. */
  evidence: number;
}

/** An admin in the UI: only documents of their own tenant's cases (anything else is CG-INGEST-014, like a missing id). */
export async function licenseDocument(prisma: PrismaClient, actor: Actor, input: LicenseDocumentInput): Promise<DocumentLicense> {
  if (!actor.roles.includes("admin")) throw new CasegraphError("CG-ACCESS-002");
  return licenseAs(prisma, changeActorOf(actor), input);
}

/** The CLI: `--by <admin email>`. */
export async function licenseDocumentByAdmin(
  prisma: PrismaClient,
  adminEmail: string,
  input: LicenseDocumentInput,
): Promise<DocumentLicense> {
  return licenseAs(prisma, await activeAdminByEmail(prisma, adminEmail), input);
}

async function licenseAs(prisma: PrismaClient, who: ChangeActor, input: LicenseDocumentInput): Promise<DocumentLicense> {
  const tenantId = tenantOf(who);
  const facts = await ingestFactsOf(prisma, input.caseId);
  if (!facts || facts.tenantId !== tenantId) throw new CasegraphError("CG-INGEST-014");
  const license = input.license.trim();
  // The tenant's own licenses and shared ones, as at ingest; another tenant's is as unknown as a made-up id.
  if (license !== NO_LICENSE && !facts.licenses.has(license))
    throw new CasegraphError("CG-INGEST-008", undefined, [{ path: "license", message: `unknown license "${license}"` }]);
  return auditedChange(prisma, who, async (tx) => {
    const doc = await tx.document.findUnique({
      where: { caseId_id: { caseId: input.caseId, id: input.documentId } },
      select: { id: true, tenantId: true, licenseId: true, sha256: true },
    });
    if (!doc || doc.tenantId !== tenantId) throw new CasegraphError("CG-INGEST-014");
    const result = { caseId: input.caseId, documentId: doc.id, license, previous: doc.licenseId, evidence: 0 };
    if (doc.licenseId === license) return { result, audit: null };
    // An e-mail's attachments were ingested with its markings: they follow its license.
    const family = await tx.document.findMany({
      where: { caseId: input.caseId, OR: [{ id: doc.id }, { parentId: doc.id }] },
      select: { id: true },
    });
    const ids = family.map((d) => d.id);
    result.evidence = await tx.$executeRaw`
      UPDATE "evidence" SET license_id = ${license}
       WHERE case_id = ${input.caseId} AND metadata->>'documentId' = ANY(${ids}::text[]) AND license_id <> ${license}`;
    await tx.document.updateMany({ where: { caseId: input.caseId, id: { in: ids } }, data: { licenseId: license } });
    return {
      result,
      audit: {
        kind: LICENSE_DOCUMENT_KIND,
        target: { type: "document", id: doc.id, tenantId },
        caseId: input.caseId,
        before: { license: doc.licenseId, sha256: doc.sha256 },
        after: { license, evidence: result.evidence, documents: ids.length },
      },
    };
  });
}

/**
 * The admin page's list: the tenant's unlicensed documents whose markings the admin may read (a document's name can
 * say as much as its text), newest first, the rest counted; and the licenses they may be given.
 */
export async function unlicensedDocuments(prisma: PrismaClient, actor: Actor) {
  if (!actor.roles.includes("admin")) throw new CasegraphError("CG-ACCESS-002");
  const [rows, licenses] = await Promise.all([
    prisma.$queryRaw<Array<{ caseId: string; id: string; name: string; tenantId: string; classification: string; needToKnow: string[] }>>`
      SELECT case_id AS "caseId", id, name, tenant_id AS "tenantId", classification::text AS classification, need_to_know AS "needToKnow"
        FROM "document" WHERE tenant_id = ${actor.tenantId} AND license_id = ${NO_LICENSE} AND parent_id IS NULL
       ORDER BY created_at DESC, case_id, id LIMIT 200`,
    prisma.license.findMany({
      where: { OR: [{ tenantId: null }, { tenantId: actor.tenantId }], id: { not: NO_LICENSE } },
      select: { id: true, name: true },
      orderBy: { id: "asc" },
    }),
  ]);
  const readable = rows.filter(
    (r) =>
      denialReason(actor, { tenantId: r.tenantId, classification: readClassification(r.classification), needToKnow: r.needToKnow }) ===
      null,
  );
  return {
    documents: readable.map(({ caseId, id, name }) => ({ caseId, id, name })),
    hidden: rows.length - readable.length,
    licenses,
  };
}
