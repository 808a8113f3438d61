// End-to-end tests on Debian's Chromium (/usr/bin/chromium; no `playwright install`, see ENVIRONMENT.md). The web
// server is the production build (`npm run build` first; this config never builds) started on a fixed port with a
// fresh embedded database, so the demo workspace seeds on start. Screenshots: on failure, plus the ones the specs take
// on purpose, all kept under e2e/artifacts/.
import { defineConfig } from "@playwright/test";
import { generateSigningKey } from "./lib/domain/checkpoint";

const PORT = Number(process.env.E2E_PORT ?? 3210);
const BASE_URL = `http://localhost:${PORT}`;
const DATA_DIR = process.env.E2E_DATA_DIR ?? "/tmp/casegraph-e2e-data";

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
  webServer: {
    command: `rm -rf ${DATA_DIR} && mkdir -p ${DATA_DIR} && npm run start -- -p ${PORT}`,
    url: `${BASE_URL}/api/graphrag/health`,
    reuseExistingServer: !process.env.CI,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      CASEGRAPH_DATA_DIR: DATA_DIR,
      BETTER_AUTH_URL: BASE_URL,
      BETTER_AUTH_SECRET: process.env.BETTER_AUTH_SECRET ?? "e2e-only-secret-0123456789abcdef0123456789",
      // `next start` is production: it refuses to start without its own ledger key (README "Production").
      CASEGRAPH_LEDGER_SIGNING_KEY: process.env.CASEGRAPH_LEDGER_SIGNING_KEY ?? generateSigningKey().privateKeyPem,
      NEXT_TELEMETRY_DISABLED: "1",
    },
  },
});
