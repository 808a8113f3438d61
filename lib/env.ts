// Environment, parsed once with zod. Misconfiguration is a coded error naming the variable, never a silent default.
import { z } from "zod";
import { CasegraphError } from "./domain/failure-codes";

export const optionalString = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== "" ? v.trim() : undefined));

const intInRange = (def: number, min: number, max: number) => z.coerce.number().int().min(min).max(max).default(def);

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATABASE_URL: optionalString,
  CASEGRAPH_DATA_DIR: optionalString,
  CASEGRAPH_SEED_DEMO: z.enum(["auto", "never"]).default("auto"),
  DATABASE_POOL_SIZE: intInRange(10, 1, 200),
  BETTER_AUTH_SECRET: optionalString,
  BETTER_AUTH_URL: optionalString,
  /** Extra origins (comma-separated) allowed to call server actions, e.g. the public URL behind a reverse proxy. */
  CASEGRAPH_TRUSTED_ORIGINS: optionalString,
  /** "1" forces Secure cookies, "0" turns them off; unset → Secure exactly when BETTER_AUTH_URL is https. */
  CASEGRAPH_SECURE_COOKIES: z.preprocess((v) => (v === "" ? undefined : v), z.enum(["0", "1"]).optional()),
  LLM_PROVIDER: z.enum(["offline", "openai-compatible", "openai", "anthropic"]).default("offline"),
  LLM_BASE_URL: optionalString,
  LLM_API_KEY: optionalString,
  LLM_MODEL: optionalString,
  LLM_TIMEOUT_MS: intInRange(60_000, 1_000, 600_000),
  NEO4J_URI: optionalString,
  NEO4J_USER: optionalString,
  NEO4J_PASSWORD: optionalString,
  NEO4J_DATABASE: optionalString,
  /** Hard deadline of one graph read on Neo4j (ms); a dead Neo4j fails sooner, on the connection (~1 s). */
  NEO4J_TIMEOUT_MS: intInRange(1_800, 200, 600_000),
  AUDIT_QUERY_MODE: z.enum(["text", "hash"]).default("text"),
  // Answer pipeline limits (seed 002): defaults and hard maxima; the maxima cannot be raised by configuration.
  GRAPHRAG_HOPS: intInRange(2, 0, 3),
  GRAPHRAG_MAX_NODES: intInRange(50, 1, 100),
  GRAPHRAG_MAX_EDGES: intInRange(200, 0, 200),
  GRAPHRAG_MAX_SNIPPETS: intInRange(20, 1, 50),
  GRAPHRAG_TOKEN_BUDGET: intInRange(16_000, 2_000, 128_000),
  AUDIT_RETENTION_DAYS: intInRange(90, 1, 36_500),
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

/** Parses `source` with a schema of environment variables; a problem is CG-SYS-003 naming each variable. */
export function parseEnv<S extends z.ZodType>(schema: S, source: Record<string, string | undefined>): z.infer<S> {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
    throw new CasegraphError("CG-SYS-003", `Invalid environment: ${issues.map((i) => i.path).join(", ")}`, issues);
  }
  return parsed.data;
}

export function readEnv(source: Record<string, string | undefined> = process.env): Env {
  return parseEnv(envSchema, source);
}

/** The process environment, parsed on first use (not at import: `next build` must not need it). */
export function env(): Env {
  cached ??= readEnv();
  return cached;
}
