// Untrusted text, rendered so it reads as what it is: bidirectional controls and invisible characters appear as small
// visible markers (never as themselves), and a run that held any is isolated from its surroundings (<bdi>). Text
// without them renders as plain text. Use it for every piece of evidence text, node name or property, question text and
// user-supplied name a page shows (lib/domain/display-text.ts).
import { displayRuns } from "@/lib/domain/display-text";

export function SafeText({ text, className }: { text: string; className?: string }) {
  const runs = displayRuns(text);
  if (runs.every((r) => r.kind === "text")) return className ? <span className={className}>{text}</span> : <>{text}</>;
  return (
    <bdi className={className} data-hidden-characters="true">
      {runs.map((r, i) =>
        r.kind === "text" ? (
          r.text
        ) : (
          <span
            key={i}
            className="mx-px rounded-sm bg-rose-100 px-0.5 font-mono text-[10px] text-rose-900"
            title={`Hidden character ${r.label}`}
            aria-label={`hidden character ${r.label}`}
          >
            {r.label}
          </span>
        ),
      )}
    </bdi>
  );
}
