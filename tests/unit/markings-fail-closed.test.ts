// Unknown markings fail closed (issue 11 §1). Whatever a row, a Neo4j property, a session or a token holds — a marking
// another tool wrote ("SECRET//NOFORN", "secret ", null, 3, a list), a clearance this version does not know, tags that
// are not a list of strings — the policy never grants anything this reference would not. The reference is written
// apart from lib/domain, on raw values, so a reader can check it by eye against docs/architecture.md "Where policy applies".
import { fc, test } from "@fast-check/vitest";
import { describe, expect, it } from "vitest";
import {
  CLASSIFICATIONS,
  clearanceCovers,
  readClassification,
  readHeldTags,
  readLicenseUses,
  readMarking,
  readRoles,
  readTags,
  readTenantId,
  UNREADABLE,
} from "@/lib/domain/markings";
import { denialReason, evidenceDenialReason, type Viewer } from "@/lib/domain/policy";

const LEVELS = ["PUBLIC", "CUI", "CONFIDENTIAL", "SECRET", "TOP_SECRET", "TS_SCI"];
const rank = (v: unknown) => (typeof v === "string" ? LEVELS.indexOf(v) : -1);
const goodTag = (t: unknown) => typeof t === "string" && t.trim() !== "";

interface RawUser {
  tenantId: unknown;
  clearance: unknown;
  needToKnow: unknown;
}
interface RawItem {
  tenantId: unknown;
  classification: unknown;
  needToKnow: unknown;
  uses?: unknown;
}

/** May a user stored as `u` read an item stored as `i`? Raw values in, strict canonical semantics. */
function reference(u: RawUser, i: RawItem, evidence: boolean): boolean {
  if (typeof u.tenantId !== "string" || u.tenantId.trim() === "" || i.tenantId !== u.tenantId) return false;
  if (rank(i.classification) < 0 || rank(u.clearance) < 0 || rank(i.classification) > rank(u.clearance)) return false;
  if (!Array.isArray(i.needToKnow) || !i.needToKnow.every(goodTag)) return false;
  if (i.needToKnow.length > 0) {
    const held = Array.isArray(u.needToKnow) ? u.needToKnow.filter(goodTag).map((t: string) => t.trim().toLowerCase()) : [];
    if (!i.needToKnow.some((t: string) => held.includes(t.trim().toLowerCase()))) return false;
  }
  if (!evidence) return true;
  return Array.isArray(i.uses) && i.uses.some((x) => x === "ANALYZE" || x === "INTERNAL_USE" || x === "FULL_ACCESS");
}

// Values a store may hand back: the catalogue, near misses of it, aliases that are valid only on import, look-alikes,
// and anything at all.
const nearMiss = fc.constantFrom(
  "secret",
  "secret ",
  " SECRET",
  "SECRET//NOFORN",
  "TS",
  "TS/SCI",
  "TS-SCI",
  "UNCLASSIFIED",
  "U",
  "TOP SECRET",
  "ЅECRET" /* Cyrillic S */,
  "SECRET\u200b",
  "",
  "UNREADABLE",
  "__proto__",
  "constructor",
);
const markingValue = fc.oneof(fc.constantFrom(...CLASSIFICATIONS), nearMiss, fc.anything());
const tagValue = fc.oneof(fc.constantFrom("narcotics", "Narcotics ", "soc", "informants", "", "  ", "\t"), fc.anything());
const tagsValue = fc.oneof(
  fc.array(fc.constantFrom("narcotics", "soc", "informants"), { maxLength: 2 }),
  fc.array(tagValue, { maxLength: 3 }),
  fc.anything(),
);
const tenantValue = fc.oneof(fc.constantFrom("t1", "t2", "", " "), fc.anything());
const usesValue = fc.oneof(
  fc.subarray(["INGEST", "ANALYZE", "INTERNAL_USE", "EXPORT", "FULL_ACCESS"]),
  fc.array(fc.oneof(fc.constantFrom("analyze", "ANALYZE ", "FULL_ACCESS", "READ"), fc.anything()), { maxLength: 3 }),
  fc.anything(),
);
const rawUser = fc.record({ tenantId: tenantValue, clearance: markingValue, needToKnow: tagsValue });
const rawItem = fc.record({ tenantId: tenantValue, classification: markingValue, needToKnow: tagsValue, uses: usesValue });

/** The acting user as lib/auth/actor.ts reads one from a row. */
const viewerOf = (u: RawUser): Viewer => ({
  userId: "u",
  tenantId: readTenantId(u.tenantId),
  clearance: readClassification(u.clearance),
  needToKnow: readHeldTags(u.needToKnow),
});

