// Follow-up rewriting (issue 18): references in a follow-up are replaced, deterministically, by the entities earlier
// turns cited; what a turn leaves for the next ones; earlier turns re-filtered; the conversation bound.
import { describe, expect, it } from "vitest";
import {
  boundConversation,
  conversationTurnOf,
  danglingPerson,
  NO_LONGER_VISIBLE,
  refilterAnswer,
  resolveFollowUp,
  turnMentions,
  type PriorTurn,
} from "@/lib/graphrag/follow-up";
import type { Answer, ContextNode, RawContext } from "@/lib/graphrag/types";

const node = (id: string, label: string, name: string, properties: ContextNode["properties"] = {}): ContextNode => ({
  id,
  label,
  name,
  properties,
});
const KOVAC = node("p-kovac", "Person", "Dmitri Kovac", { aliases: ["Dima"] });
const DUNN = node("p-dunn", "Person", "Raymond Dunn");
const SANTOS = node("p-santos", "Person", "Maria Santos");
const MARCHETTI = node("p-marchetti", "Person", "Victor Marchetti");
const TAHOE = node("veh-tahoe", "Vehicle", "Black Chevrolet Tahoe HBR-4471", { plate: "HBR-4471" });
const PHONE = node("ph-0178", "Phone", "+1-555-0178", { number: "+1-555-0178" });
const BAYLINE = node("org-bayline", "Organization", "Bayline Seafood Co.");
const PIER9 = node("loc-pier9", "Location", "Pier 9 Warehouse");

const turn = (n: number, subjects: ContextNode[], answers: ContextNode[]): PriorTurn => ({ turn: n, subjects, answers });

