// Security headers on the production build (`next start`): a per-request nonce CSP on pages (no 'unsafe-inline' or
// 'unsafe-eval' for scripts), a no-script CSP on API responses, frame-ancestors 'none', Referrer-Policy, nosniff.
import { expect, test } from "@playwright/test";

for (const path of ["/login", "/api/me", "/api/graphrag/health", "/api/auth/get-session"]) {
  test(`security headers on ${path}`, async ({ request }) => {
    const res = await request.get(path, { maxRedirects: 0 });
    const h = res.headers();
    const csp = h["content-security-policy"] ?? "";
    const script =
      csp
        .split(";")
        .map((d) => d.trim())
        .find((d) => d.startsWith("script-src")) ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("unsafe-eval");
    expect(script).not.toContain("unsafe-inline");
    if (path.startsWith("/api/")) expect(script).toBe("script-src 'none'");
    else expect(script).toMatch(/^script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'$/);
    expect(h["x-content-type-options"]).toBe("nosniff");
    expect(h["referrer-policy"]).toBe("same-origin");
    expect(h["x-frame-options"]).toBe("DENY");
    expect(h["x-powered-by"]).toBeUndefined();
  });
}

test("each page load gets a fresh nonce, carried by the page's own scripts", async ({ request, page }) => {
  const nonceOf = (csp: string) => /'nonce-([^']+)'/.exec(csp)?.[1];
  const a = nonceOf((await request.get("/login")).headers()["content-security-policy"] ?? "");
  const b = nonceOf((await request.get("/login")).headers()["content-security-policy"] ?? "");
  expect(a).toBeTruthy();
  expect(a).not.toBe(b);
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
  });
  const res = await page.goto("/login");
  const nonce = nonceOf(res?.headers()["content-security-policy"] ?? "");
  const scripts = await page.locator("script").evaluateAll((els) => els.map((e) => (e as HTMLScriptElement).nonce));
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.every((n) => n === nonce)).toBe(true);
  // The page is alive (hydrated) under the policy: no violation reported.
  await page.getByLabel("Email").fill("x");
  expect(violations).toEqual([]);
});

test("get-session does not exist: the session token never reaches page scripts", async ({ request }) => {
  expect((await request.get("/api/auth/get-session")).status()).toBe(404);
});

test("signed-out visitors are sent to the login page, and API calls get a coded 401", async ({ request }) => {
  const page = await request.get("/admin/users", { maxRedirects: 0 });
  expect(page.status()).toBe(307);
  expect(page.headers()["location"]).toMatch(/\/login\?next=%2Fadmin%2Fusers$/);
  const api = await request.get("/api/me");
  expect(api.status()).toBe(401);
  expect(await api.json()).toEqual({ error: { code: "CG-AUTH-001", message: "Sign-in required." } });
});

test("the session cookie is HttpOnly and SameSite=Lax", async ({ page, context }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill("analyst.kim@metro.example");
  await page.getByLabel("Password").fill("casegraph-demo");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("current-user")).toBeVisible();
  const cookie = (await context.cookies()).find((c) => c.name.endsWith("casegraph.session_token"));
  expect(cookie).toBeDefined();
  expect(cookie!.httpOnly).toBe(true);
  expect(cookie!.sameSite).toBe("Lax");
});
