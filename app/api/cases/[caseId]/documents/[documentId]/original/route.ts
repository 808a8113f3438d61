// GET /api/cases/{caseId}/documents/{documentId}/original: the original file of an ingested document, for the viewer
// (PDF pages are rendered in the browser from it). Case members only, and only when the document's markings let the
// caller see its evidence; otherwise "not found".
import { authedRoute } from "@/lib/auth/guard";
import { originalResponse } from "@/lib/server/ingest/documents";

export const GET = authedRoute<{ caseId: string; documentId: string }>(
  { roles: ["investigator", "supervisor"] },
  async (_req, { actor, params }) => originalResponse(actor, params.caseId, params.documentId),
);