describe("resolveFollowUp", () => {
  it("replaces a pronoun by the person the previous answer named", () => {
    const r = resolveFollowUp("What phone does he use?", [turn(1, [TAHOE], [KOVAC])]);
    expect(r.question).toBe("What phone does Dmitri Kovac use?");
    expect(r.references).toEqual([{ phrase: "he", nodeId: "p-kovac", name: "Dmitri Kovac", turn: 1, alternatives: [] }]);
  });

  it('replaces "that number" by the phone the previous turn cited', () => {
    const prior = [turn(1, [TAHOE], [KOVAC]), turn(2, [KOVAC], [PHONE])];
    expect(resolveFollowUp("Who did that number call on 12 April?", prior).question).toBe("Who did +1-555-0178 call on 12 April?");
    expect(resolveFollowUp("Who called this phone number?", prior).question).toBe("Who called +1-555-0178?");
    expect(resolveFollowUp("Who used the same line?", prior).question).toBe("Who used +1-555-0178?");
  });

  it('reads "them" as the things the previous question named in common nouns, not as whom its answer named', () => {
    const took = { ...turn(1, [PIER9], [KOVAC, BAYLINE]), question: "Who took the crates and pallets out of Pier 9 Warehouse?" };
    const r = resolveFollowUp("Why did he need them out?", [took]);
    // "he" is still whom the answer named; "them" stays as written (the crates and pallets are no entity).
    expect(r.question).toBe("Why did Dmitri Kovac need them out?");
    expect(r.references.map((x) => x.phrase)).toEqual(["he"]);
    // Without the question's text (a deployment that keeps hashes only), "them" is whom else the answer named.
    expect(resolveFollowUp("Why did he need them out?", [{ ...took, question: null }]).question).toBe(
      "Why did Dmitri Kovac need Bayline Seafood Co. out?",
    );
    // A span of time, a name the question links, and what a "who are" question asks for are not such things.
    for (const question of ["Who called Pier 9 Warehouse in the last days?", "Who are the directors of Bayline Seafood Co.?"])
      expect(resolveFollowUp("Who paid them?", [{ ...turn(1, [PIER9], [KOVAC, DUNN]), question }]).question).toBe(
        "Who paid Dmitri Kovac and Raymond Dunn?",
      );
  });

  it('reads "he … him" in one clause as two people, and "he … his" or "him" after a clause boundary as one', () => {
    const prior = [turn(1, [TAHOE], [KOVAC, DUNN])];
    expect(resolveFollowUp("Where did he meet him?", prior).question).toBe("Where did Dmitri Kovac meet Raymond Dunn?");
    expect(resolveFollowUp("Did he sell his car?", prior).question).toBe("Did Dmitri Kovac sell Dmitri Kovac's car?");
    expect(resolveFollowUp("Once he left the bar, did anyone follow him?", prior).question).toBe(
      "Once Dmitri Kovac left the bar, did anyone follow Dmitri Kovac?",
    );
    // "them" too: whom the answer named besides him.
    expect(resolveFollowUp("Why did he pay them?", [turn(1, [TAHOE], [DUNN, BAYLINE])]).question).toBe(
      "Why did Raymond Dunn pay Bayline Seafood Co.?",
    );
    // With nobody else who fits, the object stays as written rather than be read as the subject.
    expect(resolveFollowUp("Where did he meet him?", [turn(1, [TAHOE], [KOVAC])]).question).toBe("Where did Dmitri Kovac meet him?");
  });

  it("takes the question's subject when the answer named nobody who fits", () => {
    const prior = [turn(1, [DUNN], [])];
    expect(resolveFollowUp("Who called him on 12 April?", prior).question).toBe("Who called Raymond Dunn on 12 April?");
  });

  it("prefers the most recent turn, and in it the answer's entities over the question's", () => {
    const prior = [turn(1, [], [MARCHETTI]), turn(2, [DUNN], [KOVAC])];
    expect(resolveFollowUp("Where does he live?", prior).question).toBe("Where does Dmitri Kovac live?");
    expect(resolveFollowUp("Where does he live?", [turn(1, [], [MARCHETTI]), turn(2, [DUNN], [])]).question).toBe(
      "Where does Raymond Dunn live?",
    );
  });

  it("a pronoun keeps to the thread's topic: what the turn before read its own pronoun as, before what it answered", () => {
    // "Who called him?" (him = Raymond Dunn) answered with Luis Ortega and Dmitri Kovac; "his car" is still Dunn's.
    const prior: PriorTurn[] = [turn(1, [DUNN], []), { turn: 2, subjects: [], answers: [KOVAC, MARCHETTI], topics: [DUNN] }];
    expect(resolveFollowUp("Where was his car found?", prior).question).toBe("Where was Raymond Dunn's car found?");
    // The topic carries across turns: "that number" (turn 3) did not change who "he" is (turn 2's "him").
    const three: PriorTurn[] = [
      { turn: 2, subjects: [], answers: [PHONE], topics: [KOVAC] },
      { turn: 3, subjects: [PHONE], answers: [SANTOS, DUNN], topics: [PHONE] },
    ];
    expect(resolveFollowUp("Where does he live?", three).question).toBe("Where does Dmitri Kovac live?");
    // A demonstrative noun still takes what the answer named.
    const phone: PriorTurn[] = [{ turn: 2, subjects: [], answers: [PHONE], topics: [KOVAC] }];
    expect(resolveFollowUp("Who did that number call?", phone).question).toBe("Who did +1-555-0178 call?");
  });

  it("reads a reference to what the turn before asked for and did not find as unknown, not as someone it named", () => {
    const unfound = (question: string, extra: Partial<PriorTurn> = {}): PriorTurn[] => [
      { ...turn(1, [DUNN, SANTOS], []), question, answered: false, ...extra },
    ];
    const whose = "Under whose login were Raymond Dunn and Maria Santos approved?";
    const r = resolveFollowUp("Where was he on the day Raymond Dunn was approved?", unfound(whose));
    expect(r.question).toBe("Where was he on the day Raymond Dunn was approved?");
    expect(r.references).toEqual([]);
    expect(r.unread).toEqual([{ phrase: "he", turn: 1, question: whose, person: true }]);
    // "What number did she ring?" found nothing: "that number" is the number no evidence gave.
    expect(resolveFollowUp("Who is that number registered to?", unfound("What number did Maria Santos ring?")).unread).toEqual([
      { phrase: "that number", turn: 1, question: "What number did Maria Santos ring?", person: false },
    ]);
    // Another kind of reference, an answered turn, a turn not known to be unanswered, a "who" that only relates
    // ("the man who …"), "Who is X?" and a turn whose own pronoun was read: read as before.
    expect(resolveFollowUp("Where is it now?", unfound("Who drove the Tahoe?", { subjects: [TAHOE] })).question).toBe(
      "Where is Black Chevrolet Tahoe HBR-4471 now?",
    );
    for (const prior of [
      unfound(whose, { answered: true }),
      unfound(whose, { answered: undefined }),
      unfound("What did the man who met Raymond Dunn and Maria Santos say?"),
      unfound("Who is Raymond Dunn?", { subjects: [DUNN] }),
      unfound("Who called him?", { subjects: [], topics: [DUNN] }),
    ]) {
      const read = resolveFollowUp("Where was he that night?", prior);
      expect(read.unread).toBeUndefined();
      expect(read.references).toHaveLength(1);
    }
  });

  it("reads possessives and objects", () => {
    const prior = [turn(1, [], [SANTOS])];
    expect(resolveFollowUp("What is her phone number?", prior).question).toBe("What is Maria Santos's phone number?");
    expect(resolveFollowUp("Who called her on 12 April?", prior).question).toBe("Who called Maria Santos on 12 April?");
    expect(resolveFollowUp("What did she see?", prior).question).toBe("What did Maria Santos see?");
    expect(resolveFollowUp("Where is his car?", [turn(1, [], [KOVAC])]).question).toBe("Where is Dmitri Kovac's car?");
  });

  it("resolves nouns by the label of the entity: the company, that car, the warehouse", () => {
    const prior = [turn(1, [KOVAC], [BAYLINE, TAHOE, PIER9])];
    expect(resolveFollowUp("Who owns the company?", prior).question).toBe("Who owns Bayline Seafood Co.?");
    expect(resolveFollowUp("Where was that car seen?", prior).question).toBe("Where was Black Chevrolet Tahoe HBR-4471 seen?");
    expect(resolveFollowUp("Who works at the warehouse?", prior).question).toBe("Who works at Pier 9 Warehouse?");
    expect(resolveFollowUp("Where was it seen?", [turn(1, [KOVAC], [TAHOE])]).question).toBe(
      "Where was Black Chevrolet Tahoe HBR-4471 seen?",
    );
    // "it" after a who-question is what the question was about, not who answered it.
    const device = node("did:ws-fin-0231", "Device", "WS-FIN-0231");
    const user = node("acct:praman", "Account", "praman");
    expect(resolveFollowUp("Which host did it beacon to?", [turn(1, [device], [user])]).question).toBe(
      "Which host did WS-FIN-0231 beacon to?",
    );
  });

  it("leaves phrases that name their own referent alone", () => {
    const prior = [turn(1, [KOVAC], [BAYLINE, PHONE])];
    for (const q of [
      "Who owns the company Bayline?",
      "What is the number of calls between them on record?",
      "Who called the number +1-555-0190?",
      "Is it true that the van was stopped?",
    ])
      expect(resolveFollowUp(q, [turn(1, [], [PIER9])]).question).toBe(q);
    expect(resolveFollowUp("What is the number of calls?", prior).question).toBe("What is the number of calls?");
    expect(resolveFollowUp("Who called the number on 12 April?", prior).question).toBe("Who called +1-555-0178 on 12 April?");
  });

  it('reads "they" as the people of that answer together', () => {
    const prior = [turn(1, [], [KOVAC, MARCHETTI])];
    expect(resolveFollowUp("Where did they meet?", prior).question).toBe("Where did Dmitri Kovac and Victor Marchetti meet?");
    expect(resolveFollowUp("Who employs them?", [turn(1, [], [BAYLINE])]).question).toBe("Who employs Bayline Seafood Co.?");
  });

  it("says when another entity of the same turn would have fitted (the reading is a guess)", () => {
    const r = resolveFollowUp("Where does he live?", [turn(1, [], [KOVAC, MARCHETTI])]);
    expect(r.question).toBe("Where does Dmitri Kovac live?");
    expect(r.references[0].alternatives).toEqual(["Victor Marchetti"]);
  });

  it("changes nothing without a fitting earlier entity, or without earlier turns", () => {
    expect(resolveFollowUp("What phone does he use?", [])).toEqual({ question: "What phone does he use?", references: [] });
    expect(resolveFollowUp("What phone does he use?", [turn(1, [TAHOE], [PHONE])])).toEqual({
      question: "What phone does he use?",
      references: [],
    });
    expect(resolveFollowUp("Who met Dmitri Kovac?", [turn(1, [], [KOVAC])]).references).toEqual([]);
  });

  it("is deterministic: the same question and entities give the same rewrite, whatever order the turns come in", () => {
    const a = [turn(1, [DUNN], [KOVAC]), turn(2, [KOVAC], [PHONE])];
    const b = [...a].reverse();
    const q = "Did he call that number after his meeting with her?";
    expect(resolveFollowUp(q, a)).toEqual(resolveFollowUp(q, b));
    // "he" and "her" in one question are two people: "her" takes the next person who fits (the data holds no gender).
    expect(resolveFollowUp(q, a).question).toBe("Did Dmitri Kovac call +1-555-0178 after Dmitri Kovac's meeting with Raymond Dunn?");
  });
});

