// Admin management: every change is exactly one chained ledger entry (who, what, before → after) written in the same
// transaction; a failed ledger write rolls the change back; tenant isolation and guard rails; the CLI.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runCli } from "../support/cli";
import { clearTestRuntime, importDemo, nextHeadersMock, request, setRequest, useTestRuntime } from "../support/auth-fixture";
import { describeEachDatabase } from "../support/databases";
import { openDatabase } from "@/lib/adapters/prisma/db";
import { PrismaLedger } from "@/lib/adapters/prisma/ledger";

vi.mock("next/headers", () => nextHeadersMock);

const admin = await import("@/app/(workbench)/admin/actions");
const account = await import("@/app/(workbench)/account/actions");
const { signInAction } = await import("@/app/(auth)/actions");
const { listLicenses } = await import("@/lib/admin/licenses");
const { listUsers } = await import("@/lib/admin/users");
const { loadActor } = await import("@/lib/auth/actor");
const { userIdFor } = await import("@/lib/adapters/prisma/workspace");
const { hashToken } = await import("@/lib/auth/tokens");

interface LedgerRow {
  seq: bigint;
  kind: string;
  actor_id: string | null;
  tenant_id: string | null;
  case_id: string | null;
  payload: { actor: { id: string; email: string; via: string }; target: { type: string; id: string }; before: unknown; after: unknown };
}

