// POST /api/cases/{caseId}/documents: add documents to a case as evidence (issue 17). Bearer token or session; the
// guard checks the credential, the Origin (for a session) and the role; lib/server/ingest checks the case and the
// ingest permission on every call.
import { authedRoute } from "@/lib/auth/guard";
import { uploadFromRequest } from "@/lib/server/ingest/upload-route";

export const dynamic = "force-dynamic";

export const POST = authedRoute<{ caseId: string }>({ roles: ["investigator", "supervisor", "admin"] }, async (req, { actor, params }) =>
  uploadFromRequest(req, actor, params.caseId),
);
