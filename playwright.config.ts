// End-to-end tests on Debian's Chromium (/usr/bin/chromium; no `playwright install`, see ENVIRONMENT.md). The web
// server is the production build (`npm run build` first; this config never builds) started on a fixed port with a
// fresh embedded database, so the demo workspace seeds on start; beside it, a second one behind a stub model
// (e2e/model-stub.ts) for the specs that need a model that misbehaves. Screenshots: on failure, plus the ones the specs take
// on purpose, all kept under e2e/artifacts/.
import { defineConfig } from "@playwright/test";
import { generateSigningKey } from "./lib/domain/checkpoint";
import { BASE_URL, MODEL_STUB_URL, STUB_APP_URL } from "./e2e/servers";

const DATA_DIR = process.env.E2E_DATA_DIR ?? "/tmp/casegraph-e2e-data";
const STUB_DATA_DIR = `${DATA_DIR}-stub-model`;

/** `next start` on a fresh embedded database (the demo workspace seeds on start). */
function appServer(url: string, dataDir: string, model: Record<string, string>) {
  return {
    command: `rm -rf ${dataDir} && mkdir -p ${dataDir} && npm run start -- -p ${new URL(url).port}`,
    url: `${url}/api/graphrag/health`,
    reuseExistingServer: !process.env.CI,
    timeout: 120_000,
    stdout: "pipe" as const,
    stderr: "pipe" as const,
    env: {
      CASEGRAPH_DATA_DIR: dataDir,
      BETTER_AUTH_URL: url,
      BETTER_AUTH_SECRET: process.env.BETTER_AUTH_SECRET ?? "e2e-only-secret-0123456789abcdef0123456789",
      // `next start` is production: it refuses to start without its own ledger key (README "Production").
      CASEGRAPH_LEDGER_SIGNING_KEY: process.env.CASEGRAPH_LEDGER_SIGNING_KEY ?? generateSigningKey().privateKeyPem,
      NEXT_TELEMETRY_DISABLED: "1",
      ...model,
    },
  };
}

export default defineConfig({
  testDir: "e2e",
  outputDir: "e2e/artifacts/test-results",
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [["list"], ["html", { outputFolder: "e2e/artifacts/report", open: "never" }]],
  use: {
    baseURL: BASE_URL,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
      ],
    },
  },
  projects: [{ name: "chromium", use: { browserName: "chromium" } }],
  webServer: [
    appServer(BASE_URL, DATA_DIR, {}),
    {
      command: `npx tsx e2e/model-stub.ts ${new URL(MODEL_STUB_URL).port}`,
      url: `${MODEL_STUB_URL}/v1/models`,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
    },
    appServer(STUB_APP_URL, STUB_DATA_DIR, {
      LLM_PROVIDER: "openai-compatible",
      LLM_BASE_URL: `${MODEL_STUB_URL}/v1`,
      LLM_MODEL: "e2e-stub",
    }),
  ],
});