// ---------------------------------------------------------------------------------------------------------------

const ctx: RawContext = {
  nodes: [KOVAC, TAHOE, PHONE, DUNN],
  edges: [{ id: "p-kovac:DRIVES:veh-tahoe", source: "p-kovac", type: "DRIVES", target: "veh-tahoe", properties: {} }],
  evidenceSnippets: [
    { id: "EV-C-013", type: "surveillance_note", sourceSystem: "RMS", collectedAt: "2025-03-15", nodeIds: ["p-kovac"], text: "…" },
    { id: "EV-C-005", type: "phone_record", sourceSystem: "RMS", collectedAt: "2025-04-12", nodeIds: ["ph-0178"], text: "…" },
  ],
};

function answer(over: Partial<Answer> = {}): Answer {
  return {
    answerText: "Dmitri Kovac drives Black Chevrolet Tahoe HBR-4471 [evidence: EV-C-013, claim: CLM-001].",
    citations: [{ evidenceId: "EV-C-013", claimId: "CLM-001" }],
    unknowns: [],
    usedContextSummary: { numNodes: 4, numEdges: 1, numEvidenceSnippets: 2 },
    explanationSteps: [
      { stepNumber: 1, claim: "The graph records it.", citations: ["EV-C-013", "p-kovac", "veh-tahoe", "p-kovac:DRIVES:veh-tahoe"] },
    ],
    confidence: 0.8,
    confidenceJustification: "",
    responseType: "answer",
    needsReview: false,
    unknownDetails: [],
    claims: [
      {
        claimId: "CLM-001",
        text: "Dmitri Kovac drives Black Chevrolet Tahoe HBR-4471",
        evidenceIds: ["EV-C-013"],
        support: "supported",
        reasons: [],
      },
    ],
    ...over,
  };
}

