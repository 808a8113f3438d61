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
