// Sign-in, sessions, tokens and immediate revocation, through the real guards, the real better-auth and the real
// admin actions (acceptance 2, 3 and 5 of issue 3).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import {
  APP_ORIGIN,
  DEMO_PASSWORD,
  clearTestRuntime,
  cookieHeaderFrom,
  importDemo,
  nextHeadersMock,
  request,
  setRequest,
  useTestRuntime,
} from "../support/auth-fixture";
import { describeEachDatabase } from "../support/databases";
import { openDatabase } from "@/lib/adapters/prisma/db";

vi.mock("next/headers", () => nextHeadersMock);
vi.mock("next/navigation", () => ({
  redirect: (to: string) => {
    throw Object.assign(new Error(`NEXT_REDIRECT ${to}`), { digest: `NEXT_REDIRECT;replace;${to};307;` });
  },
  notFound: () => {
    throw new Error("NEXT_NOT_FOUND");
  },
}));

const { authedAction, authedRoute } = await import("@/lib/auth/guard");
const { signInAction, signOutAction } = await import("@/app/(auth)/actions");
const admin = await import("@/app/(workbench)/admin/actions");
const account = await import("@/app/(workbench)/account/actions");
const { signInWithPassword } = await import("@/lib/auth/sign-in");
const { authFor } = await import("@/lib/auth/auth");
const { LOCKOUT_MAX_FAILURES } = await import("@/lib/auth/lockout");
const { assertCaseAccess } = await import("@/lib/server/access/case-access");
const { evidenceDenialReason } = await import("@/lib/domain/policy");
const { userIdFor } = await import("@/lib/adapters/prisma/workspace");
const { runtime } = await import("@/lib/server/runtime");
const me = (await import("@/app/api/me/route")).GET;
const authHandler = await import("@/app/api/auth/[...all]/route");

const REYES = "det.reyes@metro.example";
const KIM = "analyst.kim@metro.example";
const ADMIN = "admin@metro.example";

/** A probe route: what the caller may see of case-harbor right now (real guard + real case access + real policy). */
const harborProbe = authedRoute({}, async (_req, { actor }) => {
  const { db } = await runtime();
  await assertCaseAccess(db.prisma, actor, "case-harbor");
  const items = await db.prisma.evidence.findMany({
    where: { caseId: "case-harbor" },
    select: { tenantId: true, classification: true, needToKnow: true, license: { select: { allows: true } } },
  });
  const visible = items.filter(
    (e) =>
      evidenceDenialReason(actor, {
        tenantId: e.tenantId,
        classification: e.classification,
        needToKnow: e.needToKnow,
        licenseUses: e.license.allows,
      }) === null,
  );
  return Response.json({ visible: visible.length, total: items.length, clearance: actor.clearance });
});

function get(route: (req: Request, ctx: { params: Promise<Record<string, never>> }) => Promise<Response>, headers: Record<string, string>) {
  return route(new Request("http://casegraph.test/api/probe", { headers: { host: "casegraph.test", ...headers } }), {
    params: Promise.resolve({}),
  });
}

