// What production requires (README "Production"): the secrets a deployment must own rather than invent, and its public
// origin. Outside production Casegraph generates the secrets into the data folder and takes the request's Host as its
// origin, so the embedded default runs unconfigured; in production a generated secret would differ between servers and
// be lost with a container, and the origin the Origin check compares with must not come from the request, so the
// server refuses to start instead.
import "server-only";
import { CasegraphError } from "../../domain/failure-codes";

/** Variables a production server must be given. */
export const PRODUCTION_REQUIRED = ["BETTER_AUTH_SECRET", "CASEGRAPH_LEDGER_SIGNING_KEY", "BETTER_AUTH_URL"] as const;
type Required = (typeof PRODUCTION_REQUIRED)[number];
type Secret = Exclude<Required, "BETTER_AUTH_URL">;

export const isProduction = (source: NodeJS.ProcessEnv = process.env) => source.NODE_ENV === "production";

/** The production secrets missing from `source` (none outside production). */
export function missingProductionSecrets(source: NodeJS.ProcessEnv = process.env): Required[] {
  return isProduction(source) ? PRODUCTION_REQUIRED.filter((name) => !source[name]?.trim()) : [];
}

/** Throws CG-SYS-003 naming the variables when a production server lacks them. */
export function assertProductionSecrets(source: NodeJS.ProcessEnv = process.env): void {
  const missing = missingProductionSecrets(source);
  if (missing.length) {
    throw new CasegraphError(
      "CG-SYS-003",
      `${missing.join(", ")} must be set when NODE_ENV=production (README "Production").`,
      missing.map((name) => ({ path: name, message: "required in production" })),
    );
  }
}

/** Before generating `name` into the data folder: refused in production, where it must come from the environment. */
export function requireInProduction(name: Secret): void {
  if (isProduction())
    throw new CasegraphError("CG-SYS-003", `${name} must be set when NODE_ENV=production (README "Production").`, [
      { path: name, message: "required in production" },
    ]);
}

/**
 * For instrumentation.ts at server start: refuses to start (exit 78, EX_CONFIG) without the production secrets. Kept
 * here, in a Node-only module, so the instrumentation file itself holds no Node-only call the Edge compile warns about.
 */
export function startOrExit(): void {
  try {
    assertProductionSecrets();
  } catch (err) {
    const e = err as { code?: string; message: string };
    console.error(`casegraph: refusing to start: ${e.code ?? "CG-SYS-003"} ${e.message}`);
    process.exit(78);
  }
}
