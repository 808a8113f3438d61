// Next.js 16's proxy (formerly middleware), in front of every page and route:
// - refuses URLs whose path or query holds control characters, malformed percent-encoding or over-long values, with a
//   coded 400 before anything reads them (issue 11 §12);
// - gives every page a fresh CSP nonce: script-src allows only scripts carrying it ('strict-dynamic' extends that to
//   the scripts they load), so no inline script without the nonce runs — no 'unsafe-inline' (issue 11 §10);
// - sends a visitor with no session cookie asking for an app page to /login?next=… (an optimistic redirect only: every
//   page, action and route checks the session again on the server — lib/auth/current.ts, lib/auth/guard.ts).
import { NextResponse, type NextRequest } from "next/server";
import { decodeUrlPart, urlValueProblem } from "./lib/domain/request-text";

const SESSION_COOKIES = ["casegraph.session_token", "__Secure-casegraph.session_token"];
const SIGNED_IN_AREAS = ["/cases", "/admin", "/audit", "/account"];
const isDev = process.env.NODE_ENV !== "production";

export function contentSecurityPolicy(nonce: string, dev = isDev): string {
  return [
    "default-src 'self'",
    // Dev needs eval for React's debugging tools; production never.
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    // PDF.js renders PDFs in a worker loaded from this origin (the document viewer, issue 17).
    "worker-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

function badRequest(request: NextRequest, detail: string): NextResponse {
  const body = { error: { code: "CG-INPUT-005", message: "A parameter is out of range.", issues: [{ path: "url", message: detail }] } };
  if (request.nextUrl.pathname.startsWith("/api/") || !(request.headers.get("accept") ?? "").includes("text/html")) {
    return NextResponse.json(body, { status: 400, headers: { "Cache-Control": "no-store" } });
  }
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bad request · Casegraph</title></head>` +
    `<body><main><h1>Bad request</h1><p>CG-INPUT-005: the address holds characters or values Casegraph does not accept.</p>` +
    `<p><a href="/">Back to Casegraph</a></p></main></body></html>`;
  return new NextResponse(html, { status: 400, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
}

/** The first problem with the URL's path segments or query values, or null. */
export function urlProblem(pathname: string, search: string): string | null {
  const parts = [
    ...pathname.split("/"),
    ...search
      .replace(/^\?/, "")
      .split("&")
      .flatMap((kv) => kv.split("=")),
  ];
  for (const raw of parts) {
    if (!raw) continue;
    const value = decodeUrlPart(raw);
    if (value === null) return "malformed percent-encoding";
    const problem = urlValueProblem(value);
    if (problem) return problem === "control_characters" ? "control characters" : "a value longer than 500 characters";
  }
  return null;
}

export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const problem = urlProblem(request.nextUrl.pathname, search);
  if (problem) return badRequest(request, problem);

  if (SIGNED_IN_AREAS.some((a) => pathname === a || pathname.startsWith(a + "/")) && !SESSION_COOKIES.some((n) => request.cookies.has(n))) {
    const url = request.nextUrl.clone();
    url.pathname = "/login";
    url.search = `?next=${encodeURIComponent(pathname + search)}`;
    return NextResponse.redirect(url);
  }

  const headers = new Headers(request.headers);
  headers.set("x-casegraph-path", pathname + search);
  if (pathname.startsWith("/api/")) return NextResponse.next({ request: { headers } });
  // Next.js reads the nonce from the request's CSP header and puts it on the scripts it renders.
  const nonce = Buffer.from(crypto.randomUUID()).toString("base64");
  const csp = contentSecurityPolicy(nonce);
  headers.set("content-security-policy", csp);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("Content-Security-Policy", csp);
  return response;
}

export const config = {
  // Everything but static build output (hashed files, no user input in them).
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
