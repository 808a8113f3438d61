"use client";
// react-query for the workbench. Reads are cached per case and retried when the failure may be temporary (never on
// access, sign-in or input errors); mutations — asking a question — are never retried: each ask is a new audited
// request.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import type { ActionResult } from "@/lib/auth/guard";

/** A failed server action, with its failure code. */
export class ActionError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ActionError";
  }
}

/** ActionResult → data, or throws ActionError (for react-query). A network failure becomes CG-SYS-002. */
export async function unwrap<T>(call: Promise<ActionResult<T>>): Promise<T> {
  let result: ActionResult<T>;
  try {
    result = await call;
  } catch {
    throw new ActionError("CG-SYS-002", "The server could not be reached.");
  }
  if (!result.ok) throw new ActionError(result.error.code, result.error.message);
  return result.data;
}

export function errorOf(err: unknown): { code: string; message: string } | null {
  if (!err) return null;
  if (err instanceof ActionError) return { code: err.code, message: err.message };
  return { code: "CG-SYS-002", message: "Something went wrong." };
}

/** Retry a read at most twice, and only when the failure may pass (unavailable store, network). */
export function retryRead(failureCount: number, err: unknown): boolean {
  if (failureCount >= 2) return false;
  return !(err instanceof ActionError && /^CG-(AUTH|ACCESS|INPUT|POLICY|THREAD)-/.test(err.code));
}

export function makeQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 60_000, gcTime: 10 * 60_000, retry: retryRead, refetchOnWindowFocus: false },
      mutations: { retry: 0 },
    },
  });
}

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(makeQueryClient);
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}
