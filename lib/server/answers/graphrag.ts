// The answer pipeline's wiring for this process: Prisma stores, the case-access check, the ledger, and the model
// chosen by LLM_PROVIDER. The HTTP route, the server actions and the CLI all ask through `askQuestion`, so every
// entry point runs the same pipeline with the same limits and audit mode.
import "server-only";
import type { PrismaClient } from "../../generated/prisma/client";
import { env, type Env } from "../../env";
import { createAnswerModel } from "../../adapters/model";
import type { Database } from "../../adapters/prisma/db";
import { PrismaEvidenceStore, driverRunner, poolRunner, type SqlRunner } from "../../adapters/prisma/evidence-store";
import { PrismaGraphStore } from "../../adapters/prisma/graph-store";
import { PrismaAnswerPolicyStore } from "../../adapters/prisma/policy-store";
import { PrismaReviewQueue } from "../../adapters/prisma/review-queue";
import { PrismaThreadStore } from "../../adapters/prisma/thread-store";
import { Z3PolicySolver } from "../../adapters/solver/z3";
import { refuseRequest, type AnswerDeps, type AnswerOptions } from "../../graphrag/answer";
import type { AnswerOutcome, Asker } from "../../graphrag/types";
import { asCasegraphError, type CasegraphError } from "../../domain/failure-codes";
import type { AnswerModel, CaseAccess, Ledger, ModelProbe } from "../../ports";
import { assertCaseAccess } from "../access/case-access";
import { caseDisclosure } from "../access/disclosure";
import { configuredNeo4jStore, type GraphEnv } from "../runtime/graph";
import { runtime } from "../runtime";
import { groundedAnswer } from "../../grounding/grounded-answer";
import { groundingDeps } from "./grounding";

/** Step 2's port over lib/server/access/case-access.ts (membership + tenant, deny by default). */
export function prismaCaseAccess(prisma: PrismaClient): CaseAccess {
  return {
    async assertCaseAccess(user, caseId) {
      const c = await assertCaseAccess(prisma, user as Parameters<typeof assertCaseAccess>[1], caseId);
      return { id: c.id, tenantId: c.tenantId, title: c.title, classification: c.classification, hiddenCounts: c.hiddenCounts };
    },
  };
}

export function pipelineDeps(
  db: Database,
  ledger: Ledger,
  model: AnswerModel,
  e: Pick<
    Env,
    "AUDIT_QUERY_MODE" | "GRAPHRAG_HOPS" | "GRAPHRAG_MAX_NODES" | "GRAPHRAG_MAX_EDGES" | "GRAPHRAG_MAX_SNIPPETS" | "GRAPHRAG_TOKEN_BUDGET"
  > &
    GraphEnv,
  reads: SqlRunner = driverRunner(db),
): AnswerDeps {
  const graph = configuredNeo4jStore(e) ?? new PrismaGraphStore(reads);
  return {
    access: prismaCaseAccess(db.prisma),
    disclosure: caseDisclosure(db.prisma, graph),
    // Retrieval reads go to the driver directly: a Prisma $queryRaw round trip costs several times more. On PostgreSQL
    // the process's read pool runs each as one statement, without a BEGIN/COMMIT round trip around it.
    // The case graph: Neo4j when NEO4J_URI is set (one driver per process), else the PostgreSQL tables.
    graph,
    evidence: new PrismaEvidenceStore(reads),
    model,
    ledger,
    answerPolicies: answerPolicyPorts(db),
    reviews: new PrismaReviewQueue(db.prisma),
    threads: new PrismaThreadStore(db.prisma),
    auditQueryMode: e.AUDIT_QUERY_MODE,
    limits: {
      hops: e.GRAPHRAG_HOPS,
      maxNodes: e.GRAPHRAG_MAX_NODES,
      maxEdges: e.GRAPHRAG_MAX_EDGES,
      maxSnippets: e.GRAPHRAG_MAX_SNIPPETS,
      tokenBudget: e.GRAPHRAG_TOKEN_BUDGET,
    },
  };
}

