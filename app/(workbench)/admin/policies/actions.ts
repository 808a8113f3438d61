"use server";
// Answer policies for the admin's own tenant (issue 14): compile policies.jsonl (the editor or an upload) into a
// stored bundle, activate one, deactivate. Each is a ledger entry with the bundle's hash.
import { z } from "zod";
import { activateBundle, compileAndStore, deactivateBundle } from "@/lib/admin/answer-policies";
import { authedAction } from "@/lib/auth/guard";
import { runtime } from "@/lib/server/runtime";

const admin = { roles: ["admin" as const] };
const prisma = async () => (await runtime()).db.prisma;

export const compilePoliciesAction = authedAction(
  { ...admin, input: z.object({ text: z.string().min(1).max(500_000) }) },
  async (actor, { text }) => compileAndStore(await prisma(), actor, text),
);

export const activateBundleAction = authedAction(
  { ...admin, input: z.object({ sha256: z.string().regex(/^[0-9a-f]{64}$/) }) },
  async (actor, { sha256 }) => activateBundle(await prisma(), actor, sha256),
);

export const deactivateBundleAction = authedAction({ ...admin, input: z.object({}) }, async (actor) =>
  deactivateBundle(await prisma(), actor),
);
