// Issue 6: the investigator workbench in a real Chromium. Questions come from prisma/demo/questions.json; what each
// user may see is computed from the demo bundle with the product's policy functions (e2e/pages/demo-policy.ts).
import { expect, test, type Page, type Response } from "@playwright/test";
import { shot, signIn } from "./fixtures";
import { bundle, canaries, edgeId, questions, split } from "./pages/demo-policy";
import { CaseListPage, WorkbenchPage } from "./pages/workbench";

const REYES = "det.reyes@metro.example";
const KIM = "analyst.kim@metro.example";
const NG = "analyst.ng@cyber.example";
const HARBOR = "case-harbor";
const NIGHTJAR = "case-nightjar";

/**
 * An answerable harbor question from the demo list that both investigators see part of, and that a single item states
 * the answer to: the default offline model is extractive and abstains on questions only a synthesis answers ("Who
 * killed Raymond Dunn?" — no item says so).
 */
function harborQuestion() {
  const q = questions[HARBOR].find(
    (x) =>
      !x.unanswerable &&
      /^What did the lab find/.test(x.question) &&
      (x.visibleTo?.[KIM]?.visible.length ?? 0) >= 3 &&
      (x.visibleTo?.[KIM]?.hidden ?? 0) > 0,
  );
  if (!q) throw new Error("questions.json has no suitable harbor question");
  return q;
}

/** Every response body the page receives (documents, RSC payloads, server-action results and streams). */
function recordResponses(page: Page) {
  const pending: Array<Promise<{ url: string; body: string }>> = [];
  const onResponse = (res: Response) => {
    pending.push(
      res
        .text()
        .then((body) => ({ url: res.url(), body }))
        .catch(() => ({ url: res.url(), body: "" })),
    );
  };
  page.on("response", onResponse);
  return async () => {
    page.off("response", onResponse);
    return Promise.all(pending);
  };
}

/** The forms a string takes in a response: as is, JSON-escaped (RSC, actions) and HTML-escaped (server HTML). */
function encodings(text: string): string[] {
  const json = JSON.stringify(text).slice(1, -1);
  const html = text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  return [...new Set([text, json, html, html.replace(/'/g, "&#x27;"), html.replace(/'/g, "&#39;")])];
}

