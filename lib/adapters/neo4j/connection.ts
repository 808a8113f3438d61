// The Neo4j connection: one driver per process and configuration, tuned to fail fast. A dead or unreachable Neo4j must
// turn into a coded error in well under two seconds (docs/failure-codes.md), so the driver's managed-transaction
// retries are cut to one short round (its default keeps retrying for 30–60 s), connections time out after a second,
// and every read runs under a hard deadline that closes its session. Driver and server text never leaves this module:
// callers get CasegraphError CG-GRAPH-001 (unavailable), -002 (query failed) or -003 (credentials refused).
import "server-only";
import neo4j, { Neo4jError, type AuthToken, type Driver, type ManagedTransaction, type Session } from "neo4j-driver";
import { CasegraphError, type FailureCode } from "../../domain/failure-codes";

export interface Neo4jConfig {
  uri: string;
  user?: string;
  password?: string;
  /** Unset: the server's default database. */
  database?: string;
  /** TCP connect timeout (ms). */
  connectTimeoutMs?: number;
  /** Total time the driver may spend retrying a failed managed transaction (ms); one retry happens ~1 s after a failure. */
  retryTimeMs?: number;
  /** Hard deadline of one read operation of the store (ms), connection included. */
  readTimeoutMs?: number;
  /** Hard deadline of one write batch (ms). */
  writeTimeoutMs?: number;
  maxPoolSize?: number;
}

export const DEFAULTS = {
  connectTimeoutMs: 1_000,
  retryTimeMs: 300,
  readTimeoutMs: 1_800,
  writeTimeoutMs: 120_000,
  maxPoolSize: 50,
} as const;

export interface Neo4jConnection {
  readonly driver: Driver;
  readonly config: Required<Omit<Neo4jConfig, "user" | "password" | "database">> & Pick<Neo4jConfig, "user" | "password" | "database">;
  /** A read transaction (retried by the driver for transient failures), bounded by readTimeoutMs. */
  read<T>(work: (tx: ManagedTransaction) => Promise<T>, timeoutMs?: number): Promise<T>;
  /** A write transaction, bounded by writeTimeoutMs. */
  write<T>(work: (tx: ManagedTransaction) => Promise<T>, timeoutMs?: number): Promise<T>;
  /** One auto-commit statement (schema changes), bounded by writeTimeoutMs. */
  autoCommit(cypher: string, params?: Record<string, unknown>): Promise<void>;
  close(): Promise<void>;
}

export function connectNeo4j(config: Neo4jConfig): Neo4jConnection {
  const c = { ...DEFAULTS, ...definedOnly(config) } as Neo4jConnection["config"];
  let driver: Driver;
  try {
    // No password: no authentication (a server with auth disabled, like `npm run neo4j:local`). The "none" scheme
    // exists at runtime but is missing from neo4j-driver's own typings.
    const auth = c.password ? neo4j.auth.basic(c.user || "neo4j", c.password) : ({ scheme: "none" } as unknown as AuthToken);
    driver = neo4j.driver(c.uri, auth, {
      connectionTimeout: c.connectTimeoutMs,
      connectionAcquisitionTimeout: c.connectTimeoutMs + 500,
      maxTransactionRetryTime: c.retryTimeMs,
      maxConnectionPoolSize: c.maxPoolSize,
      disableLosslessIntegers: true,
      userAgent: "casegraph",
    });
  } catch (err) {
    // An unparsable URI or an unsupported scheme: a configuration error, reported like any other graph failure.
    throw new CasegraphError("CG-GRAPH-002", "NEO4J_URI is not a valid Neo4j URI.", [], { cause: err });
  }

  const session = (mode: "READ" | "WRITE"): Session =>
    driver.session({ database: c.database, defaultAccessMode: mode === "READ" ? neo4j.session.READ : neo4j.session.WRITE });

  async function bounded<T>(mode: "READ" | "WRITE", work: (tx: ManagedTransaction) => Promise<T>, timeoutMs: number): Promise<T> {
    const s = session(mode);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new CasegraphError("CG-GRAPH-001", `Neo4j did not answer within ${timeoutMs} ms.`));
        void s.close().catch(() => {});
      }, timeoutMs);
    });
    try {
      const txConfig = { timeout: neo4j.int(Math.max(1, Math.ceil(timeoutMs))) };
      const run = mode === "READ" ? s.executeRead(work, txConfig) : s.executeWrite(work, txConfig);
      run.catch(() => {}); // settled by the race below; never an unhandled rejection after the deadline
      return await Promise.race([run, deadline]);
    } catch (err) {
      throw toGraphError(err);
    } finally {
      clearTimeout(timer);
      await s.close().catch(() => {});
    }
  }

  return {
    driver,
    config: c,
    read: (work, timeoutMs = c.readTimeoutMs) => bounded("READ", work, timeoutMs),
    write: (work, timeoutMs = c.writeTimeoutMs) => bounded("WRITE", work, timeoutMs),
    async autoCommit(cypher, params = {}) {
      const s = session("WRITE");
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new CasegraphError("CG-GRAPH-001", `Neo4j did not answer within ${c.writeTimeoutMs} ms.`)),
          c.writeTimeoutMs,
        );
      });
      try {
        const run = s.run(cypher, params, { timeout: neo4j.int(c.writeTimeoutMs) });
        const done = run.then(() => undefined);
        done.catch(() => {});
        await Promise.race([done, deadline]);
      } catch (err) {
        throw toGraphError(err);
      } finally {
        clearTimeout(timer);
        await s.close().catch(() => {});
      }
    },
    close: () => driver.close(),
  };
}

/** Driver/server errors → the catalogue's codes; the original stays as `cause` for the server log only. */
export function toGraphError(err: unknown, fallback: FailureCode = "CG-GRAPH-002"): CasegraphError {
  if (err instanceof CasegraphError) return err;
  if (err instanceof Neo4jError) {
    const code = err.code ?? "";
    if (code === "Neo.ClientError.Security.Unauthorized" || code === "Neo.ClientError.Security.AuthenticationRateLimit") {
      return new CasegraphError("CG-GRAPH-003", undefined, [], { cause: err });
    }
    if (
      code === neo4j.error.SERVICE_UNAVAILABLE ||
      code === neo4j.error.SESSION_EXPIRED ||
      code.startsWith("Neo.TransientError.") ||
      code === "Neo.ClientError.Transaction.TransactionTimedOut" ||
      code === "Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration" ||
      err.retryable
    ) {
      return new CasegraphError("CG-GRAPH-001", undefined, [], { cause: err });
    }
    return new CasegraphError("CG-GRAPH-002", undefined, [], { cause: err });
  }
  return new CasegraphError(fallback, undefined, [], { cause: err });
}

function definedOnly<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== "")) as Partial<T>;
}
