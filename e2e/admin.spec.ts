// Acceptance 4: an admin signs in, creates a user, sets clearance and tags, adds them to a case; that user signs in,
// sees only that case and creates their own API token (admins never issue tokens for someone else: issue 11 §2).
import { expect, test } from "@playwright/test";
import { open, shot, signIn, signOut } from "./fixtures";

test("admin onboards an investigator who then sees only their case", async ({ page, request }) => {
  const stamp = Date.now().toString(36);
  const email = `e2e.${stamp}@metro.example`;
  const password = `e2e-password-${stamp}`;

  // The admin signs in and opens Admin → Users.
  await signIn(page, "admin@metro.example");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin" })).toBeVisible();
  await shot(page, "01-admin-signed-in");
  // An admin's home is the admin area (issue 11 §16).
  await expect(page).toHaveURL(/\/admin/);
  await open(page, "/admin/users");
  await expect(page.getByRole("heading", { name: "Users" })).toBeVisible();

  // zod field errors show at the fields.
  const form = page.getByTestId("create-user-form");
  await form.getByLabel("Email").fill("not-an-email");
  await form.getByLabel("Initial password").fill("short");
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(form.locator('[data-field-error="new-email"]')).toBeVisible();
  await expect(form.locator('[data-field-error="new-password"]')).toContainText("12");
  await expect(form.locator('[data-field-error="new-clearance"]')).toBeVisible();
  await shot(page, "02-create-user-field-errors");

  // Create the user: investigator, CUI at first, one tag.
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Name").fill(`E2E Investigator ${stamp}`);
  await form.getByLabel("Clearance").selectOption("CUI");
  await form.getByLabel("Need-to-know tags").fill("narcotics");
  await form.getByLabel("Initial password").fill(password);
  await form.getByRole("button", { name: "Create user" }).click();
  await expect(page.getByText(`Created ${email}.`)).toBeVisible();
  const row = page.getByTestId(`user-row-${email}`);
  await expect(row).toContainText("CUI");
  await shot(page, "03-user-created");

  // Set clearance and need-to-know tags on the user's page.
  await row.getByRole("link").click();
  const edit = page.getByTestId("edit-user-form");
  await edit.getByLabel("Clearance").selectOption("SECRET");
  await edit.getByLabel("Need-to-know tags").fill("narcotics, homicide");
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByText("Saved. The change applies to the user's next request.")).toBeVisible();
  await page.reload();
  await expect(page.getByTestId("edit-user-form").getByLabel("Clearance")).toHaveValue("SECRET");
  await expect(page.getByTestId("edit-user-form").getByLabel("Need-to-know tags")).toHaveValue("homicide, narcotics");
  await shot(page, "04-clearance-and-tags-set");

  // Add them to Operation Harbor Light.
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "Case membership" }).click();
  const add = page.getByTestId("add-member-case-harbor");
  await add.getByRole("combobox").selectOption({ label: `E2E Investigator ${stamp} (${email})` });
  await add.getByRole("button", { name: "Add" }).click();
  await expect(page.getByTestId(`member-case-harbor-${email}`)).toBeVisible();
  await expect(page.getByTestId(`member-case-ledgerline-${email}`)).toHaveCount(0);
  await shot(page, "05-added-to-case");

  // The admin's own account: only the name can change (separation of duties), and clearances above the admin's own
  // are not offered.
  await page.goto("/admin/users");
  await page.getByTestId("user-row-admin@metro.example").getByRole("link").click();
  await expect(page.getByTestId("own-permissions-note")).toBeVisible();
  await expect(page.getByTestId("edit-user-form").getByLabel("Clearance")).toBeDisabled();
  await shot(page, "05b-own-permissions-read-only");

  // The API tokens page lists and revokes; it issues none (tokens are created by their owner).
  await page.getByRole("navigation", { name: "Admin" }).getByRole("link", { name: "API tokens" }).click();
  await expect(page.getByTestId("create-token-form")).toHaveCount(0);

  // The new user signs in and sees exactly one case.
  await signOut(page);
  await signIn(page, email, password);
  await expect(page).toHaveURL(/\/cases$/);
  const cases = page.getByTestId("case-list").locator("li");
  await expect(cases).toHaveCount(1);
  await expect(page.getByTestId("case-case-harbor")).toBeVisible();
  await expect(page.getByTestId("case-case-ledgerline")).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Admin" })).toHaveCount(0);
  await shot(page, "07-investigator-sees-only-their-case");

  // They create their own API token on their account page: shown once.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Account" }).click();
  const create = page.getByTestId("create-token-form");
  await create.getByLabel("Name").fill("e2e script");
  await create.getByLabel("Expires in").selectOption("7d");
  await create.getByRole("button", { name: "Create token" }).click();
  const secret = (await page.getByTestId("token-secret").textContent())?.trim() ?? "";
  expect(secret).toMatch(/^cgt_[A-Za-z0-9_-]{43}$/);
  await expect(page.getByTestId("tokens-table")).toContainText(secret.slice(0, 12));
  await expect(page.getByTestId("tokens-table")).not.toContainText(secret);
  await shot(page, "06-token-issued-once");
  // Once means once: after a reload only the prefix is left.
  await page.reload();
  await expect(page.getByTestId("issued-token")).toHaveCount(0);
  expect(await page.content()).not.toContain(secret);

  // The token authenticates the HTTP API as that user, with the user's current clearance and tags.
  const me = await request.get("/api/me", { headers: { Authorization: `Bearer ${secret}` } });
  expect(me.status()).toBe(200);
  expect(await me.json()).toMatchObject({
    email,
    clearance: "SECRET",
    needToKnow: ["homicide", "narcotics"],
    roles: ["investigator"],
    via: "token",
  });
  expect((await request.get("/api/me")).status()).toBe(401);

  // Destructive actions ask first: revoking a second token goes through a confirmation dialog, then it stops working.
  const create2 = page.getByTestId("create-token-form");
  await create2.getByLabel("Name").fill("to revoke");
  await create2.getByRole("button", { name: "Create token" }).click();
  const doomed = (await page.getByTestId("token-secret").textContent())?.trim() ?? "";
  expect((await request.get("/api/me", { headers: { Authorization: `Bearer ${doomed}` } })).status()).toBe(200);
  await page.reload();
  const doomedRow = page.getByTestId("tokens-table").getByRole("row").filter({ hasText: "to revoke" });
  await doomedRow.getByRole("button", { name: "Revoke" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText('Revoke "to revoke"?');
  await shot(page, "06b-revoke-confirmation");
  await dialog.getByRole("button", { name: "Revoke" }).click();
  await expect(doomedRow).toContainText("revoked");
  expect((await request.get("/api/me", { headers: { Authorization: `Bearer ${doomed}` } })).status()).toBe(401);
  expect((await request.get("/api/me", { headers: { Authorization: `Bearer ${secret}` } })).status()).toBe(200);

  // And the admin area does not exist for them.
  const admin = await page.goto("/admin/users");
  expect(admin?.status()).toBe(404);
});

test("sign-in errors are generic and the login page has no sign-up", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("Email").fill("nobody@metro.example");
  await page.getByLabel("Password").fill("wrong-password-123");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "CG-AUTH-006" })).toContainText("Invalid email or password.");
  await expect(page.getByRole("link", { name: /sign up/i })).toHaveCount(0);
  await shot(page, "08-login-generic-error");
});
