// Inputs of the token actions (lib/admin/tokens.ts).
import { z } from "zod";
import { idSchema } from "./fields.validation";

export const TOKEN_EXPIRIES = ["1d", "7d", "30d", "90d", "365d"] as const;
/** A token for the signed-in user: no user to choose (tokens are created by their owner). */
export const ownTokenInput = z.object({
  name: z.string().trim().min(1, "Name the token (what it is for).").max(80, "At most 80 characters."),
  expiresIn: z.enum(TOKEN_EXPIRIES, { message: "Choose an expiry." }),
});
export const revokeTokenInput = z.object({ tokenId: idSchema });
