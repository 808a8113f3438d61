import { expect, it } from "vitest";
import { exportWorkspace, importBundle } from "@/lib/adapters/prisma/workspace";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { describeEachDatabase } from "../support/databases";
import { demoBundle } from "../support/demo";

type Bundle = Record<string, any>;

// Each bad bundle: a mutation of the demo, the code it must produce and (a prefix of) the JSON path it must name.
const BAD: Array<{ name: string; code: string; path: string; mutate(b: Bundle): void }> = [
  {
    name: "unknown marking on evidence",
    code: "CG-IMPORT-004",
    path: "$.cases[0].evidence[2].classification",
    mutate: (b) => {
      b.cases[0].evidence[2].classification = "RESTRICTED";
    },
  },
  {
    name: "unknown clearance on a user",
    code: "CG-IMPORT-004",
    path: "$.users[1].clearance",
    mutate: (b) => {
      b.users[1].clearance = "SUPER_SECRET";
    },
  },
  {
    name: "duplicate evidence id",
    code: "CG-IMPORT-005",
    path: "$.cases[0].evidence[4].id",
    mutate: (b) => {
      b.cases[0].evidence[4].id = b.cases[0].evidence[3].id;
    },
  },
  {
    name: "duplicate node id",
    code: "CG-IMPORT-005",
    path: "$.cases[1].nodes[5].id",
    mutate: (b) => {
      b.cases[1].nodes[5].id = b.cases[1].nodes[0].id;
    },
  },
  {
    name: "edge to a missing node",
    code: "CG-IMPORT-006",
    path: "$.cases[0].edges[0].target",
    mutate: (b) => {
      b.cases[0].edges[0].target = "no-such-node";
    },
  },
  {
    name: "evidence linked to a missing node",
    code: "CG-IMPORT-006",
    path: "$.cases[0].evidence[1].nodes[0]",
    mutate: (b) => {
      b.cases[0].evidence[1].nodes[0] = "ghost";
    },
  },
  {
    name: "unknown license",
    code: "CG-IMPORT-007",
    path: "$.cases[0].evidence[0].license",
    mutate: (b) => {
      b.cases[0].evidence[0].license = "LIC-NOPE";
    },
  },
  {
    name: "unknown tenant on a case",
    code: "CG-IMPORT-008",
    path: "$.cases[2].tenant",
    mutate: (b) => {
      b.cases[2].tenant = "nowhere";
    },
  },
  {
    name: "unknown member",
    code: "CG-IMPORT-009",
    path: "$.cases[0].members[0]",
    mutate: (b) => {
      b.cases[0].members[0] = "stranger@example.org";
    },
  },
  {
    name: "member from another tenant",
    code: "CG-IMPORT-009",
    path: "$.cases[0].members",
    mutate: (b) => {
      b.cases[0].members.push("analyst.ng@cyber.example");
    },
  },
  {
    name: "bad date",
    code: "CG-IMPORT-010",
    path: "$.cases[1].evidence[0].collectedAt",
    mutate: (b) => {
      b.cases[1].evidence[0].collectedAt = "last Tuesday";
    },
  },
  {
    name: "impossible date",
    code: "CG-IMPORT-010",
    path: "$.cases[1].evidence[1].collectedAt",
    mutate: (b) => {
      b.cases[1].evidence[1].collectedAt = "2025-13-45T00:00:00Z";
    },
  },
  {
    name: "empty content",
    code: "CG-IMPORT-011",
    path: "$.cases[0].evidence[5].content",
    mutate: (b) => {
      b.cases[0].evidence[5].content = "   ";
    },
  },
  {
    name: "unknown role",
    code: "CG-IMPORT-012",
    path: "$.users[0].roles",
    mutate: (b) => {
      b.users[0].roles = ["superuser"];
    },
  },
  {
    name: "unknown license use",
    code: "CG-IMPORT-012",
    path: "$.licenses[0].allows",
    mutate: (b) => {
      b.licenses[0].allows.push("RESELL");
    },
  },
  {
    name: "wrong format",
    code: "CG-IMPORT-002",
    path: "$.format",
    mutate: (b) => {
      b.format = "casegraph.workspace/v0";
    },
  },
  {
    name: "missing required field",
    code: "CG-IMPORT-003",
    path: "$.cases[0].evidence[0].sourceSystem",
    mutate: (b) => {
      delete b.cases[0].evidence[0].sourceSystem;
    },
  },
  {
    name: "wrong type",
    code: "CG-IMPORT-003",
    path: "$.cases[0].nodes[0].properties",
    mutate: (b) => {
      b.cases[0].nodes[0].properties = "not an object";
    },
  },
  {
    name: "unexpected field (typo)",
    code: "CG-IMPORT-003",
    path: "$.cases[0].evidence[0]",
    mutate: (b) => {
      b.cases[0].evidence[0].clasification = "SECRET";
    },
  },
  {
    name: "an ingester who is not a member of the case",
    code: "CG-IMPORT-009",
    path: "$.cases[0].ingesters[0]",
    mutate: (b) => {
      b.cases[0].ingesters = ["sup.okafor@metro.example"];
    },
  },
  {
    name: "control characters in an id",
    code: "CG-IMPORT-003",
    path: "$.cases[0].nodes[1].id",
    mutate: (b) => {
      b.cases[0].nodes[1].id = "bad\u0000id";
    },
  },
];

