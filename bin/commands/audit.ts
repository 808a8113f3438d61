import { readFile } from "node:fs/promises";
import { parseArgs as nodeParseArgs, type ParseArgsConfig } from "node:util";
import { loadActor } from "../../lib/auth/actor";
import { generateSigningKey, parsePublicKey } from "../../lib/domain/checkpoint";
import { canonicalJsonPretty } from "../../lib/domain/canonical-json";
import { CasegraphError } from "../../lib/domain/failure-codes";
import { verifyProofFile } from "../../lib/domain/ledger-proof";
import { appRoleSql } from "../../lib/adapters/prisma/ledger-roles";
import { env } from "../../lib/env";
import { evidenceRevocations, exportAndRecord } from "../../lib/server/audit/export";
import { assertExportsAllowed } from "../../lib/server/runtime/kill-switches";
import { consistencyProofFor, inclusionProofFor } from "../../lib/server/audit/proofs";
import { runDeploymentRetention } from "../../lib/server/ledger/maintenance";
import { runtime } from "../../lib/server/runtime";
import { verifyLedger } from "../../lib/server/ledger/verify";
import { UsageError, type Command } from "../command";
import { assertWritable, writeOutput } from "../output";
import { ARTIFACT_USAGE, artifactCommand, verifyArtifactCommand } from "./audit-artifact";

const USAGE = [
  "  audit verify [--public-key <pem file|base64>] [--checkpoint <file>]...",
  "                                        full walk: chain, entry hashes, Merkle subtrees, signed checkpoints, truncation,",
  "                                        append-only triggers; exit 1 naming the first bad seq. Checkpoints kept outside",
  "                                        the tables (this database's in the data folder, and each --checkpoint file",
  "                                        saved from GET /api/audit/checkpoint or a proof) must still hold",
  "  audit checkpoint                      sign a checkpoint at the head now (prints it)",
  "  audit proof --seq <n> [--size <m>] [--out <file>]",
  "                                        inclusion proof of entry n against the signed checkpoint at size m",
  "  audit proof --from <a> [--to <b>] [--out <file>]",
  "                                        consistency proof between the signed checkpoints at sizes a and b (b: head)",
  "  audit verify-proof <file> [--public-key <pem file|base64>]",
  "                                        check an exported proof offline with nothing but the public key",
  "  audit export --from <seq|ISO date> --to <seq|ISO date> [--out <file>] [--csv] [--tenant <id>] [--no-question-text] [--user <email>]",
  "                                        compliance artifact (deterministic JSON) or CSV; recorded in the ledger",
  "  audit retention [--days <n>]          erase stored question text older than AUDIT_RETENTION_DAYS (chain untouched)",
  "  audit public-key                      the checkpoint verification key (PEM)",
  "  audit keygen                          a new Ed25519 key for CASEGRAPH_LEDGER_SIGNING_KEY",
  "  audit app-role <role>                 SQL granting an application role that cannot disable the ledger's protection",
  ARTIFACT_USAGE,
].join("\n");

