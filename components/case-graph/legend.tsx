"use client";
// Colour and shape per node label, with counts; each entry toggles that label's nodes (pressed = shown).
import { cn } from "@/components/ui";
import { labelStyle, shapePath } from "./palette";

export function Legend({
  counts,
  hidden,
  onToggle,
}: {
  counts: Array<[string, number]>;
  hidden: ReadonlySet<string>;
  onToggle: (label: string) => void;
}) {
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Legend: node types (select to show or hide)" data-testid="graph-legend">
      {counts.map(([label, n]) => {
        const s = labelStyle(label);
        const shown = !hidden.has(label);
        return (
          <li key={label}>
            <button
              type="button"
              aria-pressed={shown}
              onClick={() => onToggle(label)}
              className={cn(
                "inline-flex items-center gap-1 rounded border px-1.5 py-0.5 text-[11px]",
                shown
                  ? "border-slate-300 bg-white text-slate-800"
                  : "border-dashed border-slate-400 bg-slate-100 text-slate-600 line-through",
              )}
              title={shown ? `Hide ${label} nodes` : `Show ${label} nodes`}
            >
              <svg viewBox="0 0 16 16" className="h-3 w-3" aria-hidden>
                <path d={shapePath(s.shape)} fill={shown ? s.color : "#94a3b8"} />
              </svg>
              {label}
              <span className="tabular-nums text-slate-500">{n}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
