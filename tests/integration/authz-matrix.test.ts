// Acceptance 1: the table-driven authorization test.
//
// 1. Discovery: every `route.ts` under app/ and every module whose first statement is "use server" (under app/, lib/,
//    components/) is found from the source tree and imported. Every exported handler/action must be wrapped by
//    authedRoute/authedAction (the guard marks what it wraps), or be listed in PUBLIC below with a reason. Inline
//    "use server" functions are refused outright (they would escape this discovery).
// 2. Matrix: every guarded endpoint must have a row in MATRIX (a new one fails until it gets one). Each row is run for
//    every principal — investigator, supervisor, admin, no session, an expired token, a revoked token — against the
//    scopes that apply to it — own tenant / other tenant / own case / other case — and the outcome must equal the
//    expected allow or deny (with the expected failure code). Server actions also get the Origin checks.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { tmpdir } from "node:os";
import { pathToFileURL } from "node:url";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  APP_ORIGIN,
  DEMO_PASSWORD,
  clearTestRuntime,
  cookieHeaderFrom,
  importDemo,
  nextHeadersMock,
  setRequest,
  useTestRuntime,
} from "../support/auth-fixture";
import { describeEachDatabase } from "../support/databases";
import type { Database } from "@/lib/adapters/prisma/db";

vi.mock("next/headers", () => nextHeadersMock);
// Originals of the documents the matrix ingests (issue 17) go to a folder of this run.
process.env.CASEGRAPH_ORIGINALS_DIR ??= path.join(tmpdir(), `cg-matrix-originals-${process.pid}`);
// Actions may call revalidatePath/redirect; outside Next they must not crash the matrix.
vi.mock("next/cache", () => ({ revalidatePath: () => {}, revalidateTag: () => {}, updateTag: () => {}, refresh: () => {} }));

const { guardOf } = await import("@/lib/auth/guard");
const { signInWithPassword } = await import("@/lib/auth/sign-in");
const { issueToken } = await import("@/lib/auth/tokens");
const { userIdFor } = await import("@/lib/adapters/prisma/workspace");

const ROOT = path.resolve(import.meta.dirname, "../..");
const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

// ------------------------------------------------------------------------------------------------ public endpoints

/** Endpoints reachable without the guard, each with the reason. Anything else unwrapped fails the test. */
const PUBLIC: Record<string, string> = {
  "route GET app/api/graphrag/health/route.ts": "liveness/readiness probe; reports dependency status only, never data",
  "route GET app/api/auth/[...all]/route.ts": "better-auth handler behind an allow-list (sign-out only; every GET is a coded 404)",
  "route POST app/api/auth/[...all]/route.ts": "better-auth handler behind an allow-list (sign-out only); better-auth checks the Origin",
  "action signInAction app/(auth)/actions.ts": "sign-in cannot need a session; Origin-checked, lockout, generic errors (auth tests)",
  "action signInFormAction app/(auth)/actions.ts":
    "the login form (works without JavaScript); runs signInAction: Origin-checked, lockout, generic errors",
  "action signOutAction app/(auth)/actions.ts": "ends the caller's own session; Origin-checked (auth tests)",
};

// ------------------------------------------------------------------------------------------------------ discovery

async function walk(dir: string, out: string[] = []): Promise<string[]> {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.name === "node_modules" || e.name.startsWith(".") || e.name === "generated") continue;
    const full = path.join(dir, e.name);
    if (e.isDirectory()) await walk(full, out);
    else if (/\.(ts|tsx)$/.test(e.name) && !/\.(test|spec)\.tsx?$/.test(e.name)) out.push(full);
  }
  return out;
}

