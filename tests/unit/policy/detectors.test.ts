import { describe, expect, it } from "vitest";
import { DETECTORS, luhnValid, protectedHits, regexHits } from "@/lib/policy/detectors";

const found = (d: keyof typeof DETECTORS, text: string) => DETECTORS[d](text).map((h) => text.slice(h.at, h.at + h.length));

describe("answer-fact detectors", () => {
  it("SSN: dashed or spaced, labelled 9 digits; not invalid areas, phone numbers or dates", () => {
    expect(found("ssn", "Her SSN is 123-45-6789 and his is 234 56 7890.")).toEqual(["123-45-6789", "234 56 7890"]);
    expect(found("ssn", "social security number: 123456789")).toHaveLength(1);
    expect(found("ssn", "000-12-3456, 666-12-3456, 555-123-4567, 2025-04-14, 123-45-67890")).toEqual([]);
  });

  it("payment cards pass Luhn; other long digit runs do not", () => {
    expect(luhnValid("4111111111111111")).toBe(true);
    expect(luhnValid("4111111111111112")).toBe(false);
    expect(found("payment_card", "card 4111 1111 1111 1111 and 4111-1111-1111-1112, acct 0000000000000000")).toEqual([
      "4111 1111 1111 1111",
    ]);
  });

  it("phones, e-mail, credentials", () => {
    expect(found("phone", "Call +1-555-0199 or (212) 555-0147 or 555-0178; case 2025-0414 is not one")).toEqual([
      "+1-555-0199",
      "(212) 555-0147",
      "555-0178",
    ]);
    expect(found("email", "write to a.ruiz@metro.example, not to @handle")).toEqual(["a.ruiz@metro.example"]);
    expect(found("credentials", "The password is hunter22 and AKIAABCDEFGHIJKLMNOP leaked")).toEqual([
      "password is hunter22",
      "AKIAABCDEFGHIJKLMNOP",
    ]);
    expect(found("credentials", "They discussed a password policy.")).toEqual([]);
  });

  it("amounts reuse the claim checker's normalisation", () => {
    expect(found("amount", "Transfers of $48,500 and 12,000 USD; 3 people met.")).toEqual(["$48,500", "12,000 USD"]);
  });

  it("protected entities by id, name and alias, as whole words, by category", () => {
    const entities = [
      { id: "p-ci417", category: "informant", names: ["CI-417"] },
      { id: "p-j1", category: "juvenile", names: ["Tommy Vance", "T. Vance"] },
    ];
    const text = "CI-417 met Tommy Vance; CI-4170 is another record.";
    expect(protectedHits(text, entities).map((h) => [h.detector, text.slice(h.at, h.at + h.length)])).toEqual([
      ["protected:informant", "CI-417"],
      ["protected:juvenile", "Tommy Vance"],
    ]);
    expect(protectedHits(text, entities, "juvenile")).toHaveLength(1);
  });

  it("declared extractors", () => {
    expect(regexHits("speculates", "\\bclearly guilty\\b", "i", "He is Clearly Guilty.")).toEqual([
      { detector: "regex:speculates", at: 6, length: 14 },
    ]);
  });
});
