// Inputs of the tenant actions (lib/admin/tenant.ts).
import { z } from "zod";
import { nameSchema } from "./fields.validation";

export const renameTenantInput = z.object({ name: nameSchema });
export const hiddenCountModeInput = z.object({ mode: z.enum(["case", "exact"]) });
