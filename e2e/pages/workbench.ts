// Page objects for the case list and the case workbench.
import { expect, type Locator, type Page } from "@playwright/test";

export class CaseListPage {
  constructor(readonly page: Page) {}

  async open() {
    await this.page.goto("/cases");
    await expect(this.page.getByRole("heading", { name: "Your cases" })).toBeVisible();
  }

  row(caseId: string): Locator {
    return this.page.getByTestId(`case-${caseId}`);
  }

  visibleCounts(caseId: string): Locator {
    return this.page.getByTestId(`case-${caseId}-visible`);
  }

  async openCase(caseId: string, title: string) {
    await this.row(caseId).getByRole("link", { name: title }).click();
    await expect(this.page).toHaveURL(new RegExp(`/cases/${caseId}$`));
  }
}

export class WorkbenchPage {
  readonly graph: Locator;
  readonly question: Locator;
  readonly answer: Locator;
  readonly answerText: Locator;
  readonly chips: Locator;
  readonly evidencePanel: Locator;
  readonly citedPassage: Locator;
  readonly unknowns: Locator;
  readonly nodePanel: Locator;

  constructor(readonly page: Page) {
    this.graph = page.getByTestId("case-graph");
    this.question = page.getByTestId("question-input");
    this.answer = page.getByTestId("answer");
    this.answerText = page.getByTestId("answer-text");
    this.chips = this.answerText.locator("button[data-citation]");
    this.evidencePanel = page.getByTestId("evidence-panel");
    this.citedPassage = page.getByTestId("cited-passage");
    this.unknowns = page.getByTestId("unknowns-panel");
    this.nodePanel = page.getByTestId("node-panel");
  }

  async goto(caseId: string) {
    await this.page.goto(`/cases/${caseId}`);
    await this.waitForGraph();
  }

  async waitForGraph() {
    await expect(this.graph).toHaveAttribute("data-graph-ready", "true", { timeout: 30_000 });
  }

  /** Asks and waits until the stream has finished (done, or a coded failure). */
  async ask(question: string) {
    await this.question.fill(question);
    await this.page.getByTestId("ask-button").click();
    await expect(this.answer).toHaveAttribute("data-status", /^(done|failed)$/, { timeout: 60_000 });
  }

  responseType() {
    return this.answer.getAttribute("data-response-type");
  }

  stagesSeen() {
    return this.page.getByTestId("ask-progress").getAttribute("data-stages-seen");
  }

  async highlightedNodes(): Promise<string[]> {
    return ((await this.graph.getAttribute("data-highlighted-nodes")) ?? "").split(" ").filter(Boolean);
  }

  hiddenByPolicyCount(): Locator {
    return this.unknowns.getByTestId("hidden-by-policy-count");
  }

  unknownGroup(kind: "not_in_evidence" | "hidden_by_policy" | "left_out_of_context" | "removed_by_validation"): Locator {
    return this.unknowns.getByTestId(`unknowns-${kind}`);
  }

  banner(kind: "refused" | "no-evidence" | "unable" | "error"): Locator {
    return this.page.getByTestId(`banner-${kind}`);
  }

  async searchNode(text: string) {
    await this.page.getByTestId("node-search").fill(text);
    await this.page.getByTestId("node-search-option").first().click();
    await expect(this.nodePanel).toBeVisible();
  }
}
