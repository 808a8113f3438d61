// Security headers on the production build (`next start`): CSP without unsafe-eval, frame-ancestors 'none',
// Referrer-Policy, nosniff, on pages, API errors and the auth handler alike.
import { expect, test } from "@playwright/test";

for (const path of ["/login", "/api/me", "/api/graphrag/health", "/api/auth/get-session"]) {
  test(`security headers on ${path}`, async ({ request }) => {
    const res = await request.get(path, { maxRedirects: 0 });
    const h = res.headers();
    const csp = h["content-security-policy"] ?? "";
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("unsafe-eval");
    expect(h["x-content-type-options"]).toBe("nosniff");
    expect(h["referrer-policy"]).toBe("no-referrer");
    expect(h["x-frame-options"]).toBe("DENY");
    expect(h["x-powered-by"]).toBeUndefined();
  });
}

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
