// Production secrets (issue 11 §18 and §5): a production server refuses to start without BETTER_AUTH_SECRET and
// CASEGRAPH_LEDGER_SIGNING_KEY, and never generates either; outside production both are generated into the data folder.
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { assertProductionSecrets, missingProductionSecrets } from "@/lib/server/runtime/production";
import { loadLedgerSigner } from "@/lib/server/ledger/key";

const KEY = "-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIB0OlmLlMc3tmpPZeSe0bAkvEoNeqxUewUrE7RY2Ao1+\n-----END PRIVATE KEY-----\n";

describe("production secrets", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-prod-"));
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await rm(dir, { recursive: true, force: true });
  });

  it("names what a production server lacks, and nothing outside production", () => {
    expect(missingProductionSecrets({ NODE_ENV: "production" })).toEqual([
      "BETTER_AUTH_SECRET",
      "CASEGRAPH_LEDGER_SIGNING_KEY",
      "BETTER_AUTH_URL",
    ]);
    expect(
      missingProductionSecrets({
        NODE_ENV: "production",
        BETTER_AUTH_SECRET: "x".repeat(40),
        CASEGRAPH_LEDGER_SIGNING_KEY: " ",
        BETTER_AUTH_URL: "https://cg.example",
      }),
    ).toEqual(["CASEGRAPH_LEDGER_SIGNING_KEY"]);
    expect(missingProductionSecrets({ NODE_ENV: "development" })).toEqual([]);
    expect(() => assertProductionSecrets({ NODE_ENV: "production", BETTER_AUTH_SECRET: "x".repeat(40) })).toThrow(
      /CASEGRAPH_LEDGER_SIGNING_KEY, BETTER_AUTH_URL must be set/,
    );
    expect(() =>
      assertProductionSecrets({
        NODE_ENV: "production",
        BETTER_AUTH_SECRET: "x".repeat(40),
        CASEGRAPH_LEDGER_SIGNING_KEY: KEY,
        BETTER_AUTH_URL: "https://cg.example",
      }),
    ).not.toThrow();
  });

  it("the server start (instrumentation) exits with a coded message in production without them", async () => {
    vi.stubEnv("NEXT_RUNTIME", "nodejs");
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("BETTER_AUTH_SECRET", "");
    vi.stubEnv("CASEGRAPH_LEDGER_SIGNING_KEY", "");
    vi.stubEnv("BETTER_AUTH_URL", "");
    const exit = vi.spyOn(process, "exit").mockImplementation(((code: number) => {
      throw new Error(`exit ${code}`);
    }) as never);
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const { register } = await import("@/instrumentation");
    await expect(register()).rejects.toThrow("exit 78");
    expect(error.mock.calls.flat().join(" ")).toMatch(
      /refusing to start: CG-SYS-003 BETTER_AUTH_SECRET, CASEGRAPH_LEDGER_SIGNING_KEY, BETTER_AUTH_URL must be set/,
    );
    exit.mockRestore();
    error.mockRestore();
  });

  it("the ledger key is never generated in production, and generated once (0600) outside it", async () => {
    vi.stubEnv("NODE_ENV", "production");
    await expect(loadLedgerSigner({ dataDir: dir })).rejects.toMatchObject({ code: "CG-SYS-003" });
    expect(await loadLedgerSigner({ key: KEY, dataDir: dir })).toMatchObject({ source: "env" });
    vi.stubEnv("NODE_ENV", "development");
    const first = await loadLedgerSigner({ dataDir: dir });
    const again = await loadLedgerSigner({ dataDir: dir });
    expect(first?.source).toBe("data-dir");
    expect(again?.keyId).toBe(first?.keyId);
    expect((await stat(path.join(dir, "ledger-signing-key.pem"))).mode & 0o777).toBe(0o600);
    expect(await readFile(path.join(dir, "ledger-signing-key.pem"), "utf8")).toMatch(/BEGIN PRIVATE KEY/);
  });

  it("the auth secret is never generated in production", async () => {
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("BETTER_AUTH_SECRET", "");
    vi.stubEnv("CASEGRAPH_DATA_DIR", dir);
    vi.resetModules();
    const { authSecret } = await import("@/lib/auth/auth");
    await expect(authSecret()).rejects.toMatchObject({ code: "CG-SYS-003" });
  });
});
