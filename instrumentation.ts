// Runs once when the server starts (not during `next build`): refuse to start in production without its secrets, open
// the database, migrate the embedded default, load the demo workspace into an empty one, and schedule ledger
// maintenance (retention of question text, catch-up signed checkpoints).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // Production needs secrets it owns (README "Production"): without them the server does not start at all.
  const { startOrExit } = await import("./lib/server/production");
  startOrExit();
  const { seedDemoIfEmpty } = await import("./lib/server/runtime");
  try {
    if (await seedDemoIfEmpty()) console.log("casegraph: demo workspace imported (see README for the demo sign-ins)");
  } catch (err) {
    // The server still starts; health reports the database as down and pages show a coded error.
    console.error("casegraph: startup database check failed:", (err as Error).message);
    return;
  }
  const { startLedgerMaintenance } = await import("./lib/server/ledger-maintenance");
  startLedgerMaintenance();
}
