// The Neo4j schema (constraints and indexes, lib/adapters/neo4j/cypher.ts SCHEMA_STATEMENTS), applied idempotently
// once per process and store, and the read plans compiled at the same time so no answer pays for compiling them.
import "server-only";
import neo4j from "neo4j-driver";
import { CasegraphError } from "../../domain/failure-codes";
import type { Neo4jConnection } from "./connection";
import { FULLTEXT_INDEX, Q, SCHEMA_STATEMENTS, SCHEMA_WAIT_MS, luceneQuery } from "./cypher";

export class Neo4jSchema {
  private applied: Promise<void> | undefined;

  constructor(private readonly conn: Neo4jConnection) {}

  /** Creates the constraints and indexes (idempotent; concurrent starts are fine). Memoised until it fails. */
  ensure(): Promise<void> {
    this.applied ??= this.apply().catch((err) => {
      this.applied = undefined;
      throw err;
    });
    return this.applied;
  }

  /**
   * Before a read: the schema, waited for at most SCHEMA_WAIT_MS (a cold start compiles the plans for a few seconds; a
   * Neo4j that accepts connections but never answers must not hold an answer for minutes). Setup keeps going either way.
   */
  async readyForReads(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.ensure(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new CasegraphError("CG-GRAPH-001", "Neo4j is still being prepared.")), SCHEMA_WAIT_MS);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async apply(): Promise<void> {
    for (const statement of SCHEMA_STATEMENTS) {
      try {
        await this.conn.autoCommit(statement);
      } catch (err) {
        // Another process created the same rule between our IF NOT EXISTS check and the create.
        const cause = (err as { cause?: { code?: string } }).cause;
        if (!/AlreadyExists|EquivalentSchemaRule/.test(cause?.code ?? "")) throw err;
      }
    }
    await this.conn.autoCommit("CALL db.awaitIndexes(300)");
    // Compile every read plan now (a few hundred ms each on a cold server), so no answer pays for it under the read
    // deadline. A case id no bundle can hold (ids are trimmed text) matches nothing.
    const none = { caseId: "\u0000", tenantId: "\u0000", ids: [], phrases: [], frontier: [], groups: [["x"]], limit: neo4j.int(1) };
    await this.conn.read(async (tx) => {
      for (const cypher of Object.values(Q)) {
        await tx.run(cypher, { ...none, index: FULLTEXT_INDEX, lucene: luceneQuery("s0", [["x"]]) });
      }
    }, this.conn.config.writeTimeoutMs);
  }
}