describeEachDatabase("admin changes and the ledger", (fixture) => {
  let adminCookie = "";
  const ADMIN_ID = userIdFor("admin@metro.example");

  async function asAdmin<T>(fn: () => Promise<T>): Promise<T> {
    setRequest({ cookie: adminCookie });
    return fn();
  }
  async function entriesAfter(seq: bigint): Promise<LedgerRow[]> {
    return fixture().db.prisma.$queryRaw<LedgerRow[]>`
      SELECT seq, kind, actor_id, tenant_id, case_id, payload FROM "ledger" WHERE seq > ${seq} ORDER BY seq`;
  }
  async function head(): Promise<bigint> {
    const r = await fixture().db.prisma.$queryRaw<Array<{ s: bigint | null }>>`SELECT max(seq) AS s FROM "ledger"`;
    return BigInt(r[0].s ?? 0);
  }
  /** Runs an admin action and returns its result and the ledger entries it wrote. */
  async function audited<T>(fn: () => Promise<T>): Promise<{ result: T; entries: LedgerRow[] }> {
    const before = await head();
    const result = await asAdmin(fn);
    return { result, entries: await entriesAfter(before) };
  }

  beforeAll(async () => {
    const { db } = fixture();
    useTestRuntime(db);
    await importDemo(db);
    setRequest({});
    expect(await signInAction({ email: "admin@metro.example", password: "casegraph-demo" })).toMatchObject({ ok: true });
    adminCookie = [...request.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  });
  afterAll(() => clearTestRuntime());

  it("create user: one entry with the new state (never the password), and the user can sign in", async () => {
    const { result, entries } = await audited(() =>
      admin.createUserAction({
        email: "  New.Person@Metro.Example ",
        name: "New Person",
        roles: ["investigator"],
        clearance: "CONFIDENTIAL",
        needToKnow: "Narcotics, homicide, narcotics",
        password: "new-person-password",
      }),
    );
    expect(result).toMatchObject({ ok: true, data: { email: "new.person@metro.example" } });
    expect(entries).toHaveLength(1);
    const [e] = entries;
    expect(e.kind).toBe("admin.user.create");
    expect(e.actor_id).toBe(ADMIN_ID);
    expect(e.tenant_id).toBe("metro-pd");
    expect(e.payload.actor).toMatchObject({ id: ADMIN_ID, email: "admin@metro.example", via: "session" });
    expect(e.payload.before).toBeNull();
    expect(e.payload.after).toMatchObject({
      email: "new.person@metro.example",
      tenantId: "metro-pd",
      clearance: "CONFIDENTIAL",
      needToKnow: ["homicide", "narcotics"],
      roles: ["investigator"],
      active: true,
    });
    expect(JSON.stringify(e.payload)).not.toContain("new-person-password");
    const account = await fixture().db.prisma.account.findFirstOrThrow({ where: { userId: userIdFor("new.person@metro.example") } });
    expect(account.password).toMatch(/^[0-9a-f]{32}:[0-9a-f]+$/); // better-auth scrypt salt:key, not the password.
    setRequest({});
    expect(await signInAction({ email: "new.person@metro.example", password: "new-person-password" })).toMatchObject({ ok: true });
  });

  it("create user: field errors, and a duplicate email is a field conflict with no entry", async () => {
    const bad = await audited(() =>
      admin.createUserAction({
        email: "nope",
        name: "",
        roles: [],
        clearance: "ULTRA" as never,
        needToKnow: "ok, Not Valid!",
        password: "short",
      }),
    );
    expect(bad.entries).toHaveLength(0);
    expect(bad.result.ok).toBe(false);
    if (!bad.result.ok) {
      expect(bad.result.error.code).toBe("CG-INPUT-001");
      expect(new Set(bad.result.error.issues?.map((i) => i.path?.split(".")[0]))).toEqual(
        new Set(["email", "name", "roles", "clearance", "needToKnow", "password"]),
      );
    }
    const dup = await audited(() =>
      admin.createUserAction({
        email: "analyst.ng@cyber.example",
        name: "Dup",
        roles: ["investigator"],
        clearance: "CUI",
        needToKnow: "",
        password: "duplicate-password",
      }),
    );
    expect(dup.result).toMatchObject({ ok: false, error: { code: "CG-INPUT-006", issues: [{ path: "email" }] } });
    expect(dup.entries).toHaveLength(0);
    // Another tenant's address and this tenant's own read the same: no existence oracle across tenants (issue 11 §8).
    const own = await asAdmin(() =>
      admin.createUserAction({
        email: "analyst.kim@metro.example",
        name: "Dup",
        roles: ["investigator"],
        clearance: "CUI",
        needToKnow: "",
        password: "duplicate-password",
      }),
    );
    expect(JSON.stringify(own)).toBe(JSON.stringify(dup.result));
    await fixture().db.prisma.license.create({
      data: { id: "LIC-CYBER-PROBE", name: "Cyber only", allows: ["ANALYZE"], tenantId: "cyber-jcu" },
    });
    const otherLicense = await asAdmin(() => admin.createLicenseAction({ id: "LIC-CYBER-PROBE", name: "x", allows: ["ANALYZE"] }));
    await asAdmin(() => admin.createLicenseAction({ id: "LIC-METRO-DUP", name: "x", allows: ["ANALYZE"] }));
    const ownLicense = await asAdmin(() => admin.createLicenseAction({ id: "LIC-METRO-DUP", name: "x", allows: ["ANALYZE"] }));
    expect(otherLicense).toMatchObject({ ok: false, error: { code: "CG-INPUT-006" } });
    expect(JSON.stringify(ownLicense)).toBe(JSON.stringify(otherLicense));
    expect(JSON.stringify([dup.result, otherLicense])).not.toMatch(/exist|cyber|another tenant/i);
  });

  it("update user: one entry with before → after; no change → no entry", async () => {
    const kim = await fixture().db.prisma.user.findUniqueOrThrow({ where: { email: "analyst.kim@metro.example" } });
    const { result, entries } = await audited(() =>
      admin.updateUserAction({
        userId: kim.id,
        name: kim.name,
        roles: ["investigator", "supervisor"],
        clearance: "SECRET",
        needToKnow: ["narcotics", "financial"],
      }),
    );
    expect(result).toMatchObject({ ok: true });
    expect(entries).toHaveLength(1);
    expect(entries[0].kind).toBe("admin.user.update");
    expect(entries[0].payload.target).toMatchObject({ type: "user", id: kim.id });
    expect(entries[0].payload.before).toMatchObject({ clearance: "CUI", roles: ["investigator"], needToKnow: ["narcotics"] });
    expect(entries[0].payload.after).toMatchObject({
      clearance: "SECRET",
      roles: ["investigator", "supervisor"],
      needToKnow: ["financial", "narcotics"],
    });
    const again = await audited(() =>
      admin.updateUserAction({
        userId: kim.id,
        name: kim.name,
        roles: ["investigator", "supervisor"],
        clearance: "SECRET",
        needToKnow: ["financial", "narcotics"],
      }),
    );
    expect(again.result).toMatchObject({ ok: true });
    expect(again.entries).toHaveLength(0);
  });

  it("deactivate / reactivate / password reset / membership / token / tenant / license: one entry each", async () => {
    const kim = userIdFor("analyst.kim@metro.example");
    const steps: Array<[string, () => Promise<{ ok: boolean }>]> = [
      ["admin.user.deactivate", () => admin.setUserActiveAction({ userId: kim, active: false })],
      ["admin.user.reactivate", () => admin.setUserActiveAction({ userId: kim, active: true })],
      ["admin.user.password_reset", () => admin.resetPasswordAction({ userId: kim, password: "kim-new-password" })],
      ["admin.membership.add", () => admin.addMemberAction({ caseId: "case-ledgerline", userId: kim })],
      ["admin.membership.remove", () => admin.removeMemberAction({ caseId: "case-ledgerline", userId: kim })],
      ["admin.token.issue", () => account.createOwnTokenAction({ name: "nightly", expiresIn: "30d" })],
      ["admin.tenant.rename", () => admin.renameTenantAction({ name: "Metro PD" })],
      ["admin.tenant.hidden_counts", () => admin.setHiddenCountModeAction({ mode: "exact" })],
      ["admin.tenant.hidden_counts", () => admin.setHiddenCountModeAction({ mode: "case" })],
      [
        "admin.license.create",
        () => admin.createLicenseAction({ id: "LIC-METRO-1", name: "Metro internal", allows: ["ANALYZE", "INGEST"] }),
      ],
      ["admin.license.update", () => admin.updateLicenseAction({ id: "LIC-METRO-1", name: "Metro internal", allows: ["INGEST"] })],
    ];
    for (const [kind, step] of steps) {
      const { result, entries } = await audited(step);
      expect(result, kind).toMatchObject({ ok: true });
      expect(
        entries.map((e) => e.kind),
        kind,
      ).toEqual([kind]);
      expect(entries[0].actor_id).toBe(ADMIN_ID);
      expect(entries[0].payload.before, kind).not.toBeUndefined();
      expect(entries[0].payload.after, kind).not.toBeUndefined();
    }
    const issued = await fixture().db.prisma.apiToken.findFirstOrThrow({ where: { userId: ADMIN_ID, name: "nightly" } });
    const { result, entries } = await audited(() => admin.revokeTokenAction({ tokenId: issued.id }));
    expect(result).toMatchObject({ ok: true, data: { revoked: true } });
    expect(entries.map((e) => e.kind)).toEqual(["admin.token.revoke"]);
    // The token's secret never reaches the ledger; its hash neither.
    const all = JSON.stringify(await entriesAfter(0n), (_k, v) => (typeof v === "bigint" ? Number(v) : v));
    expect(all).not.toContain(issued.tokenHash);
    // Membership entries carry the case id as an indexed column.
    const membership = (await entriesAfter(0n)).filter((e) => e.kind.startsWith("admin.membership.") && e.actor_id === ADMIN_ID);
    expect(membership.every((e) => e.case_id === "case-ledgerline")).toBe(true);
    // Idempotent repeats write nothing.
    expect((await audited(() => admin.removeMemberAction({ caseId: "case-ledgerline", userId: kim }))).entries).toHaveLength(0);
    expect((await audited(() => admin.revokeTokenAction({ tokenId: issued.id }))).entries).toHaveLength(0);
    await asAdmin(() => admin.renameTenantAction({ name: "Metro Police Department" }));
  });

  it("the chain verifies after all of it, interleaved with other ledger writers", async () => {
    const ledger = new PrismaLedger(fixture().db.prisma);
    await ledger.append({ kind: "test.other", payload: { n: 1 }, tenantId: "metro-pd" });
    await asAdmin(() => admin.renameTenantAction({ name: "Metro PD 2" }));
    await ledger.append({ kind: "test.other", payload: { n: 2 }, tenantId: "metro-pd" });
    await asAdmin(() => admin.renameTenantAction({ name: "Metro Police Department" }));
    const report = await ledger.verify();
    expect(report).toMatchObject({ ok: true });
    expect(report.size).toBeGreaterThan(10);
  });

  it("if the ledger write fails, the change is rolled back and the admin sees CG-AUDIT-001", async () => {
    const { prisma } = fixture().db;
    await prisma.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION test_fail_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'ledger unavailable (test)'; END $$`);
    await prisma.$executeRawUnsafe(`CREATE TRIGGER test_fail_ledger BEFORE INSERT ON "ledger" FOR EACH ROW
      WHEN (NEW.kind = 'admin.tenant.rename') EXECUTE FUNCTION test_fail_ledger()`);
    try {
      const before = await prisma.tenant.findUniqueOrThrow({ where: { id: "metro-pd" } });
      const { result, entries } = await audited(() => admin.renameTenantAction({ name: "Renamed without audit" }));
      expect(result).toMatchObject({ ok: false, error: { code: "CG-AUDIT-001" } });
      expect(entries).toHaveLength(0);
      expect(await prisma.tenant.findUniqueOrThrow({ where: { id: "metro-pd" } })).toEqual(before);
    } finally {
      await prisma.$executeRawUnsafe(`DROP TRIGGER test_fail_ledger ON "ledger"`);
    }
  });

  it("tenant isolation in listings: an admin lists only their tenant's users and licenses", async () => {
    const actor = await loadActor(fixture().db.prisma, { email: "admin@metro.example" }, "session");
    const users = await listUsers(fixture().db.prisma, actor);
    expect(users.length).toBeGreaterThan(3);
    expect(users.every((u) => u.tenantId === "metro-pd")).toBe(true);
    await fixture().db.prisma.license.create({
      data: { id: "LIC-CYBER-SECRET", name: "Cyber only", allows: ["ANALYZE"], tenantId: "cyber-jcu" },
    });
    const licenses = await listLicenses(fixture().db.prisma, actor);
    expect(licenses.map((l) => l.id)).not.toContain("LIC-CYBER-SECRET");
    expect(licenses.find((l) => l.id === "LIC-INTERNAL")).toMatchObject({ shared: true });
    expect(licenses.find((l) => l.id === "LIC-METRO-1")).toMatchObject({ shared: false });
  });

  it("guard rails: no self-deactivation or self-demotion; shared licenses are read-only; other tenants' objects do not exist", async () => {
    expect(await asAdmin(() => admin.setUserActiveAction({ userId: ADMIN_ID, active: false }))).toMatchObject({
      ok: false,
      error: { code: "CG-INPUT-007" },
    });
    expect(
      await asAdmin(() =>
        admin.updateUserAction({ userId: ADMIN_ID, name: "Alex Admin", roles: ["investigator"], clearance: "SECRET", needToKnow: [] }),
      ),
    ).toMatchObject({ ok: false, error: { code: "CG-ACCESS-005" } });
    expect(await asAdmin(() => admin.updateLicenseAction({ id: "LIC-INTERNAL", name: "Mine now", allows: ["FULL_ACCESS"] }))).toMatchObject(
      { ok: false, error: { code: "CG-ACCESS-004" } },
    );
    expect(await asAdmin(() => admin.updateLicenseAction({ id: "LIC-CYBER-SECRET", name: "x", allows: [] }))).toMatchObject({
      ok: false,
      error: { code: "CG-ACCESS-003" },
    });
    expect(await asAdmin(() => admin.createLicenseAction({ id: "LIC-CYBER-SECRET", name: "x", allows: [] }))).toMatchObject({
      ok: false,
      error: { code: "CG-INPUT-006" },
    });
    const lic = await fixture().db.prisma.license.findUniqueOrThrow({ where: { id: "LIC-INTERNAL" } });
    expect(lic.allows).not.toContain("FULL_ACCESS");
    const t = await fixture().db.prisma.apiToken.create({
      data: {
        id: "tok_cyber",
        userId: userIdFor("analyst.ng@cyber.example"),
        name: "c",
        tokenHash: hashToken("x"),
        prefix: "cgt_x",
        expiresAt: new Date(Date.now() + 60_000),
      },
    });
    expect(await asAdmin(() => admin.revokeTokenAction({ tokenId: t.id }))).toMatchObject({ ok: false, error: { code: "CG-ACCESS-003" } });
    expect((await fixture().db.prisma.apiToken.findUniqueOrThrow({ where: { id: t.id } })).revokedAt).toBeNull();
  });

  it("separation of duties: an admin cannot raise themselves, grant above their own clearance, or act through someone's token", async () => {
    const { prisma } = fixture().db;
    const self = await prisma.user.findUniqueOrThrow({ where: { id: ADMIN_ID } });
    const snapshot = async () =>
      JSON.stringify(
        await prisma.user.findMany({ orderBy: { id: "asc" }, select: { id: true, clearance: true, needToKnow: true, roles: true } }),
      ) +
      JSON.stringify(await prisma.caseMember.findMany({ orderBy: [{ caseId: "asc" }, { userId: "asc" }] })) +
      (await prisma.apiToken.count());
    const before = await snapshot();
    const head0 = await head();
    // The red team's sequence: raise own clearance, add every tag, add self to the case, issue a token for an investigator.
    const attempts: Array<[string, () => Promise<unknown>, string]> = [
      [
        "own clearance",
        () =>
          admin.updateUserAction({
            userId: ADMIN_ID,
            name: self.name,
            roles: self.roles as never,
            clearance: "TS_SCI",
            needToKnow: self.needToKnow,
          }),
        "CG-ACCESS-005",
      ],
      [
        "own tags",
        () =>
          admin.updateUserAction({
            userId: ADMIN_ID,
            name: self.name,
            roles: self.roles as never,
            clearance: self.clearance as never,
            needToKnow: ["narcotics", "homicide", "informants", "financial"],
          }),
        "CG-ACCESS-005",
      ],
      [
        "own roles",
        () =>
          admin.updateUserAction({
            userId: ADMIN_ID,
            name: self.name,
            roles: ["admin", "investigator", "supervisor"],
            clearance: self.clearance as never,
            needToKnow: self.needToKnow,
          }),
        "CG-ACCESS-005",
      ],
      ["own membership", () => admin.addMemberAction({ caseId: "case-harbor", userId: ADMIN_ID }), "CG-ACCESS-005"],
      [
        "another's clearance above own",
        () =>
          admin.updateUserAction({
            userId: userIdFor("analyst.kim@metro.example"),
            name: "Kim",
            roles: ["investigator"],
            clearance: "TOP_SECRET",
            needToKnow: ["narcotics"],
          }),
        "CG-ACCESS-006",
      ],
      [
        "a new user above own",
        () =>
          admin.createUserAction({
            email: "shadow@metro.example",
            name: "Shadow",
            roles: ["investigator"],
            clearance: "TS_SCI",
            needToKnow: [],
            password: "shadow-password-1",
          }),
        "CG-ACCESS-006",
      ],
    ];
    for (const [what, attempt, code] of attempts) {
      expect(await asAdmin(attempt as () => Promise<unknown>), what).toMatchObject({ ok: false, error: { code } });
    }
    // There is no way to issue a token for someone else: the only token action issues for the caller.
    expect("issueTokenAction" in admin).toBe(false);
    expect(await snapshot()).toBe(before);
    expect(await entriesAfter(head0)).toEqual([]);
    // Changing their own name is fine; and another admin (an operator-made second admin) may raise this one — up to
    // their own clearance — which is recorded with both names.
    expect(
      await asAdmin(() =>
        admin.updateUserAction({
          userId: ADMIN_ID,
          name: "Alex Admin (renamed)",
          roles: self.roles as never,
          clearance: self.clearance as never,
          needToKnow: self.needToKnow,
        }),
      ),
    ).toMatchObject({ ok: true });
    expect(
      await asAdmin(() =>
        admin.updateUserAction({
          userId: userIdFor("analyst.kim@metro.example"),
          name: "Kim",
          roles: ["investigator"],
          clearance: "SECRET",
          needToKnow: ["narcotics"],
        }),
      ),
    ).toMatchObject({ ok: true });
    await asAdmin(() =>
      admin.updateUserAction({
        userId: userIdFor("analyst.kim@metro.example"),
        name: "Kim",
        roles: ["investigator"],
        clearance: "CUI",
        needToKnow: ["narcotics"],
      }),
    );
    await asAdmin(() =>
      admin.updateUserAction({
        userId: ADMIN_ID,
        name: self.name,
        roles: self.roles as never,
        clearance: self.clearance as never,
        needToKnow: self.needToKnow,
      }),
    );
  });

  it("the ledger entry of a token-authenticated answer names the token and its issuer", async () => {
    const { prisma } = fixture().db;
    setRequest({});
    expect(await signInAction({ email: "det.reyes@metro.example", password: "casegraph-demo" })).toMatchObject({ ok: true });
    setRequest({ cookie: [...request.cookies].map(([k, v]) => `${k}=${v}`).join("; ") });
    const issued = await account.createOwnTokenAction({ name: "reyes script", expiresIn: "1d" });
    if (!issued.ok) throw new Error(issued.error.code);
    const issueEntry = (await entriesAfter(0n)).filter((e) => e.kind === "admin.token.issue").pop()!;
    expect(issueEntry.payload.after).toMatchObject({
      id: issued.data.id,
      userEmail: "det.reyes@metro.example",
      issuer: "det.reyes@metro.example",
      onBehalf: false,
    });
    const { POST } = await import("@/app/api/graphrag/answer/route");
    const res = await POST(
      new Request("http://casegraph.test/api/graphrag/answer", {
        method: "POST",
        headers: { authorization: `Bearer ${issued.data.token}`, "content-type": "application/json" },
        body: JSON.stringify({ caseId: "case-harbor", question: "Who killed Raymond Dunn?" }),
      }),
      { params: Promise.resolve({}) } as never,
    );
    expect(res.status).toBe(200);
    const [entry] = await prisma.$queryRaw<
      Array<{ payload: any }>
    >`SELECT payload FROM "ledger" WHERE kind = 'graphrag.answer' ORDER BY seq DESC LIMIT 1`;
    expect(entry.payload).toMatchObject({ actor_via: "token", actor_token: { id: issued.data.id, issuer: "det.reyes@metro.example" } });
  });

  it("non-admins are refused every admin action (role checked on the server)", async () => {
    setRequest({});
    expect(await signInAction({ email: "sup.okafor@metro.example", password: "casegraph-demo" })).toMatchObject({ ok: true });
    const supCookie = [...request.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
    setRequest({ cookie: supCookie });
    expect(await admin.renameTenantAction({ name: "Supervisor was here" })).toMatchObject({ ok: false, error: { code: "CG-ACCESS-002" } });
  });
});

describe("CLI: user create and token create/list/revoke", () => {
  let dir = "";
  /** The CLI as operators run it; a non-zero exit rejects with the result (code, stdout, stderr). */
  const cli = async (args: string[], input?: string) => {
    const r = await runCli(args, { env: { CASEGRAPH_DATA_DIR: dir, DATABASE_URL: "", CASEGRAPH_SEED_DEMO: "never" }, input });
    if (r.code !== 0) throw r;
    return r;
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "casegraph-cli-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("creates the first admin (and their tenant), a user, and a token printed once; all audited", async () => {
    const first = await cli(
      ["user", "create", "--email", "Root@Acme.Example", "--admin", "--tenant", "acme", "--tenant-name", "Acme Unit", "--password-stdin"],
      "root-password-123\n",
    );
    expect(JSON.parse(first.stdout)).toMatchObject({ ok: true, user: { email: "root@acme.example", tenantId: "acme", roles: ["admin"] } });
    expect(first.stderr).toContain("created tenant acme");

    // A tenant that does not exist is not created by accident (usage error, exit 2).
    await expect(
      cli(["user", "create", "--email", "x@acme.example", "--tenant", "nope", "--password", "long-enough-password"]),
    ).rejects.toMatchObject({ code: 2 });

    const user = await cli([
      "user",
      "create",
      "--email",
      "ana@acme.example",
      "--tenant",
      "acme",
      "--role",
      "investigator",
      "--clearance",
      "secret",
      "--need-to-know",
      "soc,Fraud",
    ]);
    expect(JSON.parse(user.stdout)).toMatchObject({ user: { clearance: "SECRET", needToKnow: ["fraud", "soc"], roles: ["investigator"] } });
    expect(user.stderr).toMatch(/generated password \(shown once\): \S{20,}/);

    const token = await cli(["token", "create", "--user", "ana@acme.example", "--expires", "2d", "--name", "etl"]);
    const secret = token.stdout.trim();
    expect(secret).toMatch(/^cgt_[A-Za-z0-9_-]{43}$/);
    const meta = JSON.parse(token.stderr.trim().split("\n").pop()!);
    expect(new Date(meta.expiresAt).getTime() - Date.now()).toBeGreaterThan(47 * 3_600_000);

    const list = await cli(["token", "list", "--user", "ana@acme.example"]);
    expect(list.stdout).not.toContain(secret);
    expect(JSON.parse(list.stdout.trim())).toMatchObject({
      id: meta.id,
      status: "active",
      prefix: secret.slice(0, 12),
      createdBy: expect.stringMatching(/^cli:/),
    });

    const revoke = await cli(["token", "revoke", meta.id]);
    expect(JSON.parse(revoke.stdout)).toMatchObject({ ok: true, revoked: true });

    const db = await openDatabase({ dataDir: path.join(dir, "pglite"), migrate: false });
    try {
      const kinds = await db.prisma.$queryRaw<
        Array<{ kind: string; actor_id: string | null }>
      >`SELECT kind, actor_id FROM "ledger" ORDER BY seq`;
      expect(kinds.map((k) => k.kind)).toEqual([
        "admin.tenant.create",
        "admin.user.create",
        "admin.user.create",
        "admin.token.issue",
        "admin.token.revoke",
      ]);
      expect(kinds.every((k) => k.actor_id === null)).toBe(true);
      const row = await db.prisma.apiToken.findUniqueOrThrow({ where: { id: meta.id } });
      expect(row.tokenHash).toBe(hashToken(secret));
      expect(row.revokedAt).not.toBeNull();
      expect(await new PrismaLedger(db.prisma).verify()).toMatchObject({ ok: true, size: 5 });
    } finally {
      await db.close();
    }
  }, 400_000); // Seven CLI processes, each opening and migrating the data folder: slow on a busy 2-core machine.
});
