import { cn } from "./cn";

const styles: Record<string, string> = {
  PUBLIC: "bg-green-700 text-white",
  CUI: "bg-purple-700 text-white",
  CONFIDENTIAL: "bg-blue-700 text-white",
  SECRET: "bg-red-700 text-white",
  TOP_SECRET: "bg-orange-600 text-black",
  TS_SCI: "bg-yellow-400 text-black",
};

export function classificationLabel(c: string): string {
  return c === "TS_SCI" ? "TS/SCI" : c.replace(/_/g, " ");
}

/** A full-width marking band, as on a marked document. */
export function ClassificationBanner({ classification, className }: { classification: string; className?: string }) {
  return (
    <div
      role="note"
      aria-label={`Classification: ${classificationLabel(classification)}`}
      className={cn(
        "w-full py-0.5 text-center text-xs font-bold uppercase tracking-widest",
        styles[classification] ?? "bg-slate-700 text-white",
        className,
      )}
    >
      {classificationLabel(classification)}
    </div>
  );
}

/** A small inline marking chip. */
export function ClassificationBadge({ classification }: { classification: string }) {
  return (
    <span
      className={cn(
        "inline-flex rounded px-1.5 py-0.5 text-[11px] font-bold uppercase tracking-wide",
        styles[classification] ?? "bg-slate-700 text-white",
      )}
    >
      {classificationLabel(classification)}
    </span>
  );
}
