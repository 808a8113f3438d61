// The small ports the pipeline and the pages talk to. lib/domain and lib/graphrag depend on these, never on Prisma,
// neo4j-driver, Next.js or the AI SDK, so tests pass in-memory fakes and every entry point shares one pipeline.
import type { ChainBreak, ChainEntry } from "./domain/ledger-chain";

export interface LedgerAppend {
  kind: string;
  payload: Record<string, unknown>;
  /** Copied into indexed columns for the audit explorer; must equal the payload's fields of the same meaning. */
  tenantId?: string | null;
  actorId?: string | null;
  caseId?: string | null;
}

export interface VerifyReport {
  ok: boolean;
  size: number;
  headHash: string;
  firstBad?: ChainBreak;
}

export interface Ledger {
  append(entry: LedgerAppend): Promise<ChainEntry>;
  verify(): Promise<VerifyReport>;
}
