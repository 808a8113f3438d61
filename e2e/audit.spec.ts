// Issue 7: a supervisor filters the audit explorer to low-confidence answers, opens one, sees its inclusion proof
// verified in the browser (and cited evidence above their own need-to-know withheld), runs "verify chain" and exports;
// an investigator cannot open the explorer.
import { readFile } from "node:fs/promises";
import { expect, test, type Page } from "@playwright/test";
import { shot, signIn, signOut } from "./fixtures";

// lead.park (investigator + supervisor, holds the `financial` tag) asks in Operation Harbor Light. The first question
// is answered in part, from loosely related sentences, with a part nothing answers (confidence < 0.5 → needs review),
// and cites EV-C-032, a `financial` item that sup.okafor (no `financial` tag) may not read, beside one he may.
const LOW =
  "What links Victor Marchetti to the car wash, and who did Victor Marchetti meet at The Anchor Tavern, and did he study astronomy?";
const NORMAL = "Who paid for the warehouse lease at Pier 9?";

async function ask(page: Page, question: string) {
  const res = await page.request.post("/api/graphrag/answer", {
    data: { caseId: "case-harbor", question },
    headers: { origin: new URL(page.url()).origin },
  });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as {
    answer: { needsReview: boolean; confidence: number; citations: Array<{ evidenceId: string }> };
    auditId: string;
  };
}

test("supervisor reviews a low-confidence answer: filter, open, proof verified, verify chain, export", async ({ page }) => {
  await signIn(page, "lead.park@metro.example");
  const low = await ask(page, LOW);
  expect(low.answer.needsReview).toBe(true);
  expect(low.answer.citations.map((c) => c.evidenceId)).toContain("EV-C-032");
  const normal = await ask(page, NORMAL);
  expect(normal.answer.needsReview).toBe(false);
  await signOut(page);

  await signIn(page, "sup.okafor@metro.example");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit" }).click();
  await expect(page.getByRole("heading", { name: "Audit explorer" })).toBeVisible();
  await expect(page.getByTestId("audit-table")).toContainText(NORMAL);
  await shot(page, "audit-01-explorer");

  // Filter to answers that need review (low confidence).
  await page.getByTestId("filter-needs-review").check();
  await page.getByTestId("apply-filters").click();
  await expect(page).toHaveURL(/needsReview=1/);
  const rows = page.locator('[data-testid^="audit-row-"]');
  await expect(rows.first()).toBeVisible();
  for (const flag of await rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-needs-review")))) expect(flag).toBe("true");
  await expect(page.getByTestId("audit-table")).toContainText(LOW);
  await expect(page.getByTestId("audit-table")).not.toContainText(NORMAL);
  await shot(page, "audit-02-filtered-needs-review");

  // Open it: the inclusion proof is fetched and checked in this browser (WebCrypto SHA-256 + Ed25519).
  await rows.filter({ hasText: LOW }).first().getByTestId("audit-open").click();
  await expect(page.getByTestId("detail-title")).toContainText("answer");
  await expect(page.getByTestId("detail-question")).toContainText(LOW);
  await expect(page.getByText("text matches the hashed digest")).toBeVisible();
  await expect(page.getByTestId("detail-confidence")).toContainText("needs review");
  const proof = page.getByTestId("inclusion-proof");
  await expect(proof).toHaveAttribute("data-verified", "true");
  for (const check of ["entry-hash", "leaf", "tree-size", "merkle-path", "checkpoint-signature"]) {
    await expect(page.getByTestId(`proof-check-${check}`)).toHaveAttribute("data-ok", "true");
  }
  await expect(page.getByTestId("proof-status")).toContainText("is leaf");
  // Evidence above the supervisor's own need-to-know is not even named — only counted; other cited evidence is shown.
  await expect(page.getByTestId("cited-EV-C-032")).toHaveCount(0);
  await expect(page.getByTestId("detail-hidden-items")).toContainText("outside your permissions");
  await expect(page.locator("body")).not.toContainText("EV-C-032");
  await expect(page.locator('[data-testid^="cited-"][data-visible="true"]').first()).toBeVisible();
  await shot(page, "audit-03-entry-proof-verified");

  // Verify the whole chain.
  await page.getByRole("link", { name: "← Audit explorer" }).click();
  await page.getByTestId("verify-chain-button").click();
  await expect(page.getByTestId("verify-chain-ok")).toBeVisible();
  await expect(page.getByTestId("verify-chain-result")).toContainText(/OK — \d+ entries/);
  await shot(page, "audit-04-chain-verified");

  // Export the page's range as the compliance artifact; the export is itself recorded in the ledger.
  const download = page.waitForEvent("download");
  await page.getByTestId("export-button").click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^casegraph-audit-metro-pd-\d+-\d+\.json$/);
  const artifact = JSON.parse(await readFile((await file.path())!, "utf8"));
  expect(artifact.format).toBe("casegraph.compliance-artifact/v1");
  expect(artifact.entries.map((e: { payload: { query_sha256?: string }; questionText?: string }) => e.questionText)).toContain(LOW);
  expect(artifact.entries.every((e: { tenantId: string }) => e.tenantId === "metro-pd")).toBe(true);
  expect(artifact.checkpoint.treeSize).toBe(artifact.range.toSeq);
  await expect(page.getByTestId("export-result")).toContainText("recorded in the ledger");
  await page.reload();
  await expect(page.getByTestId("audit-table")).toContainText("audit · export");
  await shot(page, "audit-05-exported");
  await signOut(page);
});

test("an investigator cannot open the audit explorer", async ({ page }) => {
  await signIn(page, "det.reyes@metro.example");
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit" })).toHaveCount(0);
  const res = await page.goto("/audit");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Audit explorer" })).toHaveCount(0);
  const detail = await page.goto("/audit/1");
  expect(detail?.status()).toBe(404);
  const api = await page.request.get("/api/audit/checkpoint");
  expect(api.status()).toBe(403);
  expect((await api.json()).error.code).toBe("CG-ACCESS-002");
  await shot(page, "audit-06-investigator-denied");
});
