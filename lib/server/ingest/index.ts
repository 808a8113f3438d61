// Document ingest wired for this process (issue 17): the database, the ledger, the originals store in the data
// folder, Neo4j when NEO4J_URI is set. The route, the case page and the CLI call ingestForActor.
import "server-only";
import type { Actor } from "../../auth/actor";
import { env } from "../../env";
import { FileOriginalStore } from "../../adapters/documents/originals";
import { runtime } from "../runtime";
import { createAnswerModel } from "../../adapters/model";
import type { AnswerModel } from "../../ports";
import { configuredNeo4jStore } from "../runtime/graph";
import { ingestDocuments, type BatchResult, type IngestDeps, type IngestOptions, type IngestSource } from "./ingest";
import { readIngestSettings } from "./settings";

export async function ingestDeps(): Promise<IngestDeps> {
  const { db, ledger } = await runtime();
  const settings = readIngestSettings();
  return {
    db,
    ledger,
    settings,
    originals: new FileOriginalStore(settings.originalsDir),
    neo4j: configuredNeo4jStore(env()),
    proposer: generativeModel(),
  };
}

/** The configured model when it can write (not the offline extractive one); a misconfigured one proposes nothing. */
function generativeModel(): AnswerModel | undefined {
  try {
    const model = createAnswerModel(env());
    return model.provider === "offline" ? undefined : model;
  } catch {
    return undefined;
  }
}

export async function ingestForActor(
  actor: Actor,
  caseId: string,
  sources: readonly IngestSource[],
  options: IngestOptions = {},
): Promise<BatchResult> {
  return ingestDocuments(await ingestDeps(), actor, caseId, sources, options);
}
