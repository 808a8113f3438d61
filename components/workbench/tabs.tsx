"use client";
import { cn } from "@/components/ui";

export type WorkbenchTab = "answer" | "history" | "steps";

/** Answer / your questions / the case's next steps: an ARIA tab list (arrow keys move between them). */
export function Tabs({ tab, onTab, historyCount }: { tab: WorkbenchTab; onTab: (t: WorkbenchTab) => void; historyCount?: number }) {
  const tabs: Array<[WorkbenchTab, string]> = [
    ["answer", "Answer"],
    ["history", `Your questions${historyCount !== undefined ? ` (${historyCount})` : ""}`],
    ["steps", "Next steps"],
  ];
  return (
    <div role="tablist" aria-label="Answer, history or next steps" className="flex gap-1 border-b border-slate-200 px-3 pt-1.5">
      {tabs.map(([key, label]) => (
        <button
          key={key}
          id={`tab-${key}`}
          role="tab"
          type="button"
          aria-selected={tab === key}
          aria-controls={`panel-${key}`}
          tabIndex={tab === key ? 0 : -1}
          onClick={() => onTab(key)}
          onKeyDown={(e) => {
            if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
              e.preventDefault();
              const at = tabs.findIndex(([k]) => k === key);
              const next = tabs[(at + (e.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length][0];
              onTab(next);
              document.getElementById(`tab-${next}`)?.focus();
            }
          }}
          className={cn(
            "-mb-px border-b-2 px-2 pb-1.5 text-sm",
            tab === key ? "border-blue-700 font-semibold text-blue-900" : "border-transparent text-slate-600 hover:text-slate-900",
          )}
          data-testid={`tab-${key}`}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
