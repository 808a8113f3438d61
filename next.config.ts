import type { NextConfig } from "next";

// Pages get a per-request nonce CSP from proxy.ts. Everything else (API responses, static files) gets this one, which
// allows no script at all: nothing served outside a page is meant to run.
const csp = [
  "default-src 'self'",
  "script-src 'none'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

// Static chunks may run as web workers (PDF.js in the document viewer, issue 17): a worker is governed by the CSP of its
// own script's response, and Turbopack's worker runtime loads its chunks with importScripts — so scripts of this
// origin, and nothing else, may run inside them. A static chunk opened as a page is shown as text, never run.
const staticCsp = csp.replace("script-src 'none'", "script-src 'self'");

const nextConfig: NextConfig = {
  // PGlite ships wasm and data files that must be loaded from node_modules, not bundled.
  serverExternalPackages: ["z3-solver", "@electric-sql/pglite", "pglite-prisma-adapter", "pg", "@prisma/adapter-pg", "neo4j-driver"],
  poweredByHeader: false,
  // `npm run dev` serves its own resources to these hosts too (Next.js 16 blocks dev resources for hosts not listed).
  allowedDevOrigins: ["localhost", "127.0.0.1", "[::1]"],
  async headers() {
    return [
      { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: csp }] },
      { source: "/_next/static/:path*", headers: [{ key: "Content-Security-Policy", value: staticCsp }] },
      { source: "/_next/:path((?!static/).*)", headers: [{ key: "Content-Security-Policy", value: csp }] },
      {
        source: "/:path*",
        headers: [
          { key: "X-Frame-Options", value: "DENY" },
          // Not "no-referrer": with it a browser sends `Origin: null` on a same-origin form POST, so the sign-in form could not
          // work without JavaScript. "same-origin" still sends nothing to other sites.
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
        ],
      },
    ];
  },
};

export default nextConfig;
