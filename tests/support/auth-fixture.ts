// Test plumbing for the auth layer: point the process runtime at a test database, and play Next.js' request-scoped
// `headers()` (tests vi.mock("next/headers") with `nextHeadersMock`). The guards under test are the real ones.
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Database } from "@/lib/adapters/prisma/db";
import { PrismaLedger } from "@/lib/adapters/prisma/ledger";
import { importBundle } from "@/lib/adapters/prisma/workspace";
import { testSigner } from "./ledger";

export const APP_ORIGIN = "http://casegraph.test";
export const APP_HOST = "casegraph.test";
export const DEMO_PASSWORD = "casegraph-demo";

const runtimeKey = Symbol.for("casegraph.runtime");

/** Makes `runtime()` (lib/server/runtime/index.ts) return this database for the rest of the test file. */
/** One checkpoint key for the test runtime (the audit actions sign checkpoints on demand). */
const runtimeSigner = testSigner();

export function useTestRuntime(db: Database): PrismaLedger {
  const ledger = new PrismaLedger(db, { signer: async () => runtimeSigner });
  (globalThis as Record<symbol, unknown>)[runtimeKey] = Promise.resolve({ db, ledger });
  return ledger;
}

export function clearTestRuntime() {
  delete (globalThis as Record<symbol, unknown>)[runtimeKey];
}

export async function importDemo(db: Database) {
  const bundle = JSON.parse(await readFile(path.resolve("prisma/demo/workspace.json"), "utf8"));
  return importBundle(db, bundle);
}

/** The request the next server action runs in. */
export const request = {
  headers: new Headers(),
  cookies: new Map<string, string>(),
};

export function setRequest(init: { origin?: string | null; cookie?: string; host?: string; extra?: Record<string, string> } = {}) {
  const h = new Headers();
  h.set("host", init.host ?? APP_HOST);
  if (init.origin !== null) h.set("origin", init.origin ?? APP_ORIGIN);
  if (init.cookie) h.set("cookie", init.cookie);
  for (const [k, v] of Object.entries(init.extra ?? {})) h.set(k, v);
  request.headers = h;
  request.cookies = new Map();
}

/** The module that replaces next/headers in tests: headers() is the current request, cookies() records Set-Cookie. */
export const nextHeadersMock = {
  headers: async () => request.headers,
  cookies: async () => ({
    get: (name: string) => {
      const v = request.cookies.get(name);
      return v === undefined ? undefined : { name, value: v };
    },
    getAll: () => [...request.cookies].map(([name, value]) => ({ name, value })),
    set: (name: string, value: string) => {
      request.cookies.set(name, value);
    },
    delete: (name: string) => {
      request.cookies.delete(name);
    },
    has: (name: string) => request.cookies.has(name),
  }),
};

/** "a=1; b=2" for a Cookie header from Set-Cookie headers. */
export function cookieHeaderFrom(setCookies: string[]): string {
  return setCookies.map((c) => c.split(";")[0]).join("; ");
}
