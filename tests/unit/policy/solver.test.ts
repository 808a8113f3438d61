// The Z3 adapter decides exactly what the plain-TypeScript semantics (lib/policy/solver.ts holds/evaluateTests) say,
// for random tests and bindings; and a witness Z3 gives satisfies the tests it was asked about.
import { fc, test } from "@fast-check/vitest";
import { afterAll, describe, expect } from "vitest";
import { closeZ3, Z3PolicySolver } from "@/lib/adapters/solver/z3";
import type { Test } from "@/lib/policy/bundle";
import { evaluateTests, type Variables } from "@/lib/policy/solver";

const solver = new Z3PolicySolver();
afterAll(() => closeZ3());

const VARS: Variables = {
  flag: { type: "bool", values: null },
  age: { type: "int", values: null },
  amount: { type: "float", values: null },
  role: { type: "enum", values: ["admin", "investigator", "supervisor"] },
};
const cmp = fc.constantFrom("<", "<=", "==", "!=", ">=", ">" as const);
const testArb: fc.Arbitrary<Test> = fc.oneof(
  fc.record({ var: fc.constant("flag"), op: fc.constantFrom("==", "!=" as const), value: fc.boolean() }),
  fc.record({ var: fc.constant("age"), op: cmp, value: fc.integer({ min: 0, max: 60 }) }),
  fc.record({ var: fc.constant("amount"), op: cmp, value: fc.constantFrom(0, 9999.5, 10000, 25000) }),
  fc.record({
    var: fc.constant("role"),
    op: fc.constantFrom("in", "not_in" as const),
    value: fc.subarray(["admin", "investigator", "supervisor"], { minLength: 1 }),
  }),
) as fc.Arbitrary<Test>;
const bindingsArb = fc.record({
  flag: fc.boolean(),
  age: fc.integer({ min: 0, max: 60 }),
  amount: fc.constantFrom(0, 9999.5, 10000, 12000.25, 25000),
  role: fc.constantFrom("admin", "investigator", "supervisor"),
});

describe("Z3 policy solver", () => {
  test.prop([fc.array(fc.array(testArb, { maxLength: 4 }), { minLength: 1, maxLength: 5 }), bindingsArb], { numRuns: 60 })(
    "evaluates rules exactly as the reference semantics",
    async (sets, bindings) => {
      expect(await solver.evaluate(VARS, sets, bindings)).toEqual(evaluateTests(sets, bindings));
    },
  );

  test.prop([fc.array(testArb, { minLength: 1, maxLength: 4 })], { numRuns: 60 })(
    "a witness satisfies the tests; no witness means no binding does",
    async (tests) => {
      const w = await solver.witness(VARS, tests);
      if (w) expect(evaluateTests([tests], w)).toEqual([true]);
      else {
        // Exhaustive over a grid that covers every threshold the generator uses (and both sides of it).
        for (const flag of [true, false])
          for (const age of [0, 1, 29, 30, 31, 59, 60, 61])
            for (const amount of [0, 9999.5, 9999.75, 10000, 10001, 25000, 25001])
              for (const role of VARS.role!.values!) {
                expect(evaluateTests([tests], { flag, age, amount, role })).toEqual([false]);
              }
      }
    },
  );
});
