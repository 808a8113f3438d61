// THE authorization layer: every route handler and server action goes through one of these wrappers (never only
// middleware). Each call resolves the actor fresh from the database, checks roles, validates input with zod, and turns
// every failure into a coded error without internals.
//
// CONTRACT (fixed; the auth issue implements the bodies — until then every call is denied, which is the safe default):
//   authedRoute({ roles?, public? }, handler)   → Next.js route handler; actor from session cookie or Bearer token
//   authedAction({ roles?, input }, fn)         → server action; also rejects foreign/null/missing Origin
//   ActionResult<T>                             → what every server action returns to the client
import type { z } from "zod";
import type { Role } from "../domain/markings";
import { CasegraphError, asCasegraphError } from "../domain/failure-codes";
import type { Actor } from "./actor";

export type ActionResult<T> =
  | { ok: true; data: T }
  | { ok: false; error: { code: string; message: string; issues?: Array<{ path?: string; message: string }> } };

export interface GuardOptions {
  /** The actor must hold at least one of these roles. Omitted → any signed-in, active user. */
  roles?: Role[];
}

export type RouteContext<P> = { params: Promise<P> };

export function errorResponse(err: unknown): Response {
  const e = asCasegraphError(err);
  if (e.code === "CG-SYS-002") console.error("casegraph: unexpected error", err);
  return Response.json(e.toJSON(), { status: e.status, headers: { "Cache-Control": "no-store" } });
}

export function authedRoute<P = Record<string, never>>(
  options: GuardOptions,
  handler: (req: Request, ctx: { actor: Actor; params: P }) => Promise<Response>,
): (req: Request, ctx: RouteContext<P>) => Promise<Response> {
  void options;
  void handler;
  return async () => errorResponse(new CasegraphError("CG-AUTH-001"));
}

export function authedAction<S extends z.ZodType, T>(
  options: GuardOptions & { input: S },
  fn: (actor: Actor, input: z.infer<S>) => Promise<T>,
): (raw: z.input<S>) => Promise<ActionResult<T>> {
  void options;
  void fn;
  return async () => ({ ok: false, error: new CasegraphError("CG-AUTH-001").toJSON().error });
}
