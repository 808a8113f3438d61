// The Origin check (issue 11 §13): a state-changing request must come from this app's own origin, compared whole —
// scheme, host and port. With a public origin configured (BETTER_AUTH_URL, required in production) only it and
// CASEGRAPH_TRUSTED_ORIGINS count, whatever Host or X-Forwarded-* say; without one (development) the request's own
// Host over http. Forwarded headers are never trusted.
import { afterEach, describe, expect, it, vi } from "vitest";

async function check(env: Record<string, string>, headers: Record<string, string>): Promise<string | null> {
  vi.resetModules();
  for (const [k, v] of Object.entries({ BETTER_AUTH_URL: "", CASEGRAPH_TRUSTED_ORIGINS: "", ...env })) vi.stubEnv(k, v);
  const { assertSameOrigin } = await import("@/lib/auth/origin");
  try {
    assertSameOrigin(new Headers(headers));
    return null;
  } catch (err) {
    return (err as { code: string }).code;
  }
}

describe("assertSameOrigin", () => {
  afterEach(() => vi.unstubAllEnvs());

  it("with a configured public origin: only it (and the trusted list), whole", async () => {
    const env = { BETTER_AUTH_URL: "https://casegraph.example", CASEGRAPH_TRUSTED_ORIGINS: "https://ops.example:8443" };
    expect(await check(env, { origin: "https://casegraph.example", host: "internal:3000" })).toBeNull();
    expect(await check(env, { origin: "https://ops.example:8443", host: "internal:3000" })).toBeNull();
    expect(await check(env, { origin: "http://casegraph.example", host: "casegraph.example" })).toBe("CG-AUTH-005"); // scheme
    expect(await check(env, { origin: "https://casegraph.example:444", host: "casegraph.example" })).toBe("CG-AUTH-005"); // port
    expect(await check(env, { origin: "https://ops.example", host: "casegraph.example" })).toBe("CG-AUTH-005");
    // Host and forwarded headers cannot add an origin when one is configured.
    expect(await check(env, { origin: "http://internal:3000", host: "internal:3000" })).toBe("CG-AUTH-005");
    expect(
      await check(env, {
        origin: "https://evil.example",
        host: "evil.example",
        "x-forwarded-host": "evil.example",
        "x-forwarded-proto": "https",
      }),
    ).toBe("CG-AUTH-005");
  });

  it("without one: the request's own host over http, nothing forwarded", async () => {
    expect(await check({}, { origin: "http://127.0.0.1:3000", host: "127.0.0.1:3000" })).toBeNull();
    expect(await check({}, { origin: "http://localhost:3000", host: "localhost:3000" })).toBeNull();
    expect(await check({}, { origin: "https://localhost:3000", host: "localhost:3000" })).toBe("CG-AUTH-005");
    expect(await check({}, { origin: "http://localhost:3000", host: "127.0.0.1:3000" })).toBe("CG-AUTH-005");
    expect(
      await check(
        {},
        { origin: "https://app.example", host: "internal:3000", "x-forwarded-host": "app.example", "x-forwarded-proto": "https" },
      ),
    ).toBe("CG-AUTH-005");
    expect(await check({}, { origin: "http://a.example", host: "a.example, b.example" })).toBe("CG-AUTH-005");
    for (const origin of ["null", "", "file://", "javascript:alert(1)"])
      expect(await check({}, { origin, host: "localhost:3000" })).toBe("CG-AUTH-005");
    expect(await check({}, { host: "localhost:3000" })).toBe("CG-AUTH-005");
  });
});
