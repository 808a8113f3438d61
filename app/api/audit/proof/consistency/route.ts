// GET /api/audit/proof/consistency?from=A[&to=B]: proof that the ledger at the signed checkpoint B extends the one at
// the signed checkpoint A (no entry up to A was changed or removed). Both must be signed checkpoints already (a GET
// never signs); B defaults to the latest.
import { z } from "zod";
import { authedRoute } from "@/lib/auth/guard";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { consistencyProofFor } from "@/lib/server/audit-proofs";
import { runtime } from "@/lib/server/runtime";

const query = z.object({ from: z.coerce.number().int().min(1), to: z.coerce.number().int().min(1).optional() });

export const GET = authedRoute({ roles: ["supervisor", "admin"] }, async (req) => {
  const parsed = query.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) throw new CasegraphError("CG-INPUT-005", "from (and to, when given) must be positive whole numbers.");
  const { ledger } = await runtime();
  const file = await consistencyProofFor(ledger, parsed.data.from, parsed.data.to, "read");
  return Response.json(file, { headers: { "Cache-Control": "no-store" } });
});
