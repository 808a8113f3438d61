// The workbench marks partly supported claims (issue 13 §1): a dotted underline on the claim's text with its reasons as
// a tooltip and as text for screen readers, the reasons in the chip's accessible name, and a list of the partial
// claims. Supported claims are left as they are. Rendered with react-dom/server (no DOM library needed).
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PartialClaims } from "@/components/answer/answer-view";
import { claimSupportSummary } from "@/components/audit/format";
import { CitationText } from "@/components/answer/citation-text";
import type { AnswerClaim } from "@/lib/graphrag/types";

const text =
  "Anna Berg met Boris Kade at Dock 7 [evidence: EV-1, claim: CLM-001], and Boris Kade loaded crates and sold them " +
  "[evidence: EV-2, claim: CLM-002] [evidence: EV-3, claim: CLM-002]. Boris Kade received 48,500 USD [evidence: EV-9, claim: CLM-003].";
const claims: AnswerClaim[] = [
  { claimId: "CLM-001", text: "Anna Berg met Boris Kade at Dock 7", evidenceIds: ["EV-1"], support: "supported", reasons: [] },
  {
    claimId: "CLM-002",
    text: "and Boris Kade loaded crates and sold them",
    evidenceIds: ["EV-2", "EV-3"],
    support: "partial",
    reasons: ["only 2 of 3 content words in EV-2, EV-3 (missing: sold)", 'name "<b>Kade</b>" only partly in EV-2'],
  },
  { claimId: "CLM-003", text: "Boris Kade received 48,500 USD", evidenceIds: ["EV-9"], support: "supported", reasons: [] },
];
const known = new Set(["EV-1", "EV-2", "EV-3", "EV-9"]);

describe("partly supported claims in the answer text", () => {
  const html = renderToStaticMarkup(<CitationText text={text} knownIds={known} claims={claims} />);

  it("underlines exactly the partial claim's text, dotted, with the reasons as a tooltip", () => {
    const marked = [
      ...html.matchAll(/<span data-claim-support="partial" data-claim-id="([^"]+)"[^>]*><span title="([^"]*)"[^>]*>([^<]*)<\/span>/g),
    ];
    expect(marked.map((m) => [m[1], m[3]])).toEqual([["CLM-002", "and Boris Kade loaded crates and sold them"]]);
    expect(marked[0][2]).toBe(
      "Partly supported: only 2 of 3 content words in EV-2, EV-3 (missing: sold); name &quot;&lt;b&gt;Kade&lt;/b&gt;&quot; only partly in EV-2",
    );
    expect(html).toMatch(/decoration-dotted/);
  });

  it("gives screen readers the reasons in the text and in the chips' accessible names", () => {
    expect(html).toContain(
      '<span class="sr-only"> (Partly supported: only 2 of 3 content words in EV-2, EV-3 (missing: sold); name &quot;&lt;b&gt;Kade&lt;/b&gt;&quot; only partly in EV-2)</span>',
    );
    const labels = [...html.matchAll(/<button[^>]*data-claim-id="(CLM-\d+)"[^>]*aria-label="([^"]*)"/g)].map((m) => [m[1], m[2]]);
    expect(labels.filter(([id]) => id === "CLM-002").every(([, l]) => l.includes("Partly supported: only 2 of 3"))).toBe(true);
    expect(labels.filter(([id]) => id !== "CLM-002").every(([, l]) => !l.includes("Partly supported"))).toBe(true);
    expect(labels).toHaveLength(4);
  });

  it("leaves supported claims and answers without claims as they were", () => {
    const plain = renderToStaticMarkup(<CitationText text={text} knownIds={known} />);
    expect(plain).not.toContain("data-claim-support");
    const supported = renderToStaticMarkup(
      <CitationText text={text} knownIds={known} claims={claims.map((c) => ({ ...c, support: "supported", reasons: [] }))} />,
    );
    expect(supported).toBe(plain);
    // The text around the marked claim is unchanged.
    expect(html.replace(/<[^>]+>/g, "").replace(/ \(Partly supported:[^)]*\)[^)]*\)/, "")).toBe(plain.replace(/<[^>]+>/g, ""));
  });

  it("shows hidden characters in a partial claim as markers, like all untrusted text", () => {
    const hidden = "Boris Kade loaded crates\u202e and sold them";
    const html = renderToStaticMarkup(
      <CitationText
        text={`${hidden} [evidence: EV-2, claim: CLM-001].`}
        knownIds={known}
        claims={[{ ...claims[1], claimId: "CLM-001", text: hidden, reasons: ['name "Kade\u202e" only partly in EV-2'] }]}
      />,
    );
    expect(html).toContain('title="Partly supported: name &quot;Kade⟦');
    expect(html).toMatch(/data-claim-support="partial"[\s\S]*data-hidden-characters="true"/);
    expect(html).not.toContain("\u202e");
  });

  it("does not mark anything while the answer is still streaming", () => {
    expect(renderToStaticMarkup(<CitationText text={text} knownIds={known} claims={claims} pending />)).not.toContain("data-claim-support");
  });
});

describe("the list of partly supported claims", () => {
  it("lists each partial claim with its id and reasons, escaped", () => {
    const html = renderToStaticMarkup(<PartialClaims answer={{ claims }} />);
    expect(html).toContain('aria-labelledby="partial-claims-heading"');
    expect(html).toMatch(/<li data-claim-id="CLM-002">/);
    expect(html).toContain("&lt;b&gt;Kade&lt;/b&gt;");
    expect(html).not.toContain("<b>");
    expect(html).not.toContain("CLM-001");
  });

  it("renders nothing when every claim is supported", () => {
    expect(renderToStaticMarkup(<PartialClaims answer={{ claims: [claims[0]] }} />)).toBe("");
  });
});

describe("the audit entry's claim support", () => {
  it("says the counts per verdict, and a dash for entries written before they were recorded", () => {
    expect(
      claimSupportSummary({
        claim_support: { supported: 2, partial: 1, unsupported: 3 },
        dropped_directive_count: 1,
        dropped_unsupported_step_count: 0,
      }),
    ).toBe(
      "2 supported, 1 partly supported, 3 unsupported (removed); 1 repeating instructions from evidence and 0 unsupported steps removed",
    );
    expect(claimSupportSummary({ dropped_claim_count: 0 })).toBe("—");
  });
});
