// GET /api/audit/checkpoint[?size=N]: a signed checkpoint (tree size, Merkle root, time, key id, Ed25519 signature)
// and the public key to check it with — the latest, or the one at `size`. A GET only reads: with none signed yet it
// answers CG-AUDIT-010. POST /api/audit/checkpoint signs one at the head now (behind the Origin check for cookies).
// A supervisor who saves the JSON keeps a copy outside the ledger tables: `casegraph audit verify --checkpoint <file>`
// then detects entries removed from the end (README "The audit ledger").
import { z } from "zod";
import { authedRoute } from "@/lib/auth/guard";
import { checkpointMessage } from "@/lib/domain/checkpoint";
import { CasegraphError } from "@/lib/domain/failure-codes";
import type { StoredCheckpoint } from "@/lib/ports";
import { runtime } from "@/lib/server/runtime";

const query = z.object({ size: z.coerce.number().int().min(0).optional() });

function checkpointResponse(cp: StoredCheckpoint): Response {
  const { publicKeyPem, ...checkpoint } = cp;
  return Response.json(
    { checkpoint, signedMessage: checkpointMessage(cp), publicKey: publicKeyPem, algorithm: "Ed25519" },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export const GET = authedRoute({ roles: ["supervisor", "admin"] }, async (req) => {
  const parsed = query.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) throw new CasegraphError("CG-INPUT-005", "size must be a whole number.");
  const { ledger } = await runtime();
  const size = parsed.data.size;
  const cp = size !== undefined ? await ledger.checkpointAt(size) : await ledger.latestCheckpoint();
  if (!cp) throw new CasegraphError("CG-AUDIT-010", size !== undefined ? `There is no signed checkpoint at tree size ${size}.` : undefined);
  return checkpointResponse(cp);
});

export const POST = authedRoute({ roles: ["supervisor", "admin"] }, async () => {
  const { ledger } = await runtime();
  return checkpointResponse(await ledger.checkpoint((await ledger.head()).size));
});