/** node:util parseArgs, with its argument errors reported as usage errors (exit 2) instead of internal ones. */
function parseArgs<const T extends ParseArgsConfig>(config: T): ReturnType<typeof nodeParseArgs<T>> {
  try {
    return nodeParseArgs(config);
  } catch (err) {
    if ((err as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      throw new UsageError(`${(err as Error).message.split("\n")[0]} (a PEM key as a value needs --public-key=<PEM> or a file path)`);
    }
    throw err;
  }
}

async function keyArg(value: string | undefined) {
  if (!value) return undefined;
  // A file path, or the key itself (PEM text or base64 SPKI).
  const text = value.includes("BEGIN") ? value : await readFile(value, "utf8").catch(() => value);
  try {
    return parsePublicKey(text);
  } catch (err) {
    throw new CasegraphError("CG-INPUT-005", "--public-key must be an Ed25519 public key (PEM file, PEM text or base64 SPKI).", [], {
      cause: err,
    });
  }
}

const intArg = (name: string, v: string | undefined): number | undefined => {
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new UsageError(`--${name} must be a whole number`);
  return Number(v);
};

function fail(code: "CG-AUDIT-002" | "CG-AUDIT-004" | "CG-AUDIT-011", message: string): number {
  console.error(JSON.stringify(new CasegraphError(code, message).toJSON()));
  return 1;
}

export default {
  name: "audit",
  usage: USAGE,
  async run(args) {
    const [sub, ...rest] = args;
    switch (sub) {
      case "verify": {
        const { values } = parseArgs({
          args: rest,
          options: { "public-key": { type: "string" }, checkpoint: { type: "string", multiple: true } },
        });
        const { ledger } = await runtime();
        const report = await verifyLedger(ledger, { publicKey: await keyArg(values["public-key"]), checkpointFiles: values.checkpoint });
        console.log(JSON.stringify(report));
        if (report.ok) return 0;
        const cp = report.badCheckpoint;
        if (report.firstBad?.fault === "truncated" && cp) {
          return fail(
            "CG-AUDIT-011",
            `The ledger holds ${report.size} entries, but the signed checkpoint at tree size ${cp.treeSize} (signed ${cp.time}, key ${cp.keyId}, kept in ${cp.source}) shows it held ${cp.treeSize}: entries from seq ${report.size + 1} were removed.`,
          );
        }
        if (report.firstBad && cp) {
          return fail(
            "CG-AUDIT-002",
            `The ledger breaks at seq ${report.firstBad.seq} (${report.firstBad.fault}) against the signed checkpoint at tree size ${cp.treeSize} kept in ${cp.source}.`,
          );
        }
        if (report.firstBad) return fail("CG-AUDIT-002", `The ledger breaks at seq ${report.firstBad.seq} (${report.firstBad.fault}).`);
        return fail("CG-AUDIT-002", `The ledger's database protection is not intact: ${report.protectionProblems?.join("; ")}.`);
      }
      case "artifact":
        return artifactCommand(rest);
      case "verify-artifact":
        return verifyArtifactCommand(rest);
      case "checkpoint": {
        const { ledger } = await runtime();
        const head = await ledger.head();
        const cp = await ledger.checkpoint(head.size);
        console.log(JSON.stringify(cp));
        return 0;
      }
      case "proof": {
        const { values } = parseArgs({
          args: rest,
          options: {
            seq: { type: "string" },
            size: { type: "string" },
            from: { type: "string" },
            to: { type: "string" },
            out: { type: "string" },
          },
        });
        if (values.out) await assertWritable(values.out);
        const { ledger } = await runtime();
        let file: unknown;
        if (values.seq !== undefined)
          file = await inclusionProofFor(ledger, intArg("seq", values.seq)!, intArg("size", values.size), "sign");
        else if (values.from !== undefined)
          file = await consistencyProofFor(ledger, intArg("from", values.from)!, intArg("to", values.to), "sign");
        else throw new UsageError("audit proof needs --seq <n> or --from <a>");
        await writeOutput(canonicalJsonPretty(file), values.out);
        return 0;
      }
      case "verify-proof": {
        const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { "public-key": { type: "string" } } });
        if (positionals.length !== 1) throw new UsageError("audit verify-proof <file>");
        let parsed: unknown;
        try {
          parsed = JSON.parse(await readFile(positionals[0], "utf8"));
        } catch (err) {
          throw new CasegraphError("CG-INPUT-001", `${positionals[0]} is not a readable JSON file.`, [], { cause: err });
        }
        const report = verifyProofFile(parsed, await keyArg(values["public-key"]));
        console.log(JSON.stringify(report, null, 2));
        if (report.ok && report.keySource === "embedded") {
          console.error("note: checked against the public key inside the file; pass --public-key to check against the key you trust");
        }
        return report.ok
          ? 0
          : fail(
              "CG-AUDIT-004",
              `The proof does not verify: ${report.checks
                .filter((c) => !c.ok)
                .map((c) => c.name)
                .join(", ")}.`,
            );
      }
      case "export": {
        const { values } = parseArgs({
          args: rest,
          options: {
            from: { type: "string" },
            to: { type: "string" },
            out: { type: "string" },
            csv: { type: "boolean" },
            tenant: { type: "string" },
            "no-question-text": { type: "boolean" },
            user: { type: "string" },
          },
        });
        if (!values.from || !values.to) throw new UsageError("audit export needs --from and --to (sequence numbers or ISO dates)");
        if (values.out) await assertWritable(values.out);
        const { ledger, db } = await runtime();
        const isSeq = (v: string) => /^\d+$/.test(v);
        let fromSeq: number;
        let toSeq: number;
        if (isSeq(values.from) && isSeq(values.to)) {
          fromSeq = Number(values.from);
          toSeq = Number(values.to);
        } else {
          const dates = [values.from, values.to].map((v) => (Number.isNaN(Date.parse(v)) ? null : new Date(v).toISOString()));
          if (dates.includes(null)) throw new UsageError("--from/--to must both be sequence numbers or both ISO dates");
          ({ fromSeq, toSeq } = await ledger.seqRange(dates[0]!, dates[1]!));
          if (fromSeq > toSeq) throw new CasegraphError("CG-INPUT-005", "No ledger entries fall in that date range.");
        }
        const actor = values.user ? await loadActor(db.prisma, { email: values.user }, "cli") : null;
        await assertExportsAllowed(db.prisma, values.tenant ?? actor?.tenantId ?? "any tenant"); // DISABLE_EXPORTS
        const result = await exportAndRecord(
          ledger,
          {
            fromSeq,
            toSeq,
            tenantId: values.tenant ?? null,
            includeQuestionText: !values["no-question-text"],
            revocations: evidenceRevocations(db.prisma),
          },
          actor
            ? { userId: actor.userId, email: actor.email, tenantId: actor.tenantId, via: "cli" }
            : { userId: null, email: null, tenantId: null, via: `cli:${process.env.USER ?? "operator"}` },
          values.csv ? "csv" : "json",
        );
        await writeOutput(result.text, values.out);
        console.error(JSON.stringify({ entries: result.entryCount, sha256: result.sha256, recordedAtSeq: result.recordedSeq }));
        return 0;
      }
      case "retention": {
        const { values } = parseArgs({ args: rest, options: { days: { type: "string" } } });
        const days = intArg("days", values.days) ?? env().AUDIT_RETENTION_DAYS;
        if (days < 1) throw new UsageError("--days must be at least 1");
        console.log(JSON.stringify(await runDeploymentRetention(days)));
        return 0;
      }
      case "public-key": {
        const { ledger } = await runtime();
        const k = await ledger.publicKey();
        if (!k) throw new CasegraphError("CG-AUDIT-003");
        process.stdout.write(k.publicKeyPem);
        console.error(`keyId ${k.keyId}`);
        return 0;
      }
      case "keygen": {
        const k = generateSigningKey();
        process.stdout.write(k.privateKeyPem);
        console.error(
          `keyId ${k.keyId}\npublic key:\n${k.publicKeyPem}Set CASEGRAPH_LEDGER_SIGNING_KEY to the private key above (keep it secret; it signs checkpoints).`,
        );
        return 0;
      }
      case "app-role": {
        if (rest.length !== 1) throw new UsageError("audit app-role <role>");
        process.stdout.write(appRoleSql(rest[0]));
        return 0;
      }
      default:
        throw new UsageError(sub ? `unknown audit command "${sub}"` : "audit needs a subcommand");
    }
  },
} satisfies Command;
