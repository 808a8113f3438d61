import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { nextHeadersMock, setRequest, useTestRuntime, clearTestRuntime, importDemo } from "../support/auth-fixture";
import { describeEachDatabase } from "../support/databases";

vi.mock("next/headers", () => nextHeadersMock);

const { authedAction, authedRoute, guardOf } = await import("@/lib/auth/guard");
const { issueToken } = await import("@/lib/auth/tokens");
const { userIdFor } = await import("@/lib/adapters/prisma/workspace");

const whoAmI = authedRoute({}, async (_req, { actor }) => Response.json({ userId: actor.userId, via: actor.via }));
const adminOnly = authedRoute({ roles: ["admin"] }, async () => Response.json({ ok: true }));
const echo = authedAction({ input: z.object({ n: z.number().int() }) }, async (actor, input) => ({ n: input.n, who: actor.email }));

describe("guard markers", () => {
  it("marks wrapped routes and actions, and nothing else", () => {
    expect(guardOf(whoAmI)?.kind).toBe("route");
    expect(guardOf(adminOnly)?.roles).toEqual(["admin"]);
    expect(guardOf(echo)?.kind).toBe("action");
    expect(guardOf(async () => new Response())).toBeUndefined();
  });
});

describeEachDatabase("guard basics", (fixture) => {
  let token = "";
  beforeAll(async () => {
    const { db } = fixture();
    useTestRuntime(db);
    await importDemo(db);
    token = (
      await issueToken(db.prisma, {
        userId: userIdFor("det.reyes@metro.example"),
        name: "t",
        expiresAt: new Date(Date.now() + 60_000),
        createdBy: null,
      })
    ).token;
  });
  afterAll(() => clearTestRuntime());

  const call = (route: typeof whoAmI, headers: Record<string, string>) =>
    route(new Request("http://casegraph.test/api/x", { headers }), { params: Promise.resolve({}) });

  it("a route with no credentials is CG-AUTH-001, an unknown token CG-AUTH-002", async () => {
    const none = await call(whoAmI, {});
    expect(none.status).toBe(401);
    expect((await none.json()).error.code).toBe("CG-AUTH-001");
    const bad = await call(whoAmI, { authorization: "Bearer cgt_" + "x".repeat(43) });
    expect((await bad.json()).error.code).toBe("CG-AUTH-002");
  });

  it("a valid token authenticates as its user; a missing role is CG-ACCESS-002", async () => {
    const ok = await call(whoAmI, { authorization: `Bearer ${token}` });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ userId: userIdFor("det.reyes@metro.example"), via: "token" });
    const denied = await call(adminOnly, { authorization: `Bearer ${token}` });
    expect(denied.status).toBe(403);
    expect((await denied.json()).error.code).toBe("CG-ACCESS-002");
  });

  it("an action without a session is refused; without an Origin it is refused before anything else", async () => {
    setRequest({});
    expect(await echo({ n: 1 })).toMatchObject({ ok: false, error: { code: "CG-AUTH-001" } });
    setRequest({ origin: null });
    expect(await echo({ n: 1 })).toMatchObject({ ok: false, error: { code: "CG-AUTH-005" } });
  });
});
