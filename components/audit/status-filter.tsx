// The status filter of the supervisors' queues (held answers, proposed next steps): all, pending, approved, rejected.
import Link from "next/link";

export const QUEUE_STATUSES = ["pending", "approved", "rejected"] as const;
export type QueueStatus = (typeof QUEUE_STATUSES)[number];

/** The `status` search parameter, when it is one of the queue's statuses. */
export function statusParam(sp: Record<string, string | string[] | undefined>): QueueStatus | undefined {
  return typeof sp.status === "string" && (QUEUE_STATUSES as readonly string[]).includes(sp.status)
    ? (sp.status as QueueStatus)
    : undefined;
}

export function StatusFilter({ base, wanted }: { base: string; wanted: QueueStatus | undefined }) {
  return (
    <nav aria-label="Filter" className="mt-2 flex gap-3 text-sm">
      {[undefined, ...QUEUE_STATUSES].map((s) => (
        <Link
          key={s ?? "all"}
          href={s ? `${base}?status=${s}` : base}
          className={s === wanted ? "font-semibold" : "text-blue-700 underline"}
        >
          {s ?? "all"}
        </Link>
      ))}
    </nav>
  );
}
