// The evidence card shown when a citation chip is hovered or focused: marking band, type, source system, collection
// date and the cited passage. All text is rendered as text (React escapes it); only spans, so it can sit inside a line
// of answer text.
import { ClassificationBanner } from "@/components/ui";
import { formatDateTime, humanise } from "@/components/answer/format";
import { locatePassage } from "@/components/answer/citations";
import { SafeText } from "@/components/ui/safe-text";

export interface CardEvidence {
  id: string;
  type: string;
  sourceSystem: string;
  classification: string;
  collectedAt: string;
  /** The full text when loaded, else the snippet the model was shown. */
  text: string | null;
}

/** The passage of `text` that supports `claim`, with a little context around it. */
export function citedSnippet(text: string, claim: string, max = 320): { before: string; passage: string; after: string } | null {
  const at = locatePassage(text, claim);
  if (!at) return null;
  const passage = text.slice(at.start, at.end);
  const room = Math.max(0, max - passage.length);
  // Widen to whole words so the context never starts or ends mid-word.
  let beforeStart = Math.max(0, at.start - Math.floor(room / 2));
  while (beforeStart > 0 && beforeStart < at.start && /\S/.test(text[beforeStart - 1])) beforeStart++;
  let afterEnd = Math.min(text.length, at.end + Math.ceil(room / 2));
  while (afterEnd < text.length && afterEnd > at.end && /\S/.test(text[afterEnd])) afterEnd--;
  return {
    before: (beforeStart > 0 ? "… " : "") + text.slice(beforeStart, at.start).trimStart(),
    passage,
    after: text.slice(at.end, afterEnd).trimEnd() + (afterEnd < text.length ? " …" : ""),
  };
}

export function EvidenceCard({
  evidence,
  claim,
  claimId,
  loading,
}: {
  evidence: CardEvidence | null;
  claim: string;
  claimId: string | null;
  loading?: boolean;
}) {
  if (!evidence) {
    return (
      <span className="block p-3 text-sm text-slate-700">{loading ? "Loading evidence…" : "This evidence is not available to you."}</span>
    );
  }
  const snippet = evidence.text ? citedSnippet(evidence.text, claim) : null;
  return (
    <span className="block overflow-hidden rounded-md">
      <ClassificationBanner classification={evidence.classification} />
      <span className="block space-y-1.5 p-3 text-left">
        <span className="flex items-baseline justify-between gap-2">
          <span className="font-semibold text-slate-900">
            <SafeText text={humanise(evidence.type)} />
          </span>
          <span className="font-mono text-xs text-slate-600">
            {evidence.id}
            {claimId ? ` · ${claimId}` : ""}
          </span>
        </span>
        <span className="grid grid-cols-[auto_1fr] gap-x-2 text-xs text-slate-700">
          <span className="text-slate-500">Source</span>
          <span>
            <SafeText text={evidence.sourceSystem} />
          </span>
          <span className="text-slate-500">Collected</span>
          <span>{formatDateTime(evidence.collectedAt)}</span>
        </span>
        {snippet ? (
          <span className="block border-l-2 border-amber-500 bg-amber-50 px-2 py-1 text-xs leading-relaxed text-slate-800">
            <SafeText text={snippet.before} />
            <mark className="bg-amber-200 text-slate-900">
              <SafeText text={snippet.passage} />
            </mark>
            <SafeText text={snippet.after} />
          </span>
        ) : evidence.text ? (
          <span className="block border-l-2 border-slate-300 px-2 py-1 text-xs leading-relaxed text-slate-700">
            <SafeText text={evidence.text.length > 320 ? evidence.text.slice(0, 320) + "…" : evidence.text} />
          </span>
        ) : null}
        <span className="block text-[11px] text-slate-500">Select to open the full text in the evidence panel.</span>
      </span>
    </span>
  );
}
