// Issue 17, the CLI: `casegraph ingest --case <id> --by <email> [markings] <files…>` as an operator runs it (the
// bundled CLI, embedded database in a data folder): files are ingested as that user (who must be allowed), each all or
// nothing, refusals named with their codes (exit 1), and the evidence is then cited by `casegraph ask`.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli";
import { LAB_PAGES, makeDocx, makePdf, writeFixture } from "../support/documents";

describe("casegraph ingest (CLI)", () => {
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "cg-ingest-cli-"));
    env = { CASEGRAPH_DATA_DIR: path.join(dir, "data"), DATABASE_URL: "" };
    expect((await runCli(["import", "prisma/demo/workspace.json"], { env })).code).toBe(0);
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it("ingests with markings, names each refused file, and the evidence is cited by ask", async () => {
    const pdf = await writeFixture(dir, "lab.pdf", await makePdf(LAB_PAGES));
    const docx = await writeFixture(
      dir,
      "interview.docx",
      await makeDocx([{ heading: "Interview" }, { text: "Kovac lent the Tahoe to Marchetti." }]),
    );
    const fake = await writeFixture(dir, "fake.pdf", "just text, not a PDF");
    const r = await runCli(
      [
        "ingest",
        "--case",
        "case-harbor",
        "--by",
        "sup.okafor@metro.example",
        "--license",
        "LIC-INTERNAL",
        "--type",
        "lab_report",
        "--need-to-know",
        "narcotics",
        pdf,
        docx,
        fake,
      ],
      { env },
    );
    expect(r.code).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ ok: false, caseId: "case-harbor", ingested: 2, refused: 1 });
    expect(out.files[2]).toMatchObject({ file: "fake.pdf", ok: false, error: { code: "CG-INGEST-006" } });
    const ask = await runCli(
      ["ask", "--user", "det.reyes@metro.example", "--case", "case-harbor", "What purity of fentanyl was found in the Tahoe HBR-4471?"],
      {
        env,
      },
    );
    const body = JSON.parse(ask.stdout);
    expect(body.answer.citations.map((c: { evidenceId: string }) => c.evidenceId)).toEqual(
      expect.arrayContaining([expect.stringMatching(new RegExp(`^${out.files[0].documentId}-`))]),
    );
  });

  it("refuses a user who may not ingest, and bad markings, before reading any file", async () => {
    const file = await writeFixture(dir, "note.txt", "A note.");
    const denied = await runCli(["ingest", "--case", "case-harbor", "--by", "analyst.kim@metro.example", file], { env });
    expect(denied.code).toBe(1);
    expect(JSON.parse(denied.stderr).error.code).toBe("CG-INGEST-009");
    const bad = await runCli(
      ["ingest", "--case", "case-harbor", "--by", "sup.okafor@metro.example", "--classification", "SECRET//NOFORN", file],
      { env },
    );
    expect(JSON.parse(bad.stderr).error).toMatchObject({ code: "CG-INGEST-008", issues: [{ path: "classification" }] });
    expect((await runCli(["ingest", "--case", "case-harbor", file], { env })).code).toBe(2);
  });
});
