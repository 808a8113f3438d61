// `casegraph audit artifact --request <requestId> [--out file.json]` and `audit verify-artifact <file.json>
// [--public-key <pem file|base64>]` (issue 15): the per-answer compliance artifact, and its offline check, which names
// the first thing that does not hold (exit 1, CG-GROUND-031).
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { parsePublicKey } from "../../lib/domain/checkpoint";
import { CasegraphError } from "../../lib/domain/failure-codes";
import { renderArtifact, verifyArtifact } from "../../lib/grounding/artifact";
import { complianceArtifact } from "../../lib/server/audit/artifact";
import { runtime } from "../../lib/server/runtime";
import { UsageError } from "../command";
import { assertWritable, writeOutput } from "../output";

export const ARTIFACT_USAGE = [
  "  audit artifact --request <requestId> [--out <file>]",
  "                                        the compliance artifact of one answer (entry, proof, evidence states, provenance)",
  "  audit verify-artifact <file> [--public-key <pem file|base64>]",
  "                                        check an artifact offline; exit 1 naming the first thing that does not hold",
].join("\n");

export async function artifactCommand(rest: string[]): Promise<number> {
  const { values } = parseArgs({ args: rest, options: { request: { type: "string" }, out: { type: "string" } } });
  if (!values.request) throw new UsageError("audit artifact --request <requestId> [--out <file>]");
  if (values.out) await assertWritable(values.out);
  const { db, ledger } = await runtime();
  const text = renderArtifact(await complianceArtifact(db.prisma, ledger, values.request, null, "sign"));
  await writeOutput(text, values.out);
  return 0;
}

export async function verifyArtifactCommand(rest: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { "public-key": { type: "string" } } });
  if (positionals.length !== 1) throw new UsageError("audit verify-artifact <file>");
  let text: string;
  try {
    text = await readFile(positionals[0], "utf8");
  } catch (err) {
    throw new CasegraphError("CG-GROUND-032", undefined, [], { cause: err });
  }
  const keyText = values["public-key"];
  const key = keyText ? parsePublicKey(keyText.endsWith(".pem") ? await readFile(keyText, "utf8") : keyText) : undefined;
  const report = verifyArtifact(text, key);
  console.log(JSON.stringify(report, null, 2));
  if (report.ok) return 0;
  throw new CasegraphError(
    "CG-GROUND-031",
    `The artifact does not verify: ${report.firstFailure!.check} — ${report.firstFailure!.detail}.`,
  );
}
