// `casegraph policy extract|compile|activate|deactivate|list` (README "Answer policies"). compile and extract need no
// database; activate/deactivate store the bundle for a tenant and write the ledger entry with its hash.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { closeZ3, Z3PolicySolver } from "../../lib/adapters/solver/z3";
import { CasegraphError } from "../../lib/domain/failure-codes";
import { env } from "../../lib/env";
import { loadBundle, serializeBundle } from "../../lib/policy/bundle";
import { compilePolicies, compileSummary } from "../../lib/policy/compile";
import { extractPolicies, regularise } from "../../lib/policy/extract";
import { parsePoliciesJsonl, policiesToJsonl } from "../../lib/policy/schema";
import { createAnswerModel } from "../../lib/adapters/model";
import { UsageError, type Command } from "../command";
import { assertWritable, writeOutput } from "../output";
import { readDocument } from "../../lib/adapters/documents/read-document";

/** Errors in what the user wrote (the policies, the bundle): exit 2 like a usage error, with the coded error on stderr. */
const INPUT_ERRORS = new Set(["CG-POLICY-080", "CG-POLICY-081", "CG-POLICY-082", "CG-POLICY-083", "CG-POLICY-084", "CG-POLICY-085"]);

async function readText(file: string, code: "CG-POLICY-080" | "CG-POLICY-082" | "CG-POLICY-088"): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch {
    throw new CasegraphError(code, `Cannot read ${file}.`, [{ path: file, message: "cannot be read" }]);
  }
}

async function run(args: string[]): Promise<number> {
  const [sub, ...rest] = args;
  if (sub === "compile") {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { out: { type: "string", default: "compiled_policy_bundle.json" } },
    });
    if (positionals.length !== 1) throw new UsageError("policy compile <policies.jsonl> [--out compiled_policy_bundle.json]");
    await assertWritable(values.out!);
    const bundle = await compilePolicies(parsePoliciesJsonl(await readText(positionals[0]!, "CG-POLICY-080")), new Z3PolicySolver());
    await writeOutput(serializeBundle(bundle), values.out);
    console.log(JSON.stringify(compileSummary(bundle), null, 2));
    return 0;
  }
  if (sub === "extract") {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { out: { type: "string", default: "policies.jsonl" } },
    });
    if (positionals.length !== 1) throw new UsageError("policy extract <doc.md|.txt|.html|.pdf|.docx> [--out policies.jsonl]");
    const file = positionals[0]!;
    await assertWritable(values.out!);
    const doc = await readDocument(file);
    const model = createAnswerModel(env());
    if (model.provider === "offline") throw new CasegraphError("CG-POLICY-087");
    const result = await extractPolicies(model, path.basename(file), regularise(doc.text, doc.kind));
    await writeOutput(result.policies.length ? policiesToJsonl(result.policies) : "", values.out);
    console.log(
      JSON.stringify(
        {
          ok: true,
          out: values.out,
          policyCount: result.policies.length,
          sections: result.sections,
          policySections: result.policySections,
          rejected: result.rejected,
        },
        null,
        2,
      ),
    );
    return 0;
  }
  if (sub === "activate" || sub === "deactivate" || sub === "list") {
    const { values, positionals } = parseArgs({
      args: rest,
      allowPositionals: true,
      options: { tenant: { type: "string" }, by: { type: "string" } },
    });
    if (!values.tenant) throw new UsageError(`policy ${sub} needs --tenant <id>`);
    const { activateBundleAsOperator, deactivateAsOperator, listBundles } = await import("../../lib/server/answers/policy-bundles");
    if (sub === "list") {
      console.log(JSON.stringify(await listBundles(values.tenant), null, 2));
      return 0;
    }
    if (sub === "activate") {
      if (positionals.length !== 1 || !values.by) throw new UsageError("policy activate --tenant <id> <bundle.json> --by <admin email>");
      const bundle = loadBundle(await readText(positionals[0]!, "CG-POLICY-082"));
      console.log(JSON.stringify(await activateBundleAsOperator(values.tenant, bundle, values.by), null, 2));
      return 0;
    }
    console.log(JSON.stringify(await deactivateAsOperator(values.tenant, values.by ?? null), null, 2));
    return 0;
  }
  throw new UsageError("policy extract | compile | activate | deactivate | list");
}

export default {
  name: "policy",
  usage: [
    "  policy extract <doc.md|.txt|.html|.pdf|.docx> [--out policies.jsonl]   propose policies with the configured generative model",
    "  policy compile <policies.jsonl> [--out compiled_policy_bundle.json]   IR, decision graph, Z3 conflicts; prints a JSON summary",
    "  policy activate --tenant <id> <bundle.json> --by <admin email>   store the bundle and enforce it on every answer",
    "  policy deactivate --tenant <id> [--by <admin email>]   stop enforcing answer policies for the tenant",
    "  policy list --tenant <id>               stored bundles, which one is active",
  ].join("\n"),
  async run(args) {
    try {
      return await run(args);
    } catch (err) {
      if (err instanceof CasegraphError && INPUT_ERRORS.has(err.code)) {
        console.error(JSON.stringify(err.toJSON(), null, 2));
        return 2;
      }
      throw err;
    } finally {
      await closeZ3();
    }
  },
} satisfies Command;