/** Answer policies (issue 14): the tenant's active bundle in the database, Z3 as the solver. */
export function answerPolicyPorts(db: Database) {
  return { store: new PrismaAnswerPolicyStore(db.prisma), solver: new Z3PolicySolver() };
}

const modelKey = Symbol.for("casegraph.answerModel");
type Holder = { [modelKey]?: AnswerModel };

/**
 * The configured model, created once per process. A misconfigured model (CG-SYS-003) becomes a model that fails with
 * that code when asked, so requests are still audited and refusals and no-evidence answers still work.
 */
export function answerModel(): AnswerModel {
  const holder = globalThis as Holder;
  holder[modelKey] ??= (() => {
    try {
      return createAnswerModel(env());
    } catch (err) {
      return new UnavailableModel(
        asCasegraphError(err, "CG-SYS-003"),
        process.env.LLM_PROVIDER || "unknown",
        process.env.LLM_MODEL || "unknown",
      );
    }
  })();
  return holder[modelKey]!;
}

class UnavailableModel implements AnswerModel {
  constructor(
    private readonly error: CasegraphError,
    readonly provider: string,
    readonly modelId: string,
  ) {}
  async generate(): Promise<never> {
    throw this.error;
  }
  async probe(): Promise<ModelProbe> {
    return { provider: this.provider, id: this.modelId, ok: false, error: this.error.code };
  }
}

export async function graphragDeps(): Promise<AnswerDeps> {
  const { db, ledger } = await runtime();
  return pipelineDeps(db, ledger, answerModel(), env(), readRunner(db));
}

const readPoolKey = Symbol.for("casegraph.readPool");
type PoolHolder = { [readPoolKey]?: SqlRunner };

/** On PostgreSQL, a small pool of this process's own for the pipeline's reads; on PGlite, the database itself. */
export function readRunner(db: Database): SqlRunner {
  const e = env();
  if (db.kind !== "postgresql" || !e.DATABASE_URL) return driverRunner(db);
  const holder = globalThis as PoolHolder;
  holder[readPoolKey] ??= poolRunner(e.DATABASE_URL, e.DATABASE_POOL_SIZE);
  return holder[readPoolKey]!;
}

/** Without a database there is no ledger to write to: the one outcome that cannot be audited (CG-SYS-001 by default). */
export function unauditedFailure(err: unknown) {
  const e = asCasegraphError(err, "CG-SYS-001");
  return {
    ok: false as const,
    status: e.status,
    body: { error: e.toJSON().error, requestId: "", timestamp: new Date().toISOString(), auditId: null },
  };
}

/** Asks as `asker` (an Actor resolved fresh by the guard or the CLI). Never throws: failures are coded outcomes. */
export async function askQuestion(
  asker: Asker,
  body: unknown,
  { afresh = false, ...options }: AnswerOptions & { afresh?: boolean } = {},
): Promise<AnswerOutcome> {
  let deps: AnswerDeps;
  let grounding: ReturnType<typeof groundingDeps>;
  try {
    deps = await graphragDeps();
    grounding = { ...groundingDeps((await runtime()).db), afresh };
  } catch (err) {
    return unauditedFailure(err);
  }
  // Kill switches, answer reuse and provenance around the pipeline (issue 15).
  return groundedAnswer(deps, grounding, asker, body, options);
}

/**
 * The guard's refusal recorder for the question entry points (route and server actions): a request refused before the
 * pipeline (credential, Origin, role, input shape) still leaves its one ledger entry. Never throws: when even the
 * ledger is unreachable the refusal stands and the failure is logged.
 */
export async function recordRefusedQuestion(actor: Asker | null, raw: unknown, error: CasegraphError): Promise<void> {
  try {
    const { ledger } = await runtime();
    await refuseRequest({ ledger, auditQueryMode: env().AUDIT_QUERY_MODE }, actor, raw, error);
  } catch (err) {
    console.error("casegraph: a refused question could not be recorded", (err as Error).message);
  }
}
