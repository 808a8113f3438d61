// Field schemas the admin forms share (plain zod, no server imports: forms and the CLI use them too).
import { z } from "zod";
import { CLASSIFICATIONS, ROLES } from "../domain/markings";

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.email({ message: "Enter a valid email address." }).max(254));
export const nameSchema = z.string().trim().min(1, "Enter a name.").max(120, "At most 120 characters.");
export const passwordSchema = z.string().min(12, "At least 12 characters.").max(256, "At most 256 characters.");
export const idSchema = z.string().trim().min(1, "Required.").max(200);

const TAG = /^[a-z0-9][a-z0-9._-]{0,63}$/;
/** Need-to-know tags: a list or comma/space separated text; normalised to lower case, unique, sorted. */
export const tagsSchema = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : v.split(/[,\s]+/)).map((t) => t.trim().toLowerCase()).filter(Boolean))
  .pipe(z.array(z.string().regex(TAG, "Tags are lower-case letters, digits, '.', '_' or '-' (up to 64).")).max(50, "At most 50 tags."))
  .transform((tags) => [...new Set(tags)].sort());

export const rolesSchema = z
  .array(z.enum(ROLES))
  .min(1, "Choose at least one role.")
  .transform((r) => [...new Set(r)].sort());
export const clearanceSchema = z.enum(CLASSIFICATIONS, { message: "Choose a clearance." });
