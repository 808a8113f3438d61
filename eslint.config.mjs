import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";

// Boundaries (docs/architecture.md "What may import what"). The pure layers take ports and never reach a framework,
// a database, a driver, a model SDK or the server wiring; client components never import server code.
const FRAMEWORKS = [
  "next",
  "next/*",
  "react",
  "react-dom",
  "react/*",
  "@prisma/*",
  "neo4j-driver",
  "neo4j-driver/*",
  "ai",
  "ai/*",
  "@ai-sdk/*",
  "pg",
  "pg/*",
  "better-auth",
  "better-auth/*",
  "z3-solver",
  "server-only",
];
const GENERATED = ["**/generated/**", "@/lib/generated/*"];
const SERVER_SIDE = ["@/lib/adapters/*", "@/lib/server/*", "@/lib/auth/*", "**/adapters/**", "**/server/**", "**/auth/**"];
const PURE_LAYERS = ["lib/domain/**", "lib/graphrag/**", "lib/policy/**", "lib/grounding/**", "lib/playbooks/**", "lib/ingest/**"];

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores([
    ".next/**",
    ".cache/**",
    "lib/generated/**",
    "node_modules/**",
    "tools/**",
    "e2e/artifacts/**",
    "test-results/**",
    "playwright-report/**",
    "next-env.d.ts",
    "prisma/demo/*.mjs",
  ]),
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: PURE_LAYERS,
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [...FRAMEWORKS, ...GENERATED],
              message:
                "A pure layer (lib/domain, lib/graphrag, lib/policy, lib/grounding, lib/playbooks, lib/ingest) imports no framework, database, driver or model SDK: take a port (lib/ports.ts).",
            },
            {
              group: SERVER_SIDE,
              allowTypeImports: true,
              message: "A pure layer reaches adapters, server wiring and auth only through ports (type imports are fine).",
            },
          ],
        },
      ],
    },
  },
  {
    files: ["components/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: [...SERVER_SIDE, ...GENERATED, "@prisma/*", "neo4j-driver", "pg", "z3-solver"],
              allowTypeImports: true,
              message: "Client components import no server code; shared view types and pure helpers live in lib/domain.",
            },
          ],
        },
      ],
    },
  },
]);
