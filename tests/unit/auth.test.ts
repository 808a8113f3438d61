import { describe, expect, it } from "vitest";
import { bearerFrom, hashToken, newTokenSecret, parseDuration } from "@/lib/auth/tokens";
import { assertSameOrigin } from "@/lib/auth/origin";
import { safeNextPath } from "@/lib/auth/paths";
import { tagsSchema } from "@/lib/admin/fields.validation";
import { licenseInput } from "@/lib/admin/licenses.validation";
import { createUserInput } from "@/lib/admin/users.validation";
import { fieldErrors } from "@/components/ui/field";
import { CasegraphError } from "@/lib/domain/failure-codes";

const hdrs = (o: Record<string, string>) => new Headers(o);

describe("API token helpers", () => {
  it("secrets are 256-bit, prefixed, and distinct; the hash is sha256 hex", () => {
    const a = newTokenSecret();
    const b = newTokenSecret();
    expect(a).toMatch(/^cgt_[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("parses expiries and refuses nonsense and more than a year", () => {
    expect(parseDuration("7d")).toBe(7 * 86_400_000);
    expect(parseDuration("12h")).toBe(12 * 3_600_000);
    expect(parseDuration("30m")).toBe(30 * 60_000);
    expect(parseDuration("1y")).toBe(365 * 86_400_000);
    for (const bad of ["", "0d", "366d", "2y", "7", "d", "-1d", "1.5d", "7 days"]) expect(parseDuration(bad), bad).toBeNull();
  });

  it("reads Bearer tokens only", () => {
    expect(bearerFrom(null)).toBeNull();
    expect(bearerFrom("Bearer abc")).toBe("abc");
    expect(bearerFrom("bearer abc")).toBe("abc");
    expect(() => bearerFrom("Basic abc")).toThrow(expect.objectContaining({ code: "CG-AUTH-002" }));
    expect(() => bearerFrom("Bearer")).toThrow(expect.objectContaining({ code: "CG-AUTH-002" }));
    expect(() => bearerFrom("Bearer a b")).toThrow(expect.objectContaining({ code: "CG-AUTH-002" }));
  });
});

describe("same-origin check", () => {
  const host = { host: "app.test:3000" };
  it("accepts the request's own host when no public origin is configured; forwarded headers are not trusted", () => {
    expect(() => assertSameOrigin(hdrs({ ...host, origin: "http://app.test:3000" }))).not.toThrow();
    // Behind a proxy, BETTER_AUTH_URL names the public origin (tests/unit/origin.test.ts); X-Forwarded-Host never does.
    expect(() =>
      assertSameOrigin(hdrs({ host: "internal:3000", "x-forwarded-host": "public.example", origin: "https://public.example" })),
    ).toThrow(expect.objectContaining({ code: "CG-AUTH-005" }));
  });
  it.each([
    ["missing", {}],
    ["empty", { origin: "" }],
    ["null", { origin: "null" }],
    ["foreign", { origin: "https://evil.example" }],
    ["other port", { origin: "http://app.test:4000" }],
    ["suffix look-alike", { origin: "http://app.test:3000.evil.example" }],
    ["not a URL", { origin: "app.test:3000" }],
    ["file scheme", { origin: "file:///etc/passwd" }],
  ])("refuses a %s Origin with CG-AUTH-005", (_label, o) => {
    expect(() => assertSameOrigin(hdrs({ ...host, ...o }))).toThrow(expect.objectContaining({ code: "CG-AUTH-005" }));
  });
});

describe("post-sign-in redirect", () => {
  it("follows same-site paths only", () => {
    expect(safeNextPath("/admin/users?x=1")).toBe("/admin/users?x=1");
    for (const bad of [
      "https://evil.example",
      "//evil.example",
      "/\\evil.example",
      "javascript:alert(1)",
      "/a\r\nSet-Cookie: x",
      undefined,
      42,
      "",
    ]) {
      expect(safeNextPath(bad), String(bad)).toBe("/");
    }
  });
});

describe("admin input schemas", () => {
  it("normalises tags: lower case, unique, sorted; list or text", () => {
    expect(tagsSchema.parse("Narcotics, homicide  narcotics")).toEqual(["homicide", "narcotics"]);
    expect(tagsSchema.parse(["B", "a"])).toEqual(["a", "b"]);
    expect(tagsSchema.parse("")).toEqual([]);
    expect(tagsSchema.safeParse("ok, not valid!").success).toBe(false);
  });

  it("reports every bad field of a new user, by path", () => {
    const r = createUserInput.safeParse({
      email: "x",
      name: " ",
      roles: ["wizard"],
      clearance: "ULTRA",
      needToKnow: "",
      password: "short",
    });
    expect(r.success).toBe(false);
    const errors = fieldErrors(r.error!.issues.map((i) => ({ path: i.path.join("."), message: i.message })));
    expect(Object.keys(errors).sort()).toEqual(["clearance", "email", "name", "password", "roles"]);
    expect(errors.password).toContain("12");
  });

  it("accepts a valid user and a valid license", () => {
    expect(
      createUserInput.parse({
        email: " A@B.Example ",
        name: "A",
        roles: ["admin", "admin"],
        clearance: "SECRET",
        password: "twelve-chars",
      }),
    ).toMatchObject({ email: "a@b.example", roles: ["admin"], needToKnow: [] });
    expect(licenseInput.parse({ id: "LIC-1", name: "One", allows: ["INGEST", "ANALYZE", "INGEST"] }).allows).toEqual(["ANALYZE", "INGEST"]);
    expect(licenseInput.safeParse({ id: "bad id", name: "x", allows: [] }).success).toBe(false);
  });
});

describe("loading an actor", () => {
  it("a database that does not answer is CG-SYS-001, with no driver text", async () => {
    const { loadActor } = await import("@/lib/auth/actor");
    const dead = {
      $queryRaw: () => Promise.reject(Object.assign(new Error("Can't reach database server at 127.0.0.1:5999"), { code: "P1001" })),
    };
    const err = await loadActor(dead as never, { email: "det.reyes@metro.example" }, "cli").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CasegraphError);
    expect((err as CasegraphError).toJSON()).toEqual({ error: { code: "CG-SYS-001", message: "The database is unavailable." } });
  });
});
