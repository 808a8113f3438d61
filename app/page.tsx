import { workspaceOverview } from "@/lib/server/overview";

export const dynamic = "force-dynamic";

export default async function Home() {
  const overview = await workspaceOverview();
  return (
    <main className="mx-auto max-w-4xl p-8">
      <header className="mb-8">
        <h1 className="text-3xl font-semibold tracking-tight">Casegraph</h1>
        <p className="mt-2 text-slate-600">
          Evidence-first answers over a case graph: every claim cites evidence you may see, gaps are listed as unknowns,
          and every question leaves a tamper-evident audit record.
        </p>
      </header>
      <section aria-labelledby="ws" className="rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <h2 id="ws" className="text-lg font-medium">Workspace</h2>
        <dl className="mt-4 grid grid-cols-2 gap-4 sm:grid-cols-4">
          {Object.entries(overview.counts).map(([k, v]) => (
            <div key={k}>
              <dt className="text-sm text-slate-500">{k}</dt>
              <dd className="text-2xl font-semibold" data-testid={`count-${k}`}>{v}</dd>
            </div>
          ))}
        </dl>
        <p className="mt-4 text-sm text-slate-500">
          Database: <span data-testid="db-kind">{overview.databaseKind}</span>
        </p>
      </section>
    </main>
  );
}
