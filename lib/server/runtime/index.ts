// Process-wide services, opened lazily on first use (never at import: `next build` evaluates modules).
import "server-only";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { env } from "../../env";
import { databaseLabel, openDatabase, defaultDataDir, type Database } from "../../adapters/prisma/db";
import { PrismaLedger, type StoredCheckpoint } from "../../adapters/prisma/ledger";
import { keepCheckpoint, witnessSlot, type WitnessSlot } from "../ledger/checkpoint-witness";
import { closeGraphStores, importWorkspace } from "./graph";
import { acquireDataDirLock } from "./data-lock";
import { readLedgerEnv } from "../ledger/env";
import { loadLedgerSigner, type LedgerSigner } from "../ledger/key";

interface Runtime {
  db: Database;
  ledger: PrismaLedger;
}

const globalKey = Symbol.for("casegraph.runtime");
type Holder = { [globalKey]?: Promise<Runtime> };

export const DEMO_BUNDLE = path.resolve(process.cwd(), "prisma/demo/workspace.json");

/** The runtime for this process; Next.js dev reloads modules, so the promise lives on globalThis. */
export function runtime(): Promise<Runtime> {
  const holder = globalThis as Holder;
  holder[globalKey] ??= open().catch((err) => {
    delete holder[globalKey]; // A dead database at start must not poison every later request.
    throw err;
  });
  return holder[globalKey]!;
}

async function open(): Promise<Runtime> {
  const e = env();
  if (!e.DATABASE_URL) await acquireDataDirLock(defaultDataDir());
  // The embedded default migrates itself; PostgreSQL is migrated by `npm run db:migrate` (an operator's step).
  const db = await openDatabase({ url: e.DATABASE_URL, migrate: !e.DATABASE_URL, poolSize: e.DATABASE_POOL_SIZE });
  const le = readLedgerEnv();
  // The checkpoint key is read (or, outside production, generated) on first use, not at start: a misconfigured key must
  // not stop answers, only checkpoints (which then report CG-AUDIT-003). A missing one in production stops the server
  // at start (instrumentation.ts).
  let signer: Promise<LedgerSigner | null> | undefined;
  const loadSigner = () =>
    (signer ??= loadLedgerSigner({ key: le.CASEGRAPH_LEDGER_SIGNING_KEY, dataDir: defaultDataDir() }).catch((err) => {
      signer = undefined;
      throw err;
    }));
  // Every checkpoint signed here is also kept in the data folder, outside the tables (truncation detection).
  const witness = ledgerWitness();
  const keep = (cp: StoredCheckpoint) =>
    keepCheckpoint(witness, cp).catch((err) =>
      console.error(`casegraph: the signed checkpoint at ${cp.treeSize} could not be kept in the data folder:`, (err as Error).message),
    );
  return {
    db,
    ledger: new PrismaLedger(db, { signer: loadSigner, checkpointEvery: le.CASEGRAPH_CHECKPOINT_EVERY, onCheckpointSigned: keep }),
  };
}

/** Where this deployment keeps its ledger's checkpoint witness: the data folder, one file per database. */
export function ledgerWitness(): WitnessSlot {
  return witnessSlot(defaultDataDir(), databaseLabel(env().DATABASE_URL));
}

export async function closeRuntime(): Promise<void> {
  const holder = globalThis as Holder;
  const current = holder[globalKey];
  delete holder[globalKey];
  if (current) {
    const rt = await current;
    await rt.ledger.flush().catch(() => {}); // a periodic checkpoint may still be running
    await rt.db.close();
  }
  await closeGraphStores(); // Neo4j drivers keep sockets open (and a CLI process alive) until closed
}

/** First start on an empty database: load the demo workspace so a newcomer has something to open. */
export async function seedDemoIfEmpty(): Promise<boolean> {
  if (env().CASEGRAPH_SEED_DEMO === "never") return false;
  const { db } = await runtime();
  if ((await db.prisma.tenant.count()) > 0) return false;
  const bundle = JSON.parse(await readFile(DEMO_BUNDLE, "utf8"));
  // Into Neo4j too when NEO4J_URI is set; its users, licenses and memberships enter the ledger like any import's.
  await importWorkspace(db, bundle, env(), { actor: { userId: null, email: "system:demo-seed", tenantId: null, via: "import" } });
  return true;
}
