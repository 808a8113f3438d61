// The ledger's checkpoint witness is kept per database: the label that keys it names the database and nothing else.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { databaseLabel } from "@/lib/adapters/prisma/db";
import { WITNESS_FILE, witnessSlot } from "@/lib/server/ledger/checkpoint-witness";

describe("the database a checkpoint witness is kept for", () => {
  it("is named by host, port and database, without credentials or options", () => {
    expect(databaseLabel(undefined)).toBe("embedded");
    expect(databaseLabel("")).toBe("embedded");
    expect(databaseLabel("postgresql://app:s3cret@DB.Example:6543/cases?application_name=x")).toBe("postgresql://db.example:6543/cases");
    expect(databaseLabel("postgres://app@localhost/cases")).toBe("postgresql://localhost:5432/cases");
    // libpq's defaults: a Unix socket directory in ?host=, and the user's name when no database is given.
    expect(databaseLabel("postgresql://app@/cases?host=/run/postgresql")).toBe("postgresql:///run/postgresql:5432/cases");
    expect(databaseLabel("postgresql://app:pw@db.example")).toBe("postgresql://db.example:5432/app");
  });

  it("gives each database its own file in the data folder; the embedded one keeps ledger-checkpoint.json", () => {
    const dir = "/srv/casegraph";
    expect(witnessSlot(dir, "embedded").file).toBe(path.join(dir, WITNESS_FILE));
    const urls = [
      "postgresql://app:s3cret@db.example:5432/cases",
      "postgresql://db.example:5432/cases2",
      "postgresql://db.example:5433/cases",
      "postgresql://other.example:5432/cases",
      "postgresql://db.example:5432/a-b",
      "postgresql://db.example:5432/a_b",
      "postgresql://db.example:5432/a b",
    ];
    const files = urls.map((u) => witnessSlot(dir, databaseLabel(u)).file);
    expect(new Set([...files, path.join(dir, WITNESS_FILE)]).size).toBe(urls.length + 1);
    for (const f of files) {
      expect(path.dirname(f)).toBe(dir);
      expect(path.basename(f)).toMatch(/^ledger-checkpoint\.[A-Za-z0-9._-]+\.json$/);
      expect(f).not.toContain("s3cret");
    }
    expect(witnessSlot(dir, databaseLabel(urls[0])).file).toBe(witnessSlot(dir, databaseLabel("postgres://x:y@DB.example/cases")).file);
  });
});
