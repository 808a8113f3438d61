import path from "node:path";
import { defineConfig } from "vitest/config";

// "server-only" throws outside React Server Components; tests import server modules directly, as the CLI does.
const alias = {
  "@": path.resolve(import.meta.dirname),
  "server-only": path.resolve(import.meta.dirname, "node_modules/server-only/empty.js"),
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts", "tests/unit/**/*.test.tsx"],
          environment: "node",
          // Property tests run thousands of cases; on a loaded 2-core CI machine they outlast vitest's 5 s default.
          // Speed is measured by `npm run bench`, not by a unit test's timeout.
          testTimeout: 60_000,
          sequence: { groupOrder: 0 },
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // PGlite instances are memory-hungry and the machine has 2 cores.
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
          globalSetup: ["tests/support/global-setup.ts"],
        },
      },
    ],
  },
});
