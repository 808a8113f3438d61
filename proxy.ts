// Optimistic redirect only (Next.js 16's proxy, formerly middleware): a visitor with no session cookie asking for an
// app page is sent to /login?next=…. It never grants anything: every page, action and route checks the session again
// on the server (lib/auth/current.ts, lib/auth/guard.ts). It also tells the layout which path was asked for.
import { NextResponse, type NextRequest } from "next/server";

const SESSION_COOKIES = ["casegraph.session_token", "__Secure-casegraph.session_token"];

export function proxy(request: NextRequest) {
  const { pathname, search } = request.nextUrl;
  const hasCookie = SESSION_COOKIES.some((n) => request.cookies.has(n));
  if (!hasCookie) {
    const url = request.nextUrl.clone();
    url.pathname = "/login";
    url.search = `?next=${encodeURIComponent(pathname + search)}`;
    return NextResponse.redirect(url);
  }
  const headers = new Headers(request.headers);
  headers.set("x-casegraph-path", pathname + search);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  matcher: ["/cases/:path*", "/admin/:path*", "/audit/:path*"],
};
