// What the e2e model stub answers (model-stub.ts). Each answer plays a model that gets something wrong in a way the
// claim checks must catch, on the demo workspace; anything else gets an honest "no_evidence".

export const NO_EVIDENCE = {
  responseType: "no_evidence",
  answerText: "The context does not answer this.",
  citations: [],
  explanationSteps: [],
  unknowns: ["Whether the context holds anything on this question"],
  confidence: 0.1,
  confidenceJustification: "Nothing in the context addresses the query.",
};

/** analyst.ng on case-nightjar: one claim the log states, one the analyst only thought likely, one amount nowhere. */
export const MIXED_SUPPORT = {
  question: "Which account logged on to SRV-DB-07 from WS-FIN-0231?",
  supported: "CORP\\svc_backup logged on to SRV-DB-07 from WS-FIN-0231 at 01:42:11Z",
  partial: "The credential came from the 01:17Z LSASS dump on WS-FIN-0231",
  unsupported: "The logon moved $48,500 out of the finance share",
};

/** junior.ali (CUI, soc) on case-nightjar: the model "knows" a TOP SECRET report and cites its id, which it was not shown. */
export const RESTRICTED_CITATION = {
  question: "Which group does the threat intelligence report tie to cdn-update-check.net?",
  restrictedEvidenceId: "EV-Y-016",
  canaries: ["TIR-25-051", "state-nexus"],
  leak: "Threat intelligence report TIR-25-051 ties cdn-update-check.net to a state-nexus group",
  honest: "The domain cdn-update-check.net was created on 2025-05-07 through a low-cost registrar",
};

export function stubOutputFor(query: string | null): object {
  if (query === MIXED_SUPPORT.question) {
    const m = MIXED_SUPPORT;
    return {
      responseType: "answer",
      answerText: `${m.supported} [evidence: EV-Y-046]. ${m.partial} [evidence: EV-Y-009]. ${m.unsupported} [evidence: EV-Y-046].`,
      citations: [
        { evidenceId: "EV-Y-046", claimId: "CLM-1" },
        { evidenceId: "EV-Y-009", claimId: "CLM-2" },
        { evidenceId: "EV-Y-046", claimId: "CLM-3" },
      ],
      explanationSteps: [
        {
          stepNumber: 1,
          claim: "Event 4624 on SRV-DB-07 records a network logon by CORP\\svc_backup from WS-FIN-0231.",
          citations: ["EV-Y-046"],
        },
      ],
      unknowns: [],
      confidence: 0.95,
      confidenceJustification: "The SIEM event and the analyst note agree.",
    };
  }
  if (query === RESTRICTED_CITATION.question) {
    const r = RESTRICTED_CITATION;
    return {
      responseType: "answer",
      answerText: `${r.leak} [evidence: ${r.restrictedEvidenceId}]. ${r.honest} [evidence: EV-Y-037].`,
      citations: [
        { evidenceId: r.restrictedEvidenceId, claimId: "CLM-1" },
        { evidenceId: "EV-Y-037", claimId: "CLM-2" },
      ],
      explanationSteps: [{ stepNumber: 1, claim: "The public WHOIS record dates the domain.", citations: ["EV-Y-037"] }],
      unknowns: [],
      confidence: 0.9,
      confidenceJustification: "Threat intelligence and WHOIS agree.",
    };
  }
  return NO_EVIDENCE;
}