describe("turnMentions", () => {
  it("keeps what the question named, what the answer named after it, and what was cited — ids of the turn's context only", () => {
    expect(turnMentions("Who drives the black Tahoe HBR-4471?", answer(), ctx)).toEqual({
      subjectNodeIds: ["veh-tahoe"],
      answerNodeIds: ["p-kovac"],
      citedNodeIds: [],
      citedEvidenceIds: ["EV-C-013"],
      citedEdgeIds: ["p-kovac:DRIVES:veh-tahoe"],
    });
  });

  it("orders the answer's entities as the answer names them", () => {
    const a = answer({
      claims: [
        { claimId: "CLM-001", text: "+1-555-0178 called Raymond Dunn", evidenceIds: ["EV-C-005"], support: "supported", reasons: [] },
      ],
      citations: [{ evidenceId: "EV-C-005", claimId: "CLM-001" }],
      explanationSteps: [],
    });
    expect(turnMentions("Who did Kovac's phone call?", a, ctx).answerNodeIds).toEqual(["ph-0178", "p-dunn"]);
  });

  it("after 'Who is X?', keeps the others X's description names out of the answer: a later 'he' is still X", () => {
    const a = answer({
      claims: [
        {
          claimId: "CLM-001",
          text: "Raymond Dunn was pushed against the wall by the Bayline warehouse manager, Dmitri Kovac",
          evidenceIds: ["EV-C-013"],
          support: "supported",
          reasons: [],
        },
      ],
    });
    const m = turnMentions("Who is Dmitri Kovac?", a, ctx);
    expect(m).toMatchObject({ subjectNodeIds: ["p-kovac"], answerNodeIds: [] });
    expect(m.citedNodeIds).toContain("p-dunn");
    const prior = { turn: 1, subjects: [KOVAC], answers: [], cited: [DUNN] };
    expect(resolveFollowUp("What car does he drive?", [prior]).question).toBe("What car does Dmitri Kovac drive?");
    // "Who is Kovac's brother?" asks for someone else: whom the answer names.
    expect(turnMentions("Who is Kovac's brother?", a, ctx).answerNodeIds).toEqual(["p-dunn"]);
  });
});

