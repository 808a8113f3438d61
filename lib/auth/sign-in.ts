// Sign-in and sign-out. Sign-in runs in the login page's server action (lib/auth/actions), not through better-auth's
// HTTP endpoint (disabled): the action gets the same Origin check as every other action, the lockout is checked
// before better-auth sees the password, and every failure becomes one generic coded error (no user enumeration).
import "server-only";
import { parseSetCookieHeader, toCookieOptions } from "better-auth/cookies";
import type { PrismaClient } from "../generated/prisma/client";
import { CasegraphError } from "../domain/failure-codes";
import { authFor } from "./auth";
import { pruneAttempts, reserveAttempt, settleAttempt } from "./lockout";

export interface SignInResult {
  userId: string;
  /** better-auth's Set-Cookie headers (the session cookie); the caller writes them to the response. */
  setCookies: string[];
}

function clientIp(h: Headers): string | null {
  const fwd = h.get("x-forwarded-for")?.split(",")[0]?.trim();
  return (fwd || h.get("x-real-ip") || null)?.slice(0, 100) ?? null;
}

/** Only what better-auth needs to record the session; Origin is checked by the caller, cookies are not involved. */
function forwardedHeaders(h: Headers): Headers {
  const out = new Headers();
  for (const k of ["user-agent", "x-forwarded-for", "x-real-ip"]) {
    const v = h.get(k);
    if (v) out.set(k, v);
  }
  return out;
}

export async function signInWithPassword(
  prisma: PrismaClient,
  credentials: { email: string; password: string },
  h: Headers,
): Promise<SignInResult> {
  const email = credentials.email.trim().toLowerCase();
  const reservation = await reserveAttempt(prisma, email, clientIp(h));
  if (reservation.locked) throw new CasegraphError("CG-AUTH-004");
  const auth = await authFor(prisma);
  let result: { headers: Headers; response: { user: { id: string } } };
  try {
    result = await auth.api.signInEmail({
      body: { email, password: credentials.password },
      headers: forwardedHeaders(h),
      returnHeaders: true,
    });
  } catch (err) {
    await settleAttempt(prisma, reservation.attemptId, "failure");
    // Unknown email, wrong password, deactivated account: one answer for all (better-auth also hashes for unknown users,
    // so the timing matches).
    if (isApiError(err)) throw new CasegraphError("CG-AUTH-006");
    throw new CasegraphError("CG-SYS-001", undefined, [], { cause: err });
  }
  await settleAttempt(prisma, reservation.attemptId, "success");
  void pruneAttempts(prisma).catch(() => {});
  return { userId: result.response.user.id, setCookies: result.headers.getSetCookie() };
}

function isApiError(err: unknown): boolean {
  return !!err && typeof err === "object" && ("statusCode" in err || (err as Error).name === "APIError");
}

/** Ends the session named by the request's cookie (deleted in the database) and returns the cookie-clearing headers. */
export async function signOut(prisma: PrismaClient, h: Headers): Promise<string[]> {
  const auth = await authFor(prisma);
  try {
    const result = await auth.api.signOut({ headers: h, returnHeaders: true });
    return result.headers.getSetCookie();
  } catch {
    return [];
  }
}

export interface CookieJar {
  set(name: string, value: string, options: Record<string, unknown>): unknown;
}

/** Writes Set-Cookie headers into Next's cookie store (inside a server action). */
export function applySetCookies(jar: CookieJar, setCookies: string[]): void {
  for (const header of setCookies) {
    parseSetCookieHeader(header).forEach((value, name) => {
      if (!name) return;
      const options = toCookieOptions(value);
      jar.set(name, value.value, Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)));
    });
  }
}
