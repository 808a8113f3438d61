// Renders docs/failure-codes.md from the catalogue: `npx tsx scripts/failure-docs.ts > docs/failure-codes.md`.
import { FAILURES } from "../lib/domain/failure-codes";

export function renderFailureDocs(): string {
  const rows = Object.entries(FAILURES).map(
    ([code, d]) => `| \`${code}\` | ${d.status} | ${d.message} | ${d.description.replace(/\|/g, "\\|")} |`,
  );
  return [
    "# Failure codes",
    "",
    "Every failure a user or client can see carries one of these codes, a short message and never a stack trace or SQL.",
    "Generated from `lib/domain/failure-codes.ts`; a unit test fails when this file is out of date.",
    "",
    "| Code | HTTP | Message | When |",
    "|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}

if (process.argv[1]?.endsWith("failure-docs.ts")) process.stdout.write(renderFailureDocs());
