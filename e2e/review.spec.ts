// Issue 14: answer policies end to end in the browser. An admin compiles the demo policies in the policy editor
// (conflicts shown in plain words) and activates them; an investigator's answer naming a protected juvenile is held
// (the asker sees only the holding reply); a supervisor reads the draft with the violation marked, approves it with a
// note; the investigator then finds the answer in their history, marked as reviewed.
import { expect, test } from "@playwright/test";
import { open, shot, signIn, signOut } from "./fixtures";
import { WorkbenchPage } from "./pages/workbench";

const QUESTION = "What did Lydia Dunn tell detectives about her brother Raymond Dunn?";

test("answer policies: compile, activate, escalate, review, deliver", async ({ page }) => {
  // The admin compiles the editor's policies (the demo's, offered until the tenant has its own) and activates them.
  await signIn(page, "admin@metro.example");
  await open(page, "/admin/policies");
  await expect(page.getByRole("heading", { name: "Answer policies" })).toBeVisible();
  const editor = page.getByTestId("policy-editor");
  await expect(editor).toContainText("MPD-JUV-001");
  // A broken line is reported with its line number before anything is sent.
  const text = await editor.inputValue();
  await editor.fill(`${text}{"policy_id":"BROKEN"}\n`);
  await expect(page.locator("#policy-problems")).toContainText(/line \d+: \$\.conditions/);
  await expect(page.getByTestId("compile-policies")).toBeDisabled();
  await editor.fill(text);
  await page.getByTestId("compile-policies").click();
  await expect(page.getByText(/Compiled: 9 policies, 10 rules, 2 conflict\(s\)/)).toBeVisible();
  await expect(
    page.getByText(/MPD-FIN-003 requires that the answer state an amount of money, while MPD-FIN-002 prohibits it/),
  ).toBeVisible();
  await expect(page.getByText(/Equal priority: escalated to Family Liaison Unit and Victim Services Office/)).toBeVisible();
  await page.getByTestId("activate-bundle").first().click();
  await expect(page.getByTestId("active-bundle")).toBeVisible();
  await shot(page, "pol-01-bundle-active");
  await signOut(page);

  // The investigator asks; the answer names a protected juvenile, so it is held.
  await signIn(page, "det.reyes@metro.example");
  const wb = new WorkbenchPage(page);
  await wb.goto("case-harbor");
  await wb.ask(QUESTION);
  expect(await wb.responseType()).toBe("escalated");
  const banner = page.getByTestId("banner-escalated");
  await expect(banner).toContainText("held for a supervisor's review");
  await expect(wb.answer).not.toContainText("Lydia Dunn told");
  await page.getByTestId("tab-history").click();
  await expect(page.getByTestId("held-answers")).toContainText("pending review");
  await shot(page, "pol-02-held");
  await signOut(page);

  // A supervisor reviews: the violation is marked; approving needs a note.
  await signIn(page, "sup.okafor@metro.example");
  await open(page, "/audit/reviews?status=pending");
  await page.getByTestId("review-table").getByRole("link", { name: QUESTION }).first().click();
  await page.locator('html[data-hydrated="true"]').waitFor({ state: "attached" });
  await expect(page.getByTestId("review-question")).toContainText(QUESTION);
  await expect(page.getByTestId("violation-hit").first()).toContainText("Lydia Dunn");
  await expect(page.getByTestId("review-violations")).toContainText("MPD-JUV-001");
  await page.getByTestId("approve-review").click();
  await expect(page.getByText("Say why the answer may be delivered.")).toBeVisible();
  await page.getByTestId("review-note").fill("Lydia Dunn is an adult witness now; the juvenile rule does not apply.");
  await page.getByTestId("approve-review").click();
  await expect(page.getByText("Approved by sup.okafor@metro.example")).toBeVisible();
  await shot(page, "pol-03-approved");
  await signOut(page);

  // The investigator finds the answer in their history, marked as reviewed.
  await signIn(page, "det.reyes@metro.example");
  await wb.goto("case-harbor");
  await page.getByTestId("tab-history").click();
  const held = page.getByTestId("held-answers");
  await expect(held).toContainText("reviewed");
  await expect(held.getByTestId("reviewed-answer")).toContainText("Lydia");
  await shot(page, "pol-04-delivered");
  await signOut(page);

  // The admin deactivates the bundle (the other specs run without answer policies).
  await signIn(page, "admin@metro.example");
  await open(page, "/admin/policies");
  await page.getByTestId("deactivate-bundle").click();
  await page.getByTestId("deactivate-bundle-confirm").click();
  await expect(page.getByText("No bundle is active")).toBeVisible();
});
