// `casegraph eval` as users run it: a question whose gold its user may not see (or a restricted one whose gold the
// user can see) is reported as a labelling error, read through the same policy gate as the answers — per question in
// the report, counted in the summary, and warned about on stderr.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importWorkspace } from "@/lib/server/runtime/graph";
import { runCli } from "../support/cli";
import { backends, freshDatabase } from "../support/databases";
import { testSigner } from "../support/ledger";

const REYES = "det.reyes@metro.example";
const QUESTIONS = [
  // EV-C-032 needs a need-to-know Reyes does not hold: no answer of his may cite it.
  {
    id: "hidden-gold",
    user: REYES,
    case: "case-harbor",
    kind: "answerable",
    question: "What plate is on Marchetti's grey BMW?",
    gold: ["EV-C-013", "EV-C-032"],
  },
  {
    id: "fine",
    user: REYES,
    case: "case-harbor",
    kind: "answerable",
    question: "What was the cause of death of Raymond Dunn?",
    gold: ["EV-C-003"],
  },
  // EV-C-028 is financial: hidden from Reyes, as a restricted question's gold should be; EV-C-013 is not.
  {
    id: "restricted",
    user: REYES,
    case: "case-harbor",
    kind: "restricted",
    question: "How much did Bayline send to Quayside Laundromat?",
    gold: ["EV-C-028"],
    canaries: ["286,500"],
  },
  {
    id: "not-restricted",
    user: REYES,
    case: "case-harbor",
    kind: "restricted",
    question: "Who drives the black Tahoe?",
    gold: ["EV-C-013"],
    canaries: ["zzqx"],
  },
];

describe.each(backends)("casegraph eval checks its labels against the user's permissions [%s]", (kind) => {
  let dir: string;
  let env: Record<string, string>;
  let dispose: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-eval-cli-"));
    env = {
      CASEGRAPH_DATA_DIR: dir,
      CASEGRAPH_LEDGER_SIGNING_KEY: testSigner().privateKeyPem,
      NEO4J_URI: "",
      LLM_PROVIDER: "offline",
      DATABASE_URL: "",
    };
    if (kind === "postgresql") {
      const fresh = await freshDatabase("postgresql");
      await importWorkspace(fresh.db, JSON.parse(await readFile("prisma/demo/workspace.json", "utf8")), {} as never);
      env.DATABASE_URL = fresh.url!;
      dispose = fresh.dispose;
    }
    await writeFile(path.join(dir, "q.jsonl"), QUESTIONS.map((q) => JSON.stringify(q)).join("\n") + "\n");
  });
  afterAll(async () => {
    await dispose?.();
    await rm(dir, { recursive: true, force: true });
  });

  it("reports hidden answerable gold and visible restricted gold, and still scores every question", async () => {
    const out = path.join(dir, "report.json");
    const r = await runCli(["eval", path.join(dir, "q.jsonl"), "--out", out], { env, timeout: 300_000 });
    expect(r.code, r.stderr).toBe(0);
    const report = JSON.parse(await readFile(out, "utf8"));
    const errors = Object.fromEntries(report.results.map((x: { id: string; labelError?: string }) => [x.id, x.labelError]));
    expect(errors).toEqual({
      "hidden-gold": `gold EV-C-032 is outside ${REYES}'s permissions: no answer may cite it`,
      fine: undefined,
      restricted: undefined,
      "not-restricted": `gold EV-C-013 is visible to ${REYES}: not a restricted item`,
    });
    expect(report.summary.labelErrors).toBe(2);
    expect(r.stderr).toContain(`warning: hidden-gold: gold EV-C-032 is outside ${REYES}'s permissions`);
    // The hidden item is never cited; the visible gold is.
    const hidden = report.results.find((x: { id: string }) => x.id === "hidden-gold");
    expect(hidden.cited).not.toContain("EV-C-032");
    expect(hidden.cited).toContain("EV-C-013");
  }, 320_000);
});
