// The supervisors' audit explorer (supervisors and admins; their own tenant only). Filters are URL parameters; pages
// go back in time with a keyset cursor (?before=<seq>), which stays an index range scan at any ledger size.
import Link from "next/link";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageActor } from "@/lib/auth/current";
import { explorerFiltersSchema, explorerOptions, listAuditEntries, type ExplorerFilters } from "@/lib/server/audit/explorer";
import { runtime } from "@/lib/server/runtime";
import { Alert, Card } from "@/components/ui";
import { AuditFilters } from "@/components/audit/filters";
import { AuditTable } from "@/components/audit/audit-table";
import { VerifyChain } from "@/components/audit/verify-chain";
import { ExportPanel } from "@/components/audit/export-panel";
import { shortHash, utc } from "@/components/audit/format";
import { positiveIntParam } from "@/lib/domain/request-text";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Audit · Casegraph" };

type Search = Record<string, string | string[] | undefined>;

function queryString(filters: ExplorerFilters, extra: Record<string, string> = {}): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) {
    if (v === undefined || v === false || v === "" || (k === "kind" && v === "all")) continue;
    q.set(k, v === true ? "1" : String(v));
  }
  for (const [k, v] of Object.entries(extra)) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : "";
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<Search> }) {
  const actor = await requirePageActor({ roles: ["supervisor", "admin"], from: "/audit" });
  const sp = await searchParams;
  const flat = Object.fromEntries(Object.entries(sp).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  const parsed = explorerFiltersSchema.safeParse(flat);
  const before = flat.before === undefined ? undefined : positiveIntParam(flat.before);
  // A filter or cursor the explorer cannot have written is not a page it serves (never a query on a bad value).
  if (!parsed.success || before === null) notFound();
  const filters: ExplorerFilters = parsed.data;

  const { db, ledger } = await runtime();
  const [{ rows, nextCursor }, options, latest, head] = await Promise.all([
    listAuditEntries(db.prisma, actor, filters, before),
    explorerOptions(db.prisma, actor),
    ledger.latestCheckpoint(),
    ledger.head(),
  ]);
  const seqs = rows.map((r) => r.seq);

  return (
    <div className="space-y-5">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Audit explorer</h1>
          {actor.roles.includes("supervisor") ? (
            <p className="text-sm">
              <Link href="/audit/reviews?status=pending" className="text-blue-700 underline" data-testid="review-queue-link">
                Review queue
              </Link>{" "}
              ·{" "}
              <Link href="/audit/next-steps?status=pending" className="text-blue-700 underline" data-testid="next-steps-link">
                Proposed next steps
              </Link>
            </p>
          ) : null}
          <p className="mt-1 text-sm text-slate-600">
            Every question, answer and admin change of {actor.tenantId}, from the tamper-evident ledger. The ledger holds {head.size}{" "}
            entries
            {latest ? (
              <>
                ; latest signed checkpoint: {latest.treeSize} entries, root <span className="font-mono">{shortHash(latest.rootHash)}</span>,{" "}
                {utc(latest.time)}
              </>
            ) : (
              "; no signed checkpoint yet"
            )}
            .
          </p>
        </div>
        <VerifyChain />
      </header>

      {!parsed.success ? <Alert tone="warning" title="Some filters were not understood and were ignored." /> : null}
      <AuditFilters filters={filters} options={options} />
      {filters.thread ? (
        <p className="rounded border border-blue-200 bg-blue-50 px-3 py-2 text-sm text-blue-950" data-testid="audit-thread-filter">
          The turns of thread <span className="font-mono">{filters.thread}</span> together, newest first (each turn is its own entry).{" "}
          <Link href="/audit" className="underline">
            All entries
          </Link>
        </p>
      ) : null}

      <AuditTable rows={rows} />
      <nav className="flex items-center justify-between text-sm" aria-label="Pages">
        {before !== undefined ? (
          <Link href={`/audit${queryString(filters)}`} className="text-blue-800 hover:underline">
            ← Newest
          </Link>
        ) : (
          <span />
        )}
        {nextCursor !== null ? (
          <Link
            href={`/audit${queryString(filters, { before: String(nextCursor) })}`}
            className="text-blue-800 hover:underline"
            data-testid="older"
          >
            Older entries →
          </Link>
        ) : (
          <span className="text-slate-400">End of the ledger</span>
        )}
      </nav>

      <Card
        title="Export"
        description="A deterministic compliance artifact (entries of your tenant in the range, the signed checkpoint at its end, an inclusion proof per entry, prompt versions) or CSV. Exports are recorded in the ledger."
      >
        <ExportPanel
          defaultFrom={seqs.length ? Math.min(...seqs) : 1}
          defaultTo={seqs.length ? Math.max(...seqs) : Math.max(1, head.size)}
        />
      </Card>
    </div>
  );
}
