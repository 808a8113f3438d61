"use server";
// Renaming and closing the user's own threads on a case (issue 18): guard → case access → the thread store, which finds
// only the user's own thread on this case (anything else is CG-THREAD-001). A closed thread can be read, not continued.
import { z } from "zod";
import { authedAction } from "@/lib/auth/guard";
import { closeThread, renameThread } from "@/lib/server/workbench/threads";
import { openCase } from "@/lib/server/workbench/scope";

const caseId = z.string().min(1).max(200);
const threadId = z.string().min(1).max(200);

export const renameThreadAction = authedAction(
  {
    roles: ["investigator", "supervisor"],
    input: z.object({ caseId, threadId, title: z.string().trim().min(1, "must not be empty").max(120, "at most 120 characters") }),
  },
  async (actor, input) => renameThread(await openCase(actor, input.caseId), actor, input.threadId, input.title),
);

export const closeThreadAction = authedAction(
  { roles: ["investigator", "supervisor"], input: z.object({ caseId, threadId }) },
  async (actor, input) => closeThread(await openCase(actor, input.caseId), actor, input.threadId),
);
