// `casegraph policy …` and `casegraph review …` as users run them: compile prints the summary and writes a
// byte-identical bundle for the same policies (exit 2 with line numbers for bad ones), extract refuses the offline
// model, activate/deactivate write ledger entries with the bundle's hash, review lists and decides held answers.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importWorkspace } from "@/lib/server/runtime/graph";
import { runCli } from "../support/cli";
import { backends, freshDatabase } from "../support/databases";
import { testSigner } from "../support/ledger";

const DEMO = "prisma/demo/policies/metro-pd.jsonl";

describe("casegraph policy compile / extract (no database)", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-policy-cli-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("compiles the demo policies: a JSON summary with the Z3 conflicts, and the same bytes from reordered lines", async () => {
    const a = path.join(dir, "a.json");
    const r = await runCli(["policy", "compile", DEMO, "--out", a]);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ ok: true, policyCount: 9, ruleCount: 10, constraintCount: 7, pathCount: 10 });
    expect(summary.conflicts.map((c: { policies: string[]; resolution: string }) => [c.policies, c.resolution])).toEqual([
      [["MPD-FIN-002", "MPD-FIN-003"], "dominance"],
      [["MPD-VIC-003", "MPD-VIC-004"], "escalation"],
    ]);
    const reversed = path.join(dir, "reversed.jsonl");
    await writeFile(reversed, (await readFile(DEMO, "utf8")).trim().split("\n").reverse().join("\n"));
    const b = path.join(dir, "b.json");
    expect((await runCli(["policy", "compile", reversed, "--out", b])).code).toBe(0);
    expect(await readFile(b, "utf8")).toBe(await readFile(a, "utf8"));
    expect(JSON.parse(await readFile(a, "utf8")).bundle_metadata.sha256).toBe(summary.bundleSha256);
  });

  it("bad policies exit 2 with every problem's line", async () => {
    const bad = path.join(dir, "bad.jsonl");
    await writeFile(
      bad,
      `${(await readFile(DEMO, "utf8")).split("\n")[1]}\n{"policy_id":"X","conditions":[],"actions":[{"type":"maybe","action":"cites_evidence"}],"metadata":{}}\n`,
    );
    const r = await runCli(["policy", "compile", bad, "--out", path.join(dir, "never.json")]);
    expect(r.code).toBe(2);
    const err = JSON.parse(r.stderr).error;
    expect(err.code).toBe("CG-POLICY-080");
    expect(err.issues.map((i: { path: string }) => i.path)).toEqual(
      expect.arrayContaining(["line 2: $.actions[0].type", "line 2: $.metadata.source"]),
    );
  });

  it("extract with the offline model answers CG-POLICY-087", async () => {
    const doc = path.join(dir, "order.md");
    await writeFile(doc, "# Informants\nNever name an informant.\n");
    const r = await runCli(["policy", "extract", doc, "--out", path.join(dir, "p.jsonl")], { env: { LLM_PROVIDER: "offline" } });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stderr).error.code).toBe("CG-POLICY-087");
  });
});

describe.runIf(backends.includes("postgresql"))("casegraph policy activate / review (PostgreSQL)", () => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let dir: string;
  let env: Record<string, string>;
  const cli = (args: string[]) => runCli(args, { env });

  beforeAll(async () => {
    fresh = await freshDatabase("postgresql");
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-policy-cli-db-"));
    env = { DATABASE_URL: fresh.url!, CASEGRAPH_LEDGER_SIGNING_KEY: testSigner().privateKeyPem, CASEGRAPH_DATA_DIR: dir, NEO4J_URI: "" };
    await importWorkspace(fresh.db, JSON.parse(await readFile("prisma/demo/workspace.json", "utf8")), {} as never);
  });
  afterAll(async () => {
    await fresh?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it("activate as a named admin (a ledger entry with the hash), escalate an answer, review it from the shell, deactivate", async () => {
    const bundleFile = path.join(dir, "bundle.json");
    expect((await runCli(["policy", "compile", DEMO, "--out", bundleFile])).code).toBe(0);
    const sha = JSON.parse(await readFile(bundleFile, "utf8")).bundle_metadata.sha256;

    const notAdmin = await cli(["policy", "activate", "--tenant", "metro-pd", bundleFile, "--by", "det.reyes@metro.example"]);
    expect(JSON.parse(notAdmin.stderr).error.code).toBe("CG-ACCESS-002");
    const act = await cli(["policy", "activate", "--tenant", "metro-pd", bundleFile, "--by", "admin@metro.example"]);
    expect(act.code, act.stderr).toBe(0);
    expect(JSON.parse(act.stdout)).toEqual({ ok: true, tenant: "metro-pd", active: sha });
    const entry = await fresh.db.prisma.ledgerEntry.findFirst({ where: { kind: "admin.policy.activate" } });
    expect(entry?.payload).toMatchObject({ actor: { email: "admin@metro.example", via: "cli" }, after: { bundleSha256: sha } });
    expect(JSON.parse((await cli(["policy", "list", "--tenant", "metro-pd"])).stdout)).toMatchObject({ active: sha });

    const ask = await cli([
      "ask",
      "--user",
      "det.reyes@metro.example",
      "--case",
      "case-harbor",
      "What did Lydia Dunn tell detectives about her brother Raymond Dunn?",
    ]);
    const answer = JSON.parse(ask.stdout).answer;
    expect(answer.responseType).toBe("escalated");
    const listed = (await cli(["review", "list", "--tenant", "metro-pd", "--status", "pending"])).stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(listed.map((r) => r.id)).toEqual([answer.reviewId]);
    const noNote = await cli(["review", "approve", answer.reviewId, "--by", "sup.okafor@metro.example"]);
    expect(JSON.parse(noNote.stderr).error.code).toBe("CG-REVIEW-003");
    const reject = await cli(["review", "reject", answer.reviewId, "--by", "sup.okafor@metro.example"]);
    expect(JSON.parse(reject.stdout)).toEqual({ ok: true, id: answer.reviewId, status: "rejected" });

    expect((await cli(["policy", "deactivate", "--tenant", "metro-pd", "--by", "admin@metro.example"])).code).toBe(0);
    expect(await fresh.db.prisma.ledgerEntry.count({ where: { kind: { in: ["admin.policy.deactivate", "review.reject"] } } })).toBe(2);
  });
});
