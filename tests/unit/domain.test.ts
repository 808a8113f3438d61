import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "@/lib/domain/canonical-json";
import { CasegraphError, FAILURES, asCasegraphError, failureAreaOf } from "@/lib/domain/failure-codes";
import { CLASSIFICATIONS, clearanceCovers, parseClassification } from "@/lib/domain/markings";
import { renderFailureDocs } from "@/scripts/failure-docs";

describe("markings", () => {
  it("parses every level and the documented aliases", () => {
    for (const c of CLASSIFICATIONS) expect(parseClassification(c)).toBe(c);
    expect(parseClassification("unclassified")).toBe("PUBLIC");
    expect(parseClassification("TS")).toBe("TOP_SECRET");
    expect(parseClassification("TS-SCI")).toBe("TS_SCI");
  });

  it("never turns an unknown marking into PUBLIC", () => {
    for (const bad of ["", "RESTRICTED", "SECRET//NOFORN", "public-ish", null, 3, undefined]) {
      expect(parseClassification(bad)).toBeNull();
    }
  });

  it("orders levels PUBLIC < CUI < CONFIDENTIAL < SECRET < TOP_SECRET < TS_SCI", () => {
    expect(clearanceCovers("SECRET", "CONFIDENTIAL")).toBe(true);
    expect(clearanceCovers("SECRET", "SECRET")).toBe(true);
    expect(clearanceCovers("SECRET", "TOP_SECRET")).toBe(false);
    expect(clearanceCovers("PUBLIC", "CUI")).toBe(false);
    expect(clearanceCovers("TS_SCI", "TOP_SECRET")).toBe(true);
  });
});

describe("canonical JSON", () => {
  it("sorts keys at every depth and drops undefined", () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[{"y":2,"z":1}]},"b":1}');
  });
  it("is independent of insertion order", () => {
    expect(canonicalJson({ x: 1, y: [1, 2], z: "s" })).toBe(canonicalJson({ z: "s", y: [1, 2], x: 1 }));
  });
});

describe("failure codes", () => {
  const codes = Object.keys(FAILURES);

  it("are well-formed, unique and in a known area", () => {
    expect(new Set(codes).size).toBe(codes.length);
    for (const code of codes) {
      expect(code).toMatch(
        /^CG-(INPUT|AUTH|ACCESS|POLICY|REVIEW|GRAPH|EVIDENCE|MODEL|CITE|AUDIT|IMPORT|SYS|GROUND|EVAL|INGEST|PLAYBOOK|THREAD)-\d{3}$/,
      );
      expect(failureAreaOf(code as keyof typeof FAILURES)).toBe(code.split("-")[1]);
    }
  });

  it("each has a message and a description, and docs/failure-codes.md is current", () => {
    for (const def of Object.values(FAILURES)) {
      expect(def.message.length).toBeGreaterThan(5);
      expect(def.description.length).toBeGreaterThan(10);
    }
    expect(readFileSync("docs/failure-codes.md", "utf8")).toBe(renderFailureDocs());
  });

  it("serialise without stack, cause or driver text", () => {
    const err = asCasegraphError(new Error('relation "user" does not exist at character 15'));
    expect(err.code).toBe("CG-SYS-002");
    const json = JSON.stringify(err.toJSON());
    expect(json).not.toContain("relation");
    expect(json).not.toContain("at ");
    const coded = new CasegraphError("CG-INPUT-003");
    expect(coded.status).toBe(400);
    expect(coded.toJSON()).toEqual({ error: { code: "CG-INPUT-003", message: "The question is too long." } });
  });
});
