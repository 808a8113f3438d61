// GET /api/audit/checkpoint[?size=N]: a signed checkpoint (tree size, Merkle root, time, key id, Ed25519 signature)
// and the public key to check it with. Without `size`: the latest one, signing one at the head if none exists yet.
import { z } from "zod";
import { authedRoute } from "@/lib/auth/guard";
import { checkpointMessage } from "@/lib/domain/checkpoint";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { runtime } from "@/lib/server/runtime";

const query = z.object({ size: z.coerce.number().int().min(0).optional() });

export const GET = authedRoute({ roles: ["supervisor", "admin"] }, async (req) => {
  const parsed = query.safeParse(Object.fromEntries(new URL(req.url).searchParams));
  if (!parsed.success) throw new CasegraphError("CG-INPUT-005", "size must be a whole number.");
  const { ledger } = await runtime();
  const cp = parsed.data.size !== undefined
    ? await ledger.checkpointAt(parsed.data.size)
    : (await ledger.latestCheckpoint()) ?? (await ledger.checkpoint());
  if (!cp) throw new CasegraphError("CG-INPUT-005", `There is no signed checkpoint at tree size ${parsed.data.size}.`);
  const { publicKeyPem, ...checkpoint } = cp;
  return Response.json(
    { checkpoint, signedMessage: checkpointMessage(cp), publicKey: publicKeyPem, algorithm: "Ed25519" },
    { headers: { "Cache-Control": "no-store" } },
  );
});