describe("refilterAnswer", () => {
  const all = { evidence: () => true, node: () => true, edge: () => true };

  it("shows an earlier answer unchanged while everything it rests on is visible", () => {
    const r = refilterAnswer(answer(), all);
    expect(r.hiddenParts).toBe(0);
    expect(r.answerText).toBe("Dmitri Kovac drives Black Chevrolet Tahoe HBR-4471 [evidence: EV-C-013, claim: CLM-001].");
  });

  it('replaces claims and steps that cite what the asker can no longer see by "no longer visible to you"', () => {
    const r = refilterAnswer(answer(), {
      evidence: (id) => id === "EV-C-005",
      node: (id) => /^(p|veh|ph)-/.test(id),
      edge: (id) => id.includes(":DRIVES:"),
    });
    expect(r.claims[0]).toMatchObject({ text: NO_LONGER_VISIBLE, evidenceIds: [], hidden: true });
    expect(r.steps[0]).toMatchObject({ claim: NO_LONGER_VISIBLE, citations: [], hidden: true });
    expect(r.answerText).toBe(`[${NO_LONGER_VISIBLE}]`);
    expect(JSON.stringify(r)).not.toContain("EV-C-013");
    expect(JSON.stringify(r)).not.toContain("Tahoe");
  });

  it("also hides unknowns and claims that name a node the asker can no longer see", () => {
    const r = refilterAnswer(answer({ unknowns: ["No visible evidence states a date about Dmitri Kovac."] }), all, ["Dmitri Kovac"]);
    expect(r.unknowns).toEqual([NO_LONGER_VISIBLE]);
    expect(r.claims[0].hidden).toBe(true);
  });
});

describe("boundConversation", () => {
  const t = (n: number, chars = 40) =>
    conversationTurnOf(
      n,
      `Question ${n}?`,
      refilterAnswer(answer({ answerText: "x".repeat(chars), responseType: "no_evidence", claims: [] }), {
        evidence: () => true,
        node: () => true,
        edge: () => true,
      }),
    );

  it("keeps the newest turns, at most N, and counts what it left out", () => {
    const b = boundConversation([t(1), t(2), t(3), t(4)], { maxTurns: 2, tokenBudget: 10_000 }, 3);
    expect(b.turns.map((x) => x.turn)).toEqual([3, 4]);
    expect(b.leftOut).toEqual({ byTurns: 5, byBudget: 0 });
  });

  it("keeps turns whole within the token budget", () => {
    const b = boundConversation([t(1, 400), t(2, 400), t(3, 400)], { maxTurns: 5, tokenBudget: 250 });
    expect(b.turns.map((x) => x.turn)).toEqual([2, 3]);
    expect(b.leftOut).toEqual({ byTurns: 0, byBudget: 1 });
  });
});

describe("danglingPerson", () => {
  it("finds the personal pronoun of a question that names no one it could mean", () => {
    expect(danglingPerson("What was found at his home when it was searched?", [])).toBe("his");
    expect(danglingPerson("Did his site induction cover working at height?", [])).toBe("his");
    expect(danglingPerson("What time did she leave?", [BAYLINE])).toBe("she");
    // The object of "who": someone other than whoever the answer names.
    expect(danglingPerson("Who called him on 12 April?", [])).toBe("him");
    expect(danglingPerson("Who called her on 12 April?", [])).toBe("her");
  });

  it("leaves a pronoun that may mean a name, a noun phrase or the person a who-question asks for", () => {
    expect(danglingPerson("What did the foreman tell him to do?", [])).toBeNull();
    expect(danglingPerson("Who employed Jayden, and what was his hourly rate?", [])).toBeNull();
    expect(danglingPerson("Who put his name to the sale contract?", [])).toBeNull();
    expect(danglingPerson("Who said she saw the van?", [])).toBeNull();
    expect(danglingPerson("Who took her car?", [])).toBeNull();
    // A person the question links, even after the pronoun.
    expect(danglingPerson("When his car was stopped, where was kovac going?", [KOVAC])).toBeNull();
    expect(danglingPerson("Where was the van on 11 April?", [])).toBeNull();
  });
});
