import { describe, expect, it } from "vitest";
import { checkBundle, defaultEdgeId } from "@/lib/workspace/bundle";
import { generateBundleChunks } from "@/lib/workspace/generate";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { readBundleFile } from "@/bin/commands/import";
import { demoBundle } from "../support/demo";

const generate = (seed: number) => [...generateBundleChunks({ nodes: 300, evidence: 400, seed })].join("");

describe("bundle checks", () => {
  it("accept the demo workspace", () => {
    const { bundle, issues } = checkBundle(demoBundle());
    expect(issues).toEqual([]);
    expect(bundle!.counts.cases).toBe(3);
  });

  it("report every problem, not just the first", () => {
    const b = demoBundle();
    b.cases[0].evidence[0].classification = "NOPE";
    b.cases[1].edges[0].source = "missing";
    b.users[0].clearance = "WHATEVER";
    const { bundle, issues } = checkBundle(b);
    expect(bundle).toBeUndefined();
    expect(issues.map((i) => i.code).sort()).toEqual(["CG-IMPORT-004", "CG-IMPORT-004", "CG-IMPORT-006"]);
  });

  it("give an edge without id the id source:TYPE:target, and catch the duplicate it can make", () => {
    expect(defaultEdgeId({ source: "a", type: "KNOWS", target: "b" })).toBe("a:KNOWS:b");
    const b = demoBundle();
    const e = b.cases[0].edges[0];
    b.cases[0].edges.push({ source: e.source, target: e.target, type: e.type });
    delete e.id;
    const { issues } = checkBundle(b);
    expect(issues).toEqual([
      expect.objectContaining({ code: "CG-IMPORT-005", path: `$.cases[0].edges[${b.cases[0].edges.length - 1}].id` }),
    ]);
  });

  it("read a bundle file saved with a byte-order mark, and name a file that is not JSON (CG-IMPORT-001)", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "cg-bundle-"));
    const file = path.join(dir, "bundle.json");
    await writeFile(file, "\uFEFF" + JSON.stringify(demoBundle()));
    expect(checkBundle(await readBundleFile(file)).issues).toEqual([]);
    await writeFile(file, "{ not json");
    await expect(readBundleFile(file)).rejects.toMatchObject({ code: "CG-IMPORT-001" });
    await rm(dir, { recursive: true });
  });

  it("refuse something that is not a bundle", () => {
    expect(checkBundle([]).issues[0]).toMatchObject({ code: "CG-IMPORT-003", path: "$" });
    expect(checkBundle({}).issues[0]).toMatchObject({ code: "CG-IMPORT-002", path: "$.format" });
  });
});

describe("generator", () => {
  it("is deterministic for a seed and different across seeds", () => {
    expect(generate(7)).toBe(generate(7));
    expect(generate(7)).not.toBe(generate(8));
  });

  it("produces a valid bundle with mixed markings and evidence that names its nodes", () => {
    const raw = JSON.parse(generate(3));
    const { bundle, issues } = checkBundle(raw);
    expect(issues).toEqual([]);
    expect(bundle!.counts).toMatchObject({ nodes: 300, evidence: 400 });
    const c = raw.cases[0];
    expect(new Set(c.evidence.map((e: { classification: string }) => e.classification)).size).toBeGreaterThanOrEqual(4);
    const names = new Map(c.nodes.map((n: { id: string; properties: { name: string } }) => [n.id, n.properties.name]));
    const mentions = c.evidence.filter((e: { content: string; nodes: string[] }) => e.content.includes(names.get(e.nodes[0]) as string));
    expect(mentions.length).toBe(c.evidence.length);
  });
});
