// GET /api/audit/proof/inclusion?seq=N[&size=M]: the inclusion proof file of one of the caller's tenant's entries —
// the entry, its Merkle audit path, the signed checkpoint and the public key — checkable offline with
// `casegraph audit verify-proof`. Without `size`, the latest signed checkpoint when it covers the entry. A GET never
// signs: with no checkpoint covering the entry yet it answers CG-AUDIT-010 (POST /api/audit/checkpoint signs one).
import { z } from "zod";
import { authedRoute } from "@/lib/auth/guard";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { assertEntryInTenant } from "@/lib/server/audit-explorer";
import { inclusionProofFor } from "@/lib/server/audit-proofs";
import { runtime } from "@/lib/server/runtime";

const query = z.object({ seq: z.coerce.number().int().min(1), size: z.coerce.number().int().min(1).optional() });

export const GET = authedRoute({ roles: ["supervisor", "admin"] }, async (req, { actor }) => {
  const parsed = query.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) throw new CasegraphError("CG-INPUT-005", "seq (and size, when given) must be positive whole numbers.");
  const { db, ledger } = await runtime();
  await assertEntryInTenant(db.prisma, actor.tenantId, parsed.data.seq);
  const file = await inclusionProofFor(ledger, parsed.data.seq, parsed.data.size, "read");
  return Response.json(file, { headers: { "Cache-Control": "no-store" } });
});
