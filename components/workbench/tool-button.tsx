"use client";
import { cn } from "@/components/ui";

/** A compact graph-toolbar button: its label is its accessible name and its tooltip. */
export function ToolButton({
  label,
  onClick,
  children,
  wide,
}: {
  label: string;
  onClick: () => void;
  children: React.ReactNode;
  wide?: boolean;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      className={cn(
        "inline-flex h-7 items-center justify-center rounded border border-slate-300 bg-white text-sm font-medium text-slate-800 hover:bg-slate-50",
        wide ? "px-2 text-xs" : "w-7",
      )}
    >
      {children}
    </button>
  );
}
