// The solver port: compile asks it whether two rules' conditions can hold together (and for a witness), enforcement
// asks it to decide rules under the answer's bound values. The Z3 adapter (lib/adapters/solver/z3.ts) implements it;
// lib/policy stays pure. `evaluateTests` is the same semantics in plain TypeScript — the reference the Z3 adapter is
// tested against, never a replacement for it in the product.
import type { Test, WitnessValue } from "./bundle";
import type { VariableDef } from "./vocabulary";

export type Variables = Record<string, Pick<VariableDef, "type" | "values">>;
export type Bindings = Record<string, WitnessValue>;

export interface PolicySolver {
  readonly name: string;
  /** A witness (every variable the tests name → a concrete value) when all tests can hold together, else null. */
  witness(variables: Variables, tests: readonly Test[]): Promise<Bindings | null>;
  /** For each set of tests, whether all hold under `bindings` (which binds every variable they name). */
  evaluate(variables: Variables, testSets: ReadonlyArray<readonly Test[]>, bindings: Bindings): Promise<boolean[]>;
}

export function holds(t: Test, v: WitnessValue | undefined): boolean {
  if (v === undefined) return false;
  switch (t.op) {
    case "in":
      return Array.isArray(t.value) && t.value.includes(String(v));
    case "not_in":
      return Array.isArray(t.value) && !t.value.includes(String(v));
    case "==":
      return v === t.value;
    case "!=":
      return v !== t.value;
    case "<":
      return typeof v === "number" && v < (t.value as number);
    case "<=":
      return typeof v === "number" && v <= (t.value as number);
    case ">":
      return typeof v === "number" && v > (t.value as number);
    case ">=":
      return typeof v === "number" && v >= (t.value as number);
  }
}

export function evaluateTests(testSets: ReadonlyArray<readonly Test[]>, bindings: Bindings): boolean[] {
  return testSets.map((tests) => tests.every((t) => holds(t, bindings[t.var])));
}
