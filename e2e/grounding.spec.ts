// Issue 15: an admin revokes an evidence item; the investigator's earlier answer that cited it is flagged in their
// question history ("cites evidence revoked on … (reason)"), and asking again gives a fresh answer without it.
// Uses case-ledgerline (lead.park), which the other specs leave alone.
import { expect, test } from "@playwright/test";
import { open, shot, signIn, signOut } from "./fixtures";
import { WorkbenchPage } from "./pages/workbench";

const CASE = "case-ledgerline";
const QUESTION = "Who won contract PW-2024-117 and what were the bids?";
const REASON = "withdrawn by the source";

test("revoked evidence: the earlier answer is flagged, asking again answers afresh without it", async ({ page }) => {
  await signIn(page, "lead.park@metro.example");
  const wb = new WorkbenchPage(page);
  await wb.goto(CASE);
  await wb.ask(QUESTION);
  expect(await wb.responseType()).toBe("answer");
  const provenance = page.getByTestId("provenance");
  await expect(provenance).toHaveAttribute("data-mode", "normal");
  const sources = ((await page.getByTestId("provenance-sources").textContent()) ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  expect(sources.length).toBeGreaterThan(0);
  const revoked = sources[0];
  await signOut(page);

  await signIn(page, "admin@metro.example");
  await open(page, "/admin/grounding");
  const form = page.getByTestId("revoke-evidence-form");
  await form.getByLabel("Case").selectOption(CASE);
  await form.getByLabel("Evidence id").fill(revoked);
  await form.getByLabel("Reason").fill(REASON);
  await form.getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByText(`${revoked} revoked`)).toBeVisible();
  await shot(page, "grounding-01-revoked");
  await signOut(page);

  await signIn(page, "lead.park@metro.example");
  await wb.goto(CASE);
  await page.getByTestId("tab-history").click();
  const entry = page.getByTestId("history-entry").filter({ hasText: QUESTION }).first();
  await expect(entry.getByTestId("revoked-flag")).toContainText(`cites evidence revoked on`);
  await expect(entry.getByTestId("revoked-flag")).toContainText(`(${REASON}): ${revoked}`);
  await shot(page, "grounding-02-history-flag");

  // Asking again: reuse is denied (a cited item is revoked), the fresh answer does not cite it.
  await wb.ask(QUESTION);
  await expect(page.getByTestId("provenance")).toHaveAttribute("data-mode", "normal");
  const fresh = ((await page.getByTestId("provenance-sources").textContent()) ?? "").split(",").map((s) => s.trim());
  expect(fresh).not.toContain(revoked);
  await expect(wb.chips.filter({ hasText: revoked })).toHaveCount(0);
  await shot(page, "grounding-03-fresh-answer");
});
