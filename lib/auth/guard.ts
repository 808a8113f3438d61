// THE authorization layer: every route handler and server action goes through one of these wrappers (never only
// middleware). Each call resolves the actor fresh from the database, checks roles, validates input with zod, and turns
// every failure into a coded error without internals.
//
// CONTRACT (fixed):
//   authedRoute({ roles? }, handler)    → Next.js route handler; actor from `Authorization: Bearer <token>` (API token,
//                                         sha256-hashed lookup, not expired/revoked) or the better-auth session cookie;
//                                         a cookie-authenticated non-GET request must also pass the Origin check
//   authedAction({ roles?, input }, fn) → server action; rejects foreign/null/missing Origin, needs a session, checks
//                                         roles, validates `input` (zod) and reports field issues
//   ActionResult<T>                     → what every server action returns to the client
// Public endpoints (health, better-auth's own handler, the sign-in action) are listed by name in
// tests/integration/authz-matrix.test.ts; anything else that is not wrapped fails that test.
import "server-only";
import { headers } from "next/headers";
import type { z } from "zod";
import type { Role } from "../domain/markings";
import { CasegraphError, asCasegraphError } from "../domain/failure-codes";
import { runtime } from "../server/runtime";
import type { Actor } from "./actor";
import { assertSameOrigin } from "./origin";
import { actorFromRequest, actorFromSession, requireRoles } from "./session";

export type ActionResult<T> =
  { ok: true; data: T } | { ok: false; error: { code: string; message: string; issues?: Array<{ path?: string; message: string }> } };

export interface GuardOptions {
  /** The actor must hold at least one of these roles. Omitted → any signed-in, active user. */
  roles?: Role[];
  /**
   * Called when the guard refuses a request before the handler runs (credential, Origin, role, input shape), with the
   * actor when one was resolved and what was sent. Question entry points record the refusal in the ledger with it.
   * It must not throw; the refusal's response is the same either way.
   */
  onRefused?: RefusalRecorder;
}

export type RefusalRecorder = (actor: Actor | null, raw: unknown, error: CasegraphError) => Promise<void>;

const MAX_REFUSED_BODY = 64 * 1024;

/** The body of a refused request, for its ledger entry: JSON when it parses, bounded, never thrown on. */
async function refusedBody(req: Request): Promise<unknown> {
  try {
    const text = await req.text();
    return text.length <= MAX_REFUSED_BODY ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A route's JSON body, or undefined when it is over `maxChars` or not JSON: the handler's input step then answers
 * CG-INPUT-001 (and, for questions, audits it).
 */
export async function jsonBody(req: Request, maxChars = 64 * 1024): Promise<unknown> {
  const text = await req.text();
  if (text.length > maxChars) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export type RouteContext<P> = { params: Promise<P> };

/** Marks wrapped functions so the authorization test can tell them from bare exports. */
export const GUARDED = Symbol.for("casegraph.guarded");
export type GuardKind = "route" | "action";

function mark<F extends object>(f: F, kind: GuardKind, options: GuardOptions): F {
  Object.defineProperty(f, GUARDED, { value: { kind, roles: options.roles ?? [] }, enumerable: false });
  return f;
}

export function guardOf(f: unknown): { kind: GuardKind; roles: Role[] } | undefined {
  if (typeof f !== "function") return undefined;
  return (f as unknown as Record<symbol, { kind: GuardKind; roles: Role[] }>)[GUARDED];
}

export function errorResponse(err: unknown): Response {
  const e = asCasegraphError(err);
  if (e.code === "CG-SYS-002") console.error("casegraph: unexpected error", err);
  return Response.json(e.toJSON(), { status: e.status, headers: { "Cache-Control": "no-store" } });
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function authedRoute<P = Record<string, never>>(
  options: GuardOptions,
  handler: (req: Request, ctx: { actor: Actor; params: P }) => Promise<Response>,
): (req: Request, ctx: RouteContext<P>) => Promise<Response> {
  const wrapped = async (req: Request, ctx: RouteContext<P>) => {
    let actor: Actor | null = null;
    let params: P;
    try {
      const { db } = await runtime();
      actor = await actorFromRequest(db.prisma, req.headers);
      // A cookie rides along on cross-site requests; a Bearer token does not, so only cookie callers need the check.
      if (actor.via === "session" && !SAFE_METHODS.has(req.method.toUpperCase())) assertSameOrigin(req.headers);
      requireRoles(actor, options.roles);
      params = ((await ctx?.params) ?? {}) as P;
    } catch (err) {
      if (options.onRefused) await options.onRefused(actor, await refusedBody(req), asCasegraphError(err));
      return errorResponse(err);
    }
    try {
      return await handler(req, { actor, params });
    } catch (err) {
      return errorResponse(err);
    }
  };
  return mark(wrapped, "route", options);
}

export function toActionError(err: unknown): Extract<ActionResult<never>, { ok: false }> {
  const e = asCasegraphError(err);
  if (e.code === "CG-SYS-002") console.error("casegraph: unexpected error in a server action", err);
  return { ok: false, error: e.toJSON().error };
}

/** zod issues → CG-INPUT-001 with one `{ path, message }` per field problem (path like "email" or "tags.2"). */
export function inputError(error: z.ZodError): CasegraphError {
  return new CasegraphError(
    "CG-INPUT-001",
    undefined,
    error.issues.map((i) => ({ path: i.path.map(String).join("."), message: i.message })),
  );
}

export function authedAction<S extends z.ZodType, T>(
  options: GuardOptions & { input: S },
  fn: (actor: Actor, input: z.infer<S>) => Promise<T>,
): (raw: z.input<S>) => Promise<ActionResult<T>> {
  const wrapped = async (raw: z.input<S>): Promise<ActionResult<T>> => {
    let actor: Actor | null = null;
    let input: z.infer<S>;
    try {
      const h = await headers();
      const { db } = await runtime();
      try {
        assertSameOrigin(h);
      } catch (err) {
        // A forged cross-site call rides on the victim's cookie: name whose session it tried to use, if any.
        if (options.onRefused) actor = await actorFromSession(db.prisma, h).catch(() => null);
        throw err;
      }
      actor = await actorFromSession(db.prisma, h);
      requireRoles(actor, options.roles);
      const parsed = options.input.safeParse(raw);
      if (!parsed.success) throw inputError(parsed.error);
      input = parsed.data;
    } catch (err) {
      if (options.onRefused) await options.onRefused(actor, raw, asCasegraphError(err));
      return toActionError(err);
    }
    try {
      return { ok: true, data: await fn(actor, input) };
    } catch (err) {
      return toActionError(err);
    }
  };
  return mark(wrapped, "action", options);
}

/** For public server actions (sign-in): the same Origin check, no session. */
export async function assertActionOrigin(): Promise<Headers> {
  const h = await headers();
  assertSameOrigin(h);
  return h;
}
