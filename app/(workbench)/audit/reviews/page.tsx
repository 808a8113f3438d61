// The review queue (issues 14 and 15): answers the tenant's answer policies escalated and answers drafted from expired
// evidence, for its supervisors.
import Link from "next/link";
import type { Metadata } from "next";
import { requirePageActor } from "@/lib/auth/current";
import { StatusFilter, statusParam } from "@/components/audit/status-filter";
import { listReviews } from "@/lib/server/answers/reviews";
import { runtime } from "@/lib/server/runtime";
import { Badge, SafeText, Table, TBody, Td, Th, THead, Tr } from "@/components/ui";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Review queue · Casegraph" };

const TONE = { pending: "amber", approved: "green", rejected: "red" } as const;

export default async function ReviewsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const actor = await requirePageActor({ roles: ["supervisor"], from: "/audit/reviews" });
  const sp = await searchParams;
  const wanted = statusParam(sp);
  const { db } = await runtime();
  const reviews = await listReviews(db.prisma, actor, wanted ? { status: wanted } : {});
  return (
    <div className="space-y-5">
      <header>
        <h1 className="text-2xl font-semibold tracking-tight">Review queue</h1>
        <p className="mt-1 text-sm text-slate-600">
          Answers {actor.tenantId}&apos;s answer policies held back, and answers drafted from evidence that has expired. The asker was told
          only that the answer is held and why; approve it (with a note) to deliver it, or reject it. Each decision is a ledger entry.{" "}
          <Link className="text-blue-700 underline" href="/audit">
            Audit explorer
          </Link>
        </p>
        <StatusFilter base="/audit/reviews" wanted={wanted} />
      </header>
      {reviews.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="no-reviews">
          No held answers{wanted ? ` (${wanted})` : ""}.
        </p>
      ) : (
        <Table data-testid="review-table">
          <THead>
            <Tr>
              <Th>Held</Th>
              <Th>Question</Th>
              <Th>Asker</Th>
              <Th>Case</Th>
              <Th>Why held</Th>
              <Th>Status</Th>
            </Tr>
          </THead>
          <TBody>
            {reviews.map((r) => (
              <Tr key={r.id}>
                <Td className="whitespace-nowrap font-mono text-xs">{r.createdAt.slice(0, 16).replace("T", " ")}</Td>
                <Td>
                  <Link href={`/audit/reviews/${encodeURIComponent(r.id)}`} className="text-blue-700 underline">
                    <SafeText text={r.question} />
                  </Link>
                </Td>
                <Td>{r.askerEmail ?? "–"}</Td>
                <Td className="font-mono text-xs">{r.caseId}</Td>
                <Td data-testid="review-why">
                  {r.heldNote ??
                    (r.score === null ? "answer policies" : `answer policies: ${r.score.toFixed(2)} · ${r.violations} violation(s)`)}
                </Td>
                <Td>
                  <Badge tone={TONE[r.status]}>{r.status}</Badge>
                </Td>
              </Tr>
            ))}
          </TBody>
        </Table>
      )}
    </div>
  );
}
