// GET /api/audit/requests/{requestId}/artifact: the compliance artifact of one answered request of the caller's
// tenant (supervisors), as the file `casegraph audit verify-artifact` checks offline. Read-only: it uses checkpoints
// already signed (CG-AUDIT-010 when none covers the entry yet).
import { authedRoute } from "@/lib/auth/guard";
import { renderArtifact } from "@/lib/grounding/artifact";
import { complianceArtifact } from "@/lib/server/audit/artifact";
import { runtime } from "@/lib/server/runtime";
import { assertExportsAllowed } from "@/lib/server/runtime/kill-switches";

export const GET = authedRoute<{ requestId: string }>({ roles: ["supervisor"] }, async (_req, { actor, params }) => {
  const { db, ledger } = await runtime();
  await assertExportsAllowed(db.prisma, actor.tenantId); // DISABLE_EXPORTS
  const artifact = await complianceArtifact(db.prisma, ledger, params.requestId, actor.tenantId, "read");
  return new Response(renderArtifact(artifact), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="artifact-${params.requestId.replace(/[^A-Za-z0-9._-]/g, "_")}.json"`,
      "Cache-Control": "no-store",
    },
  });
});
