// Inputs of the membership actions (lib/admin/memberships.ts).
import { z } from "zod";
import { idSchema } from "./fields.validation";

export const membershipInput = z.object({ caseId: idSchema, userId: idSchema });

export const memberPermissionInput = z.object({ caseId: idSchema, userId: idSchema, permission: z.enum(["ingest"]), granted: z.boolean() });
