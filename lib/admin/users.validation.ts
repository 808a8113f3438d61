// Inputs of the user actions (lib/admin/users.ts).
import { z } from "zod";
import { clearanceSchema, emailSchema, idSchema, nameSchema, passwordSchema, rolesSchema, tagsSchema } from "./fields.validation";

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
