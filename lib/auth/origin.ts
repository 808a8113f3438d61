// Same-origin check for state-changing requests (server actions, cookie-authenticated POSTs). A browser always sends
// Origin on a cross-origin or same-origin POST; a foreign origin, the opaque `null` origin (sandboxed frames, some
// redirects, file://) and a missing Origin are all refused (CG-AUTH-005). Next.js has its own server-action check; this
// one does not rely on it.
import { CasegraphError } from "../domain/failure-codes";
import { trustedOriginList } from "./auth";

function firstValue(v: string | null): string | null {
  if (!v) return null;
  const first = v.split(",")[0]?.trim();
  return first ? first.toLowerCase() : null;
}

/** The origins this request may come from: its own host (as the proxy or the client named it) and the configured ones. */
export function allowedOrigins(h: Headers): { hosts: Set<string>; origins: Set<string> } {
  const hosts = new Set<string>();
  const forwarded = firstValue(h.get("x-forwarded-host"));
  const host = firstValue(h.get("host"));
  if (forwarded) hosts.add(forwarded);
  if (host) hosts.add(host);
  return { hosts, origins: new Set(trustedOriginList()) };
}

export function assertSameOrigin(h: Headers): void {
  const origin = h.get("origin");
  if (!origin || origin.trim() === "" || origin.trim().toLowerCase() === "null") throw new CasegraphError("CG-AUTH-005");
  let parsed: URL;
  try {
    parsed = new URL(origin.trim());
  } catch {
    throw new CasegraphError("CG-AUTH-005");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new CasegraphError("CG-AUTH-005");
  const { hosts, origins } = allowedOrigins(h);
  if (origins.has(parsed.origin)) return;
  if (hosts.has(parsed.host.toLowerCase())) return;
  throw new CasegraphError("CG-AUTH-005");
}
