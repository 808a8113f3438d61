// `npm run bench -- <name> [options]`: figures printed as a table, never asserted (docs/architecture.md: Tests, in tiers).
export {};
const benches: Record<string, () => Promise<{ default: (args: string[]) => Promise<void> }>> = {
  import: () => import("./import"),
  ledger: () => import("./ledger"),
  graph: () => import("./graph"),
  "graph-ui": () => import("./graph-ui"),
  answer: () => import("./answer"),
  grounding: () => import("./grounding"),
  claims: () => import("./claims"),
  policy: () => import("./policy"),
  ingest: () => import("./ingest"),
  playbooks: () => import("./playbooks"),
};

const [name, ...args] = process.argv.slice(2);
const load = name ? benches[name] : undefined;
if (!load) {
  console.error(`usage: npm run bench -- <${Object.keys(benches).join("|")}> [options]`);
  process.exit(2);
}
await (await load()).default(args);
