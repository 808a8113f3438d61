// POST /api/audit/export { from: A, to: B, format?: "json"|"csv", questionText?: "0"|"1" } (JSON or a form): the
// compliance artifact of the caller's tenant's entries with seq in [A, B] (deterministic JSON, or CSV), as a download.
// The export is recorded in the ledger (kind audit.export, with the file's SHA-256) and may sign a checkpoint, so it is
// a POST behind the Origin check: a cross-site GET can never write an entry in a supervisor's name.
import { z } from "zod";
import { authedRoute } from "@/lib/auth/guard";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { evidenceRevocations, exportAndRecord } from "@/lib/server/audit/export";
import { reviewerStores } from "@/lib/server/audit/visibility";
import { runtime } from "@/lib/server/runtime";
import { assertExportsAllowed } from "@/lib/server/runtime/kill-switches";

const query = z.object({
  from: z.coerce.number().int().min(1),
  to: z.coerce.number().int().min(1),
  format: z.enum(["json", "csv"]).default("json"),
  questionText: z.enum(["0", "1"]).default("1"),
});

/** The request's fields, from a JSON body or a form post; anything unreadable is an empty object (→ CG-INPUT-005). */
async function fieldsOf(req: Request): Promise<Record<string, unknown>> {
  try {
    if ((req.headers.get("content-type") ?? "").includes("application/json")) return ((await req.json()) ?? {}) as Record<string, unknown>;
    return Object.fromEntries(await req.formData());
  } catch {
    return {};
  }
}

export const POST = authedRoute({ roles: ["supervisor", "admin"] }, async (req, { actor }) => {
  const parsed = query.safeParse(await fieldsOf(req));
  if (!parsed.success || parsed.data.to < parsed.data.from)
    throw new CasegraphError("CG-INPUT-005", "from and to must be sequence numbers with from ≤ to; format json or csv.");
  const q = parsed.data;
  const { db, ledger } = await runtime();
  await assertExportsAllowed(db.prisma, actor.tenantId); // DISABLE_EXPORTS (issue 15)
  const r = await exportAndRecord(
    ledger,
    {
      fromSeq: q.from,
      toSeq: q.to,
      tenantId: actor.tenantId,
      includeQuestionText: q.questionText === "1",
      reviewer: { viewer: actor, stores: reviewerStores(db) },
      revocations: evidenceRevocations(db.prisma),
    },
    { userId: actor.userId, email: actor.email, tenantId: actor.tenantId, via: actor.via },
    q.format,
  );
  return new Response(r.text, {
    headers: {
      "Content-Type": q.format === "json" ? "application/json; charset=utf-8" : "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="casegraph-audit-${actor.tenantId}-${q.from}-${q.to}.${q.format}"`,
      "X-Casegraph-Artifact-Sha256": r.sha256,
      "Cache-Control": "no-store",
    },
  });
});
