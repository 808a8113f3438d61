"use client";
// Answer text with its citation markers rendered as chips. The text is split by parseCitations into plain runs and
// markers; runs are rendered as React text (escaped), markers with a known evidence id become chips, and any other
// marker stays plain text (inert). Nothing from the model or the evidence is ever parsed as HTML.
import { createContext, useContext, useEffect, useId, useMemo, useRef, useState, type ReactNode } from "react";
import { EvidenceCard, type CardEvidence } from "@/components/evidence/evidence-card";
import { cn } from "@/components/ui";
import { revealHidden } from "@/lib/domain/display-text";
import type { AnswerClaim } from "@/lib/graphrag/types";
import { parseCitations } from "./citations";
import { SafeText } from "@/components/ui/safe-text";

export interface CitationApi {
  /** What the hover card shows for an evidence id (null while unknown). */
  card(evidenceId: string): { evidence: CardEvidence | null; loading: boolean };
  /** Opens the evidence panel on this citation. */
  open(evidenceId: string, claim: string, claimId: string | null): void;
  /** The evidence currently open in the panel. */
  activeId: string | null;
}

export const CitationContext = createContext<CitationApi | null>(null);

/**
 * `pending`: the answer is still streaming and its citations are not confirmed yet; markers show as placeholders that
 * cannot be followed, and become chips (or plain text, for unknown ids) once the answer is done.
 * `claims`: the answer's claims with their support verdicts; a partly supported claim's text gets a dotted underline,
 * its reasons as a tooltip and as text for screen readers, and its chips say so in their accessible names.
 */
export function CitationText({
  text,
  knownIds,
  pending = false,
  claims,
}: {
  text: string;
  knownIds: ReadonlySet<string>;
  pending?: boolean;
  claims?: readonly AnswerClaim[];
}) {
  const segments = useMemo(() => parseCitations(text, (id) => pending || knownIds.has(id)), [text, knownIds, pending]);
  const partial = new Map((claims ?? []).filter((c) => c.support === "partial").map((c) => [c.claimId, c]));
  const marked = new Set<string>();
  const out: ReactNode[] = [];
  segments.forEach((s, i) => {
    if (s.kind === "text") {
      // The claim's text ends the run before its first marker.
      const next = segments[i + 1];
      const claim = !pending && next?.kind === "cite" && next.claimId ? partial.get(next.claimId) : undefined;
      const at = claim && !marked.has(claim.claimId) ? s.text.lastIndexOf(claim.text) : -1;
      if (claim && at >= 0 && claim.text) {
        marked.add(claim.claimId);
        out.push(
          <SafeText key={`a${i}`} text={s.text.slice(0, at)} />,
          <PartialClaim key={`p${i}`} claim={claim} />,
          <SafeText key={`b${i}`} text={s.text.slice(at + claim.text.length)} />,
        );
      } else out.push(<SafeText key={i} text={s.text} />);
    } else if (pending) {
      out.push(
        <span
          key={i}
          className="mx-0.5 inline-flex rounded border border-slate-300 bg-slate-100 px-1 font-mono text-[11px] leading-4 text-slate-600"
          aria-label="citation being checked"
        >
          {s.evidenceId}
        </span>,
      );
    } else {
      const p = s.claimId ? partial.get(s.claimId) : undefined;
      out.push(
        <CitationChip key={i} evidenceId={s.evidenceId} claimId={s.claimId} claim={s.claim} note={p ? partlySupported(p) : undefined} />,
      );
    }
  });
  return <>{out}</>;
}

/** "Partly supported: only 2 of 3 content words in EV-2 (missing: sold)" — for titles and labels, hidden characters shown. */
export function partlySupported(claim: Pick<AnswerClaim, "reasons">): string {
  return revealHidden(`Partly supported: ${claim.reasons.join("; ") || "the cited evidence does not say all of it"}`);
}