describe("markings read from storage fail closed", () => {
  test.prop([rawUser, rawItem], { numRuns: 3000 })("a node or edge is shown only when the reference allows it", (u, i) => {
    const shown = denialReason(viewerOf(u), readMarking(i)) === null;
    if (shown) expect(reference(u, i, false)).toBe(true);
  });

  test.prop([rawUser, rawItem], { numRuns: 3000 })("evidence is shown only when the reference allows it", (u, i) => {
    const shown = evidenceDenialReason(viewerOf(u), { ...readMarking(i), licenseUses: readLicenseUses(i.uses) }) === null;
    if (shown) expect(reference(u, i, true)).toBe(true);
  });

  test.prop([rawUser, rawItem], { numRuns: 3000 })(
    "the policy functions are total: values the types do not allow still fail closed",
    (u, i) => {
      // Straight in, no read* step: what a cast (`as Classification`) used to let through.
      const shown =
        evidenceDenialReason(u as unknown as Viewer, {
          ...(i as unknown as Viewer & { classification: never; needToKnow: string[] }),
          licenseUses: i.uses as never,
        }) === null;
      if (shown) expect(reference(u, i, true)).toBe(true);
    },
  );

  test.prop([markingValue, markingValue])("clearanceCovers grants nothing outside the lattice", (clearance, marking) => {
    const covers = clearanceCovers(clearance, marking);
    expect(covers).toBe(rank(clearance) >= 0 && rank(marking) >= 0 && rank(marking) <= rank(clearance));
  });

  test.prop([
    fc.constantFrom(...CLASSIFICATIONS),
    fc.constantFrom(...CLASSIFICATIONS),
    fc.array(fc.constantFrom("narcotics", "soc"), { maxLength: 2 }),
    fc.array(fc.constantFrom("narcotics", "soc"), { maxLength: 2 }),
  ])(
    "well-formed markings keep their meaning (the read step takes nothing away from readable data)",
    (clearance, classification, held, tags) => {
      const u = { tenantId: "t1", clearance, needToKnow: held };
      const i = { tenantId: "t1", classification, needToKnow: tags, uses: ["ANALYZE"] };
      expect(evidenceDenialReason(viewerOf(u), { ...readMarking(i), licenseUses: readLicenseUses(i.uses) }) === null).toBe(
        reference(u, i, true),
      );
    },
  );
});

describe("the read step", () => {
  it("keeps only exact canonical markings; aliases, case, spaces and look-alikes are unreadable", () => {
    for (const c of CLASSIFICATIONS) expect(readClassification(c)).toBe(c);
    for (const bad of [
      "secret",
      "SECRET ",
      "SECRET//NOFORN",
      "TS",
      "UNCLASSIFIED",
      "ЅECRET",
      null,
      undefined,
      3,
      ["SECRET"],
      { level: "SECRET" },
    ]) {
      expect(readClassification(bad)).toBe(UNREADABLE);
    }
  });

  it("an item whose tags cannot be read is unreadable as a whole, never unrestricted", () => {
    for (const bad of [null, undefined, "narcotics", [null], ["narcotics", 3], [""], ["  "], { 0: "narcotics" }]) {
      expect(readTags(bad)).toBeNull();
      expect(readMarking({ tenantId: "t1", classification: "PUBLIC", needToKnow: bad }).classification).toBe(UNREADABLE);
    }
    expect(readMarking({ tenantId: "t1", classification: "PUBLIC", needToKnow: [] })).toEqual({
      tenantId: "t1",
      classification: "PUBLIC",
      needToKnow: [],
    });
  });

  it("an unreadable marking is denied with its own reason, even to the highest clearance", () => {
    const top: Viewer = { userId: "u", tenantId: "t1", clearance: "TS_SCI", needToKnow: ["narcotics"] };
    expect(denialReason(top, readMarking({ tenantId: "t1", classification: "SECRET//NOFORN", needToKnow: [] }))).toBe("unreadable_marking");
    expect(denialReason(top, readMarking({ tenantId: "t1", classification: "SECRET", needToKnow: [null] }))).toBe("unreadable_marking");
    expect(denialReason(top, readMarking({ tenantId: 7, classification: "SECRET", needToKnow: [] }))).toBe("tenant");
  });

  it("an unknown clearance sees nothing, not even PUBLIC", () => {
    const viewer = viewerOf({ tenantId: "t1", clearance: "COSMIC_TOP_SECRET", needToKnow: [] });
    for (const c of CLASSIFICATIONS)
      expect(denialReason(viewer, { tenantId: "t1", classification: c, needToKnow: [] })).toBe("classification");
  });

  it("unknown license uses and roles grant nothing", () => {
    expect(readLicenseUses(["analyze", "READ", "FULL_ACCESS", 1])).toEqual(["FULL_ACCESS"]);
    expect(readLicenseUses("ANALYZE")).toBeNull();
    expect(readRoles(["admin", "root", "Admin", null])).toEqual(["admin"]);
    expect(readRoles("admin")).toEqual([]);
  });
});
