// `casegraph override keygen | issue | apply` (issue 15): operator override tokens. `issue` signs a token offline with
// a private key file (no database needed); `apply` verifies it against CASEGRAPH_OVERRIDE_PUBLIC_KEYS and releases
// the one held request it names, writing the ledger entry first.
import { generateKeyPairSync } from "node:crypto";
import { readFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { parseDuration } from "../../lib/auth/tokens";
import { CasegraphError } from "../../lib/domain/failure-codes";
import { issueOverride, keyIdOf, readPrivateKey } from "../../lib/grounding/override";
import { applyOverride } from "../../lib/server/answers/overrides";
import { runtime } from "../../lib/server/runtime";
import { UsageError, type Command } from "../command";

export default {
  name: "override",
  usage: [
    "  override keygen                       an Ed25519 key pair: private PEM on stdout, the public key (for CASEGRAPH_OVERRIDE_PUBLIC_KEYS) on stderr",
    "  override issue --request <id> --action release --expires 1h --key <file>   sign a one-time override token",
    "  override apply <token> [--request <id>]   release the held request the token names (a ledger entry first)",
  ].join("\n"),
  async run(args) {
    const [sub, ...rest] = args;
    if (sub === "keygen") {
      const { privateKey, publicKey } = generateKeyPairSync("ed25519");
      console.log(privateKey.export({ format: "pem", type: "pkcs8" }).toString().trim());
      console.error(
        JSON.stringify({ keyId: keyIdOf(publicKey), publicKey: publicKey.export({ format: "der", type: "spki" }).toString("base64") }),
      );
      return 0;
    }
    if (sub === "issue") {
      const { values } = parseArgs({
        args: rest,
        options: {
          request: { type: "string" },
          action: { type: "string", default: "release" },
          expires: { type: "string", default: "1h" },
          key: { type: "string" },
        },
      });
      if (!values.request || !values.key) throw new UsageError("override issue --request <id> --action release --expires 1h --key <file>");
      if (values.action !== "release") throw new CasegraphError("CG-GROUND-020", "The only override action is release.");
      const ms = parseDuration(values.expires!);
      if (ms === null) throw new UsageError("--expires like 15m, 1h or 1d");
      let pem: string;
      try {
        pem = await readFile(values.key, "utf8");
      } catch (err) {
        throw new CasegraphError("CG-GROUND-027", undefined, [], { cause: err });
      }
      console.log(issueOverride(readPrivateKey(pem), { request: values.request, action: "release", expiresAt: new Date(Date.now() + ms) }));
      return 0;
    }
    if (sub === "apply") {
      const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options: { request: { type: "string" } } });
      if (positionals.length !== 1) throw new UsageError("override apply <token> [--request <id>]");
      const { db } = await runtime();
      console.log(JSON.stringify({ ok: true, ...(await applyOverride(db.prisma, positionals[0], { request: values.request })) }));
      return 0;
    }
    throw new UsageError("override keygen | override issue … | override apply <token>");
  },
} satisfies Command;
