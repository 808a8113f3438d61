// `casegraph token create|revoke|list`: API tokens from the shell. `create` prints the secret once on stdout (details on
// stderr), so `TOKEN=$(npm run -s casegraph -- token create --user a@b.example)` works. Only the hash is stored.
import { parseArgs } from "node:util";
import { issueTokenAsOperator, listTokensAsOperator, revokeTokenAsOperator } from "../../lib/admin/tokens";
import { CasegraphError } from "../../lib/domain/failure-codes";
import { runtime } from "../../lib/server/runtime";
import { UsageError, type Command } from "../command";
import { cliActor } from "./user";

async function userByEmail(email: string) {
  const { db } = await runtime();
  const user = await db.prisma.user.findUnique({
    where: { email: email.trim().toLowerCase() },
    select: { id: true, email: true, tenantId: true },
  });
  if (!user) throw new CasegraphError("CG-ACCESS-003", `No user ${email}.`);
  return user;
}

export default {
  name: "token",
  usage: [
    "  token create --user <email> [--expires 7d] [--name <n>]   issue an API token (printed once)",
    "  token revoke <token-id>               revoke a token at once",
    "  token list [--user <email>]           list tokens (never the secrets)",
  ].join("\n"),
  async run(args) {
    const [sub, ...rest] = args;
    const { db } = await runtime();
    if (sub === "create") {
      const { values } = parseArgs({
        args: rest,
        options: { user: { type: "string" }, expires: { type: "string", default: "7d" }, name: { type: "string", default: "cli" } },
      });
      if (!values.user) throw new UsageError("token create needs --user <email>");
      const user = await userByEmail(values.user);
      const t = await issueTokenAsOperator(db.prisma, cliActor(user.tenantId), {
        userId: user.id,
        name: values.name!,
        expiresIn: values.expires!,
      });
      console.log(t.token);
      console.error(JSON.stringify({ ok: true, id: t.id, prefix: t.prefix, user: user.email, expiresAt: t.expiresAt.toISOString() }));
      return 0;
    }
    if (sub === "revoke") {
      const { positionals } = parseArgs({ args: rest, allowPositionals: true });
      if (positionals.length !== 1) throw new UsageError("token revoke <token-id>");
      const t = await db.prisma.apiToken.findUnique({ where: { id: positionals[0] }, select: { user: { select: { tenantId: true } } } });
      const r = await revokeTokenAsOperator(db.prisma, cliActor(t?.user.tenantId ?? null), positionals[0]);
      console.log(JSON.stringify({ ok: true, id: positionals[0], revoked: r.revoked, revokedAt: r.revokedAt.toISOString() }));
      return 0;
    }
    if (sub === "list") {
      const { values } = parseArgs({ args: rest, options: { user: { type: "string" } } });
      const userId = values.user ? (await userByEmail(values.user)).id : undefined;
      for (const t of await listTokensAsOperator(db.prisma, { userId })) {
        console.log(
          JSON.stringify({
            id: t.id,
            name: t.name,
            prefix: t.prefix,
            user: t.userEmail,
            status: t.status,
            createdAt: t.createdAt,
            expiresAt: t.expiresAt,
            lastUsedAt: t.lastUsedAt,
            createdBy: t.createdBy,
          }),
        );
      }
      return 0;
    }
    throw new UsageError("token create | token revoke | token list");
  },
} satisfies Command;
