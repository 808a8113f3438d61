// Inputs of the license actions (lib/admin/licenses.ts).
import { z } from "zod";
import { LICENSE_USES } from "../domain/markings";
import { nameSchema } from "./fields.validation";

const LICENSE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const licenseInput = z.object({
  id: z.string().trim().regex(LICENSE_ID, "Letters, digits, '.', '_' or '-' (up to 64)."),
  name: nameSchema,
  allows: z
    .array(z.enum(LICENSE_USES))
    .max(LICENSE_USES.length)
    .transform((a) => [...new Set(a)].sort()),
});
