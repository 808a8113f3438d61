// Issue 11 §7: a GET reads. Every GET route under app/api, called by a supervisor with the queries its ledger routes
// take, leaves the ledger and its checkpoints exactly as they were; what writes (an export, signing a checkpoint) is a
// POST, refused from a foreign Origin.
import { readdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import type { PrismaLedger } from "@/lib/adapters/prisma/ledger";
import {
  APP_ORIGIN,
  clearTestRuntime,
  cookieHeaderFrom,
  DEMO_PASSWORD,
  importDemo,
  nextHeadersMock,
  setRequest,
  useTestRuntime,
} from "../support/auth-fixture";
import { describeEachDatabase } from "../support/databases";

vi.mock("next/headers", () => nextHeadersMock);
const { signInWithPassword } = await import("@/lib/auth/sign-in");

type Handler = (req: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function routeFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await routeFiles(p)));
    else if (e.name === "route.ts") out.push(p);
  }
  return out.sort();
}

describeEachDatabase("GETs never write", (fixture) => {
  let ledger: PrismaLedger;
  let cookie = "";
  beforeAll(async () => {
    const { db } = fixture();
    ledger = useTestRuntime(db);
    await importDemo(db);
    setRequest({});
    cookie = cookieHeaderFrom(
      (await signInWithPassword(db.prisma, { email: "sup.okafor@metro.example", password: DEMO_PASSWORD }, new Headers())).setCookies,
    );
  });
  afterAll(() => clearTestRuntime());

  const state = async () => {
    await ledger.flush();
    return { size: (await ledger.head()).size, checkpoints: (await ledger.listCheckpoints(1000)).length };
  };
  const headers = (extra: Record<string, string> = {}) => ({ host: "casegraph.test", origin: APP_ORIGIN, cookie, ...extra });

  it("no GET route writes a ledger entry or signs a checkpoint (none is signed yet: proofs say so)", async () => {
    const files = await routeFiles(path.resolve("app/api"));
    expect(files.length).toBeGreaterThan(5);
    const before = await state();
    expect(before.checkpoints).toBe(0);
    const queries = ["", "?seq=1", "?seq=1&size=1", "?from=1", "?from=1&to=1", "?size=1"];
    let called = 0;
    for (const file of files) {
      const mod = (await import(file)) as { GET?: Handler };
      if (!mod.GET) continue;
      for (const q of queries) {
        const res = await mod.GET(new Request(`http://casegraph.test/api/x${q}`, { headers: headers() }), {
          params: Promise.resolve({ all: "get-session" } as Record<string, string>),
        });
        called++;
        expect(res.status, `${file}${q}`).toBeLessThan(500);
      }
    }
    expect(called).toBeGreaterThan(10);
    expect(await state()).toEqual(before);
    const { GET: proofGet } = await import("@/app/api/audit/proof/inclusion/route");
    const res = await proofGet(new Request("http://casegraph.test/api/audit/proof/inclusion?seq=1", { headers: headers() }), {
      params: Promise.resolve({}),
    });
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe("CG-AUDIT-010");
  });

  it("the export is a POST behind the Origin check; it writes its entry only from the app's own origin", async () => {
    const exportRoute = await import("@/app/api/audit/export/route");
    expect("GET" in exportRoute).toBe(false);
    const post = (origin: string) =>
      exportRoute.POST(
        new Request("http://casegraph.test/api/audit/export", {
          method: "POST",
          headers: headers({ origin, "content-type": "application/x-www-form-urlencoded" }),
          body: new URLSearchParams({ from: "1", to: "2" }),
        }),
        { params: Promise.resolve({}) },
      );
    const before = await state();
    const forged = await post("https://evil.example");
    expect(forged.status).toBe(403);
    expect(await state()).toEqual(before);
    const ok = await post(APP_ORIGIN);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-disposition")).toMatch(/attachment/);
    expect((await state()).size).toBe(before.size + 1);
  });

  it("POST /api/audit/checkpoint signs one at the head; then GET returns it and proofs can be read", async () => {
    const route = await import("@/app/api/audit/checkpoint/route");
    const signed = await route.POST(new Request("http://casegraph.test/api/audit/checkpoint", { method: "POST", headers: headers() }), {
      params: Promise.resolve({}),
    });
    expect(signed.status).toBe(200);
    const { checkpoint } = await signed.json();
    expect(checkpoint.treeSize).toBe((await ledger.head()).size);
    const read = await route.GET(new Request("http://casegraph.test/api/audit/checkpoint", { headers: headers() }), {
      params: Promise.resolve({}),
    });
    expect((await read.json()).checkpoint).toEqual(checkpoint);
    const { GET: proofGet } = await import("@/app/api/audit/proof/inclusion/route");
    const before = await state();
    const proof = await proofGet(new Request("http://casegraph.test/api/audit/proof/inclusion?seq=1", { headers: headers() }), {
      params: Promise.resolve({}),
    });
    expect(proof.status).toBe(200);
    expect((await proof.json()).checkpoint.treeSize).toBe(checkpoint.treeSize);
    expect(await state()).toEqual(before);
  });
});
