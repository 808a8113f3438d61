// Where a signed-in user starts: the first area their roles open, in the order an investigator, a supervisor and an
// admin mostly work (a user with several roles starts at their cases).
import "server-only";
import type { Role } from "../domain/markings";

export function homePathFor(roles: readonly Role[]): string {
  if (roles.includes("investigator")) return "/cases";
  if (roles.includes("supervisor")) return "/audit";
  if (roles.includes("admin")) return "/admin";
  return "/account";
}
