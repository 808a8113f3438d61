import "server-only";
/** Only same-site relative paths are followed after sign-in (no open redirect); "/" sends a user to their home by role. */
export function safeNextPath(next: unknown, fallback = "/"): string {
  if (typeof next !== "string" || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")) return fallback;
  if (next.length > 500 || /[\r\n\t]/.test(next) || next.includes("\\")) return fallback;
  return next;
}
