// better-auth, configured for Casegraph: email + password only, no public sign-up, sessions in the database (no cookie
// cache, so a deleted session or a deactivated user is refused on the very next request), scrypt password hashes.
//
// The instance is built lazily per Prisma client (never at import: `next build` evaluates modules), so the app, the CLI
// and tests each get one bound to their own database.
import "server-only";
import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import type { PrismaClient } from "../generated/prisma/client";
import { env } from "../env";
import { defaultDataDir } from "../adapters/prisma/db";
import { CasegraphError } from "../domain/failure-codes";
import { requireInProduction } from "../server/runtime/production";

/** Session lifetime: 12 hours, refreshed at most once an hour while in use. */
export const SESSION_TTL_SECONDS = 12 * 60 * 60;

/**
 * Only these better-auth endpoints are reachable over HTTP (app/api/auth/[...all]/route.ts). Sign-in goes through the
 * login page's server action (lockout + Origin check), users are created and reset by admins, never by themselves.
 * `/get-session` is not among them: it hands the raw session token to page scripts, undoing HttpOnly (issue 11 §10);
 * GET /api/me says who is signed in, without it.
 */
export const PUBLIC_AUTH_PATHS: ReadonlyArray<{ method: "GET" | "POST"; path: string }> = [{ method: "POST", path: "/sign-out" }];

/** Everything better-auth would otherwise expose that Casegraph does not use; the route's allow-list is the first wall. */
const DISABLED_PATHS = [
  "/sign-up/email",
  "/sign-in/email",
  "/sign-in/social",
  "/update-user",
  "/change-password",
  "/change-email",
  "/delete-user",
  "/delete-user/callback",
  "/request-password-reset",
  "/reset-password",
  "/verify-password",
  "/send-verification-email",
  "/verify-email",
  "/link-social",
  "/unlink-account",
  "/list-accounts",
  "/get-access-token",
  "/refresh-token",
  "/account-info",
  "/update-session",
];

function makeAuth(prisma: PrismaClient, secret: string) {
  const e = env();
  return betterAuth({
    appName: "Casegraph",
    secret,
    baseURL: e.BETTER_AUTH_URL,
    trustedOrigins: trustedOriginList(),
    database: prismaAdapter(prisma, { provider: "postgresql" }),
    emailAndPassword: {
      enabled: true,
      disableSignUp: true,
      minPasswordLength: 12,
      maxPasswordLength: 256,
      autoSignIn: false,
    },
    session: {
      expiresIn: SESSION_TTL_SECONDS,
      updateAge: 60 * 60,
      cookieCache: { enabled: false },
    },
    disabledPaths: DISABLED_PATHS,
    telemetry: { enabled: false },
    advanced: {
      cookiePrefix: "casegraph",
      // Secure cookies whenever the app is served over https (BETTER_AUTH_URL), or when forced by the operator.
      ...(e.CASEGRAPH_SECURE_COOKIES !== undefined ? { useSecureCookies: e.CASEGRAPH_SECURE_COOKIES === "1" } : {}),
      defaultCookieAttributes: { httpOnly: true, sameSite: "lax" },
    },
    databaseHooks: {
      session: {
        create: {
          // A deactivated account gets no session, whatever the password (the error stays generic).
          async before(session) {
            const user = await prisma.user.findUnique({ where: { id: session.userId }, select: { active: true } });
            if (!user?.active) return false;
          },
        },
      },
    },
    // No next-cookies plugin: lib/auth/sign-in.ts copies better-auth's Set-Cookie headers into the response itself, and
    // pages never refresh a session (its cookie expiry is an absolute 12-hour limit).
  });
}

export type CasegraphAuth = ReturnType<typeof makeAuth>;

const instances = new WeakMap<PrismaClient, Promise<CasegraphAuth>>();

/** The better-auth instance bound to this Prisma client. */
export function authFor(prisma: PrismaClient): Promise<CasegraphAuth> {
  let found = instances.get(prisma);
  if (!found) {
    found = authSecret().then((secret) => makeAuth(prisma, secret));
    instances.set(prisma, found);
  }
  return found;
}

/** Origins allowed to call state-changing endpoints besides the request's own host: BETTER_AUTH_URL and the extra list. */
export function trustedOriginList(): string[] {
  const e = env();
  const out = new Set<string>();
  if (e.BETTER_AUTH_URL) out.add(new URL(e.BETTER_AUTH_URL).origin);
  for (const o of (e.CASEGRAPH_TRUSTED_ORIGINS ?? "").split(",")) {
    const t = o.trim();
    if (!t) continue;
    try {
      out.add(new URL(t).origin);
    } catch {
      throw new CasegraphError("CG-SYS-003", "CASEGRAPH_TRUSTED_ORIGINS holds an invalid URL");
    }
  }
  return [...out];
}

let secretPromise: Promise<string> | undefined;

/**
 * BETTER_AUTH_SECRET when set; required in production (lib/server/runtime/production.ts: the server refuses to start without
 * it). Outside production, a random secret generated once and kept (mode 0600) in the data folder, so the embedded
 * default and development work without configuration.
 */
export function authSecret(): Promise<string> {
  secretPromise ??= (async () => {
    const configured = env().BETTER_AUTH_SECRET;
    if (configured) {
      if (configured.length < 32) throw new CasegraphError("CG-SYS-003", "BETTER_AUTH_SECRET must be at least 32 characters");
      return configured;
    }
    requireInProduction("BETTER_AUTH_SECRET");
    const dir = defaultDataDir();
    const file = path.join(dir, "auth-secret");
    try {
      const stored = (await readFile(file, "utf8")).trim();
      if (stored.length >= 32) return stored;
    } catch {
      // Not there yet: create it below.
    }
    await mkdir(dir, { recursive: true });
    const fresh = randomBytes(32).toString("base64url");
    await writeFile(file, fresh + "\n", { mode: 0o600, flag: "wx" }).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== "EEXIST") throw err;
    });
    await chmod(file, 0o600).catch(() => {});
    return (await readFile(file, "utf8")).trim();
  })().catch((err) => {
    secretPromise = undefined;
    throw err;
  });
  return secretPromise;
}
