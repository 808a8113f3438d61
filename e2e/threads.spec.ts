// Issue 18: an investigator asks, follows up twice ("he", "that number" read against what the earlier answers cited),
// reloads, and finds the thread in the case page's history with its three turns; renames it and closes it.
import { expect, test } from "@playwright/test";
import { shot, signIn } from "./fixtures";
import { WorkbenchPage } from "./pages/workbench";

const HARBOR = "case-harbor";

test("ask, follow up twice, reload: the thread is there with its turns", async ({ page }) => {
  await signIn(page, "det.reyes@metro.example");
  const wb = new WorkbenchPage(page);
  await wb.goto(HARBOR);

  await wb.ask("Who drives the black Tahoe HBR-4471?");
  expect(await wb.responseType()).toBe("answer");
  const line = page.getByTestId("answer-thread");
  await expect(line).toContainText("Starts a new thread");
  const threadId = (await line.getAttribute("data-thread-id")) ?? "";
  expect(threadId).toMatch(/^[0-9a-f-]{36}$/);
  await expect(wb.answerText).toContainText("Dmitri Kovac");

  // Follow up once: "him" is the person the first answer named.
  await page.getByTestId("follow-up").click();
  await expect(page.getByTestId("follow-up-banner")).toHaveAttribute("data-thread-id", threadId);
  await wb.ask("Which prepaid number is attributed to him?");
  expect(await wb.responseType()).toBe("answer");
  await expect(line).toHaveAttribute("data-thread-id", threadId);
  await expect(line).toContainText("turn 2");
  await expect(page.getByTestId("answer-reading")).toContainText("Which prepaid number is attributed to Dmitri Kovac?");
  await expect(wb.chips.filter({ hasText: "EV-C-005" }).first()).toBeVisible();
  await shot(page, "threads-01-follow-up");

  // And again: "that number" is the phone the second answer cited.
  await page.getByTestId("follow-up").click();
  await wb.ask("Who did that number call on 12 April?");
  expect(await wb.responseType()).toBe("answer");
  await expect(line).toContainText("turn 3");
  await expect(page.getByTestId("answer-reading")).toContainText("Who did +1-555-0178 call on 12 April?");
  await expect(wb.chips.filter({ hasText: "EV-C-006" }).first()).toBeVisible();

  // Reload: the thread is in the history, with its three turns as asked.
  await page.reload();
  await wb.waitForGraph();
  await page.getByTestId("tab-history").click();
  const thread = page.locator(`[data-testid="thread"][data-thread-id="${threadId}"]`);
  await expect(thread).toHaveAttribute("data-turns", "3");
  await expect(thread.getByTestId("thread-title")).toHaveText("Who drives the black Tahoe HBR-4471?");
  await thread.locator("summary").click();
  const turns = thread.getByTestId("thread-turn");
  await expect(turns).toHaveCount(3);
  await expect(turns.nth(0).getByTestId("thread-turn-question")).toHaveText("Who drives the black Tahoe HBR-4471?");
  await expect(turns.nth(1).getByTestId("thread-turn-question")).toHaveText("Which prepaid number is attributed to him?");
  await expect(turns.nth(1).getByTestId("thread-turn-reading")).toContainText("Dmitri Kovac");
  await expect(turns.nth(2).getByTestId("thread-turn-question")).toHaveText("Who did that number call on 12 April?");
  await expect(turns.nth(2).getByTestId("thread-turn-answer")).toContainText("+1-555-0178");
  await shot(page, "threads-02-history-after-reload");

  // Renamed, it keeps its turns; closed, it can no longer be followed up.
  await thread.getByTestId("thread-rename").click();
  await thread.getByTestId("thread-title-input").fill("Kovac's phone");
  await thread.getByTestId("thread-rename-save").click();
  await expect(thread.getByTestId("thread-title")).toHaveText("Kovac's phone");
  await thread.getByTestId("thread-follow-up").click();
  await expect(page.getByTestId("follow-up-banner")).toContainText("Kovac's phone");
  await page.getByTestId("tab-history").click();
  await thread.locator("summary").click();
  await thread.getByTestId("thread-close").click();
  await expect(thread).toHaveAttribute("data-closed", "true");
  await expect(thread.getByTestId("thread-follow-up")).toHaveCount(0);
  await expect(page.getByTestId("follow-up-banner")).toHaveCount(0);
  await shot(page, "threads-03-closed");
});

test("a follow-up's 'he' after a 'who' that found no one is not guessed: the answer says whom it cannot tell", async ({ page }) => {
  await signIn(page, "det.reyes@metro.example");
  const wb = new WorkbenchPage(page);
  await wb.goto(HARBOR);

  await wb.ask("Who supplied the gun used to shoot Raymond Dunn?");
  expect(await wb.responseType()).toBe("no_evidence");
  await page.getByTestId("follow-up").click();
  await wb.ask("Where does he live?");
  expect(await wb.responseType()).toBe("no_evidence");
  await expect(page.getByTestId("answer-thread")).toContainText("turn 2");
  await expect(wb.chips).toHaveCount(0);
  await expect(wb.unknowns).toContainText(
    'Whom "he" means is unknown: it refers to what turn 1 asked for ("Who supplied the gun used to shoot Raymond Dunn?"), which that turn did not answer.',
  );
  await shot(page, "threads-04-unread-reference");
});