const FILE_DIRECTIVE = /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*["']use server["']/;
const ANY_DIRECTIVE_LINE = /^\s*["']use server["'];?\s*$/gm;

interface Endpoint {
  key: string;
  kind: "route" | "action";
  file: string;
  name: string;
  fn: (...args: unknown[]) => Promise<unknown>;
}

async function discover(): Promise<{ endpoints: Endpoint[]; inline: string[] }> {
  const files = (await Promise.all(["app", "lib", "components"].map((d) => walk(path.join(ROOT, d))))).flat();
  const endpoints: Endpoint[] = [];
  const inline: string[] = [];
  for (const abs of files.sort()) {
    const rel = path.relative(ROOT, abs).split(path.sep).join("/");
    const text = await readFile(abs, "utf8");
    const isRoute = /(^|\/)route\.tsx?$/.test(rel) && rel.startsWith("app/");
    const isActions = FILE_DIRECTIVE.test(text);
    const directives = text.match(ANY_DIRECTIVE_LINE)?.length ?? 0;
    if (directives > (isActions ? 1 : 0)) inline.push(rel);
    if (!isRoute && !isActions) continue;
    const mod = (await import(pathToFileURL(abs).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      if (isRoute) {
        if (!(HTTP_METHODS as readonly string[]).includes(name)) continue;
        endpoints.push({ key: `route ${name} ${rel}`, kind: "route", file: rel, name, fn: value as Endpoint["fn"] });
      } else {
        endpoints.push({ key: `action ${name} ${rel}`, kind: "action", file: rel, name, fn: value as Endpoint["fn"] });
      }
    }
  }
  return { endpoints, inline };
}

const discovered = await discover();

describe("authorization coverage (discovered from the source tree)", () => {
  it("finds the routes and server actions", () => {
    const keys = discovered.endpoints.map((e) => e.key);
    expect(keys).toContain("route GET app/api/graphrag/health/route.ts");
    expect(keys).toContain("route GET app/api/me/route.ts");
    expect(keys).toContain("action createUserAction app/(workbench)/admin/actions.ts");
    expect(keys).toContain("action signInAction app/(auth)/actions.ts");
  });

  it("every route handler and server action is wrapped by the guard, or listed as public with a reason", () => {
    const unprotected = discovered.endpoints
      .filter((e) => !PUBLIC[e.key])
      .filter((e) => guardOf(e.fn)?.kind !== e.kind)
      .map((e) => e.key);
    expect(unprotected, "wrap these in authedRoute/authedAction (lib/auth/guard.ts), or list them in PUBLIC with a reason").toEqual([]);
  });

  it("public entries are exactly the public endpoints that exist, and none of them is also guarded", () => {
    const keys = new Set(discovered.endpoints.map((e) => e.key));
    expect(
      Object.keys(PUBLIC).filter((k) => !keys.has(k)),
      "stale PUBLIC entries",
    ).toEqual([]);
    expect(discovered.endpoints.filter((e) => PUBLIC[e.key] && guardOf(e.fn)).map((e) => e.key)).toEqual([]);
  });

  it("no inline 'use server' functions (they would escape discovery): actions live in 'use server' modules", () => {
    expect(discovered.inline).toEqual([]);
  });

  it("every guarded endpoint has a row in the matrix", () => {
    const guarded = discovered.endpoints.filter((e) => !PUBLIC[e.key]).map((e) => e.key);
    expect(
      guarded.filter((k) => !MATRIX[k]),
      "add a MATRIX row (own/other tenant, own/other case) for",
    ).toEqual([]);
    // Rows may name endpoints another issue is still building; they run once the endpoint exists.
    const waiting = Object.keys(MATRIX).filter((k) => !guarded.includes(k));
    if (waiting.length) console.warn(`authz matrix: rows without an endpoint yet: ${waiting.join(", ")}`);
  });
});

// --------------------------------------------------------------------------------------------------------- matrix

type Principal = "investigator" | "supervisor" | "admin" | "none" | "expired-token" | "revoked-token";
type Scope = "own-tenant" | "other-tenant" | "own-case" | "other-case";
const PRINCIPALS: Principal[] = ["investigator", "supervisor", "admin", "none", "expired-token", "revoked-token"];
const SCOPES: Scope[] = ["own-tenant", "other-tenant", "own-case", "other-case"];

/** The demo's metro-pd people (see prisma/demo/README.md); the supervisor is made a member of case-ledgerline below. */
const PEOPLE = {
  investigator: { email: "det.reyes@metro.example", ownCase: "case-harbor", otherCase: "case-ledgerline" },
  supervisor: { email: "sup.okafor@metro.example", ownCase: "case-ledgerline", otherCase: "case-harbor" },
  admin: { email: "admin@metro.example", ownCase: "case-harbor", otherCase: "case-nightjar" },
} as const;
const OTHER_TENANT_CASE = "case-nightjar";

interface Ctx {
  db: Database;
  principal: Principal;
  /** The signed-in principal's demo identity (investigator/supervisor/admin); admin's for the unauthenticated ones. */
  person: (typeof PEOPLE)[keyof typeof PEOPLE];
  fresh: () => string;
}

/** What a cell does: `input` builds the route body or action argument for the scope (fresh each call). */
interface Row {
  /** Roles the guard requires; [] = any signed-in user. Checked against the guard's own marker. */
  roles: string[];
  scopes: Partial<Record<Scope, (ctx: Ctx) => Promise<unknown>>>;
  /** Why the other scopes do not apply (shown in the table). */
  notApplicable?: string;
  /** The failure code for an allowed role asking outside its scope. */
  scopeDenial: string;
  /**
   * Scopes a principal is allowed beyond its own (by design, with the reason in notApplicable): a tenant's supervisors
   * and admins add evidence to any case of their tenant.
   */
  alsoAllowed?: Partial<Record<Principal, Scope[]>>;
  /** Route only: HTTP method and path (and the dynamic segments' values, as Next.js passes them). */
  request?: { method: string; path: string; params?: Record<string, string> };
}

const QUESTION = "Who owns the warehouse at Pier 9?";
const caseFor = (ctx: Ctx, scope: Scope) =>
  scope === "own-case" ? ctx.person.ownCase : scope === "other-case" ? ctx.person.otherCase : OTHER_TENANT_CASE;
const askCell = (scope: Scope) => async (ctx: Ctx) => ({ caseId: caseFor(ctx, scope), question: QUESTION });

const METRO_TARGET = "matrix.target@metro.example";
/** Each revocation in the matrix takes the next harbor evidence item of that database (a revocation is final). */
const revokeCounters = new WeakMap<Database, number>();
function nextRevocable(db: Database): string {
  const n = revokeCounters.get(db) ?? 59;
  revokeCounters.set(db, n - 1);
  return `EV-C-${String(n).padStart(3, "0")}`;
}
const CYBER_USER = "analyst.ng@cyber.example";
const id = (email: string) => userIdFor(email);

async function tokenOf(db: Database, email: string): Promise<string> {
  const t = await issueToken(db.prisma, {
    userId: id(email),
    name: "matrix",
    expiresAt: new Date(Date.now() + 3_600_000),
    createdBy: null,
  });
  return t.id;
}

/** A node and an evidence item of each demo case that its members may see. */
const CASE_ITEMS: Record<string, { node: string; evidence: string }> = {
  "case-harbor": { node: "p-dunn", evidence: "EV-C-001" },
  "case-ledgerline": { node: "lp-hart", evidence: "EV-F-001" },
  "case-nightjar": { node: "did:ws-fin-0231", evidence: "EV-Y-001" },
};

function workbenchRows(): Record<string, Row> {
  const file = "app/(workbench)/cases/[caseId]/workbench-actions.ts";
  const cell = (build: (caseId: string) => unknown) => (scope: Scope) => async (ctx: Ctx) => build(caseFor(ctx, scope));
  const inputs: Record<string, (caseId: string) => unknown> = {
    loadCaseGraph: (caseId) => ({ caseId }),
    findNodes: (caseId) => ({ caseId, query: "a" }),
    expandNode: (caseId) => ({ caseId, nodeId: CASE_ITEMS[caseId].node }),
    loadNodeDetails: (caseId) => ({ caseId, nodeId: CASE_ITEMS[caseId].node }),
    loadEvidence: (caseId) => ({ caseId, ids: [CASE_ITEMS[caseId].evidence] }),
    loadHistory: (caseId) => ({ caseId }),
    loadThreads: (caseId) => ({ caseId }),
  };
  return Object.fromEntries(
    Object.entries(inputs).map(([name, build]) => [
      `action ${name} ${file}`,
      caseRow(cell(build), "own tenant = own case for a case read"),
    ]),
  );
}

/** An investigator's or supervisor's call about one case: allowed on their own case, CG-ACCESS-001 on any other. */
function caseRow(input: (scope: Scope) => (ctx: Ctx) => Promise<unknown>, notApplicable: string): Row {
  return {
    roles: ["investigator", "supervisor"],
    scopes: { "own-case": input("own-case"), "other-case": input("other-case"), "other-tenant": input("other-tenant") },
    notApplicable,
    scopeDenial: "CG-ACCESS-001",
  };
}

// Threads (issue 18): the caller's own thread on the case; another case's or tenant's is refused by the case check first.
const { PrismaThreadStore } = await import("@/lib/adapters/prisma/thread-store");
async function threadOf(ctx: Ctx, caseId: string): Promise<string> {
  const [c] = await ctx.db.prisma.$queryRaw<Array<{ tenant_id: string }>>`SELECT tenant_id FROM "case" WHERE id = ${caseId}`;
  const owner = { tenantId: c.tenant_id, caseId, userId: id(ctx.person.email) };
  return (await new PrismaThreadStore(ctx.db.prisma).beginTurn(owner, null, { title: "matrix", lastTurns: 1 })).threadId;
}
function threadRows(): Record<string, Row> {
  const cell = (build: (caseId: string, threadId: string) => unknown) => (scope: Scope) => async (ctx: Ctx) => {
    const caseId = caseFor(ctx, scope);
    return build(caseId, await threadOf(ctx, caseId));
  };
  const rows: Record<string, (caseId: string, threadId: string) => unknown> = {
    "action loadThread app/(workbench)/cases/[caseId]/workbench-actions.ts": (caseId, threadId) => ({ caseId, threadId }),
    "action renameThreadAction app/(workbench)/cases/[caseId]/thread-actions.ts": (caseId, threadId) => ({
      caseId,
      threadId,
      title: "renamed",
    }),
    "action closeThreadAction app/(workbench)/cases/[caseId]/thread-actions.ts": (caseId, threadId) => ({ caseId, threadId }),
  };
  return Object.fromEntries(
    Object.entries(rows).map(([key, build]) => [
      key,
      caseRow(cell(build), "own tenant = own case: the caller's own thread on a case they are a member of"),
    ]),
  );
}

// The audit explorer and API (issue 7): supervisors and admins, their own tenant's entries only. Fixture entries are
// appended here (all the matrix's own ledger entries are metro-pd's); the GET routes take a fixed path, so seq 1 and a
// checkpoint at size 1 are made to exist (metro-pd) before they are called.
const { PrismaLedger } = await import("@/lib/adapters/prisma/ledger");
const { testSigner } = await import("../support/ledger");
const matrixSigner = testSigner();
async function ledgerEntryOf(db: Database, tenantId: string): Promise<number> {
  const ledger = new PrismaLedger(db);
  if ((await ledger.head()).size === 0)
    await ledger.append({ kind: "matrix.fixture", tenantId: "metro-pd", payload: { tenant_id: "metro-pd" } });
  return (await ledger.append({ kind: "matrix.fixture", tenantId, payload: { tenant_id: tenantId } })).seq;
}
async function firstEntryAndCheckpoint(db: Database): Promise<undefined> {
  await ledgerEntryOf(db, "metro-pd");
  await new PrismaLedger(db, { signer: async () => matrixSigner }).checkpoint(1);
  return undefined;
}
async function answerEntryAndCheckpoint(db: Database): Promise<undefined> {
  const ledger = new PrismaLedger(db, { signer: async () => matrixSigner });
  const found = await db.prisma.$queryRaw<
    unknown[]
  >`SELECT 1 FROM "ledger" WHERE kind = 'graphrag.answer' AND payload->>'request_id' = 'matrix-request'`;
  if (!found.length)
    await ledger.append({
      kind: "graphrag.answer",
      tenantId: "metro-pd",
      payload: { request_id: "matrix-request", tenant_id: "metro-pd" },
    });
  await ledger.checkpoint();
  return undefined;
}
const auditFile = "app/(workbench)/audit/actions.ts";
const reviewers = ["supervisor", "admin"];
const AUDIT_ROWS: Record<string, Row> = {
  [`action inclusionProofAction ${auditFile}`]: {
    roles: reviewers,
    scopes: {
      "own-tenant": async (ctx) => ({ seq: await ledgerEntryOf(ctx.db, "metro-pd") }),
      "other-tenant": async (ctx) => ({ seq: await ledgerEntryOf(ctx.db, "cyber-jcu") }),
    },
    notApplicable: "ledger entries belong to tenants, not cases",
    scopeDenial: "CG-ACCESS-003",
  },
  [`action verifyChainAction ${auditFile}`]: {
    roles: reviewers,
    scopes: { "own-tenant": async () => ({}) },
    notApplicable: "verifies the whole chain; reports a position, never another tenant's content",
    scopeDenial: "-",
  },
  [`action exportAuditAction ${auditFile}`]: {
    roles: reviewers,
    scopes: { "own-tenant": async (ctx) => ({ fromSeq: 1, toSeq: await ledgerEntryOf(ctx.db, "metro-pd"), format: "json" }) },
    notApplicable: "exports only the caller's tenant's entries; no tenant can be named",
    scopeDenial: "-",
  },
  "route GET app/api/audit/checkpoint/route.ts": {
    roles: reviewers,
    request: { method: "GET", path: "/api/audit/checkpoint" },
    scopes: { "own-tenant": (ctx) => firstEntryAndCheckpoint(ctx.db) },
    notApplicable: "a checkpoint signs the whole tree (size and root), no entry",
    scopeDenial: "-",
  },
  "route GET app/api/audit/proof/inclusion/route.ts": {
    roles: reviewers,
    request: { method: "GET", path: "/api/audit/proof/inclusion?seq=1" },
    scopes: { "own-tenant": (ctx) => firstEntryAndCheckpoint(ctx.db) },
    notApplicable: "fixed path; another tenant's seq is refused like the server action (CG-ACCESS-003, tested there)",
    scopeDenial: "-",
  },
  "route GET app/api/audit/proof/consistency/route.ts": {
    roles: reviewers,
    request: { method: "GET", path: "/api/audit/proof/consistency?from=1" },
    scopes: { "own-tenant": (ctx) => firstEntryAndCheckpoint(ctx.db) },
    notApplicable: "proves the whole tree's history between two signed sizes; no entry",
    scopeDenial: "-",
  },
  "route POST app/api/audit/checkpoint/route.ts": {
    roles: reviewers,
    request: { method: "POST", path: "/api/audit/checkpoint" },
    scopes: { "own-tenant": async (ctx) => (await firstEntryAndCheckpoint(ctx.db), {}) },
    notApplicable: "signs the whole tree at its head (size and root), no entry",
    scopeDenial: "-",
  },
  // Issue 15: one answered request's compliance artifact, supervisors of its tenant (a fixture answer entry of metro-pd).
  "route GET app/api/audit/requests/[requestId]/artifact/route.ts": {
    roles: ["supervisor"],
    request: { method: "GET", path: "/api/audit/requests/matrix-request/artifact", params: { requestId: "matrix-request" } },
    scopes: { "own-tenant": (ctx) => answerEntryAndCheckpoint(ctx.db) },
    notApplicable: "fixed path; another tenant's request is not found (CG-GROUND-030, tests/integration/compliance-artifact.test.ts)",
    scopeDenial: "-",
  },
  "route POST app/api/audit/export/route.ts": {
    roles: reviewers,
    request: { method: "POST", path: "/api/audit/export" },
    scopes: { "own-tenant": async (ctx) => (await firstEntryAndCheckpoint(ctx.db), { from: 1, to: 1 }) },
    notApplicable: "exports only the caller's tenant's entries; no tenant can be named",
    scopeDenial: "-",
  },
};

// The review queue (issue 14): supervisors of the tenant decide held answers; askers read their own. A route cell's
// input may carry `$params` (the dynamic segments) and `$path` (a path per scope); the rest is the body.
async function heldAnswer(db: Database, tenantId: string, caseId: string, askerEmail: string): Promise<string> {
  const reviewId = `matrix-review-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  await db.prisma.answerReview.create({
    data: {
      id: reviewId,
      tenantId,
      caseId,
      askerId: id(askerEmail),
      askerEmail,
      requestId: "matrix",
      auditId: "matrix",
      question: "matrix",
      bundleSha256: "0".repeat(64),
      draft: {},
      compliance: {},
    },
  });
  return reviewId;
}
const decideRow = (decision: "approve" | "reject"): Row => ({
  roles: ["supervisor"],
  request: { method: "POST", path: `/api/reviews/matrix/${decision}` },
  scopes: {
    "own-tenant": async (ctx) => ({
      $params: { id: await heldAnswer(ctx.db, "metro-pd", "case-harbor", PEOPLE.investigator.email) },
      note: "matrix",
    }),
    "other-tenant": async (ctx) => ({
      $params: { id: await heldAnswer(ctx.db, "cyber-jcu", OTHER_TENANT_CASE, CYBER_USER) },
      note: "matrix",
    }),
  },
  notApplicable: "reviews belong to tenants; a supervisor reviews any case of their tenant",
  scopeDenial: "CG-REVIEW-001",
});
const reviewFile = "app/(workbench)/audit/reviews/actions.ts";
const policyFile = "app/(workbench)/admin/policies/actions.ts";
const DEMO_POLICIES = readFileSync("prisma/demo/policies/metro-pd.jsonl", "utf8");
/** A bundle stored for the tenant (not active), by its hash: the cyber one is another tenant's, so not "found" by metro's admin. */
async function storedBundle(db: Database, tenantId: string, which: "metro" | "cyber" = "metro"): Promise<string> {
  const { compilePolicies } = await import("@/lib/policy/compile");
  const { parsePoliciesJsonl } = await import("@/lib/policy/schema");
  const { Z3PolicySolver } = await import("@/lib/adapters/solver/z3");
  const text = which === "metro" ? DEMO_POLICIES : readFileSync("prisma/demo/policies/cyber-jcu.jsonl", "utf8");
  const bundle = await compilePolicies(parsePoliciesJsonl(text), new Z3PolicySolver());
  const sha256 = bundle.bundle_metadata.sha256;
  await db.prisma.policyBundle.upsert({
    where: { tenantId_sha256: { tenantId, sha256 } },
    create: { tenantId, sha256, bundle: bundle as object, policyCount: 1, conflictCount: 0, createdBy: "matrix" },
    update: {},
  });
  return sha256;
}
const REVIEW_ROWS: Record<string, Row> = {
  "route GET app/api/reviews/route.ts": {
    roles: ["supervisor"],
    request: { method: "GET", path: "/api/reviews?status=pending" },
    scopes: { "own-tenant": async () => undefined },
    notApplicable: "lists only the caller's tenant's held answers; no tenant can be named",
    scopeDenial: "-",
  },
  "route GET app/api/reviews/mine/route.ts": {
    roles: ["investigator", "supervisor"],
    request: { method: "GET", path: "/api/reviews/mine" },
    scopes: {
      "own-case": async (ctx) => ({ $path: `/api/reviews/mine?caseId=${caseFor(ctx, "own-case")}` }),
      "other-case": async (ctx) => ({ $path: `/api/reviews/mine?caseId=${caseFor(ctx, "other-case")}` }),
      "other-tenant": async (ctx) => ({ $path: `/api/reviews/mine?caseId=${caseFor(ctx, "other-tenant")}` }),
    },
    notApplicable: "own tenant = own case: the caller's own held answers on a case they are a member of",
    scopeDenial: "CG-ACCESS-001",
  },
  "action loadHeldAnswers app/(workbench)/cases/[caseId]/review-actions.ts": {
    roles: ["investigator", "supervisor"],
    scopes: {
      "own-case": async (ctx) => ({ caseId: caseFor(ctx, "own-case") }),
      "other-case": async (ctx) => ({ caseId: caseFor(ctx, "other-case") }),
      "other-tenant": async (ctx) => ({ caseId: caseFor(ctx, "other-tenant") }),
    },
    notApplicable: "own tenant = own case: the caller's own held answers on a case they are a member of",
    scopeDenial: "CG-ACCESS-001",
  },
  [`action approveReviewAction ${reviewFile}`]: {
    roles: ["supervisor"],
    scopes: {
      "own-tenant": async (ctx) => ({ id: await heldAnswer(ctx.db, "metro-pd", "case-harbor", PEOPLE.investigator.email), note: "matrix" }),
      "other-tenant": async (ctx) => ({ id: await heldAnswer(ctx.db, "cyber-jcu", OTHER_TENANT_CASE, CYBER_USER), note: "matrix" }),
    },
    notApplicable: "reviews belong to tenants; a supervisor reviews any case of their tenant",
    scopeDenial: "CG-REVIEW-001",
  },
  [`action rejectReviewAction ${reviewFile}`]: {
    roles: ["supervisor"],
    scopes: {
      "own-tenant": async (ctx) => ({ id: await heldAnswer(ctx.db, "metro-pd", "case-harbor", PEOPLE.investigator.email) }),
      "other-tenant": async (ctx) => ({ id: await heldAnswer(ctx.db, "cyber-jcu", OTHER_TENANT_CASE, CYBER_USER) }),
    },
    notApplicable: "reviews belong to tenants; a supervisor reviews any case of their tenant",
    scopeDenial: "CG-REVIEW-001",
  },
  [`action compilePoliciesAction ${policyFile}`]: {
    roles: ["admin"],
    scopes: { "own-tenant": async () => ({ text: DEMO_POLICIES }) },
    notApplicable: "stores the bundle for the admin's own tenant; no tenant can be named",
    scopeDenial: "-",
  },
  [`action activateBundleAction ${policyFile}`]: {
    roles: ["admin"],
    scopes: {
      "own-tenant": async (ctx) => ({ sha256: await storedBundle(ctx.db, "metro-pd") }),
      "other-tenant": async (ctx) => ({ sha256: await storedBundle(ctx.db, "cyber-jcu", "cyber") }),
    },
    scopeDenial: "CG-POLICY-089",
  },
  [`action deactivateBundleAction ${policyFile}`]: {
    roles: ["admin"],
    scopes: { "own-tenant": async () => ({}) },
    notApplicable: "deactivates the admin's own tenant's bundle; no tenant can be named",
    scopeDenial: "-",
  },
  "route POST app/api/reviews/[id]/approve/route.ts": decideRow("approve"),
  "route POST app/api/reviews/[id]/reject/route.ts": decideRow("reject"),
};

// Evidence from documents (issue 17): members with the ingest permission, and the tenant's supervisors and admins,
// upload into a case (multipart); the original of a document is read by members whose permissions cover it.
const { ingestDocuments } = await import("@/lib/server/ingest/ingest");
const { ingestDeps } = await import("@/lib/server/ingest");
const { loadActor } = await import("@/lib/auth/actor");
/** One small licensed document per case (made once per database, by an admin of the case's tenant). */
const matrixDocuments = new WeakMap<Database, Map<string, string>>();
async function documentOf(db: Database, caseId: string): Promise<string> {
  const known = matrixDocuments.get(db) ?? new Map<string, string>();
  matrixDocuments.set(db, known);
  if (!known.has(caseId)) {
    const admin = await loadActor(
      db.prisma,
      { email: caseId === OTHER_TENANT_CASE ? "admin@cyber.example" : "admin@metro.example" },
      "cli",
    );
    const r = await ingestDocuments(
      await ingestDeps(),
      admin,
      caseId,
      [{ name: "matrix.txt", bytes: Buffer.from(`Matrix note for ${caseId}.`) }],
      {
        markings: { license: "LIC-INTERNAL" },
      },
    );
    const f = r.files[0];
    if (!f.ok) throw new Error(`matrix document: ${f.error.code}`);
    known.set(caseId, f.documentId);
  }
  return known.get(caseId)!;
}
const uploadCell = (scope: Scope) => async (ctx: Ctx) => {
  const caseId = caseFor(ctx, scope);
  return {
    $path: `/api/cases/${caseId}/documents`,
    $params: { caseId },
    $form: { file: { name: `matrix-${ctx.fresh()}.txt`, content: `Matrix upload ${ctx.fresh()} about Pier 9.` }, license: "LIC-INTERNAL" },
  };
};
const originalCell = (scope: Scope) => async (ctx: Ctx) => {
  const caseId = caseFor(ctx, scope);
  const documentId = await documentOf(ctx.db, caseId);
  return { $path: `/api/cases/${caseId}/documents/${documentId}/original`, $params: { caseId, documentId } };
};
/** A pending graph proposal in the case (as a model would leave one), for a decision cell to reject. */
async function pendingProposalIn(db: Database, caseId: string, fresh: string): Promise<string> {
  const id = `PROP-matrix-${fresh}`;
  await db.prisma.$executeRaw`
    INSERT INTO "graph_proposal" (case_id, id, tenant_id, document_id, kind, body, evidence_ids, classification, model)
    SELECT ${caseId}, ${id}, c.tenant_id, 'DOC-0000000000000000', 'node', '{"ref":"m","label":"Person","name":"Matrix"}'::jsonb,
      '{}'::text[], 'CUI'::"Classification", 'matrix' FROM "case" c WHERE c.id = ${caseId}`;
  return id;
}
const proposalFile = "app/(workbench)/cases/[caseId]/proposal-actions.ts";
const proposalCell = (scope: Scope, decide: boolean) => async (ctx: Ctx) => {
  const caseId = caseFor(ctx, scope);
  return decide ? { caseId, proposalId: await pendingProposalIn(ctx.db, caseId, ctx.fresh()), decision: "reject" } : { caseId };
};
const proposalRow = (decide: boolean): Row => ({
  roles: ["investigator", "supervisor"],
  scopes: {
    "own-case": proposalCell("own-case", decide),
    "other-case": proposalCell("other-case", decide),
    "other-tenant": proposalCell("other-tenant", decide),
  },
  alsoAllowed: { supervisor: ["other-case"] },
  notApplicable:
    "own tenant = own case for an investigator with the ingest permission; a supervisor of the tenant decides proposals of any of its cases (the supervisor's other case is allowed by design)",
  scopeDenial: "CG-ACCESS-001",
});

const DOCUMENT_ROWS: Record<string, Row> = {
  [`action loadProposals ${proposalFile}`]: proposalRow(false),
  [`action decideProposalAction ${proposalFile}`]: proposalRow(true),
  "route POST app/api/cases/[caseId]/documents/route.ts": {
    roles: ["investigator", "supervisor", "admin"],
    request: { method: "POST", path: "/api/cases/case-harbor/documents", params: { caseId: "case-harbor" } },
    scopes: { "own-case": uploadCell("own-case"), "other-case": uploadCell("other-case"), "other-tenant": uploadCell("other-tenant") },
    alsoAllowed: { supervisor: ["other-case"] },
    notApplicable:
      "own tenant = own case for an investigator (a member with the ingest permission); a supervisor or admin of the tenant adds evidence to any of its cases (the supervisor's other case is allowed by design); a member without the permission: tests/integration/ingest.test.ts",
    scopeDenial: "CG-ACCESS-001",
  },
  "route GET app/api/cases/[caseId]/documents/[documentId]/original/route.ts": {
    roles: ["investigator", "supervisor"],
    request: { method: "GET", path: "/api/cases/case-harbor/documents/x/original" },
    scopes: {
      "own-case": originalCell("own-case"),
      "other-case": originalCell("other-case"),
      "other-tenant": originalCell("other-tenant"),
    },
    notApplicable: "own tenant = own case for a case read; markings the reader may not see: tests/integration/ingest-viewer.test.ts",
    scopeDenial: "CG-ACCESS-001",
  },
};

// Suggested next steps (issue 16): members ask and propose on their case; supervisors of the tenant decide proposals.
async function proposal(db: Database, tenantId: string, caseId: string, proposerEmail: string): Promise<string> {
  const proposalId = `matrix-nsp-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
  // A playbook of its own (one open proposal per playbook and case), shared and readable by every demo supervisor.
  await db.prisma.playbook.create({
    data: {
      owner: "*",
      id: proposalId,
      version: "1.0",
      description: "matrix",
      requiredAuthority: "none",
      minClearance: "CUI",
      riskLevel: "low",
      updatedBy: "matrix",
    },
  });
  await db.prisma.playbookProposal.create({
    data: {
      id: proposalId,
      tenantId,
      caseId,
      playbookOwner: "*",
      playbookId: proposalId,
      playbookVersion: "1.0",
      description: "matrix",
      proposedBy: id(proposerEmail),
      proposerEmail,
    },
  });
  return proposalId;
}
const nextStepsFile = "app/(workbench)/cases/[caseId]/next-steps-actions.ts";
const decideFile = "app/(workbench)/audit/next-steps/actions.ts";
const caseCells = (build: (caseId: string) => unknown) => ({
  "own-case": async (ctx: Ctx) => build(caseFor(ctx, "own-case")),
  "other-case": async (ctx: Ctx) => build(caseFor(ctx, "other-case")),
  "other-tenant": async (ctx: Ctx) => build(caseFor(ctx, "other-tenant")),
});
const decideCell = (ctx: Ctx, tenant: "own" | "other") =>
  tenant === "own"
    ? proposal(ctx.db, "metro-pd", "case-harbor", PEOPLE.investigator.email)
    : proposal(ctx.db, "cyber-jcu", OTHER_TENANT_CASE, CYBER_USER);
const decideNextStepRow: Row = {
  roles: ["supervisor"],
  scopes: {
    "own-tenant": async (ctx) => ({ id: await decideCell(ctx, "own"), note: "matrix" }),
    "other-tenant": async (ctx) => ({ id: await decideCell(ctx, "other"), note: "matrix" }),
  },
  notApplicable: "proposals belong to tenants; a supervisor decides any case's of their tenant",
  scopeDenial: "CG-PLAYBOOK-005",
};
const NEXT_STEP_ROWS: Record<string, Row> = {
  "route POST app/api/graphrag/next-steps/route.ts": {
    roles: ["investigator", "supervisor"],
    request: { method: "POST", path: "/api/graphrag/next-steps" },
    scopes: { "own-case": askCell("own-case"), "other-case": askCell("other-case"), "other-tenant": askCell("other-tenant") },
    notApplicable: "own tenant = own case for next steps",
    scopeDenial: "CG-ACCESS-001",
  },
  [`action suggestNextStepsAction ${nextStepsFile}`]: {
    roles: ["investigator", "supervisor"],
    scopes: { "own-case": askCell("own-case"), "other-case": askCell("other-case"), "other-tenant": askCell("other-tenant") },
    notApplicable: "own tenant = own case for next steps",
    scopeDenial: "CG-ACCESS-001",
  },
  [`action proposeNextStepAction ${nextStepsFile}`]: {
    roles: ["investigator", "supervisor"],
    // A shared playbook every member of the demo's metro-pd cases may be offered; one proposal per case.
    scopes: caseCells((caseId) => ({ caseId, playbookId: "canvass-location", version: "1.0" })),
    notApplicable: "own tenant = own case for a proposal",
    scopeDenial: "CG-ACCESS-001",
  },
  [`action loadCaseNextSteps ${nextStepsFile}`]: {
    roles: ["investigator", "supervisor"],
    scopes: caseCells((caseId) => ({ caseId })),
    notApplicable: "own tenant = own case: the case's proposed steps",
    scopeDenial: "CG-ACCESS-001",
  },
  [`action approveNextStepAction ${decideFile}`]: decideNextStepRow,
  [`action rejectNextStepAction ${decideFile}`]: decideNextStepRow,
  // The catalogue's admin side: the admin's own tenant's playbooks, risk tolerance and case labels.
  "action savePlaybookAction app/(workbench)/admin/playbooks/actions.ts": {
    roles: ["admin"],
    scopes: {
      "own-tenant": async (ctx) => ({
        id: `matrix-${ctx.fresh()}`,
        version: "1",
        description: "A matrix step.",
        requiredAuthority: "none",
        minClearance: "CUI",
        riskLevel: "low",
      }),
    },
    notApplicable: "writes the admin's own tenant's catalogue; no tenant can be named",
    scopeDenial: "-",
  },
  "action setPlaybookActiveAction app/(workbench)/admin/playbooks/actions.ts": {
    roles: ["admin"],
    scopes: {
      "own-tenant": async () => ({ id: "interview-witness", active: true }),
      "other-tenant": async () => ({ id: "pull-edr-telemetry", active: false }),
    },
    notApplicable: "playbooks belong to tenants",
    scopeDenial: "CG-PLAYBOOK-002",
  },
  "action setRiskToleranceAction app/(workbench)/admin/playbooks/actions.ts": {
    roles: ["admin"],
    scopes: { "own-tenant": async () => ({ riskTolerance: "medium" }) },
    notApplicable: "sets the admin's own tenant's setting; no tenant can be named",
    scopeDenial: "-",
  },
  "action setLegalAuthorityAction app/(workbench)/admin/playbooks/actions.ts": {
    roles: ["admin"],
    scopes: {
      "own-tenant": async () => ({ userId: id(METRO_TARGET), legalAuthority: ["subpoena"] }),
      "other-tenant": async () => ({ userId: id(CYBER_USER), legalAuthority: ["court_order"] }),
    },
    scopeDenial: "CG-ACCESS-003",
  },
  "action setCaseLabelsAction app/(workbench)/admin/playbooks/actions.ts": {
    roles: ["admin"],
    scopes: {
      "own-tenant": async () => ({ caseId: "case-harbor", caseType: "narcotics", jurisdiction: "metro-city" }),
      "other-tenant": async () => ({ caseId: OTHER_TENANT_CASE, caseType: "hijacked", jurisdiction: "" }),
    },
    notApplicable: "cases belong to tenants; own tenant = any of its cases for an admin",
    scopeDenial: "CG-ACCESS-003",
  },
};

const MATRIX: Record<string, Row> = {
  "route POST app/api/graphrag/answer/route.ts": {
    roles: ["investigator", "supervisor"],
    request: { method: "POST", path: "/api/graphrag/answer" },
    scopes: { "own-case": askCell("own-case"), "other-case": askCell("other-case"), "other-tenant": askCell("other-tenant") },
    notApplicable: "own tenant = own case for a question",
    scopeDenial: "CG-ACCESS-001",
  },
  "action ask app/(workbench)/cases/[caseId]/actions.ts": {
    roles: ["investigator", "supervisor"],
    scopes: { "own-case": askCell("own-case"), "other-case": askCell("other-case"), "other-tenant": askCell("other-tenant") },
    notApplicable: "own tenant = own case for a question",
    scopeDenial: "CG-ACCESS-001",
  },
  "action askStream app/(workbench)/cases/[caseId]/actions.ts": {
    roles: ["investigator", "supervisor"],
    scopes: { "own-case": askCell("own-case"), "other-case": askCell("other-case"), "other-tenant": askCell("other-tenant") },
    notApplicable: "own tenant = own case for a question",
    scopeDenial: "CG-ACCESS-001",
  },
  "route GET app/api/me/route.ts": {
    roles: [],
    request: { method: "GET", path: "/api/me" },
    scopes: { "own-tenant": async () => undefined },
    notApplicable: "reports the caller only; takes no ids",
    scopeDenial: "-",
  },
  "action createUserAction app/(workbench)/admin/actions.ts": {
    roles: ["admin"],
    scopes: {
      "own-tenant": async (ctx) => ({
        email: `m.${ctx.fresh()}@metro.example`,
        name: "Matrix",
        roles: ["investigator"],
        clearance: "CUI",
        needToKnow: "",
        password: "matrix-password-1",
      }),
    },
    notApplicable: "creates in the admin's own tenant; no tenant can be named",
    scopeDenial: "-",
  },
  "action updateUserAction app/(workbench)/admin/actions.ts": {
    roles: ["admin"],
    scopes: {
      "own-tenant": async () => ({
        userId: id(METRO_TARGET),
        name: "Matrix Target",
        roles: ["investigator"],
        clearance: "CUI",
        needToKnow: "narcotics",
      }),
      "other-tenant": async () => ({ userId: id(CYBER_USER), name: "Hijacked", roles: ["admin"], clearance: "TS_SCI", needToKnow: "" }),
    },
    scopeDenial: "CG-ACCESS-003",
  },
  "action setUserActiveAction app/(workbench)/admin/actions.ts": {
    roles: ["admin"],
    scopes: {
      "own-tenant": async () => ({ userId: id(METRO_TARGET), active: true }),
      "other-tenant": async () => ({ userId: id(CYBER_USER), active: false }),
    },
    scopeDenial: "CG-ACCESS-003",
  },
  "action resetPasswordAction app/(workbench)/admin/actions.ts": {
    roles: ["admin"],
    scopes: {
      "own-tenant": async () => ({ userId: id(METRO_TARGET), password: "matrix-password-2" }),
      "other-tenant": async () => ({ userId: id(CYBER_USER), password: "hijacked-password" }),
    },
    scopeDenial: "CG-ACCESS-003",
  },
  "action renameTenantAction app/(workbench)/admin/actions.ts": {
    roles: ["admin"],
    scopes: { "own-tenant": async () => ({ name: "Metro Police Department" }) },
    notApplicable: "renames the admin's own tenant; no tenant can be named",
    scopeDenial: "-",
  },
  "action setHiddenCountModeAction app/(workbench)/admin/actions.ts": {
    roles: ["admin"],
    scopes: { "own-tenant": async () => ({ mode: "case" }) },
    notApplicable: "sets the admin's own tenant's setting; no tenant can be named",
    scopeDenial: "-",
  },
  "action createLicenseAction app/(workbench)/admin/actions.ts": {
    roles: ["admin"],
    scopes: { "own-tenant": async (ctx) => ({ id: `LIC-M-${ctx.fresh()}`, name: "Matrix", allows: ["ANALYZE"] }) },
    notApplicable: "creates in the admin's own tenant; no tenant can be named",
    scopeDenial: "-",
  },
  "action updateLicenseAction app/(workbench)/admin/actions.ts": {
    roles: ["admin"],
    scopes: {
      "own-tenant": async () => ({ id: "LIC-METRO-OWN", name: "Metro own", allows: ["ANALYZE"] }),
      "other-tenant": async () => ({ id: "LIC-CYBER-OWN", name: "Hijacked", allows: ["FULL_ACCESS"] }),
    },
    scopeDenial: "CG-ACCESS-003",
  },
  "action addMemberAction app/(workbench)/admin/actions.ts": {
    roles: ["admin"],
    scopes: {
      "own-case": async () => ({ caseId: "case-harbor", userId: id(METRO_TARGET) }),
      "other-case": async () => ({ caseId: OTHER_TENANT_CASE, userId: id(METRO_TARGET) }),
      "other-tenant": async () => ({ caseId: "case-harbor", userId: id(CYBER_USER) }),
    },
    notApplicable: "own tenant = own case for a membership",
    scopeDenial: "CG-ACCESS-003",
  },
  "action removeMemberAction app/(workbench)/admin/actions.ts": {
    roles: ["admin"],
    scopes: {
      "own-case": async () => ({ caseId: "case-ledgerline", userId: id(METRO_TARGET) }),
      "other-case": async () => ({ caseId: OTHER_TENANT_CASE, userId: id("junior.ali@cyber.example") }),
      "other-tenant": async () => ({ caseId: OTHER_TENANT_CASE, userId: id(CYBER_USER) }),
    },
    notApplicable: "own tenant = own case for a membership",
    scopeDenial: "CG-ACCESS-003",
  },
  // Issue 17: an admin grants a member of a case of their tenant the ingest permission.
  "action setMemberPermissionAction app/(workbench)/admin/actions.ts": {
    roles: ["admin"],
    scopes: {
      "own-case": async () => ({ caseId: "case-harbor", userId: id(PEOPLE.investigator.email), permission: "ingest", granted: true }),
      "other-case": async () => ({
        caseId: OTHER_TENANT_CASE,
        userId: id("junior.ali@cyber.example"),
        permission: "ingest",
        granted: true,
      }),
      "other-tenant": async () => ({ caseId: "case-harbor", userId: id(CYBER_USER), permission: "ingest", granted: true }),
    },
    notApplicable: "own tenant = own case for a membership",
    scopeDenial: "CG-ACCESS-003",
  },
  "action createOwnTokenAction app/(workbench)/account/actions.ts": {
    roles: [],
    scopes: { "own-tenant": async () => ({ name: "matrix", expiresIn: "1d" }) },
    notApplicable: "issues a token for the caller only; no user or tenant can be named",
    scopeDenial: "-",
  },
  "action revokeOwnTokenAction app/(workbench)/account/actions.ts": {
    roles: [],
    scopes: {
      "own-tenant": async (ctx) => ({ tokenId: await tokenOf(ctx.db, ctx.person.email) }),
      "other-tenant": async (ctx) => ({ tokenId: await tokenOf(ctx.db, CYBER_USER) }),
    },
    scopeDenial: "CG-ACCESS-003",
  },
  "action revokeTokenAction app/(workbench)/admin/actions.ts": {
    roles: ["admin"],
    scopes: {
      "own-tenant": async (ctx) => ({ tokenId: await tokenOf(ctx.db, METRO_TARGET) }),
      "other-tenant": async (ctx) => ({ tokenId: await tokenOf(ctx.db, CYBER_USER) }),
    },
    scopeDenial: "CG-ACCESS-003",
  },
  // Issue 15: an admin revokes evidence of their own tenant (another tenant's is "not found") and flips its switches.
  "action revokeEvidenceAction app/(workbench)/admin/grounding-actions.ts": {
    roles: ["admin"],
    scopes: {
      "own-tenant": async (ctx) => ({ caseId: "case-harbor", evidenceId: nextRevocable(ctx.db), reason: "matrix" }),
      "other-tenant": async () => ({ caseId: OTHER_TENANT_CASE, evidenceId: "EV-Y-001", reason: "matrix" }),
    },
    notApplicable: "evidence belongs to the tenant's cases; own tenant = any of its cases for an admin",
    scopeDenial: "CG-GROUND-005",
  },
  // Issue 17: an admin licenses the evidence of a document of their own tenant (another tenant's is "not found").
  "action licenseDocumentAction app/(workbench)/admin/grounding-actions.ts": {
    roles: ["admin"],
    scopes: {
      "own-tenant": async (ctx) => ({
        caseId: "case-harbor",
        documentId: await documentOf(ctx.db, "case-harbor"),
        license: "LIC-INTERNAL",
      }),
      "other-tenant": async (ctx) => ({
        caseId: OTHER_TENANT_CASE,
        documentId: await documentOf(ctx.db, OTHER_TENANT_CASE),
        license: "LIC-INTERNAL",
      }),
    },
    notApplicable: "documents belong to the tenant's cases; own tenant = any of its cases for an admin",
    scopeDenial: "CG-INGEST-014",
  },
  "action setKillSwitchAction app/(workbench)/admin/grounding-actions.ts": {
    roles: ["admin"],
    scopes: { "own-tenant": async () => ({ name: "DISABLE_EXPORTS", enabled: false }) },
    notApplicable: "sets the caller's own tenant's switch; no tenant can be named",
    scopeDenial: "-",
  },
  // The case workbench's reads (issue 6): each needs case access, like ask; the ids are visible demo items of the case.
  ...workbenchRows(),
  ...threadRows(),
  ...AUDIT_ROWS,
  ...REVIEW_ROWS,
  ...DOCUMENT_ROWS,
  ...NEXT_STEP_ROWS,
};

interface Outcome {
  allowed: boolean;
  code: string | null;
  status?: number;
}

function expected(row: Row, kind: Endpoint["kind"], principal: Principal, scope: Scope): { allow: boolean; code: string } {
  if (principal === "none") return { allow: false, code: "CG-AUTH-001" };
  // Routes refuse the dead token; server actions take no tokens at all (a browser session only), so it is "no session".
  if (principal === "expired-token" || principal === "revoked-token")
    return { allow: false, code: kind === "route" ? "CG-AUTH-002" : "CG-AUTH-001" };
  if (row.roles.length && !row.roles.includes(principal)) return { allow: false, code: "CG-ACCESS-002" };
  if (scope === "own-tenant" || scope === "own-case" || row.alsoAllowed?.[principal]?.includes(scope)) return { allow: true, code: "-" };
  return { allow: false, code: row.scopeDenial };
}

describeEachDatabase("authorization matrix", (fixture) => {
  const sessions = new Map<Principal, string>();
  const tokens = new Map<Principal, string>();
  let counter = 0;
  const table: Array<Record<string, string>> = [];

  beforeAll(async () => {
    const { db } = fixture();
    useTestRuntime(db);
    await importDemo(db);
    // Fixture: the supervisor is a member of one case (ledgerline) and not of the other (harbor); a throwaway metro user
    // for the admin actions to change; one license owned by each tenant.
    await db.prisma.caseMember.create({ data: { caseId: "case-ledgerline", userId: id(PEOPLE.supervisor.email) } });
    await db.prisma.user.create({
      data: {
        id: id(METRO_TARGET),
        email: METRO_TARGET,
        name: "Matrix Target",
        tenantId: "metro-pd",
        roles: ["investigator"],
        clearance: "CUI",
        needToKnow: [],
      },
    });
    await db.prisma.caseMember.create({ data: { caseId: "case-ledgerline", userId: id(METRO_TARGET) } });
    await db.prisma.license.create({ data: { id: "LIC-METRO-OWN", name: "Metro own", allows: ["ANALYZE"], tenantId: "metro-pd" } });
    // Issue 17: the investigator may add evidence to their own case.
    await db.prisma.caseMember.update({
      where: { caseId_userId: { caseId: PEOPLE.investigator.ownCase, userId: id(PEOPLE.investigator.email) } },
      data: { permissions: ["ingest"] },
    });
    await db.prisma.license.create({ data: { id: "LIC-CYBER-OWN", name: "Cyber own", allows: ["ANALYZE"], tenantId: "cyber-jcu" } });

    for (const p of ["investigator", "supervisor", "admin"] as const) {
      setRequest({});
      const { setCookies } = await signInWithPassword(db.prisma, { email: PEOPLE[p].email, password: DEMO_PASSWORD }, new Headers());
      sessions.set(p, cookieHeaderFrom(setCookies));
    }
    // Tokens of the investigator: one expired, one revoked. Valid otherwise: only the expiry/revocation denies them.
    const expired = await issueToken(db.prisma, {
      userId: id(PEOPLE.investigator.email),
      name: "expired",
      expiresAt: new Date(Date.now() - 1_000),
      createdBy: null,
    });
    const revoked = await issueToken(db.prisma, {
      userId: id(PEOPLE.investigator.email),
      name: "revoked",
      expiresAt: new Date(Date.now() + 3_600_000),
      createdBy: null,
    });
    await db.prisma.apiToken.update({ where: { id: revoked.id }, data: { revokedAt: new Date() } });
    tokens.set("expired-token", expired.token);
    tokens.set("revoked-token", revoked.token);
  });

  afterAll(() => {
    clearTestRuntime();
    console.log(`authorization matrix: ${table.length} cells`);
    console.table(table);
  });

  async function callRoute(ep: Endpoint, row: Row, principal: Principal, input: unknown, via: "session" | "token"): Promise<Outcome> {
    const headers: Record<string, string> = { host: "casegraph.test", origin: APP_ORIGIN };
    if (principal === "expired-token" || principal === "revoked-token") headers.authorization = `Bearer ${tokens.get(principal)}`;
    else if (principal !== "none") {
      if (via === "token") {
        const t = await issueToken(fixture().db.prisma, {
          userId: id(PEOPLE[principal].email),
          name: "cell",
          expiresAt: new Date(Date.now() + 60_000),
          createdBy: null,
        });
        headers.authorization = `Bearer ${t.token}`;
      } else headers.cookie = sessions.get(principal)!;
    }
    const init: RequestInit = { method: row.request!.method, headers };
    const { $params, $path, $form, ...payload } = (input ?? {}) as {
      $params?: Record<string, string>;
      $path?: string;
      $form?: Record<string, string | { name: string; content: string }>;
    };
    if ($form) {
      const form = new FormData();
      for (const [k, v] of Object.entries($form)) form.append(k, typeof v === "string" ? v : new File([v.content], v.name));
      init.body = form; // fetch sets the multipart content type with its boundary
    } else if (input !== undefined && row.request!.method !== "GET") {
      init.body = JSON.stringify(payload);
      headers["content-type"] = "application/json";
    }
    const res = (await ep.fn(new Request(`http://casegraph.test${$path ?? row.request!.path}`, init), {
      params: Promise.resolve($params ?? row.request!.params ?? {}),
    })) as Response;
    const body = (await res.json().catch(() => ({}))) as { error?: { code?: string } };
    const code = body?.error?.code ?? null;
    const denied = res.status === 401 || res.status === 403 || res.status === 404 || /^CG-(AUTH|ACCESS)-/.test(code ?? "");
    return { allowed: !denied && res.status < 500, code, status: res.status };
  }

  async function callAction(ep: Endpoint, principal: Principal, input: unknown): Promise<Outcome> {
    const extra: Record<string, string> = {};
    if (principal === "expired-token" || principal === "revoked-token") extra.authorization = `Bearer ${tokens.get(principal)}`;
    setRequest({ cookie: sessions.get(principal), extra });
    const result = (await ep.fn(input)) as { ok: boolean; data?: unknown; error?: { code: string } };
    if (!result.ok) return { allowed: false, code: result.error!.code };
    // A streaming action reports its outcome in-band: the final event carries it (lib/graphrag/stream.ts).
    if (result.data instanceof ReadableStream) {
      const outcome = await finalOutcome(result.data);
      if (outcome && !outcome.ok) return { allowed: false, code: outcome.body?.error?.code ?? "?" };
    }
    return { allowed: true, code: null };
  }

  async function finalOutcome(stream: ReadableStream<unknown>): Promise<{ ok: boolean; body?: { error?: { code: string } } } | null> {
    const reader = stream.getReader();
    let last: { ok: boolean; body?: { error?: { code: string } } } | null = null;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return last;
      const event = value as { outcome?: { ok: boolean } };
      if (event && typeof event === "object" && event.outcome) last = event.outcome;
    }
  }

  for (const ep of discovered.endpoints.filter((e) => !PUBLIC[e.key])) {
    const row = MATRIX[ep.key];
    if (!row) continue; // Reported by the coverage test above.
    describe(ep.key, () => {
      it("the guard requires exactly the roles the matrix expects", () => {
        expect([...(guardOf(ep.fn)?.roles ?? [])].sort()).toEqual([...row.roles].sort());
      });
      const vias: Array<"session" | "token"> = ep.kind === "route" ? ["session", "token"] : ["session"];
      for (const via of vias) {
        it(`principals × scopes${ep.kind === "route" ? ` (signed in by ${via})` : ""}`, async () => {
          const ctx0 = { db: fixture().db, fresh: () => `${Date.now().toString(36)}${(counter++).toString(36)}` };
          const failures: string[] = [];
          for (const principal of PRINCIPALS) {
            if (via === "token" && (principal === "none" || principal === "expired-token" || principal === "revoked-token")) continue;
            for (const scope of SCOPES) {
              const build = row.scopes[scope];
              if (!build) {
                if (principal === "admin" && via === "session")
                  table.push({ endpoint: ep.key, principal: "*", scope, expected: "n/a", got: row.notApplicable ?? "n/a" });
                continue;
              }
              const person = principal in PEOPLE ? PEOPLE[principal as keyof typeof PEOPLE] : PEOPLE.admin;
              const input = await build({ ...ctx0, principal, person });
              const got = ep.kind === "route" ? await callRoute(ep, row, principal, input, via) : await callAction(ep, principal, input);
              const want = expected(row, ep.kind, principal, scope);
              const ok = want.allow ? got.allowed : !got.allowed && got.code === want.code;
              table.push({
                endpoint: ep.key + (ep.kind === "route" ? ` [${via}]` : ""),
                principal,
                scope,
                expected: want.allow ? "allow" : `deny ${want.code}`,
                got: got.allowed ? `allow${got.status ? ` ${got.status}` : ""}` : `deny ${got.code}${got.status ? ` ${got.status}` : ""}`,
              });
              if (!ok)
                failures.push(
                  `${principal} × ${scope}: expected ${want.allow ? "allow" : want.code}, got ${got.allowed ? "allow" : got.code} ${got.status ?? ""}`,
                );
            }
          }
          expect(failures).toEqual([]);
        });
      }
      if (ep.kind === "action") {
        it("refuses a cross-origin, a `null` and a missing Origin before doing anything (CG-AUTH-005)", async () => {
          const build = row.scopes["own-tenant"] ?? row.scopes["own-case"]!;
          const principal: Principal = row.roles.includes("admin") ? "admin" : "investigator";
          const input = await build({
            db: fixture().db,
            principal,
            person: PEOPLE[principal as "admin"],
            fresh: () => `o${(counter++).toString(36)}`,
          });
          for (const origin of ["https://evil.example", "null", null, "http://casegraph.test.evil.example"]) {
            setRequest({ cookie: sessions.get(principal), origin });
            const result = (await ep.fn(input)) as { ok: boolean; error?: { code: string } };
            expect(result, `Origin ${origin}`).toMatchObject({ ok: false, error: { code: "CG-AUTH-005" } });
          }
        });
      } else if (row.request!.method !== "GET") {
        it("refuses a cookie-authenticated call from a foreign, `null` or missing Origin (a Bearer token needs none)", async () => {
          const build = row.scopes["own-case"] ?? row.scopes["own-tenant"]!;
          const input = await build({
            db: fixture().db,
            principal: "investigator",
            person: PEOPLE.investigator,
            fresh: () => `o${(counter++).toString(36)}`,
          });
          for (const origin of ["https://evil.example", "null", null]) {
            const headers: Record<string, string> = {
              host: "casegraph.test",
              cookie: sessions.get("investigator")!,
              "content-type": "application/json",
            };
            if (origin) headers.origin = origin;
            const res = (await ep.fn(
              new Request(`http://casegraph.test${row.request!.path}`, {
                method: row.request!.method,
                headers,
                body: JSON.stringify(input),
              }),
              { params: Promise.resolve(row.request!.params ?? {}) },
            )) as Response;
            expect(res.status, `Origin ${origin}`).toBe(403);
            expect((await res.json()).error.code).toBe("CG-AUTH-005");
          }
        });
      }
    });
  }
});
