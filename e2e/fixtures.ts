// Shared helpers for the e2e specs: sign-in through the real login page and named screenshots kept as artifacts.
import path from "node:path";
import { expect, type Page } from "@playwright/test";

export const DEMO_PASSWORD = "casegraph-demo";
export const SHOTS = path.resolve("e2e/artifacts/screenshots");

export async function shot(page: Page, name: string) {
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** Opens a page and waits until React has hydrated it (components/hydrated.tsx): forms then run their handlers. */
export async function open(page: Page, url: string) {
  await page.goto(url);
  await page.locator('html[data-hydrated="true"]').waitFor({ state: "attached" });
}

export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await open(page, "/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("current-user")).toContainText(email);
  await page.locator('html[data-hydrated="true"]').waitFor({ state: "attached" });
}

export async function signOut(page: Page) {
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/login/);
}
