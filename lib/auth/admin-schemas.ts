// Input schemas of the admin actions. Plain zod with no server imports, so forms can share them.
import { z } from "zod";
import { CLASSIFICATIONS, LICENSE_USES, ROLES } from "../domain/markings";

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email({ message: "Enter a valid email address." }).max(254));
export const nameSchema = z.string().trim().min(1, "Enter a name.").max(120, "At most 120 characters.");
export const passwordSchema = z
  .string()
  .min(12, "At least 12 characters.")
  .max(256, "At most 256 characters.");
export const idSchema = z.string().trim().min(1, "Required.").max(200);

const TAG = /^[a-z0-9][a-z0-9._-]{0,63}$/;
/** Need-to-know tags: a list or comma/space separated text; normalised to lower case, unique, sorted. */
export const tagsSchema = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(/[,\s]+/)).map((t) => t.trim().toLowerCase()).filter(Boolean))
  .pipe(
    z
      .array(z.string().regex(TAG, "Tags are lower-case letters, digits, '.', '_' or '-' (up to 64)."))
      .max(50, "At most 50 tags."),
  )
  .transform((tags) => [...new Set(tags)].sort());

export const rolesSchema = z
  .array(z.enum(ROLES))
  .min(1, "Choose at least one role.")
  .transform((r) => [...new Set(r)].sort());
export const clearanceSchema = z.enum(CLASSIFICATIONS, { message: "Choose a clearance." });

export const createUserInput = z.object({
  email: emailSchema,
  name: nameSchema,
  roles: rolesSchema,
  clearance: clearanceSchema,
  needToKnow: tagsSchema.default([]),
  password: passwordSchema,
});

export const updateUserInput = z.object({
  userId: idSchema,
  name: nameSchema,
  roles: rolesSchema,
  clearance: clearanceSchema,
  needToKnow: tagsSchema,
});

export const setActiveInput = z.object({ userId: idSchema, active: z.boolean() });
export const resetPasswordInput = z.object({ userId: idSchema, password: passwordSchema });

export const renameTenantInput = z.object({ name: nameSchema });
export const hiddenCountModeInput = z.object({ mode: z.enum(["case", "exact"]) });

const LICENSE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const licenseInput = z.object({
  id: z.string().trim().regex(LICENSE_ID, "Letters, digits, '.', '_' or '-' (up to 64)."),
  name: nameSchema,
  allows: z
    .array(z.enum(LICENSE_USES))
    .max(LICENSE_USES.length)
    .transform((a) => [...new Set(a)].sort()),
});

export const membershipInput = z.object({ caseId: idSchema, userId: idSchema });

export const TOKEN_EXPIRIES = ["1d", "7d", "30d", "90d", "365d"] as const;
/** A token for the signed-in user: no user to choose (tokens are created by their owner). */
export const ownTokenInput = z.object({
  name: z.string().trim().min(1, "Name the token (what it is for).").max(80, "At most 80 characters."),
  expiresIn: z.enum(TOKEN_EXPIRIES, { message: "Choose an expiry." }),
});
export const revokeTokenInput = z.object({ tokenId: idSchema });
