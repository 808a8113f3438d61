// One held answer for a supervisor: the question, the asker, why it is held (the answer policies, or evidence that has
// expired), the draft with the violations marked, the policies involved and the evidence it cites (only what this
// supervisor may see, expired items marked), and the decision.
import Link from "next/link";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageActor } from "@/lib/auth/current";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { getReview } from "@/lib/server/answers/reviews";
import { runtime } from "@/lib/server/runtime";
import { Alert, Badge, Card, SafeText } from "@/components/ui";
import { ReviewDecision } from "@/components/audit/review-decision";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Held answer · Casegraph" };

export default async function ReviewPage({ params }: { params: Promise<{ id: string }> }) {
  const actor = await requirePageActor({ roles: ["supervisor"], from: "/audit/reviews" });
  const { id } = await params;
  if (id.length > 100) notFound();
  const { db } = await runtime();
  const r = await getReview(db.prisma, actor, id).catch((err) => {
    if (err instanceof CasegraphError && err.code === "CG-REVIEW-001") notFound();
    throw err;
  });
  return (
    <div className="space-y-5">
      <p className="text-sm">
        <Link href="/audit/reviews" className="text-blue-700 underline">
          ← Review queue
        </Link>
      </p>
      <header>
        <h1 className="text-2xl font-semibold tracking-tight">
          Held answer <Badge tone={r.status === "pending" ? "amber" : r.status === "approved" ? "green" : "red"}>{r.status}</Badge>
        </h1>
        <p className="mt-1 text-sm text-slate-600">
          Asked by {r.askerEmail ?? "–"} on <span className="font-mono text-xs">{r.caseId}</span>,{" "}
          {r.createdAt.slice(0, 16).replace("T", " ")} UTC.
          {r.bundleSha256 && r.compliance ? (
            <>
              {" "}
              Bundle <span className="font-mono text-xs">{r.bundleSha256.slice(0, 16)}…</span>, score {r.compliance.score.toFixed(2)} (
              {r.compliance.action}), {r.compliance.attempts} attempt(s).
            </>
          ) : null}
        </p>
      </header>
      {r.heldNote ? (
        <div data-testid="review-expired">
          <Alert tone="warning" title={r.heldNote}>
            No active evidence answered the question; this draft rests on evidence that has expired. Approving delivers it to the asker
            marked as citing expired evidence, released by you.
          </Alert>
        </div>
      ) : null}
      {r.revokedSince ? (
        <Alert tone="error" title="Cites evidence revoked since" code="CG-REVIEW-006">
          {r.revokedSince} cited item(s) have been revoked since the draft was held; it can no longer be approved.
        </Alert>
      ) : null}
      <Card title="Question">
        <p className="text-sm" data-testid="review-question">
          <SafeText text={r.question} />
        </p>
      </Card>
      <Card title="Draft" description="What the asker would have read; the parts that violate a policy are marked.">
        {r.highlighted ? (
          <p className="whitespace-pre-wrap text-sm" data-testid="review-draft">
            {r.highlighted.map((s, i) =>
              s.hit ? (
                <mark key={i} className="rounded bg-red-200 px-0.5" data-testid="violation-hit">
                  <SafeText text={s.text} />
                </mark>
              ) : (
                <SafeText key={i} text={s.text} />
              ),
            )}
          </p>
        ) : (
          <ul className="space-y-1 text-sm" data-testid="review-draft">
            {r.claims.map((c) => (
              <li key={c.claimId} className={c.violating ? "rounded bg-red-100 px-1" : undefined}>
                {c.text === null ? (
                  <em className="text-slate-500">A claim citing evidence outside your permissions.</em>
                ) : (
                  <SafeText text={c.text} />
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>
      {r.compliance ? (
        <Card title="Violations">
          <ul className="list-disc space-y-1 pl-5 text-sm" data-testid="review-violations">
            {r.compliance.violations.map((v, i) => (
              <li key={i}>
                <span className="font-mono text-xs">{v.policyId}</span> ({v.kind}): {v.detail}
              </li>
            ))}
          </ul>
          {r.policies.length ? (
            <ul className="mt-3 space-y-1 text-sm text-slate-700">
              {r.policies.map((p) => (
                <li key={p.policyId}>
                  <span className="font-mono text-xs">{p.policyId}</span> — {p.source}; owner {p.owner}; priority {p.priority}; domain{" "}
                  {p.domain}
                </li>
              ))}
            </ul>
          ) : null}
        </Card>
      ) : null}
      <Card
        title="Cited evidence"
        description={
          r.hiddenEvidence
            ? `${r.hiddenEvidence} cited item(s) are ${r.revokedSince ? "revoked or " : ""}outside your permissions and not shown.`
            : undefined
        }
      >
        <ul className="space-y-2 text-sm">
          {r.evidence.map((e) => (
            <li key={e.id}>
              <span className="font-mono text-xs">{e.id}</span> · {e.type} · {e.collectedAt.slice(0, 10)}
              {e.expiredAt ? (
                <>
                  {" "}
                  · <Badge tone="amber">expired on {e.expiredAt.slice(0, 10)}</Badge>
                </>
              ) : null}
              <br />
              <SafeText text={e.content} />
            </li>
          ))}
        </ul>
      </Card>
      {r.status === "pending" ? (
        <ReviewDecision id={r.id} />
      ) : (
        <Alert
          tone="info"
          title={`${r.status === "approved" ? "Approved" : "Rejected"} by ${r.decidedBy ?? "–"} on ${r.decidedAt?.slice(0, 16).replace("T", " ") ?? "–"} UTC`}
        >
          {r.note ? <SafeText text={r.note} /> : null}
        </Alert>
      )}
    </div>
  );
}