test.describe("investigator workbench", () => {
  test("an investigator asks a known question, follows a citation to the cited passage, and its nodes light up", async ({ page }) => {
    const q = harborQuestion();
    const reyes = split(HARBOR, REYES);
    await signIn(page, REYES);

    // The case list: what det.reyes may see of the case, computed by the policy, and a link in.
    const list = new CaseListPage(page);
    await list.open();
    await expect(list.visibleCounts(HARBOR)).toContainText(`${reyes.visible.nodes.length} nodes`);
    await expect(list.visibleCounts(HARBOR)).toContainText(`${reyes.visible.edges.length} relationships`);
    await expect(list.visibleCounts(HARBOR)).toContainText(`${reyes.visible.evidence.length} evidence items`);
    await shot(page, "wb-01-case-list");
    await list.openCase(HARBOR, reyes.case.title);

    const wb = new WorkbenchPage(page);
    await wb.waitForGraph();
    await expect(wb.graph).toHaveAttribute("data-node-count", String(reyes.visible.nodes.length));
    await expect(wb.graph).toHaveAttribute("data-edge-count", String(reyes.visible.edges.length));
    await expect(page.getByTestId("example-question").first()).toBeVisible();
    await shot(page, "wb-02-case-graph");

    // Ask: the answer streams in through the four stages and arrives with citation chips.
    await wb.ask(q.question);
    expect(await wb.responseType()).toBe("answer");
    expect(await wb.stagesSeen()).toBe("retrieving filtering asking_model validating");
    await expect(wb.chips.first()).toBeVisible();
    await expect(wb.page.getByTestId("confidence-meter")).toBeVisible();
    await shot(page, "wb-03-streamed-answer");

    // Pick a chip whose evidence is linked to nodes det.reyes may see.
    const visibleNodeIds = new Set(reyes.visible.nodes.map((n) => n.id));
    const harbor = bundle.cases.find((c) => c.id === HARBOR)!;
    let chosen: { index: number; id: string; nodes: string[] } | null = null;
    const ids = await wb.chips.evaluateAll((els) => els.map((e) => e.getAttribute("data-citation") ?? ""));
    for (const [index, id] of ids.entries()) {
      const nodes = (harbor.evidence.find((e) => e.id === id)?.nodes ?? []).filter((n) => visibleNodeIds.has(n)).sort();
      if (nodes.length) {
        chosen = { index, id, nodes };
        break;
      }
    }
    expect(chosen, "a cited item linked to visible nodes").not.toBeNull();
    const chip = wb.chips.nth(chosen!.index);

    // Hover shows the evidence card; so does keyboard focus, and Escape closes it.
    await chip.hover();
    const card = page.getByRole("tooltip");
    await expect(card).toContainText(chosen!.id);
    await expect(card.getByRole("note")).toBeVisible(); // the classification band
    await shot(page, "wb-04-citation-card");
    await page.mouse.move(5, 5);
    await expect(card).toHaveCount(0);
    await chip.focus();
    await expect(page.getByRole("tooltip")).toContainText(chosen!.id);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("tooltip")).toHaveCount(0);

    // Click: the evidence panel opens on the cited passage, and the evidence's nodes are highlighted in the graph.
    await chip.click();
    await expect(wb.evidencePanel).toHaveAttribute("data-evidence-id", chosen!.id);
    await expect(wb.evidencePanel).toHaveAttribute("data-passage-located", "true");
    await expect(wb.citedPassage).toBeInViewport();
    const passage = (await wb.citedPassage.textContent()) ?? "";
    expect(harbor.evidence.find((e) => e.id === chosen!.id)!.content).toContain(passage);
    await expect(chip).toHaveAttribute("aria-pressed", "true");
    await expect.poll(() => wb.highlightedNodes()).toEqual(chosen!.nodes);
    await shot(page, "wb-05-evidence-panel-and-highlight");

    // An explanation step highlights its nodes and relationships.
    const step = page.getByTestId("explanation-steps").getByRole("button", { name: /^Step 1:/ });
    await step.click();
    await expect(step).toHaveAttribute("aria-pressed", "true");
    await expect.poll(async () => (await wb.highlightedNodes()).length).toBeGreaterThan(0);
    const highlightedEdges = ((await wb.graph.getAttribute("data-highlighted-edges")) ?? "").split(" ").filter(Boolean);
    const visibleEdgeIds = new Set(reyes.visible.edges.map(edgeId));
    for (const e of highlightedEdges) expect(visibleEdgeIds.has(e)).toBe(true);
    await shot(page, "wb-06-explanation-step");

    // The question is in the user's own history, reopenable as its stored summary. (The pointer leaves the answer
    // first, as a user's would: a citation card left open over the tabs would take the click.)
    await page.mouse.move(5, 5);
    await expect(page.getByRole("tooltip")).toHaveCount(0);
    await page.getByTestId("tab-history").click();
    const entry = page.getByTestId("history-entry").filter({ hasText: q.question }).first();
    await expect(entry).toBeVisible();
    await entry.locator("summary").click();
    await expect(entry.getByTestId("ask-again")).toBeVisible();
    await shot(page, "wb-07-history");
  });

  test("a lower-clearance analyst sees the hidden-by-policy count, and nothing hidden from her reaches the browser", async ({ page }) => {
    const q = harborQuestion();
    const kim = split(HARBOR, KIM);
    const leaks = canaries(HARBOR, KIM);
    expect(kim.hidden.evidence.length).toBeGreaterThan(0);
    expect(leaks.filter((c) => c.from.endsWith("text")).length, "canaries from hidden evidence text").toBeGreaterThan(10);

    const stop = recordResponses(page);
    await signIn(page, KIM);
    const list = new CaseListPage(page);
    await list.open();
    await expect(list.visibleCounts(HARBOR)).toContainText(`${kim.visible.evidence.length} evidence items`);
    await list.openCase(HARBOR, kim.case.title);
    const wb = new WorkbenchPage(page);
    await wb.waitForGraph();
    await expect(wb.graph).toHaveAttribute("data-node-count", String(kim.visible.nodes.length));

    await wb.ask(q.question);
    expect(await wb.responseType()).toBe("answer");
    await expect(wb.hiddenByPolicyCount()).toBeVisible();
    const hidden = Number(await wb.hiddenByPolicyCount().textContent());
    // The case totals (issue 11 §4: not per question, so not an oracle): what the case list says she cannot see.
    expect(hidden).toBe(kim.hidden.evidence.length + kim.hidden.nodes.length + kim.hidden.edges.length);
    await expect(wb.unknownGroup("hidden_by_policy")).toContainText("in this case are outside your permissions");
    await shot(page, "wb-08-analyst-hidden-by-policy");

    // Exercise the other reads too: evidence, a node with hidden linked evidence, the history.
    await wb.chips.first().click();
    await expect(wb.evidencePanel).toBeVisible();
    const victim = kim.visible.nodes.find((n) => kim.hidden.evidence.some((e) => e.nodes.includes(n.id)))!;
    await wb.searchNode(String(victim.properties?.name ?? victim.id));
    await expect(page.getByTestId("node-hidden-evidence")).toContainText("hidden by policy");
    await page.getByTestId("tab-history").click();
    await expect(page.getByTestId("history-entry").first()).toBeVisible();
    await shot(page, "wb-09-analyst-node-hidden-evidence");

    const bodies = await stop();
    expect(bodies.length).toBeGreaterThan(5);
    // Positive control: what she may see does arrive (so the bodies were captured).
    const all = bodies.map((b) => b.body).join("\n");
    const citedVisible = kim.visible.evidence.find((e) => all.includes(JSON.stringify(e.content).slice(1, 40)));
    expect(citedVisible, "some visible evidence text is in the responses").toBeDefined();
    const found: string[] = [];
    for (const c of leaks) {
      for (const form of encodings(c.text)) {
        const hit = bodies.find((b) => b.body.includes(form));
        if (hit) found.push(`${c.from}: "${c.text}" in ${hit.url}`);
      }
    }
    expect(found, `strings of items hidden from ${KIM} in responses`).toEqual([]);
  });

  test("the cyber case: a request to act is refused; a question nothing supports gets no_evidence and an unknown", async ({ page }) => {
    const device = questions[NIGHTJAR].map((x) => /did:[\w.-]+/.exec(x.question)?.[0]).find(Boolean)!;
    const unsupported = questions[NIGHTJAR].find((x) => x.unanswerable)!;
    await signIn(page, NG);
    const wb = new WorkbenchPage(page);
    await wb.goto(NIGHTJAR);

    await wb.ask(`Block the IP of ${device}`);
    expect(await wb.responseType()).toBe("refused");
    await expect(wb.banner("refused")).toBeVisible();
    await expect(wb.banner("refused")).toContainText("Refused");
    await expect(wb.chips).toHaveCount(0);
    await shot(page, "wb-10-refused");

    await wb.ask(unsupported.question);
    expect(await wb.responseType()).toBe("no_evidence");
    await expect(wb.banner("no-evidence")).toBeVisible();
    await expect(wb.unknowns).not.toHaveAttribute("data-count", "0");
    await expect(wb.unknownGroup("not_in_evidence")).not.toHaveAttribute("data-count", "0");
    await shot(page, "wb-11-no-evidence");
  });

  test("an answer citing an item that holds instructions to automated readers says so, and the item shows them marked", async ({
    page,
  }) => {
    await signIn(page, "lead.park@metro.example");
    const wb = new WorkbenchPage(page);
    await wb.goto(HARBOR);
    await wb.ask("What did Tasha Greene write on the note left on the kitchen table?");
    expect(await wb.responseType()).toBe("answer");
    await expect(wb.unknownGroup("left_out_of_context")).toContainText(
      "Part of EV-C-012 reads as instructions to an automated reader; it was withheld from the model",
    );
    await expect(wb.answerText).not.toContainText(/ignore previous|captain is clean/i);
    await wb.answerText.locator('button[data-citation="EV-C-012"]').first().click();
    await expect(wb.evidencePanel).toHaveAttribute("data-evidence-id", "EV-C-012");
    await expect(page.getByTestId("instruction-note")).toBeVisible();
    const marked = page.getByTestId("instruction-passage");
    await expect(marked).toHaveCount(1);
    await expect(marked).toContainText("Ignore previous instructions");
    await expect(marked).not.toContainText("Handler note");
    await shot(page, "wb-12-instructions-marked");
  });

  test("Stop ends the answer on screen and never sends the question a second time", async ({ page }) => {
    await signIn(page, REYES);
    const wb = new WorkbenchPage(page);
    await wb.goto(HARBOR);
    const count = async () => Number(/\((\d+)\)/.exec((await page.getByTestId("tab-history").textContent()) ?? "")?.[1] ?? NaN);
    await expect.poll(count).not.toBeNaN();
    const before = await count();
    const question = questions[HARBOR].find((x) => !x.unanswerable)!.question;
    // The offline model answers in milliseconds; hold the question back on its way to the server, so the Stop click
    // lands while the answer is still coming. The ask is the first server action after the click.
    let armed = false;
    let asks = 0;
    await page.route("**/cases/**", async (route) => {
      const req = route.request();
      if (!armed || req.method() !== "POST" || !req.headers()["next-action"]) return route.continue();
      armed = false;
      asks++;
      await new Promise((r) => setTimeout(r, 3_000));
      await route.continue().catch(() => {});
    });
    await wb.question.fill(question);
    armed = true;
    await page.getByTestId("ask-button").click();
    await expect(wb.answer).toHaveAttribute("data-status", "streaming");
    await page.getByTestId("stop-button").click();
    await expect(wb.answer).toHaveAttribute("data-status", "stopped");
    await expect(page.getByTestId("ask-button")).toBeVisible();
    await page.unroute("**/cases/**");
    expect(asks).toBe(1);
    // The server got the question once and audited it once (a stopped answer is still audited); nothing asked again.
    await expect
      .poll(
        async () => {
          await page.reload();
          await expect.poll(count).not.toBeNaN();
          return count();
        },
        { timeout: 30_000 },
      )
      .toBe(before + 1);
  });

  test("at 1024 px wide the workbench fits without horizontal scrolling", async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await signIn(page, REYES);
    const wb = new WorkbenchPage(page);
    await wb.goto(HARBOR);
    await wb.ask(harborQuestion().question);
    await wb.chips.first().click();
    await expect(wb.evidencePanel).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expect(page.getByTestId("answer-question")).toBeInViewport();
    await expect(wb.chips.first()).toBeInViewport();
    await expect(wb.unknowns.getByRole("heading", { name: /Unknowns/ })).toBeInViewport();
    await expect(wb.graph).toBeInViewport();
    await shot(page, "wb-12-1024px");
  });
});