async function snapshot(db: Parameters<typeof exportWorkspace>[0]) {
  const counts = await db.$queryRaw<Array<Record<string, bigint>>>`SELECT (SELECT count(*) FROM "ledger") AS ledger,
    (SELECT count(*) FROM "tenant") AS tenants, (SELECT count(*) FROM "user") AS users, (SELECT count(*) FROM "case") AS cases,
    (SELECT count(*) FROM "graph_node") AS nodes, (SELECT count(*) FROM "graph_edge") AS edges,
    (SELECT count(*) FROM "evidence") AS evidence, (SELECT count(*) FROM "account") AS accounts`;
  return { counts: JSON.stringify(counts[0], (_, v) => (typeof v === "bigint" ? Number(v) : v)), text: await exportWorkspace(db) };
}

describeEachDatabase("workspace bundles", (fixture) => {
  it("rejects bad bundles into an empty database with a coded error and JSON path, writing nothing", async () => {
    const { db } = fixture();
    const before = await snapshot(db.prisma);
    for (const bad of BAD) {
      const bundle = demoBundle();
      bad.mutate(bundle);
      const err = await importBundle(db, bundle).then(
        () => null,
        (e) => e,
      );
      expect(err, bad.name).toBeInstanceOf(CasegraphError);
      const issues = (err as CasegraphError).issues;
      expect(
        issues.some((i) => i.code === bad.code && i.path?.startsWith(bad.path)),
        `${bad.name}: ${JSON.stringify(issues)}`,
      ).toBe(true);
    }
    expect(await snapshot(db.prisma)).toEqual(before);
  });

  it("imports the demo; export round-trips byte-identically; re-import changes nothing", async () => {
    const { db } = fixture();
    const summary = await importBundle(db, demoBundle());
    expect(summary.cases).toBe(3);
    expect(summary.evidence).toBeGreaterThanOrEqual(100);
    const first = await exportWorkspace(db.prisma);
    const stamps = await db.prisma.$queryRaw`SELECT id, updated_at FROM "case" ORDER BY id`;
    await importBundle(db, JSON.parse(first));
    const second = await exportWorkspace(db.prisma);
    expect(second).toBe(first);
    await importBundle(db, demoBundle()); // the original file again
    expect(await exportWorkspace(db.prisma)).toBe(first);
    expect(await db.prisma.$queryRaw`SELECT id, updated_at FROM "case" ORDER BY id`).toEqual(stamps);
    expect(first).not.toContain("casegraph-demo"); // passwords never leave the database, not even hashed
  });

  it("rejects bad bundles against a populated database and leaves it exactly as it was", async () => {
    const { db } = fixture();
    const before = await snapshot(db.prisma);
    expect(JSON.parse(before.counts).evidence).toBeGreaterThan(0);
    for (const bad of BAD) {
      const bundle = demoBundle();
      bundle.cases[0].title = "CHANGED TITLE"; // a valid change that must not land
      bad.mutate(bundle);
      await expect(importBundle(db, bundle)).rejects.toBeInstanceOf(CasegraphError);
    }
    expect(await snapshot(db.prisma)).toEqual(before);
  });

  it("rolls back everything when the database refuses a row mid-import", async () => {
    const { db } = fixture();
    const before = await snapshot(db.prisma);
    const bundle = demoBundle();
    bundle.cases[0].title = "CHANGED TITLE";
    // Valid for the bundle checks, refused by PostgreSQL: a NUL byte cannot be stored in TEXT.
    bundle.cases[1].evidence[10].content = "late failure \u0000 here";
    await expect(importBundle(db, bundle)).rejects.toMatchObject({ code: "CG-IMPORT-013" });
    expect(await snapshot(db.prisma)).toEqual(before);
  });

  it("records every change an import makes to users, memberships, licenses and tenants in the ledger, and none when nothing changed", async () => {
    const { db } = fixture();
    const entries = async (after: bigint) =>
      db.prisma.$queryRaw<
        Array<{ kind: string; case_id: string | null; payload: any }>
      >`SELECT kind, case_id, payload FROM "ledger" WHERE seq > ${after} ORDER BY seq`;
    const head = async () => (await db.prisma.$queryRaw<Array<{ s: bigint }>>`SELECT coalesce(max(seq), 0) AS s FROM "ledger"`)[0].s;
    // The demo is in already (previous tests): its first import left one entry per tenant, license, user and membership.
    const demo = demoBundle();
    const all = await entries(0n);
    const count = (kind: string) => all.filter((e) => e.kind === kind).length;
    expect(count("admin.tenant.create")).toBe(demo.tenants.length);
    expect(count("admin.license.create")).toBe(demo.licenses.length);
    expect(count("admin.user.create")).toBe(demo.users.length);
    expect(count("admin.membership.add")).toBe(demo.cases.reduce((n: number, c: any) => n + c.members.length, 0));
    expect(all.every((e) => e.payload.actor.via === "import")).toBe(true);
    expect(JSON.stringify(all)).not.toMatch(/casegraph-demo|scrypt|\$2[aby]\$/); // no password, no hash

    // Re-importing the same bundle: nothing changed, nothing recorded.
    let mark = await head();
    await importBundle(db, demoBundle());
    expect(await entries(mark)).toEqual([]);

    // A raised clearance, a new password, a new member, a changed license: one entry each, before → after.
    const changed = demoBundle();
    const kim = changed.users.find((u: any) => u.email === "analyst.kim@metro.example");
    kim.clearance = "SECRET";
    kim.password = "a-new-password-for-kim";
    changed.cases.find((c: any) => c.id === "case-ledgerline").members.push("analyst.kim@metro.example");
    changed.licenses[0].name = "Renamed license";
    mark = await head();
    await importBundle(db, changed, { actor: { userId: null, email: "cli:operator", tenantId: null, via: "import" } });
    const got = await entries(mark);
    expect(got.map((e) => e.kind).sort()).toEqual([
      "admin.license.update",
      "admin.membership.add",
      "admin.user.password_reset",
      "admin.user.update",
    ]);
    const update = got.find((e) => e.kind === "admin.user.update")!;
    expect(update.payload).toMatchObject({
      actor: { email: "cli:operator", via: "import" },
      before: { clearance: "CUI" },
      after: { clearance: "SECRET" },
    });
    expect(got.find((e) => e.kind === "admin.membership.add")!.case_id).toBe("case-ledgerline");
    expect(JSON.stringify(got)).not.toContain("a-new-password-for-kim");

    // A failed import records nothing.
    mark = await head();
    const failing = demoBundle();
    failing.users[0].clearance = "TOP_SECRET";
    failing.cases[1].evidence[10].content = "late failure \u0000 here";
    await expect(importBundle(db, failing)).rejects.toMatchObject({ code: "CG-IMPORT-013" });
    expect(await entries(mark)).toEqual([]);
    await importBundle(db, demoBundle());
  });

  it("the ingest permission travels in bundles: granted (a ledger entry) on import, exported, never revoked by a bundle without it", async () => {
    const { db } = fixture();
    const head = async () => (await db.prisma.$queryRaw<Array<{ s: bigint }>>`SELECT coalesce(max(seq), 0) AS s FROM "ledger"`)[0].s;
    const bundle = demoBundle();
    bundle.cases[0].ingesters = ["DET.REYES@metro.example"];
    const mark = await head();
    await importBundle(db, bundle);
    const recorded = await db.prisma.$queryRaw<
      Array<{ kind: string; payload: any }>
    >`SELECT kind, payload FROM "ledger" WHERE seq > ${mark}`;
    expect(recorded.map((e) => e.kind)).toEqual(["admin.membership.permissions"]);
    expect(recorded[0].payload).toMatchObject({ before: { permissions: [] }, after: { permissions: ["ingest"] } });
    const exported = JSON.parse(await exportWorkspace(db.prisma));
    expect(exported.cases[0].ingesters).toEqual(["det.reyes@metro.example"]);
    expect(exported.cases[1].ingesters).toBeUndefined();
    // Again with it, and with the original demo (no ingesters): nothing changes, nothing is revoked.
    const again = await head();
    await importBundle(db, exported);
    await importBundle(db, demoBundle());
    expect(await head()).toBe(again);
    expect(JSON.parse(await exportWorkspace(db.prisma)).cases[0].ingesters).toEqual(["det.reyes@metro.example"]);
  });

  it("export of one case carries what it needs to re-import on its own", async () => {
    const { db } = fixture();
    const one = JSON.parse(await exportWorkspace(db.prisma, { caseId: "case-nightjar" }));
    expect(one.cases.map((c: { id: string }) => c.id)).toEqual(["case-nightjar"]);
    expect(one.tenants.map((t: { id: string }) => t.id)).toEqual(["cyber-jcu"]);
    expect(one.users.every((u: { tenant: string }) => u.tenant === "cyber-jcu")).toBe(true);
  });
});
