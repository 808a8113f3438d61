"use server";
// Graph proposals of the case (issue 17): what a generative model proposed from uploaded documents, pending until an
// investigator who may add evidence to the case accepts or rejects each one (lib/server/ingest/proposals.ts).
import { z } from "zod";
import { authedAction } from "@/lib/auth/guard";
import { env } from "@/lib/env";
import { runtime } from "@/lib/server/runtime";
import { configuredNeo4jStore } from "@/lib/server/runtime/graph";
import { decideProposal, pendingProposals } from "@/lib/server/ingest/proposals";

const caseId = z.string().min(1).max(200);
const roles: Array<"investigator" | "supervisor"> = ["investigator", "supervisor"];

export const loadProposals = authedAction({ roles, input: z.object({ caseId }) }, async (actor, input) => {
  const { db } = await runtime();
  return pendingProposals(db, actor, input.caseId);
});

export const decideProposalAction = authedAction(
  { roles, input: z.object({ caseId, proposalId: z.string().min(1).max(100), decision: z.enum(["accept", "reject"]) }) },
  async (actor, input) => {
    const { db } = await runtime();
    return decideProposal(db, configuredNeo4jStore(env()), actor, input.caseId, input.proposalId, input.decision);
  },
);
