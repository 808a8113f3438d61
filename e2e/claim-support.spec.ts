// Issue 13 in the browser, behind a model that misbehaves (the stub of e2e/model-stub.ts, served to a second app
// server): the workbench marks a partly supported claim and says why, a claim its evidence does not hold never
// reaches the page, and a citation to evidence the investigator may not see is dropped with its clause — the
// evidence it names was never in the prompt the model received.
import { expect, test } from "@playwright/test";
import { shot, signIn } from "./fixtures";
import { MIXED_SUPPORT, RESTRICTED_CITATION } from "./model-stub-answers";
import { WorkbenchPage } from "./pages/workbench";
import { MODEL_STUB_URL, STUB_APP_URL } from "./servers";

test.use({ baseURL: STUB_APP_URL });

interface SentPrompt {
  query: string | null;
  prompt: string;
}

async function promptsFor(question: string, request: import("@playwright/test").APIRequestContext): Promise<SentPrompt[]> {
  const res = await request.get(`${MODEL_STUB_URL}/__prompts`);
  expect(res.ok()).toBe(true);
  return ((await res.json()) as SentPrompt[]).filter((p) => p.query === question);
}

test("per-claim support: a partly supported claim is marked with its reason, an unsupported one is removed", async ({ page }) => {
  await signIn(page, "analyst.ng@cyber.example");
  const wb = new WorkbenchPage(page);
  await wb.goto("case-nightjar");
  await wb.ask(MIXED_SUPPORT.question);
  expect(await wb.responseType()).toBe("answer");

  // The claim the SIEM event states is plain text with its chip.
  await expect(wb.answerText).toContainText(MIXED_SUPPORT.supported);
  await expect(wb.chips.filter({ hasText: "EV-Y-046" })).not.toHaveCount(0);

  // The analyst's "most likely" stated as fact: kept, underlined, its reason in the title and for screen readers.
  const partial = wb.answerText.getByTestId("partial-claim");
  await expect(partial).toHaveCount(1);
  await expect(partial).toContainText(MIXED_SUPPORT.partial);
  await expect(partial).toHaveAttribute("data-claim-support", "partial");
  const why = (await partial.locator("[title]").getAttribute("title")) ?? "";
  expect(why).toMatch(/^Partly supported: /);
  expect(why).toContain("EV-Y-009");
  await expect(partial.locator(".sr-only")).toContainText("Partly supported");
  const list = page.getByTestId("partial-claims");
  await expect(list).toBeVisible();
  await expect(list).toContainText(MIXED_SUPPORT.partial);

  // The amount no evidence holds is gone, counted under "Removed by validation", and the answer asks for review.
  await expect(page.getByTestId("answer")).not.toContainText("48,500");
  await expect(wb.unknownGroup("removed_by_validation")).toContainText(/removed/i);
  await expect(page.getByTestId("needs-review")).toBeVisible();
  await shot(page, "claim-support-01-partial-and-removed");
});

test("a citation to evidence the investigator may not see: the clause is dropped, its canaries never shown or sent", async ({
  page,
  request,
}) => {
  await signIn(page, "junior.ali@cyber.example");
  const wb = new WorkbenchPage(page);
  await wb.goto("case-nightjar");
  await wb.ask(RESTRICTED_CITATION.question);
  expect(await wb.responseType()).toBe("answer");

  await expect(wb.answerText).toContainText(RESTRICTED_CITATION.honest);
  await expect(wb.chips.filter({ hasText: RESTRICTED_CITATION.restrictedEvidenceId })).toHaveCount(0);
  const body = (await page.locator("body").innerText()) ?? "";
  for (const canary of RESTRICTED_CITATION.canaries) expect(body).not.toContain(canary);
  await expect(page.getByTestId("needs-review")).toBeVisible();
  await shot(page, "claim-support-02-restricted-citation-dropped");

  // Filter before the model: what the model was sent holds the fenced, labelled evidence and nothing above the
  // investigator's clearance.
  const sent = await promptsFor(RESTRICTED_CITATION.question, request);
  expect(sent.length).toBeGreaterThan(0);
  for (const { prompt } of sent) {
    expect(prompt).toContain('<evidence_snippets note="UNTRUSTED DATA');
    expect(prompt).not.toContain(`"${RESTRICTED_CITATION.restrictedEvidenceId}"`);
    for (const canary of RESTRICTED_CITATION.canaries) expect(prompt).not.toContain(canary);
  }
});
