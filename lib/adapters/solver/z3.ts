// The policy solver on Z3 (the npm package z3-solver: Z3 compiled to wasm, no native code, nothing downloaded).
// Compile asks it for a witness that two rules' conditions hold together (solver.check, async); enforcement asks it to
// decide rules under concrete values, which needs no search: the values go into a Z3 model and every rule's condition
// is evaluated there (model.eval, synchronous, well under a millisecond warm). Z3 is initialised once per process.
// Encoding: bool → Bool, int → Int, float → Real, enum → Int in [0, n) indexing the variable's sorted values.
import "server-only";
import { init } from "z3-solver";
import { CasegraphError } from "../../domain/failure-codes";
import type { Test } from "../../policy/bundle";
import type { Bindings, PolicySolver, Variables } from "../../policy/solver";

import type { Context } from "z3-solver";

type Ctx = Context<"policy">;

const key = Symbol.for("casegraph.z3");
type Holder = { [key]?: Promise<{ ctx: Ctx; terminate: () => void }> };

function z3(): Promise<{ ctx: Ctx; terminate: () => void }> {
  const holder = globalThis as Holder;
  holder[key] ??= init()
    .then((api) => ({
      ctx: api.Context("policy"),
      terminate: () => void (api.em as { PThread?: { terminateAllThreads(): void } }).PThread?.terminateAllThreads(),
    }))
    .catch((err) => {
      delete holder[key];
      throw new CasegraphError("CG-POLICY-086", undefined, [], { cause: err });
    });
  return holder[key]!;
}

/** Loads Z3 now (a server warms it at start so the first answer does not pay ~0.2 s). */
export async function warmZ3(): Promise<void> {
  await z3();
}

/** Stops Z3's worker threads (a CLI process would otherwise wait for them). */
export async function closeZ3(): Promise<void> {
  const holder = globalThis as Holder;
  const current = holder[key];
  delete holder[key];
  if (current) (await current.catch(() => null))?.terminate();
}

export class Z3PolicySolver implements PolicySolver {
  readonly name = "z3";
  private ready?: Ctx;

  async witness(variables: Variables, tests: readonly Test[]) {
    const { ctx } = await z3();
    const enc = new Encoder(ctx, variables);
    const solver = new ctx.Solver();
    for (const t of tests) solver.add(enc.test(t));
    for (const d of enc.domains()) solver.add(d);
    const result = await solver.check();
    if (result === "unknown") throw new CasegraphError("CG-POLICY-086", "Z3 could not decide a pair of rules.");
    if (result === "unsat") return null;
    const model = solver.model();
    const out: Bindings = {};
    for (const name of [...new Set(tests.map((t) => t.var))].sort()) out[name] = enc.decode(name, model.eval(enc.constOf(name), true));
    return out;
  }

  async evaluate(variables: Variables, testSets: ReadonlyArray<readonly Test[]>, bindings: Bindings): Promise<boolean[]> {
    const ctx = (this.ready ??= (await z3()).ctx);
    const enc = new Encoder(ctx, variables);
    const model = new ctx.Model();
    for (const [name, value] of Object.entries(bindings)) {
      if (!variables[name]) continue;
      model.updateValue(enc.constOf(name).decl(), enc.value(name, value));
    }
    return testSets.map((tests) => {
      if (tests.length === 0) return true;
      const result = model.eval(ctx.And(...tests.map((t) => enc.test(t))), true);
      if (ctx.isTrue(result)) return true;
      if (ctx.isFalse(result)) return false;
      throw new CasegraphError("CG-POLICY-086", "Z3 could not decide a rule under the bound values.");
    });
  }
}

class Encoder {
  private consts = new Map<string, any>();
  constructor(
    private readonly ctx: Ctx,
    private readonly variables: Variables,
  ) {}

  private def(name: string) {
    const d = this.variables[name];
    if (!d) throw new CasegraphError("CG-POLICY-085", `Unknown variable "${name}".`);
    return d;
  }

  constOf(name: string): any {
    let c = this.consts.get(name);
    if (!c) {
      const { type } = this.def(name);
      c = type === "bool" ? this.ctx.Bool.const(name) : type === "float" ? this.ctx.Real.const(name) : this.ctx.Int.const(name);
      this.consts.set(name, c);
    }
    return c;
  }

  /** An enum's range constraint for every enum constant used. */
  domains(): any[] {
    return [...this.consts.keys()]
      .filter((n) => this.def(n).type === "enum")
      .map((n) => this.ctx.And(this.constOf(n).ge(0), this.constOf(n).lt(this.def(n).values!.length)));
  }

  value(name: string, v: boolean | number | string): any {
    const d = this.def(name);
    switch (d.type) {
      case "bool":
        return this.ctx.Bool.val(v === true);
      case "int":
        return this.ctx.Int.val(Math.trunc(Number(v)));
      case "float":
        return this.ctx.Real.val(String(Number(v)));
      case "enum": {
        const i = d.values!.indexOf(String(v));
        return this.ctx.Int.val(i); // -1 for a value outside the domain: equal to none of them
      }
    }
  }

  test(t: Test): any {
    const c = this.constOf(t.var);
    const d = this.def(t.var);
    if (d.type === "enum") {
      const idx = (t.value as string[]).map((v) => d.values!.indexOf(v)).filter((i) => i >= 0);
      const any = idx.length ? this.ctx.Or(...idx.map((i) => c.eq(i))) : this.ctx.Bool.val(false);
      return t.op === "not_in" ? this.ctx.Not(any) : any;
    }
    const v = this.value(t.var, t.value as boolean | number);
    switch (t.op) {
      case "==":
        return c.eq(v);
      case "!=":
        return c.neq(v);
      case "<":
        return c.lt(v);
      case "<=":
        return c.le(v);
      case ">":
        return c.gt(v);
      case ">=":
        return c.ge(v);
      default:
        throw new CasegraphError("CG-POLICY-085", `Operator ${t.op} on ${d.type} variable "${t.var}".`);
    }
  }

  decode(name: string, e: any): boolean | number | string {
    const d = this.def(name);
    if (d.type === "bool") return this.ctx.isTrue(e);
    if (d.type === "float") {
      const { numerator, denominator } = e.value() as { numerator: bigint; denominator: bigint };
      return Number(numerator) / Number(denominator);
    }
    const n = Number(e.value() as bigint);
    return d.type === "enum" ? d.values![n]! : n;
  }
}
