// `casegraph user create|list`: accounts from the shell, e.g. the very first admin of a fresh install. Every change is
// a ledger entry with the operator (cli:<os user>) as the actor, like the admin pages.
import { userInfo } from "node:os";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { z } from "zod";
import type { ChangeActor } from "../../lib/admin/change";
import { clearanceSchema, emailSchema, nameSchema, passwordSchema, rolesSchema, tagsSchema } from "../../lib/admin/fields.validation";
import { createTenantAsOperator } from "../../lib/admin/tenant";
import { createUserAsOperator, randomPassword } from "../../lib/admin/users";
import { CasegraphError } from "../../lib/domain/failure-codes";
import { runtime } from "../../lib/server/runtime";
import { UsageError, type Command } from "../command";

export function cliActor(tenantId: string | null): ChangeActor {
  let who = "operator";
  try {
    who = userInfo().username;
  } catch {
    // No passwd entry (containers): keep "operator".
  }
  return { userId: null, email: `cli:${who}`, tenantId, via: "cli" };
}

function parsed<T>(schema: z.ZodType<T>, value: unknown, flag: string): T {
  const r = schema.safeParse(value);
  if (!r.success)
    throw new CasegraphError("CG-INPUT-001", `--${flag}: ${r.error.issues[0]?.message ?? "invalid"}`, [
      { path: flag, message: r.error.issues[0]?.message ?? "invalid" },
    ]);
  return r.data;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks)
    .toString("utf8")
    .replace(/\r?\n$/, "");
}

/** Reads a line without echoing it (a TTY only). */
function promptHidden(question: string): Promise<string> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    const out = rl as unknown as { _writeToOutput: (s: string) => void };
    let asked = false;
    out._writeToOutput = (s: string) => {
      if (!asked) {
        process.stderr.write(s);
        asked = true;
      }
    };
    rl.question(question, (answer) => {
      rl.close();
      process.stderr.write("\n");
      resolve(answer);
    });
  });
}

async function choosePassword(values: {
  password?: string;
  "password-stdin"?: boolean;
}): Promise<{ password: string; generated: boolean }> {
  if (values.password !== undefined) return { password: values.password, generated: false };
  if (values["password-stdin"]) return { password: await readStdin(), generated: false };
  if (process.stdin.isTTY) {
    const first = await promptHidden("Password (at least 12 characters): ");
    const again = await promptHidden("Repeat: ");
    if (first !== again) throw new CasegraphError("CG-INPUT-001", "The passwords do not match.");
    return { password: first, generated: false };
  }
  return { password: randomPassword(), generated: true };
}

const TENANT_ID = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "lower-case letters, digits and '-'");

async function create(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      email: { type: "string" },
      name: { type: "string" },
      tenant: { type: "string" },
      "tenant-name": { type: "string" },
      admin: { type: "boolean", default: false },
      role: { type: "string", multiple: true },
      clearance: { type: "string" },
      "need-to-know": { type: "string" },
      password: { type: "string" },
      "password-stdin": { type: "boolean", default: false },
    },
  });
  if (!values.email) throw new UsageError("user create needs --email");
  const { db } = await runtime();
  const email = parsed(emailSchema, values.email, "email");
  const roles = parsed(
    rolesSchema,
    [...(values.role ?? []), ...(values.admin ? ["admin"] : [])].length
      ? [...(values.role ?? []), ...(values.admin ? ["admin"] : [])]
      : ["investigator"],
    "role",
  );
  const clearance = parsed(clearanceSchema, (values.clearance ?? "PUBLIC").toUpperCase(), "clearance");
  const needToKnow = parsed(tagsSchema, values["need-to-know"] ?? "", "need-to-know");
  const name = parsed(nameSchema, values.name ?? email.split("@")[0], "name");

  // Tenant: the given one; or the only one there is; a new one needs --tenant-name (operators create tenants, admins never do).
  let tenantId = values.tenant ? parsed(TENANT_ID, values.tenant, "tenant") : undefined;
  if (!tenantId) {
    const tenants = await db.prisma.tenant.findMany({ select: { id: true }, take: 2 });
    if (tenants.length !== 1) throw new UsageError('user create needs --tenant <id> (add --tenant-name "…" to create it)');
    tenantId = tenants[0].id;
  }
  const exists = await db.prisma.tenant.findUnique({ where: { id: tenantId }, select: { id: true } });
  if (!exists) {
    if (!values["tenant-name"]) throw new UsageError(`tenant "${tenantId}" does not exist; add --tenant-name "…" to create it`);
    const tenantName = parsed(nameSchema, values["tenant-name"], "tenant-name");
    await createTenantAsOperator(db.prisma, cliActor(tenantId), { id: tenantId, name: tenantName });
    console.error(`casegraph: created tenant ${tenantId} (${tenantName})`);
  }

  const chosen = await choosePassword(values);
  const password = parsed(passwordSchema, chosen.password, "password");
  const user = await createUserAsOperator(db.prisma, cliActor(tenantId), tenantId, { email, name, roles, clearance, needToKnow, password });
  console.log(
    JSON.stringify({
      ok: true,
      user: {
        id: user.id,
        email: user.email,
        tenantId: user.tenantId,
        roles: user.roles,
        clearance: user.clearance,
        needToKnow: user.needToKnow,
      },
    }),
  );
  if (chosen.generated) console.error(`casegraph: generated password (shown once): ${password}`);
  return 0;
}

async function list(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { tenant: { type: "string" } } });
  const { db } = await runtime();
  const users = await db.prisma.user.findMany({
    where: values.tenant ? { tenantId: values.tenant } : {},
    orderBy: [{ tenantId: "asc" }, { email: "asc" }],
    select: { email: true, name: true, tenantId: true, roles: true, clearance: true, needToKnow: true, active: true },
  });
  for (const u of users) console.log(JSON.stringify(u));
  return 0;
}

export default {
  name: "user",
  usage: [
    "  user create --email <e> [--name <n>] [--tenant <id> [--tenant-name <n>]] [--admin] [--role <r>]…",
    "              [--clearance <c>] [--need-to-know a,b] [--password <p> | --password-stdin]",
    "                                        create a user (no --password: prompt on a TTY, else generate one)",
    "  user list [--tenant <id>]             list users (one JSON line each)",
  ].join("\n"),
  async run(args) {
    const [sub, ...rest] = args;
    if (sub === "create") return create(rest);
    if (sub === "list") return list(rest);
    throw new UsageError("user create | user list");
  },
} satisfies Command;
