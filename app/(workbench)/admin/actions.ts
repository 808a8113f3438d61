"use server";
// Admin server actions: each one is authedAction({ roles: ["admin"] }) → zod input → a lib/admin/<feature>.ts function that
// works in the admin's own tenant only and writes one ledger entry per change, in the same transaction.
import { addCaseMember, removeCaseMember, setMemberPermission } from "@/lib/admin/memberships";
import { memberPermissionInput, membershipInput } from "@/lib/admin/memberships.validation";
import { createLicense, updateLicense } from "@/lib/admin/licenses";
import { licenseInput } from "@/lib/admin/licenses.validation";
import { renameTenant, setHiddenCountMode } from "@/lib/admin/tenant";
import { hiddenCountModeInput, renameTenantInput } from "@/lib/admin/tenant.validation";
import { revokeToken } from "@/lib/admin/tokens";
import { revokeTokenInput } from "@/lib/admin/tokens.validation";
import { createUser, resetPassword, setUserActive, updateUser } from "@/lib/admin/users";
import { createUserInput, resetPasswordInput, setActiveInput, updateUserInput } from "@/lib/admin/users.validation";
import { authedAction } from "@/lib/auth/guard";
import { runtime } from "@/lib/server/runtime";

const admin = { roles: ["admin" as const] };
const prisma = async () => (await runtime()).db.prisma;

export const createUserAction = authedAction({ ...admin, input: createUserInput }, async (actor, input) => {
  const u = await createUser(await prisma(), actor, input);
  return { id: u.id, email: u.email };
});

export const updateUserAction = authedAction({ ...admin, input: updateUserInput }, async (actor, input) => {
  const u = await updateUser(await prisma(), actor, input);
  return { id: u.id };
});

export const setUserActiveAction = authedAction({ ...admin, input: setActiveInput }, async (actor, input) => {
  const u = await setUserActive(await prisma(), actor, input);
  return { id: u.id, active: u.active };
});

export const resetPasswordAction = authedAction({ ...admin, input: resetPasswordInput }, async (actor, input) =>
  resetPassword(await prisma(), actor, input),
);

export const renameTenantAction = authedAction({ ...admin, input: renameTenantInput }, async (actor, input) =>
  renameTenant(await prisma(), actor, input),
);

export const setHiddenCountModeAction = authedAction({ ...admin, input: hiddenCountModeInput }, async (actor, input) => {
  const t = await setHiddenCountMode(await prisma(), actor, input);
  return { mode: t.hiddenCountMode };
});

export const createLicenseAction = authedAction({ ...admin, input: licenseInput }, async (actor, input) => {
  const l = await createLicense(await prisma(), actor, input);
  return { id: l.id };
});

export const updateLicenseAction = authedAction({ ...admin, input: licenseInput }, async (actor, input) => {
  const l = await updateLicense(await prisma(), actor, input);
  return { id: l.id };
});

export const addMemberAction = authedAction({ ...admin, input: membershipInput }, async (actor, input) =>
  addCaseMember(await prisma(), actor, input),
);

export const removeMemberAction = authedAction({ ...admin, input: membershipInput }, async (actor, input) =>
  removeCaseMember(await prisma(), actor, input),
);

/** Grants or withdraws a member's permission on a case (issue 17: `ingest`, adding evidence from documents). */
export const setMemberPermissionAction = authedAction({ ...admin, input: memberPermissionInput }, async (actor, input) =>
  setMemberPermission(await prisma(), actor, input),
);

/** Any token of the tenant (admins revoke; tokens are created by their owners on the account page). */
export const revokeTokenAction = authedAction({ ...admin, input: revokeTokenInput }, async (actor, input) => {
  const r = await revokeToken(await prisma(), actor, input);
  return { revoked: r.revoked };
});
