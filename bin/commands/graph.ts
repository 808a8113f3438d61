import { parseArgs } from "node:util";
import { syncAll, syncCase, type SyncResult } from "../../lib/adapters/neo4j/sync";
import { CasegraphError } from "../../lib/domain/failure-codes";
import { env } from "../../lib/env";
import { configuredNeo4jStore, unreadableMarkings } from "../../lib/server/runtime/graph";
import { runtime } from "../../lib/server/runtime";
import { UsageError, type Command } from "../command";

export default {
  name: "graph",
  usage:
    "  graph sync --case <id> | --all        rebuild case graphs in Neo4j (NEO4J_URI) from PostgreSQL; --all also\n" +
    "                                        removes cases PostgreSQL no longer has\n" +
    "  graph status                          the cases Neo4j holds and their state (ready | writing | missing), and how\n" +
    "                                        many items carry markings the policy cannot read (denied to everyone)",
  async run(args) {
    const [sub, ...rest] = args;
    const { values } = parseArgs({ args: rest, options: { case: { type: "string", multiple: true }, all: { type: "boolean" } } });
    if (sub !== "sync" && sub !== "status") throw new UsageError("graph sync --case <id> | --all, or graph status");
    const store = configuredNeo4jStore(env());
    if (!store && sub === "status") {
      const { db } = await runtime();
      const unreadable = await unreadableMarkings(db, env());
      console.log(JSON.stringify({ ok: true, store: "postgresql", unreadableMarkings: unreadable }, null, 2));
      return 0;
    }
    if (!store) throw new CasegraphError("CG-SYS-003", "NEO4J_URI is not set: the case graph lives in PostgreSQL and needs no sync.");
    const { db } = await runtime();
    if (sub === "status") {
      const pgCases = new Set((await db.prisma.case.findMany({ select: { id: true } })).map((c) => c.id));
      const held = await store.writes.listCases();
      const states = await store.writes.caseStates([...new Set([...pgCases, ...held.map((c) => c.caseId)])].sort());
      const cases = [...states.values()].map((s) => ({ ...s, inPostgres: pgCases.has(s.caseId) }));
      const unreadable = await unreadableMarkings(db, env());
      console.log(
        JSON.stringify(
          { ok: cases.every((c) => c.inPostgres && c.state === "ready"), store: "neo4j", cases, unreadableMarkings: unreadable },
          null,
          2,
        ),
      );
      return 0;
    }
    if (!values.all && !values.case?.length) throw new UsageError("graph sync needs --case <id> (repeatable) or --all");
    if (values.all && values.case?.length) throw new UsageError("graph sync takes --case or --all, not both");
    const tty = process.stderr.isTTY;
    const report = (r: SyncResult) => {
      if (tty) process.stderr.write(`  ${r.caseId}: ${r.deleted ? "deleted" : `${r.nodes} nodes, ${r.edges} edges`} (${r.seconds} s)\n`);
    };
    const results: SyncResult[] = [];
    if (values.all) results.push(...(await syncAll(db.prisma, store, report)));
    else {
      for (const id of values.case!) {
        const r = await syncCase(db.prisma, store, id);
        report(r);
        results.push(r);
      }
    }
    console.log(JSON.stringify({ ok: true, cases: results }));
    return 0;
  },
} satisfies Command;
