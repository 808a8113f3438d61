// Issue 16: the catalogue is filtered in the database. For random catalogues (unreadable labels and other tenants'
// playbooks included) and random askers, the SQL store returns exactly what the reference (lib/playbooks/filter.ts)
// returns: the same candidates in the same order with the same confidences, the same counts by label and the same
// catalogue version — on PGlite and on the real PostgreSQL.
import { fc } from "@fast-check/vitest";
import { beforeAll, expect, it } from "vitest";
import { PrismaPlaybookCatalogue } from "@/lib/adapters/prisma/playbook-store";
import { selectFromRows, type StoredPlaybook } from "@/lib/playbooks/filter";
import { describeEachDatabase } from "../support/databases";
import { catalogueArb, queryArb, type PlaybookRow } from "../support/playbook-arbitraries";
import type { Database } from "@/lib/adapters/prisma/db";

/** Replaces the catalogue (the test database only: playbooks are never deleted otherwise; TRUNCATE fires no row trigger). */
async function load(db: Database, rows: PlaybookRow[]): Promise<StoredPlaybook[]> {
  return db.transaction(async (sql) => {
    await sql.exec(`TRUNCATE "playbook"`);
    const out: StoredPlaybook[] = [];
    for (const r of rows) {
      const { rows: back } = await sql.query<{ revision: string }>(
        `INSERT INTO "playbook" (owner, id, version, description, terms, case_types, jurisdictions, required_authority,
           min_clearance, risk_level, need_to_know, active, updated_by)
         VALUES ($1, $2, $3, $4, $5::text[], $6::text[], $7::text[], $8, $9::"Classification", $10, $11::text[], $12, 'test')
         RETURNING revision::text`,
        [
          r.owner,
          r.id,
          r.version,
          r.description,
          r.terms,
          r.caseTypes,
          r.jurisdictions,
          r.requiredAuthority,
          r.minClearance,
          r.riskLevel,
          r.needToKnow,
          r.active,
        ],
      );
      out.push({ ...r, revision: Number(back[0].revision) });
    }
    return out;
  });
}

describeEachDatabase("playbook filter in SQL = the reference", (fixture) => {
  let store: PrismaPlaybookCatalogue;
  beforeAll(() => {
    store = new PrismaPlaybookCatalogue(fixture().db.prisma);
  });

  it("agrees on random catalogues and askers (candidates, order, confidence, counts by label, version)", async () => {
    await fc.assert(
      fc.asyncProperty(catalogueArb, fc.array(queryArb, { minLength: 1, maxLength: 4 }), async (rows, queries) => {
        const stored = await load(fixture().db, rows);
        for (const q of queries) expect(await store.select(q)).toEqual(selectFromRows(stored, q));
      }),
      { numRuns: 40 },
    );
  });

  it("allowed() re-checks ids with the same labels (no ranking, no limit)", async () => {
    await fc.assert(
      fc.asyncProperty(catalogueArb, queryArb, async (rows, q) => {
        const stored = await load(fixture().db, rows);
        const all = selectFromRows(stored, { ...q, minConfidence: 0, maxResults: 1_000 })
          .candidates.map((c) => c.id)
          .sort();
        const got = (await store.allowed(q, rows.map((r) => r.id).concat("pb-unknown"))).map((r) => r.id);
        expect(got).toEqual(all);
      }),
      { numRuns: 25 },
    );
  });

  it("refuses to delete a playbook, and a tenant id that clashes with a shared one", async () => {
    const { db } = fixture();
    await load(db, []);
    const insert = (owner: string, id: string) =>
      db.prisma.$executeRawUnsafe(
        `INSERT INTO "playbook" (owner, id, version, description, required_authority, min_clearance, risk_level, updated_by)
         VALUES ($1, $2, 'v1', 'x', 'none', 'PUBLIC', 'low', 'test')`,
        owner,
        id,
      );
    await insert("*", "shared-1");
    await insert("metro", "own-1");
    await insert("cyber", "own-1"); // two tenants may each have their own
    await expect(insert("metro", "shared-1")).rejects.toThrow();
    await expect(insert("*", "own-1")).rejects.toThrow();
    await expect(db.prisma.$executeRawUnsafe(`DELETE FROM "playbook" WHERE id = 'own-1'`)).rejects.toThrow();
    const before = await db.prisma.playbook.findUnique({ where: { owner_id: { owner: "metro", id: "own-1" } } });
    await db.prisma.$executeRawUnsafe(`UPDATE "playbook" SET description = 'y' WHERE owner = 'metro' AND id = 'own-1'`);
    const after = await db.prisma.playbook.findUnique({ where: { owner_id: { owner: "metro", id: "own-1" } } });
    expect(after!.revision > before!.revision).toBe(true);
  });
});
