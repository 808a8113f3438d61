import Link from "next/link";
import { Badge, Table, TBody, THead, Td, Th, Tr } from "@/components/ui";
import type { AuditRow } from "@/lib/server/audit/explorer";
import { RESPONSE_TONE, kindLabel, utc } from "./format";
import { SafeText } from "@/components/ui/safe-text";

export function AuditTable({ rows }: { rows: AuditRow[] }) {
  return (
    <Table data-testid="audit-table" aria-label="Audit entries, newest first">
      <THead>
        <Tr>
          <Th>Seq</Th>
          <Th>Time</Th>
          <Th>Who</Th>
          <Th>Case</Th>
          <Th>What</Th>
          <Th>Outcome</Th>
          <Th>Confidence</Th>
          <Th>Checks</Th>
          <Th>Model · prompt</Th>
        </Tr>
      </THead>
      <TBody>
        {rows.length === 0 ? (
          <Tr>
            <Td colSpan={9} className="py-6 text-center text-slate-500">
              No entries match these filters.
            </Td>
          </Tr>
        ) : null}
        {rows.map((r) => (
          <Tr key={r.seq} data-testid={`audit-row-${r.seq}`} data-needs-review={r.needsReview ? "true" : "false"}>
            <Td className="font-mono text-xs">
              <Link href={`/audit/${r.seq}`} className="font-medium text-blue-800 hover:underline" data-testid="audit-open">
                #{r.seq}
              </Link>
            </Td>
            <Td className="whitespace-nowrap text-xs text-slate-600">{utc(r.createdAt)}</Td>
            <Td className="text-xs">
              {r.actorName ?? <span className="text-slate-400">{r.actorId ?? "operator"}</span>}
              {r.actorEmail ? <div className="text-slate-500">{r.actorEmail}</div> : null}
            </Td>
            <Td className="font-mono text-xs">{r.caseId ?? "—"}</Td>
            <Td className="max-w-md text-xs">
              <div className="font-medium text-slate-700">
                {kindLabel(r.kind)}
                {r.target ? <span className="font-normal text-slate-500"> · {r.target}</span> : null}
              </div>
              {r.question ? (
                <div className="mt-0.5 line-clamp-2 text-slate-800">
                  “<SafeText text={r.question} />”
                </div>
              ) : null}
              {r.questionErased ? <div className="mt-0.5 italic text-slate-400">question text erased (retention)</div> : null}
              {r.threadId ? (
                <div className="mt-0.5">
                  <Link
                    href={`/audit?thread=${encodeURIComponent(r.threadId)}`}
                    className="text-blue-800 hover:underline"
                    data-testid="audit-thread-link"
                    title="Show this thread's turns together"
                  >
                    thread turn {r.threadTurn ?? "?"}
                  </Link>
                </div>
              ) : null}
            </Td>
            <Td>{r.responseType ? <Badge tone={RESPONSE_TONE[r.responseType] ?? "neutral"}>{r.responseType}</Badge> : null}</Td>
            <Td className="text-xs">
              {r.confidence !== null ? r.confidence.toFixed(2) : "—"}
              {r.needsReview ? (
                <div>
                  <Badge tone="amber">needs review</Badge>
                </div>
              ) : null}
            </Td>
            <Td className="space-y-0.5 text-xs">
              {r.allCitationsInContext === false ? (
                <div>
                  <Badge tone="red">citation outside context</Badge>
                </div>
              ) : null}
              {r.policyFiltered ? (
                <div>
                  <Badge tone="purple">{r.policyFiltered} filtered by policy</Badge>
                </div>
              ) : null}
              {r.citationCount !== null ? <div className="text-slate-500">{r.citationCount} cited</div> : null}
            </Td>
            <Td className="text-xs text-slate-600">
              {r.model ?? "—"}
              {r.promptVersion ? <div>{r.promptVersion}</div> : null}
              {r.latencyMs !== null ? <div>{r.latencyMs} ms</div> : null}
            </Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}
