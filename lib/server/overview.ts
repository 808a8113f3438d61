import { runtime } from "./runtime";

/** Counts only: the landing page shows no case content before sign-in. */
export async function workspaceOverview() {
  const { db } = await runtime();
  const [tenants, cases, users] = await Promise.all([
    db.prisma.tenant.count(),
    db.prisma.case.count(),
    db.prisma.user.count(),
  ]);
  return { databaseKind: db.kind, counts: { tenants, cases, users } };
}
