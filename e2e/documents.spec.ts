// Issue 17 in the browser: an admin lets an investigator add evidence to a case; the investigator drags a PDF and a
// DOCX onto the case page, sees each file's progress and the batch's, asks a question answered from the PDF, clicks
// the citation and sees the PDF's page with the passage highlighted. It uses the cyber tenant's case-nightjar, whose
// evidence counts no other spec checks (the specs share one database).
import { expect, test, type Page } from "@playwright/test";
import { open, shot, signIn, signOut } from "./fixtures";
import { WorkbenchPage } from "./pages/workbench";
import { makeDocx, makePdf } from "../tests/support/documents";

const CASE = "case-nightjar";
const INCIDENT_REPORT = [
  ["Incident report IR-2025-044 on the Nightjar intrusion set, prepared by the security operations centre on 16 May 2025."],
  [
    "Findings. The staging archive q2_invoices.7z held 48 MB of scanned supplier invoices copied from the finance share.",
    "It was written by the workstation WS-FIN-0231 shortly before the upload began.",
  ],
  ["Recommendations. Rotate the service account passwords and review who may read the finance share."],
];

/** Drops files on an element the way a browser does: a DataTransfer holding them, in dragover and drop events. */
async function dropFiles(page: Page, testId: string, files: Array<{ name: string; type: string; bytes: Buffer }>) {
  const payload = files.map((f) => ({ name: f.name, type: f.type, b64: f.bytes.toString("base64") }));
  const transfer = await page.evaluateHandle((items) => {
    const dt = new DataTransfer();
    for (const f of items) {
      const raw = Uint8Array.from(atob(f.b64), (c) => c.charCodeAt(0));
      dt.items.add(new File([raw], f.name, { type: f.type }));
    }
    return dt;
  }, payload);
  const zone = page.getByTestId(testId);
  await zone.dispatchEvent("dragenter", { dataTransfer: transfer });
  await zone.dispatchEvent("dragover", { dataTransfer: transfer });
  await zone.dispatchEvent("drop", { dataTransfer: transfer });
}

test("an investigator drags a PDF and a DOCX onto the case, asks, and follows the citation to the highlighted page", async ({
  page,
  context,
}) => {
  // The admin grants det.reyes "May add evidence" on case-harbor.
  await signIn(page, "admin@cyber.example");
  await open(page, "/admin/memberships");
  const toggle = page.getByTestId(`ingest-${CASE}-analyst.ng@cyber.example`);
  await toggle.click(); // the box follows the server: checked once the change is recorded
  await expect(toggle).toBeChecked();
  await signOut(page);

  await signIn(page, "analyst.ng@cyber.example");
  const wb = new WorkbenchPage(page);
  await wb.goto(CASE);
  await page.getByTestId("add-evidence-button").click();
  const panel = page.getByTestId("add-evidence");
  await expect(panel).toBeVisible();
  // Before anything is sent: without a license the evidence would stay invisible to analysis.
  await expect(page.getByTestId("unlicensed-note")).toBeVisible();
  await page.getByTestId("license-select").selectOption("LIC-INTERNAL");
  await expect(page.getByTestId("unlicensed-note")).toHaveCount(0);

  const pdf = await makePdf(INCIDENT_REPORT);
  const docx = await makeDocx([
    { heading: "Shift handover" },
    { text: "The on-call analyst escalated the C2 cluster at 02:45 and paged the incident lead." },
  ]);
  await dropFiles(page, "drop-zone", [
    { name: "incident-report.pdf", type: "application/pdf", bytes: pdf },
    { name: "handover.docx", type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document", bytes: docx },
  ]);
  const rows = page.getByTestId("upload-row");
  await expect(rows).toHaveCount(2);
  await shot(page, "doc-01-files-dropped");
  await page.getByTestId("upload-button").click();
  await expect(rows.nth(0)).toHaveAttribute("data-status", "done", { timeout: 60_000 });
  await expect(rows.nth(1)).toHaveAttribute("data-status", "done", { timeout: 60_000 });
  await expect(rows.nth(0)).toContainText(/evidence item/);
  const batch = page.getByTestId("batch-progress");
  await expect.poll(async () => Number(await batch.getAttribute("value"))).toBe(Number(await batch.getAttribute("max")));
  await expect(panel).toContainText("2 of 2 files done");
  await shot(page, "doc-02-uploaded");
  await panel.getByRole("button", { name: "Close" }).first().click();

  // A question answered from the PDF; its citation opens the evidence, and from there the original at page 2.
  await wb.ask("How large was the staging archive q2_invoices.7z?");
  expect(await wb.responseType()).toBe("answer");
  const ids = await wb.chips.evaluateAll((els) => els.map((e) => e.getAttribute("data-citation") ?? ""));
  const index = ids.findIndex((id) => id.startsWith("DOC-"));
  expect(index, `a citation of the uploaded PDF among ${ids.join(", ")}`).toBeGreaterThanOrEqual(0);
  await wb.chips.nth(index).click();
  await expect(wb.evidencePanel).toHaveAttribute("data-evidence-id", ids[index]);
  await expect(page.getByTestId("evidence-source")).toContainText("incident-report.pdf, page 2");
  await shot(page, "doc-03-evidence-panel");
  const [viewer] = await Promise.all([context.waitForEvent("page"), page.getByTestId("open-original").click()]);
  const errors: string[] = [];
  viewer.on("pageerror", (e) => errors.push(e.message));
  await viewer.waitForLoadState();
  const pdfView = viewer.getByTestId("pdf-viewer");
  await expect(pdfView).toHaveAttribute("data-page", "2");
  await expect(viewer.getByTestId("pdf-page")).toContainText("Page 2 of 3");
  await expect(pdfView).toHaveAttribute("data-located", "true", { timeout: 30_000 });
  expect(await viewer.getByTestId("pdf-highlight").count()).toBeGreaterThan(0);
  await expect(viewer.getByTestId("cited-location")).toContainText("on page 2");
  await shot(viewer, "doc-04-pdf-page-highlighted");
  expect(errors, "no script errors in the viewer (PDF.js worker under the CSP)").toEqual([]);
});
