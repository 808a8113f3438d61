// The proxy in front of every page and route (issue 11 §10, §12): control characters, malformed percent-encoding and
// over-long values in a URL are refused before anything reads them; every page gets a nonce CSP without
// 'unsafe-inline' for scripts.
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, urlProblem } from "@/proxy";
import { positiveIntParam } from "@/lib/domain/request-text";

describe("URLs the proxy refuses", () => {
  it("control characters, bad encodings and over-long values, in the path or the query", () => {
    expect(urlProblem("/cases/%00", "")).toBe("control characters");
    expect(urlProblem("/cases/case-harbor", "?q=%0Ahi")).toBe("control characters");
    expect(urlProblem("/audit", "?user=%00")).toBe("control characters");
    expect(urlProblem("/audit", "?user=%C2%85")).toBe("control characters"); // C1 NEL
    expect(urlProblem("/cases/%E0%A4%A", "")).toBe("malformed percent-encoding");
    expect(urlProblem("/admin/users/" + "x".repeat(501), "")).toBe("a value longer than 500 characters");
    expect(urlProblem("/cases/case-harbor", "?q=Who+met+Ruiz%3F&before=42")).toBeNull();
    expect(urlProblem("/cases/%C3%A9t%C3%A9", "")).toBeNull();
  });

  it("numbers in URLs are positive safe integers or nothing", () => {
    expect(positiveIntParam("42")).toBe(42);
    for (const bad of ["99999999999999999999", "0", "-1", "1e3", "0x10", "01", " 4", "4 ", "", undefined, ["4"]])
      expect(positiveIntParam(bad)).toBeNull();
    expect(positiveIntParam(String(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe("the page CSP", () => {
  it("allows scripts by nonce only in production: no unsafe-inline, no unsafe-eval", () => {
    const csp = contentSecurityPolicy("abc123", false);
    const script = csp.split("; ").find((d) => d.startsWith("script-src"))!;
    expect(script).toBe("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(contentSecurityPolicy("abc123", true)).toContain("'unsafe-eval'");
  });
});
