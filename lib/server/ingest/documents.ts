// Ingested documents as their readers see them (issue 17): the viewer a citation opens (the document at the cited
// page with the passage marked) and the original file behind it. A document is shown only to members of its case whose
// permissions cover its markings the way they cover its evidence (tenant, classification, need-to-know, a license that
// allows analysis); anything else is "not found" (CG-INGEST-014), exactly like a missing one.
import "server-only";
import type { Actor } from "../../auth/actor";
import { CasegraphError } from "../../domain/failure-codes";
import { evidenceDenialReason } from "../../domain/policy";
import type { DocumentView, PropertyValue } from "../../domain/workbench-views";
import { documentById, type StoredDocument } from "../../adapters/prisma/documents";
import { FileOriginalStore } from "../../adapters/documents/originals";
import { evidenceByIds } from "../workbench/evidence";
import { openCase, type OpenCase } from "../workbench/scope";
import { readIngestSettings } from "./settings";
import { fileLines } from "../../domain/file-text";

const CSV_CONTEXT_LINES = 12;
const CSV_VIEW_MAX_BYTES = 8 * 1024 * 1024;

export async function visibleDocument(open: OpenCase, actor: Actor, documentId: string): Promise<StoredDocument> {
  if (typeof documentId !== "string" || !/^DOC-[0-9a-f]{16}$/.test(documentId)) throw new CasegraphError("CG-INGEST-014");
  const doc = await documentById(open.prisma, open.record.id, documentId);
  if (!doc || evidenceDenialReason(actor, doc) !== null) throw new CasegraphError("CG-INGEST-014");
  return doc;
}

export async function documentViewer(actor: Actor, caseId: string, documentId: string, evidenceId: string | null): Promise<DocumentView> {
  const open = await openCase(actor, caseId);
  const doc = await visibleDocument(open, actor, documentId);
  let passage: DocumentView["passage"] = null;
  if (evidenceId) {
    const [item] = await evidenceByIds(open, actor, [evidenceId]);
    if (item?.source?.documentId === doc.id) {
      const s = item.source;
      passage = {
        evidenceId: item.id,
        page: s.page ?? null,
        start: s.start ?? null,
        end: s.end ?? null,
        line: s.line ?? null,
        text: item.content,
      };
    }
  }
  const lines = doc.kind === "csv" ? await csvLines(doc, passage?.line ?? 2) : null;
  return {
    caseId: doc.caseId,
    id: doc.id,
    name: doc.name,
    kind: doc.kind,
    mediaType: doc.mediaType,
    size: doc.size,
    pages: doc.pages,
    classification: doc.classification,
    needToKnow: doc.needToKnow,
    license: doc.licenseId,
    sourceSystem: doc.sourceSystem,
    collectedAt: doc.collectedAt,
    evidenceType: doc.evidenceType,
    uploadedBy: doc.uploadedBy,
    createdAt: doc.createdAt,
    metadata: doc.metadata as Record<string, PropertyValue>,
    text: doc.kind === "pdf" || doc.kind === "csv" ? null : doc.text,
    passage,
    lines,
  };
}

async function csvLines(doc: StoredDocument, line: number): Promise<DocumentView["lines"]> {
  if (doc.size > CSV_VIEW_MAX_BYTES) return null;
  const bytes = await new FileOriginalStore(readIngestSettings().originalsDir).get(doc.sha256);
  if (!bytes) return null;
  const all = fileLines(bytes.toString("utf8"));
  const first = Math.max(1, line - CSV_CONTEXT_LINES);
  return { first, text: all.slice(first - 1, line + CSV_CONTEXT_LINES) };
}

/** The original bytes, served so a browser never runs or renders them as a page of this site. */
export async function originalResponse(actor: Actor, caseId: string, documentId: string): Promise<Response> {
  const open = await openCase(actor, caseId);
  const doc = await visibleDocument(open, actor, documentId);
  const bytes = await new FileOriginalStore(readIngestSettings().originalsDir).get(doc.sha256);
  if (!bytes) throw new CasegraphError("CG-INGEST-014", "The original of this document is not in this server's originals store.");
  const pdf = doc.kind === "pdf";
  const filename = doc.name.replace(/[^\w.-]+/g, "_");
  return new Response(new Uint8Array(bytes), {
    headers: {
      // Only PDFs keep their type (the viewer's PDF.js reads them); everything else is plain text or bytes to save.
      "Content-Type": pdf ? "application/pdf" : doc.kind === "docx" ? "application/octet-stream" : "text/plain; charset=utf-8",
      "Content-Disposition": `${pdf ? "inline" : "attachment"}; filename="${filename}"`,
      "Content-Security-Policy": "sandbox; default-src 'none'",
      "X-Content-Type-Options": "nosniff",
      "Cache-Control": "private, no-store",
    },
  });
}
