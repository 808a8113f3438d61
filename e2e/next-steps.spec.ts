// Issue 16: suggested next steps in the browser. The investigator asks what to do next and sees only the playbooks the
// filter allows him on this case (never another tenant's, never one needing authority he lacks, above his clearance or
// tags, or above the tenant's risk tolerance), proposes one; a supervisor approves it with a note; the case page lists
// the approved step. Another investigator with less clearance sees fewer playbooks.
import { expect, test, type Page } from "@playwright/test";
import { open, shot, signIn, signOut } from "./fixtures";
import { WorkbenchPage } from "./pages/workbench";

/** What the demo's catalogue lets each user be offered on case-harbor (prisma/demo/README.md). */
const ALLOWED = {
  "det.reyes@metro.example": ["canvass-location", "interview-witness", "preserve-cctv", "request-subscriber-records"],
  "analyst.kim@metro.example": ["canvass-location", "interview-witness", "preserve-cctv"],
};
const NEVER = [
  "obtain-bank-records", // need-to-know financial
  "cell-site-history", // a warrant
  "wiretap-application", // TOP_SECRET, a court order, high risk
  "ci-debrief", // need-to-know informants
  "dmv-registration", // another jurisdiction
  "procurement-file-review", // another case type
  "search-warrant-premises", // retired
  "pull-edr-telemetry", // cyber-jcu's
  "isolate-host", // cyber-jcu's
];

async function suggested(page: Page): Promise<string[]> {
  const items = page.getByTestId("next-steps").locator("[data-playbook-id]");
  await expect(items.first()).toBeVisible();
  return items.evaluateAll((els) => els.map((e) => e.getAttribute("data-playbook-id") ?? ""));
}

test("next steps: only allowed playbooks are suggested; propose; a supervisor approves; the case lists it", async ({ page }) => {
  await signIn(page, "det.reyes@metro.example");
  const wb = new WorkbenchPage(page);
  await wb.goto("case-harbor");
  await wb.ask("What should we do next about the phone +1-555-0178?");
  expect(await wb.responseType()).toBe("refused");
  await expect(page.getByTestId("banner-refused")).toContainText("never takes or recommends actions");
  await expect(page.getByTestId("refused-with-suggestions")).toContainText("playbooks from your agency's catalogue");
  const section = page.getByTestId("next-steps");
  await expect(section).toContainText("Suggested next steps — require approval");
  const ids = await suggested(page);
  expect(ids.length).toBeGreaterThan(0);
  for (const id of ids) expect(ALLOWED["det.reyes@metro.example"]).toContain(id);
  for (const id of NEVER) await expect(section).not.toContainText(id);
  expect(ids[0]).toBe("request-subscriber-records");
  await shot(page, "ns-01-suggested");

  // Propose the first: it waits for a supervisor.
  await page.getByTestId("propose-request-subscriber-records").click();
  await expect(page.getByTestId("suggestion-request-subscriber-records").getByTestId("proposed")).toBeVisible();
  await page.getByTestId("tab-steps").click();
  await expect(page.getByTestId("step-request-subscriber-records")).toHaveAttribute("data-status", "pending");
  await shot(page, "ns-02-proposed");
  await signOut(page);

  // Another investigator, less clearance and no legal authority, gets fewer playbooks (asked after an answer).
  await signIn(page, "analyst.kim@metro.example");
  await wb.goto("case-harbor");
  await wb.ask("Who called Raymond Dunn before he died?");
  await page.getByTestId("suggest-next-steps").click();
  for (const id of await suggested(page)) expect(ALLOWED["analyst.kim@metro.example"]).toContain(id);
  await expect(page.getByTestId("next-steps")).not.toContainText("request-subscriber-records");
  await signOut(page);

  // A supervisor approves it with a note.
  await signIn(page, "sup.okafor@metro.example");
  await open(page, "/audit/next-steps?status=pending");
  const proposal = page.getByTestId("proposal-request-subscriber-records");
  await expect(proposal).toContainText("det.reyes@metro.example");
  await expect(proposal).toContainText("case case-harbor");
  await proposal.getByTestId("approve-next-step").click();
  await expect(proposal.getByText("Say why")).toBeVisible(); // a note is required
  await proposal.getByTestId("next-step-note").fill("Subpoena obtained on file 2025-117; go ahead with the carrier.");
  await proposal.getByTestId("approve-next-step").click();
  await expect(proposal.getByText("Approved: the case now lists this step.")).toBeVisible();
  await shot(page, "ns-03-approved");
  await signOut(page);

  // The case page lists the approved step.
  await signIn(page, "det.reyes@metro.example");
  await wb.goto("case-harbor");
  await page.getByTestId("tab-steps").click();
  const step = page.getByTestId("approved-steps").getByTestId("step-request-subscriber-records");
  await expect(step).toHaveAttribute("data-status", "approved");
  await expect(step).toContainText("Approved by sup.okafor@metro.example");
  await shot(page, "ns-04-case-lists-approved");
});
