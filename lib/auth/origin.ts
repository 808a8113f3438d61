// Same-origin check for state-changing requests (server actions, cookie-authenticated POSTs). A browser always sends
// Origin on a cross-origin or same-origin POST; a foreign origin, the opaque `null` origin (sandboxed frames, some
// redirects, file://) and a missing Origin are all refused (CG-AUTH-005). Next.js has its own server-action check; this
// one does not rely on it.
//
// Which origins count as "this app" (README "Origins"): the configured public origin (BETTER_AUTH_URL — required in
// production) and CASEGRAPH_TRUSTED_ORIGINS, compared as whole origins (scheme, host and port). Only when no public
// origin is configured (development, the embedded default) is the request's own Host header used, as http://<host>.
// X-Forwarded-Host/-Proto are never trusted: behind a proxy, configure the public origin instead.
import "server-only";
import { CasegraphError } from "../domain/failure-codes";
import { trustedOriginList } from "./auth";
import { env } from "../env";

/** The origins a state-changing request may come from. */
export function allowedOrigins(h: Headers): Set<string> {
  const origins = new Set(trustedOriginList());
  if (!env().BETTER_AUTH_URL) {
    const host = h.get("host")?.trim().toLowerCase();
    if (host && /^[a-z0-9.\-[\]:]+$/.test(host)) origins.add(`http://${host}`);
  }
  return origins;
}

export function assertSameOrigin(h: Headers): void {
  const origin = h.get("origin")?.trim();
  if (!origin || origin.toLowerCase() === "null") throw new CasegraphError("CG-AUTH-005");
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    throw new CasegraphError("CG-AUTH-005");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new CasegraphError("CG-AUTH-005");
  // The whole origin must match: scheme, host and port (an http page cannot act for the https app).
  if (!allowedOrigins(h).has(parsed.origin)) throw new CasegraphError("CG-AUTH-005");
}
