"use server";
// Reads for the case workbench. Each one: the guard (session, Origin, roles, zod) → the case-access check (member, same
// tenant) → a loader in lib/server/workbench that filters everything through the policy for this user. Nothing here
// writes; the client may retry these (react-query), unlike `ask`.
import { z } from "zod";
import { authedAction } from "@/lib/auth/guard";
import { evidenceByIds, evidenceForNode } from "@/lib/server/workbench/evidence";
import { asProperties, graphView, neighbourhood, searchNodes, visibleCaseGraph } from "@/lib/server/workbench/graph";
import type { NodeDetails } from "@/lib/domain/workbench-views";
import { questionHistory } from "@/lib/server/workbench/history";
import { listThreads, threadView } from "@/lib/server/workbench/threads";
import { openCase } from "@/lib/server/workbench/scope";
import { CasegraphError } from "@/lib/domain/failure-codes";

const caseId = z.string().min(1).max(200);
const itemId = z.string().min(1).max(500);
const threadId = z.string().min(1).max(200);

export const loadCaseGraph = authedAction({ roles: ["investigator", "supervisor"], input: z.object({ caseId }) }, async (actor, input) => {
  const open = await openCase(actor, input.caseId);
  return graphView(open.record.id, await visibleCaseGraph(open, actor));
});

export const findNodes = authedAction(
  { roles: ["investigator", "supervisor"], input: z.object({ caseId, query: z.string().max(200) }) },
  async (actor, input) => {
    const open = await openCase(actor, input.caseId);
    return searchNodes(await visibleCaseGraph(open, actor), input.query);
  },
);

export const expandNode = authedAction(
  { roles: ["investigator", "supervisor"], input: z.object({ caseId, nodeId: itemId }) },
  async (actor, input) => {
    const open = await openCase(actor, input.caseId);
    return neighbourhood(await visibleCaseGraph(open, actor), input.nodeId);
  },
);

export const loadNodeDetails = authedAction(
  { roles: ["investigator", "supervisor"], input: z.object({ caseId, nodeId: itemId }) },
  async (actor, input) => {
    const open = await openCase(actor, input.caseId);
    const g = await visibleCaseGraph(open, actor);
    const node = g.byId.get(input.nodeId);
    if (!node) throw new CasegraphError("CG-ACCESS-003");
    const [[record], linked] = await Promise.all([open.graph.nodesByIds(open.scope, [node.id]), evidenceForNode(open, actor, node.id)]);
    const details: NodeDetails = {
      node: { ...node, properties: asProperties(record?.properties) },
      evidence: linked.evidence,
      hiddenEvidence: linked.hidden,
    };
    return details;
  },
);

export const loadEvidence = authedAction(
  { roles: ["investigator", "supervisor"], input: z.object({ caseId, ids: z.array(itemId).min(1).max(100) }) },
  async (actor, input) => {
    const open = await openCase(actor, input.caseId);
    return evidenceByIds(open, actor, input.ids);
  },
);

export const loadHistory = authedAction({ roles: ["investigator", "supervisor"], input: z.object({ caseId }) }, async (actor, input) => {
  const open = await openCase(actor, input.caseId);
  return questionHistory(open, actor);
});

/** The user's threads on this case (issue 18), most recently active first. */
export const loadThreads = authedAction({ roles: ["investigator", "supervisor"], input: z.object({ caseId }) }, async (actor, input) => {
  const open = await openCase(actor, input.caseId);
  return listThreads(open, actor);
});

/** One of the user's threads, turn by turn, re-filtered for what they may see now; another's is CG-THREAD-001. */
export const loadThread = authedAction(
  { roles: ["investigator", "supervisor"], input: z.object({ caseId, threadId }) },
  async (actor, input) => {
    const open = await openCase(actor, input.caseId);
    return threadView(open, actor, input.threadId);
  },
);