function PartialClaim({ claim }: { claim: AnswerClaim }) {
  const why = partlySupported(claim);
  return (
    <span data-claim-support="partial" data-claim-id={claim.claimId} data-testid="partial-claim">
      <span title={why} className="underline decoration-amber-600 decoration-dotted decoration-2 underline-offset-4">
        <SafeText text={claim.text} />
      </span>
      <span className="sr-only"> ({why})</span>
    </span>
  );
}

const CARD_WIDTH = 340;

export function CitationChip({
  evidenceId,
  claimId,
  claim,
  note,
}: {
  evidenceId: string;
  claimId: string | null;
  claim: string;
  note?: string;
}) {
  const api = useContext(CitationContext);
  const [card, setCard] = useState<{ top: number; left: number; above: boolean } | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const tipId = useId();
  const active = api?.activeId === evidenceId;

  const show = () => {
    if (closeTimer.current) clearTimeout(closeTimer.current);
    const r = button.current?.getBoundingClientRect();
    if (!r) return;
    const vw = window.innerWidth;
    const vh = window.innerHeight;
    const above = r.bottom + 330 > vh && r.top > 330;
    setCard({ top: above ? r.top - 6 : r.bottom + 6, left: Math.max(8, Math.min(r.left, vw - CARD_WIDTH - 8)), above });
  };
  const hideSoon = () => {
    if (closeTimer.current) clearTimeout(closeTimer.current);
    closeTimer.current = setTimeout(() => setCard(null), 150);
  };
  useEffect(() => {
    if (!card) return;
    const close = () => setCard(null);
    window.addEventListener("scroll", close, true);
    window.addEventListener("resize", close);
    return () => {
      window.removeEventListener("scroll", close, true);
      window.removeEventListener("resize", close);
    };
  }, [card]);
  useEffect(
    () => () => {
      if (closeTimer.current) clearTimeout(closeTimer.current);
    },
    [],
  );

  const info = card && api ? api.card(evidenceId) : null;
  const label = `Evidence ${evidenceId}${claimId ? `, claim ${claimId}` : ""}.${note ? ` ${note}.` : ""} ${active ? "Close the evidence panel." : "Open in the evidence panel."}`;
  return (
    <span className="relative inline">
      <button
        ref={button}
        type="button"
        data-citation={evidenceId}
        data-claim-id={claimId ?? undefined}
        aria-label={label}
        aria-describedby={card ? tipId : undefined}
        aria-pressed={active}
        onMouseEnter={show}
        onMouseLeave={hideSoon}
        onFocus={show}
        onBlur={hideSoon}
        onKeyDown={(e) => {
          if (e.key === "Escape" && card) {
            e.stopPropagation();
            setCard(null);
          }
        }}
        onClick={() => {
          setCard(null);
          api?.open(evidenceId, claim, claimId);
        }}
        className={cn(
          "mx-0.5 inline-flex translate-y-[-1px] items-center rounded border px-1 py-px align-baseline font-mono text-[11px] font-medium leading-4 transition-colors",
          active
            ? "border-amber-600 bg-amber-100 text-amber-950"
            : "border-blue-300 bg-blue-50 text-blue-900 hover:border-blue-600 hover:bg-blue-100",
        )}
      >
        {evidenceId}
      </button>
      {card ? (
        <span
          role="tooltip"
          id={tipId}
          onMouseEnter={show}
          onMouseLeave={hideSoon}
          style={{
            position: "fixed",
            top: card.top,
            left: card.left,
            width: CARD_WIDTH,
            transform: card.above ? "translateY(-100%)" : undefined,
          }}
          className="z-50 block rounded-md border border-slate-300 bg-white text-sm font-normal shadow-lg"
          data-testid="citation-card"
        >
          <EvidenceCard evidence={info?.evidence ?? null} loading={info?.loading ?? !api} claim={claim} claimId={claimId} />
        </span>
      ) : null}
    </span>
  );
}