describeEachDatabase("sign-in, sessions and revocation", (fixture, kind) => {
  let adminCookie = "";

  /** Signs in through the real server action (Origin checked) and returns the Cookie header it set. */
  async function signInVia(email: string, password = DEMO_PASSWORD): Promise<string> {
    setRequest({});
    const result = await signInAction({ email, password });
    expect(result).toMatchObject({ ok: true });
    return [...request.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async function asAdmin<T>(fn: () => Promise<T>): Promise<T> {
    setRequest({ cookie: adminCookie });
    return fn();
  }

  /** A token the user creates for themselves (tokens are created by their owner). */
  async function ownToken(email: string, name: string, expiresIn: "1d" | "7d" = "1d") {
    setRequest({ cookie: await signInVia(email) });
    const issued = await account.createOwnTokenAction({ name, expiresIn });
    if (!issued.ok) throw new Error(issued.error.code);
    return issued.data;
  }

  beforeAll(async () => {
    const { db } = fixture();
    useTestRuntime(db);
    await importDemo(db);
    adminCookie = await signInVia(ADMIN);
  });
  afterAll(() => clearTestRuntime());

  describe("sign-in", () => {
    it("sets an HttpOnly, SameSite=Lax session cookie, and the session resolves to the user", async () => {
      setRequest({});
      const { setCookies } = await signInWithPassword(fixture().db.prisma, { email: REYES, password: DEMO_PASSWORD }, new Headers());
      const cookie = setCookies.find((c) => c.startsWith("casegraph.session_token="))!;
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/SameSite=Lax/i);
      const res = await me(new Request("http://casegraph.test/api/me", { headers: { cookie: cookieHeaderFrom(setCookies) } }), {
        params: Promise.resolve({}),
      });
      expect(await res.json()).toMatchObject({ email: REYES, via: "session", clearance: "SECRET" });
    });

    it("answers an unknown email and a wrong password with the same generic error", async () => {
      setRequest({});
      const unknown = await signInAction({ email: "nobody@metro.example", password: "whatever-password" });
      setRequest({});
      const wrong = await signInAction({ email: KIM, password: "not-the-password" });
      expect(unknown).toEqual(wrong);
      expect(unknown).toEqual({ ok: false, error: { code: "CG-AUTH-006", message: "Invalid email or password." } });
    });

    it("validates the form with field issues", async () => {
      setRequest({});
      const r = await signInAction({ email: "", password: "" });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.issues?.map((i) => i.path).sort()).toEqual(["email", "password"]);
    });

    it("has no public sign-up, no password endpoint and no session-token endpoint over HTTP", async () => {
      for (const path of [
        "/api/auth/sign-up/email",
        "/api/auth/sign-in/email",
        "/api/auth/change-password",
        "/api/auth/update-user",
        "/api/auth/request-password-reset",
      ]) {
        const res = await authHandler.POST(
          new Request(`http://casegraph.test${path}`, {
            method: "POST",
            headers: { "content-type": "application/json", origin: APP_ORIGIN },
            body: JSON.stringify({ email: "eve@evil.example", password: "eve-password-123", name: "Eve" }),
          }),
        );
        expect(res.status, path).toBe(404);
      }
      // better-auth itself also refuses sign-up (disableSignUp), even from the server.
      const auth = await authFor(fixture().db.prisma);
      await expect(
        auth.api.signUpEmail({ body: { email: "eve@evil.example", password: "eve-password-123", name: "Eve" } }),
      ).rejects.toThrow();
      expect(await fixture().db.prisma.user.findUnique({ where: { email: "eve@evil.example" } })).toBeNull();
      // get-session would hand the raw session token to page scripts (undoing HttpOnly): it does not exist over HTTP,
      // and /api/me says who is signed in without any token.
      const session = await authHandler.GET(
        new Request("http://casegraph.test/api/auth/get-session", { headers: { cookie: adminCookie } }),
      );
      expect(session.status).toBe(404);
      const token = adminCookie
        .split(";")
        .map((c) => c.trim().split("=")[1])
        .find(Boolean)!;
      const who = await get(me, { cookie: adminCookie });
      const body = await who.text();
      expect(JSON.parse(body).email).toBe(ADMIN);
      expect(body).not.toContain(token.split(".")[0]);
      expect(body).not.toMatch(/token/i);
    });

    it("signs out: the session is deleted and the cookie no longer works", async () => {
      const cookie = await signInVia(KIM);
      expect((await get(me, { cookie })).status).toBe(200);
      setRequest({ cookie });
      await expect(signOutAction()).rejects.toThrow(/NEXT_REDIRECT \/login/);
      const after = await get(me, { cookie });
      expect(after.status).toBe(401);
      expect((await after.json()).error.code).toBe("CG-AUTH-002");
    });
  });

  describe("Origin checks on state-changing actions (acceptance 3)", () => {
    const cases: Array<[string, string | null]> = [
      ["cross-origin", "https://evil.example"],
      ["null", "null"],
      ["missing", null],
      ["look-alike", "http://casegraph.test.evil.example"],
      ["other scheme", "ftp://casegraph.test"],
    ];
    for (const [label, origin] of cases) {
      it(`refuses a ${label} Origin on admin actions and on sign-in, before anything happens`, async () => {
        const { prisma } = fixture().db;
        const before = await prisma.tenant.findUnique({ where: { id: "metro-pd" } });
        setRequest({ cookie: adminCookie, origin });
        expect(await admin.renameTenantAction({ name: "Pwned" })).toMatchObject({ ok: false, error: { code: "CG-AUTH-005" } });
        expect(await prisma.tenant.findUnique({ where: { id: "metro-pd" } })).toEqual(before);

        const attempts = await prisma.loginAttempt.count();
        setRequest({ origin });
        expect(await signInAction({ email: KIM, password: DEMO_PASSWORD })).toMatchObject({ ok: false, error: { code: "CG-AUTH-005" } });
        expect(await prisma.loginAttempt.count()).toBe(attempts); // Refused before the password was even looked at.
        expect(request.cookies.size).toBe(0);
      });
    }

    it("accepts the request's own host (no public origin configured) as a whole origin, scheme and port included", async () => {
      setRequest({ cookie: adminCookie, origin: "http://casegraph.test" });
      expect(await admin.renameTenantAction({ name: "Metro Police Department" })).toMatchObject({ ok: true });
      // Same host, other scheme or port: another origin (issue 11 §13).
      for (const origin of ["https://casegraph.test", "http://casegraph.test:8080"]) {
        setRequest({ cookie: adminCookie, origin });
        expect(await admin.renameTenantAction({ name: "Metro Police Department" }), origin).toMatchObject({
          ok: false,
          error: { code: "CG-AUTH-005" },
        });
      }
    });

    it("never trusts X-Forwarded-Host: a forged one does not make a foreign origin ours", async () => {
      setRequest({
        cookie: adminCookie,
        origin: "https://evil.example",
        extra: { "x-forwarded-host": "evil.example", "x-forwarded-proto": "https" },
      });
      expect(await admin.renameTenantAction({ name: "Pwned" })).toMatchObject({ ok: false, error: { code: "CG-AUTH-005" } });
      // A forged Host is only ever compared with http://<that host>: it cannot make an https page of another site ours.
      setRequest({ cookie: adminCookie, origin: "https://evil.example", host: "evil.example" });
      expect(await admin.renameTenantAction({ name: "Pwned" })).toMatchObject({ ok: false, error: { code: "CG-AUTH-005" } });
    });
  });

  describe("immediate revocation (acceptance 2)", () => {
    it("a lowered clearance filters the very next request", async () => {
      const cookie = await signInVia(REYES);
      const before = await (await get(harborProbe, { cookie })).json();
      expect(before.clearance).toBe("SECRET");
      const u = await fixture().db.prisma.user.findUniqueOrThrow({ where: { email: REYES } });
      expect(
        await asAdmin(() =>
          admin.updateUserAction({ userId: u.id, name: u.name, roles: ["investigator"], clearance: "CUI", needToKnow: u.needToKnow }),
        ),
      ).toMatchObject({ ok: true });
      const after = await (await get(harborProbe, { cookie })).json();
      expect(after.clearance).toBe("CUI");
      expect(after.visible).toBeLessThan(before.visible);
      // Same session cookie, no re-login: nothing about permissions lives in the session.
      await asAdmin(() =>
        admin.updateUserAction({ userId: u.id, name: u.name, roles: ["investigator"], clearance: "SECRET", needToKnow: u.needToKnow }),
      );
      expect((await (await get(harborProbe, { cookie })).json()).visible).toBe(before.visible);
    });

    it("removed need-to-know tags filter the very next request", async () => {
      const cookie = await signInVia(REYES);
      const before = await (await get(harborProbe, { cookie })).json();
      const u = await fixture().db.prisma.user.findUniqueOrThrow({ where: { email: REYES } });
      await asAdmin(() =>
        admin.updateUserAction({ userId: u.id, name: u.name, roles: ["investigator"], clearance: "SECRET", needToKnow: [] }),
      );
      expect((await (await get(harborProbe, { cookie })).json()).visible).toBeLessThan(before.visible);
      await asAdmin(() =>
        admin.updateUserAction({ userId: u.id, name: u.name, roles: ["investigator"], clearance: "SECRET", needToKnow: u.needToKnow }),
      );
    });

    it("a removed membership denies the very next request, by session and by token", async () => {
      const cookie = await signInVia(KIM);
      const kim = userIdFor(KIM);
      const bearer = { authorization: `Bearer ${(await ownToken(KIM, "kim")).token}` };
      expect((await get(harborProbe, { cookie })).status).toBe(200);
      expect((await get(harborProbe, bearer)).status).toBe(200);
      expect(await asAdmin(() => admin.removeMemberAction({ caseId: "case-harbor", userId: kim }))).toMatchObject({
        ok: true,
        data: { removed: true },
      });
      for (const h of [{ cookie }, bearer]) {
        const res = await get(harborProbe, h);
        expect(res.status).toBe(404);
        expect((await res.json()).error.code).toBe("CG-ACCESS-001");
      }
      expect(await asAdmin(() => admin.addMemberAction({ caseId: "case-harbor", userId: kim }))).toMatchObject({
        ok: true,
        data: { added: true },
      });
      expect((await get(harborProbe, { cookie })).status).toBe(200);
    });

    it("a removed role is refused on the very next request", async () => {
      const cookie = await signInVia("lead.park@metro.example");
      const supOnly = authedRoute({ roles: ["supervisor"] }, async () => Response.json({ ok: true }));
      expect((await get(supOnly, { cookie })).status).toBe(200);
      const u = await fixture().db.prisma.user.findUniqueOrThrow({ where: { email: "lead.park@metro.example" } });
      await asAdmin(() =>
        admin.updateUserAction({
          userId: u.id,
          name: u.name,
          roles: ["investigator"],
          clearance: u.clearance as "TOP_SECRET",
          needToKnow: u.needToKnow,
        }),
      );
      const res = await get(supOnly, { cookie });
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe("CG-ACCESS-002");
      await asAdmin(() =>
        admin.updateUserAction({
          userId: u.id,
          name: u.name,
          roles: ["investigator", "supervisor"],
          clearance: u.clearance as "TOP_SECRET",
          needToKnow: u.needToKnow,
        }),
      );
    });

    it("deactivation ends the sessions, refuses tokens and sign-in; reactivation restores sign-in only", async () => {
      const { prisma } = fixture().db;
      const cookie = await signInVia(KIM);
      const kim = userIdFor(KIM);
      const issued = await ownToken(KIM, "kim2");
      expect(await asAdmin(() => admin.setUserActiveAction({ userId: kim, active: false }))).toMatchObject({
        ok: true,
        data: { active: false },
      });
      expect(await prisma.session.count({ where: { userId: kim } })).toBe(0);
      const bySession = await get(me, { cookie });
      expect(bySession.status).toBe(401);
      const byToken = await get(me, { authorization: `Bearer ${issued.token}` });
      expect(byToken.status).toBe(403);
      expect((await byToken.json()).error.code).toBe("CG-AUTH-003");
      setRequest({});
      expect(await signInAction({ email: KIM, password: DEMO_PASSWORD })).toEqual({
        ok: false,
        error: { code: "CG-AUTH-006", message: "Invalid email or password." },
      });
      expect(await asAdmin(() => admin.setUserActiveAction({ userId: kim, active: true }))).toMatchObject({ ok: true });
      expect((await get(me, { cookie })).status).toBe(401); // Old sessions stay dead.
      await signInVia(KIM);
    });

    it("a password reset ends the user's sessions and only the new password works", async () => {
      const cookie = await signInVia(KIM);
      const kim = userIdFor(KIM);
      expect(await asAdmin(() => admin.resetPasswordAction({ userId: kim, password: "short" }))).toMatchObject({
        ok: false,
        error: { code: "CG-INPUT-001", issues: [{ path: "password" }] },
      });
      expect(await asAdmin(() => admin.resetPasswordAction({ userId: kim, password: "a-brand-new-password" }))).toMatchObject({ ok: true });
      expect((await get(me, { cookie })).status).toBe(401);
      setRequest({});
      expect(await signInAction({ email: KIM, password: DEMO_PASSWORD })).toMatchObject({ ok: false, error: { code: "CG-AUTH-006" } });
      await signInVia(KIM, "a-brand-new-password");
      await asAdmin(() => admin.resetPasswordAction({ userId: kim, password: DEMO_PASSWORD }));
    });

    it("an expired session is refused", async () => {
      const cookie = await signInVia(KIM);
      await fixture().db.prisma.session.updateMany({
        where: { userId: userIdFor(KIM) },
        data: { expiresAt: new Date(Date.now() - 1_000) },
      });
      expect((await get(me, { cookie })).status).toBe(401);
    });
  });

  describe("API tokens", () => {
    it("are stored hashed, authenticate as their user, record last use, and die at expiry or revocation", async () => {
      const { prisma } = fixture().db;

      const { token, id } = await ownToken(REYES, "script", "7d");
      const row = await prisma.apiToken.findUniqueOrThrow({ where: { id } });
      expect(JSON.stringify(row)).not.toContain(token);
      expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.lastUsedAt).toBeNull();
      expect(row.expiresAt.getTime() - Date.now()).toBeGreaterThan(6.9 * 86_400_000);

      const ok = await get(me, { authorization: `Bearer ${token}` });
      expect(await ok.json()).toMatchObject({ email: REYES, via: "token" });
      expect((await prisma.apiToken.findUniqueOrThrow({ where: { id } })).lastUsedAt).not.toBeNull();

      // A token is not a session: server actions refuse it.
      const anyAction = authedAction({ input: z.object({}) }, async () => "ran");
      setRequest({ extra: { authorization: `Bearer ${token}` } });
      expect(await anyAction({})).toMatchObject({ ok: false, error: { code: "CG-AUTH-001" } });

      await prisma.apiToken.update({ where: { id }, data: { expiresAt: new Date(Date.now() - 1) } });
      const expired = await get(me, { authorization: `Bearer ${token}` });
      expect(expired.status).toBe(401);
      expect((await expired.json()).error.code).toBe("CG-AUTH-002");

      await prisma.apiToken.update({ where: { id }, data: { expiresAt: new Date(Date.now() + 86_400_000) } });
      expect((await get(me, { authorization: `Bearer ${token}` })).status).toBe(200);
      expect(await asAdmin(() => admin.revokeTokenAction({ tokenId: id }))).toMatchObject({ ok: true, data: { revoked: true } });
      const revoked = await get(me, { authorization: `Bearer ${token}` });
      expect((await revoked.json()).error.code).toBe("CG-AUTH-002");
    });

    it("malformed Authorization headers are refused and never fall back to the cookie", async () => {
      const cookie = await signInVia(REYES);
      for (const authorization of ["Basic abc", "Bearer", "Bearer cgt_short", "Bearer " + "cgt_" + "A".repeat(43) + "x"]) {
        const res = await get(me, { authorization, cookie });
        expect(res.status, authorization).toBe(401);
        expect((await res.json()).error.code).toBe("CG-AUTH-002");
      }
    });

    it("issuing validates the form; an owner revokes only their own tokens", async () => {
      setRequest({ cookie: await signInVia(REYES) });
      const r = await account.createOwnTokenAction({ name: "", expiresIn: "2y" as never });
      expect(r).toMatchObject({ ok: false, error: { code: "CG-INPUT-001" } });
      if (!r.ok) expect(r.error.issues?.map((i) => i.path).sort()).toEqual(["expiresIn", "name"]);
      const kims = await ownToken(KIM, "kim3");
      setRequest({ cookie: await signInVia(REYES) });
      expect(await account.revokeOwnTokenAction({ tokenId: kims.id })).toMatchObject({ ok: false, error: { code: "CG-ACCESS-003" } });
      setRequest({ cookie: await signInVia(KIM) });
      expect(await account.revokeOwnTokenAction({ tokenId: kims.id })).toMatchObject({ ok: true, data: { revoked: true } });
    });
  });

  describe("brute force (acceptance 5)", () => {
    it(`the ${LOCKOUT_MAX_FAILURES + 1}th wrong password within a minute is refused without checking the password`, async () => {
      const { prisma } = fixture().db;
      const email = "sup.okafor@metro.example";
      const auth = await authFor(prisma);
      const spy = vi.spyOn(auth.api, "signInEmail");
      try {
        for (let i = 0; i < LOCKOUT_MAX_FAILURES; i++) {
          setRequest({});
          expect(await signInAction({ email, password: `wrong-${i}-password` })).toMatchObject({
            ok: false,
            error: { code: "CG-AUTH-006" },
          });
        }
        expect(spy).toHaveBeenCalledTimes(LOCKOUT_MAX_FAILURES);
        // The 6th, with the RIGHT password: refused, and better-auth (the password check) is never called.
        setRequest({});
        expect(await signInAction({ email, password: DEMO_PASSWORD })).toEqual({
          ok: false,
          error: { code: "CG-AUTH-004", message: "Too many attempts. Try again later." },
        });
        expect(spy).toHaveBeenCalledTimes(LOCKOUT_MAX_FAILURES);
        expect(request.cookies.size).toBe(0);
        // Per account: another account is unaffected.
        await signInVia("lead.park@metro.example");
        // Also for an email in other letter case.
        setRequest({});
        expect(await signInAction({ email: email.toUpperCase(), password: DEMO_PASSWORD })).toMatchObject({
          ok: false,
          error: { code: "CG-AUTH-004" },
        });
        // A minute later the account opens again, and a success clears the count.
        await prisma.$executeRaw`UPDATE "login_attempt" SET created_at = created_at - interval '61 seconds' WHERE email = ${email}`;
        await signInVia(email);
        setRequest({});
        expect(await signInAction({ email, password: "wrong-again-password" })).toMatchObject({
          ok: false,
          error: { code: "CG-AUTH-006" },
        });
      } finally {
        spy.mockRestore();
      }
    });

    it("concurrent guesses cannot slip past the limit", async () => {
      const { prisma } = fixture().db;
      const email = "sup.haddad@cyber.example";
      const auth = await authFor(prisma);
      const spy = vi.spyOn(auth.api, "signInEmail");
      try {
        const results = await Promise.all(
          Array.from({ length: 12 }, (_, i) =>
            signInWithPassword(prisma, { email, password: `guess-${i}-password` }, new Headers()).then(
              () => "ok",
              (e) => e.code,
            ),
          ),
        );
        expect(results.filter((c) => c === "CG-AUTH-006")).toHaveLength(LOCKOUT_MAX_FAILURES);
        expect(results.filter((c) => c === "CG-AUTH-004")).toHaveLength(12 - LOCKOUT_MAX_FAILURES);
        expect(spy).toHaveBeenCalledTimes(LOCKOUT_MAX_FAILURES);
      } finally {
        spy.mockRestore();
      }
    });

    if (kind === "postgresql") {
      it("the count is shared by every process on the database (a second connection pool sees the lockout)", async () => {
        const email = "analyst.ng@cyber.example";
        const other = await openDatabase({ url: fixture().url, migrate: false, poolSize: 2 });
        try {
          for (let i = 0; i < LOCKOUT_MAX_FAILURES; i++) {
            await expect(
              signInWithPassword(fixture().db.prisma, { email, password: `wrong-${i}-password` }, new Headers()),
            ).rejects.toMatchObject({ code: "CG-AUTH-006" });
          }
          await expect(signInWithPassword(other.prisma, { email, password: DEMO_PASSWORD }, new Headers())).rejects.toMatchObject({
            code: "CG-AUTH-004",
          });
        } finally {
          await other.close();
        }
      });
    }
  });
});
