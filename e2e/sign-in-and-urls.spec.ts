// The newcomer's and the attacker's view of the front door (issue 11 §9, §12, §16): sign-in works without JavaScript as
// a POST and never puts the password in a URL; `/` shows nothing to an anonymous visitor and sends a signed-in user to
// their home; and hostile URLs get coded 400/404s, never a stack, a SQL error or a file path.
import { expect, test } from "@playwright/test";
import { DEMO_PASSWORD, shot } from "./fixtures";

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the sign-in form posts, signs in, and the password never appears in a URL", async ({ page }) => {
    const urls: string[] = [];
    page.on("request", (r) => urls.push(r.url()));
    await page.goto("/login");
    const form = page.getByTestId("login-form");
    await expect(form).toHaveAttribute("method", /post/i);
    await page.getByLabel("Email").fill("det.reyes@metro.example");
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("current-user")).toContainText("det.reyes@metro.example");
    await expect(page).toHaveURL(/\/cases$/);
    expect(urls.filter((u) => u.includes(encodeURIComponent(DEMO_PASSWORD)) || u.includes(DEMO_PASSWORD))).toEqual([]);
    await shot(page, "nojs-01-signed-in");
  });

  test("a wrong password shows the generic error, still without JavaScript", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Email").fill("det.reyes@metro.example");
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "CG-AUTH-006" })).toContainText("Invalid email or password.");
    expect(page.url()).not.toContain("not-the-password");
  });
});

test("`/` sends an anonymous visitor to sign-in and shows no counts; a signed-in user to their home by role", async ({ page, request }) => {
  const anon = await request.get("/", { maxRedirects: 0 });
  expect([303, 307, 308]).toContain(anon.status());
  expect(anon.headers()["location"]).toMatch(/\/login$/);
  expect(await anon.text()).not.toMatch(/tenants|users|cases/i);
  for (const [email, home] of [
    ["det.reyes@metro.example", "/cases"],
    ["sup.okafor@metro.example", "/audit"],
    ["admin@metro.example", "/admin"],
  ] as const) {
    await page.context().clearCookies();
    await page.goto("/login");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(new RegExp(`${home.replace("/", "\\/")}(\\/users)?$`));
    await page.goto("/");
    await expect(page).toHaveURL(new RegExp(`${home.replace("/", "\\/")}(\\/users)?$`));
  }
});

test("hostile URLs get coded 400/404 responses with no stack, SQL or path, signed in or not", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill("lead.park@metro.example");
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("current-user")).toBeVisible();
  const long = "x".repeat(600);
  const probes = [
    "/cases/%00",
    "/cases/%E0%A4%A",
    `/cases/${long}`,
    "/cases/no-such-case",
    "/cases/case-harbor%0A",
    "/audit/99999999999999999999",
    "/audit/-1",
    "/audit/abc",
    "/audit/0",
    "/audit?user=%00",
    "/audit?before=99999999999999999999",
    "/audit?case=%0D%0A",
    "/admin/users/%00",
    "/admin/users/nope",
    `/admin/users/${long}`,
    "/api/graphrag/health?x=%00",
    "/api/me/%00",
    "/api/audit/checkpoint?size=%00",
    "/api/audit/proof/inclusion?seq=99999999999999999999&size=1",
    "/api/audit/proof/consistency?from=-1&to=abc",
    "/login?next=%00",
    "/nope%00",
  ];
  for (const path of probes) {
    const res = await page.request.get(path, { maxRedirects: 0 });
    const body = await res.text();
    expect([400, 404], `${path} → ${res.status()}`).toContain(res.status());
    expect(body, path).not.toMatch(/prisma|PrismaClient|\/work\/|node_modules|\bat [A-Za-z.]+ \(|SELECT |invalid byte sequence/i);
    if (res.status() === 400) expect(body, path).toMatch(/CG-INPUT-\d{3}/);
    else expect(body, path).toMatch(/CG-ACCESS-\d{3}|CG-INPUT-\d{3}/);
  }
});
