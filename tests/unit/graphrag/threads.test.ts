// Threads in the pipeline (issue 18), with in-memory ports: follow-ups are read against what earlier turns cited, the
// policy is evaluated afresh at every turn, each turn is its own ledger entry, a thread is only its owner's on its case,
// and the conversation a generative model sees is the earlier turns re-filtered and bounded.
import { describe, expect, it } from "vitest";
import { answerQuestion } from "@/lib/graphrag/answer";
import { seeNow } from "@/lib/graphrag/thread";
import { NO_LONGER_VISIBLE } from "@/lib/graphrag/follow-up";
import type { AnswerOutcome, Asker, GraphRagResponse } from "@/lib/graphrag/types";
import type { FakeCase } from "./fakes";
import { MemoryThreadStore, VIEWER, answerJson, harness, mockLlm, promptsSeen, smallCase } from "./fakes";
import { OfflineExtractiveModel } from "@/lib/adapters/model/offline";
import type { AnswerModel } from "@/lib/ports";

const OTHER: Asker = { ...VIEWER, userId: "u-other", email: "other@t1.example" };

/** The small case with a second member, and a twin case the viewer is also a member of. */
function cases(mutate: (c: FakeCase) => void = () => {}): FakeCase[] {
  const a = smallCase();
  a.members.push(OTHER.userId);
  mutate(a);
  const b = { ...smallCase(), id: "case-u" };
  return [a, b];
}

function threaded(model: AnswerModel = new OfflineExtractiveModel(), cs = cases(), extra = {}) {
  const h = harness(model, cs, extra);
  const threads = new MemoryThreadStore(h.ledger);
  h.deps.threads = threads;
  return { ...h, threads };
}

async function ask(h: ReturnType<typeof threaded>, question: string, threadId?: string, asker: Asker = VIEWER, caseId = "case-t") {
  return answerQuestion(h.deps, asker, { caseId, question, ...(threadId ? { threadId } : {}) });
}

function body(o: AnswerOutcome): GraphRagResponse {
  if (!o.ok) throw new Error(`expected an answer, got ${JSON.stringify(o.body)}`);
  return o.body;
}

describe("threads in the pipeline (offline answerer)", () => {
  it("a three-turn thread: each follow-up's reference is read as what the turn before cited, each turn its own ledger entry", async () => {
    const h = threaded();
    const t1 = body(await ask(h, "Who did Anna Berg meet at Dock 7?"));
    expect(t1.threadId).toBe("thread-1");
    expect(t1.turn).toBe(1);
    expect(t1.followUp).toBeUndefined();
    expect(t1.answer.answerText).toContain("Boris Kade");

    const t2 = body(await ask(h, "When was he seen loading crates?", t1.threadId));
    expect(t2).toMatchObject({ threadId: "thread-1", turn: 2 });
    expect(t2.followUp).toEqual({
      resolvedQuestion: "When was Boris Kade seen loading crates?",
      references: [{ phrase: "he", nodeId: "p-boris", name: "Boris Kade", turn: 1 }],
    });
    expect(t2.answer.responseType).toBe("answer");
    expect(t2.answer.citations.map((c) => c.evidenceId)).toEqual(["EV-2"]);

    const t3 = body(await ask(h, "Where does he work?", t1.threadId));
    expect(t3.turn).toBe(3);
    expect(t3.followUp?.resolvedQuestion).toBe("Where does Boris Kade work?");
    expect(t3.answer.answerText).toContain("Dock 7");

    const entries = h.ledger.payloads();
    expect(entries.map((p) => [p.thread_id, p.thread_turn])).toEqual([
      ["thread-1", 1],
      ["thread-1", 2],
      ["thread-1", 3],
    ]);
    // The question as asked is what the ledger binds; the reading is kept as a digest, and the seeds by id.
    expect(h.ledger.redactable.get(2)).toBe("When was he seen loading crates?");
    expect(entries[1].query_resolved_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(entries[1].thread_seed_ids).toContain("p-boris");
    expect(entries[0].query_resolved_sha256).toBeNull();
    expect(h.threads.turnsOf("thread-1").map((t) => [t.turn, t.ledgerSeq, t.question])).toEqual([
      [1, 1, "Who did Anna Berg meet at Dock 7?"],
      [2, 2, "When was he seen loading crates?"],
      [3, 3, "Where does he work?"],
    ]);
  });

  it("a question without a thread starts a new one; the same words in a thread are read against it", async () => {
    const h = threaded();
    const alone = body(await ask(h, "When was he seen loading crates?"));
    expect(alone.turn).toBe(1);
    expect(alone.followUp).toBeUndefined();
    expect(alone.threadId).not.toBe(body(await ask(h, "Who did Anna Berg meet at Dock 7?")).threadId);
  });

  it("a clearance lowered between turns: nothing of turn 1's restricted evidence reaches turn 2, and the thread view hides it", async () => {
    const h = threaded(
      undefined,
      cases((c) => {
        const ev2 = c.evidence.find((e) => e.id === "EV-2")!;
        ev2.classification = "CONFIDENTIAL";
      }),
    );
    const t1 = body(await ask(h, "When was Boris Kade seen loading crates?"));
    expect(t1.answer.citations.map((c) => c.evidenceId)).toEqual(["EV-2"]);

    const lowered: Asker = { ...VIEWER, clearance: "CUI" };
    const t2 = body(await ask(h, "Who did he meet at Dock 7?", t1.threadId, lowered));
    expect(t2.followUp?.resolvedQuestion).toBe("Who did Boris Kade meet at Dock 7?");
    const text = JSON.stringify(t2);
    expect(text).not.toContain("EV-2");
    expect(text).not.toContain("crates");
    expect(t2.answer.unknowns).toContain(
      "1 item cited in earlier turns of this thread is no longer visible to you; nothing of it was used.",
    );
    expect(h.ledger.payloads()[1].thread_no_longer_visible).toBe(1);
    expect(h.ledger.payloads()[1].thread_seed_ids).not.toContain("EV-2");

    // The thread view, shown to the asker as they are now.
    const turns = h.threads.turnsOf(t1.threadId!);
    const seen = await seeNow(h.deps, lowered, { tenantId: "t1", caseId: "case-t" }, turns);
    const view = seen.refilter(turns[0].answer)!;
    expect(view.claims.map((c) => c.text)).toEqual([NO_LONGER_VISIBLE]);
    expect(JSON.stringify(view)).not.toMatch(/EV-2|crates/);
    // With the clearance back, it shows again.
    const again = await seeNow(h.deps, VIEWER, { tenantId: "t1", caseId: "case-t" }, turns);
    expect(again.refilter(turns[0].answer)!.claims[0].text).toContain("crates");
  });

  it("an evidence item revoked since an earlier turn (the stores no longer return it) is not used either", async () => {
    const cs = cases();
    const h = threaded(undefined, cs);
    const t1 = body(await ask(h, "When was Boris Kade seen loading crates?"));
    cs[0].evidence = cs[0].evidence.filter((e) => e.id !== "EV-2");
    const t2 = body(await ask(h, "Who did he meet at Dock 7?", t1.threadId));
    expect(JSON.stringify(t2)).not.toContain("EV-2");
    expect(t2.answer.unknowns.join(" ")).toContain("no longer visible to you");
  });

  it("another user's thread, another case's thread and no thread at all are refused alike, and each refusal is audited", async () => {
    const h = threaded();
    const mine = body(await ask(h, "Who did Anna Berg meet at Dock 7?")).threadId!;
    const refusals = [
      await ask(h, "Where does he work?", mine, OTHER),
      await ask(h, "Where does he work?", mine, VIEWER, "case-u"),
      await ask(h, "Where does he work?", "thread-404"),
    ];
    for (const r of refusals) {
      expect(r.ok).toBe(false);
      expect(r.status).toBe(404);
      expect((r.body as { error: unknown }).error).toEqual({ code: "CG-THREAD-001", message: "Thread not found." });
      expect(r.body).not.toHaveProperty("threadId");
    }
    expect(
      h.ledger
        .payloads()
        .slice(1)
        .map((p) => p.error_code),
    ).toEqual(["CG-THREAD-001", "CG-THREAD-001", "CG-THREAD-001"]);
    // Nothing of the owner's thread moved.
    expect(h.threads.turnsOf(mine)).toHaveLength(1);
  });

  it("a closed thread is not continued (CG-THREAD-002)", async () => {
    const h = threaded();
    const id = body(await ask(h, "Who did Anna Berg meet at Dock 7?")).threadId!;
    h.threads.close(id);
    const r = await ask(h, "Where does he work?", id);
    expect(r.status).toBe(409);
    expect((r.body as { error: { code: string } }).error.code).toBe("CG-THREAD-002");
  });

  it("a refused request (an action) is a turn too", async () => {
    const h = threaded();
    const id = body(await ask(h, "Who did Anna Berg meet at Dock 7?")).threadId!;
    const r = body(await ask(h, "Arrest him now.", id));
    expect(r).toMatchObject({ threadId: id, turn: 2 });
    expect(r.answer.responseType).toBe("refused");
    expect(h.threads.turnsOf(id).map((t) => t.responseType)).toEqual(["answer", "refused"]);
  });

  it("the conversation bound: only the last N turns are considered, and the answer says so", async () => {
    const h = threaded(undefined, cases(), { conversationLimits: { maxTurns: 1 } });
    const id = body(await ask(h, "Who did Anna Berg meet at Dock 7?")).threadId!;
    await ask(h, "When was Boris Kade seen loading crates?", id);
    const t3 = body(await ask(h, "Where does he work?", id));
    expect(t3.answer.unknowns).toContain("Only the last 1 turn of this thread was considered: 1 earlier turn was left out.");
    expect(h.ledger.payloads()[2].thread_turns_left_out).toBe(1);
  });
});

describe("threads with a generative model (mock LLM)", () => {
  it("the model gets the earlier turns' validated answers, re-filtered for the asker now — never their raw context", async () => {
    const first = answerJson({
      answerText: "Boris Kade was seen loading crates at Dock 7 at 22:10 on 4 March 2025 [evidence: EV-2].",
      citations: [{ evidenceId: "EV-2", claimId: "CLM-1" }],
      explanationSteps: [{ stepNumber: 1, claim: "Boris Kade loaded crates at Dock 7.", citations: ["EV-2"] }],
    });
    const second = answerJson({
      answerText: "Anna Berg met Boris Kade at Dock 7 on 3 March 2025 [evidence: EV-1].",
      citations: [{ evidenceId: "EV-1", claimId: "CLM-1" }],
      explanationSteps: [{ stepNumber: 1, claim: "Anna Berg met Boris Kade.", citations: ["EV-1"] }],
    });
    const { mock, model } = mockLlm(first, second, second);
    const h = threaded(
      model,
      cases((c) => {
        c.evidence.find((e) => e.id === "EV-2")!.classification = "CONFIDENTIAL";
      }),
    );
    const t1 = body(await ask(h, "When was Boris Kade seen loading crates?"));
    expect(t1.answer.answerText).toContain("22:10");

    // Same clearance: the earlier answer is in the prompt as the conversation, with the deterministic reading.
    const t2 = body(await ask(h, "Who did he meet at Dock 7?", t1.threadId));
    expect(t2.turn).toBe(2);
    const prompt2 = promptsSeen(mock)[1];
    expect(prompt2).toContain("<earlier_turns");
    expect(prompt2).toContain("Boris Kade was seen loading crates at Dock 7 at 22:10 on 4 March 2025");
    expect(prompt2).toContain('Query: "Who did he meet at Dock 7?"');
    expect(prompt2).toContain('"Who did Boris Kade meet at Dock 7?"');
    expect(h.ledger.payloads()[1].prompt_version).toBe("prompt_v1+conv_v1");

    // Clearance lowered: turn 1's claim rests on evidence the asker can no longer see — it is not in the prompt.
    await ask(h, "Who did he meet at Dock 7?", t1.threadId, { ...VIEWER, clearance: "CUI" });
    const prompt3 = promptsSeen(mock)[2];
    expect(prompt3).toContain("<earlier_turns");
    expect(prompt3).not.toContain("22:10");
    expect(prompt3).not.toContain("4 March");
    expect(prompt3).toContain(NO_LONGER_VISIBLE);
    // The asker's own earlier question is theirs to see; it is the answer that is re-filtered.
    expect(prompt3).toContain('Question: "When was Boris Kade seen loading crates?"');
  });

  it("tells the answerer whether a question follows earlier turns: asked on its own, a pronoun names no one", async () => {
    const offline = new OfflineExtractiveModel();
    const followUps: boolean[] = [];
    const spy: AnswerModel = Object.assign(Object.create(offline) as AnswerModel, {
      generate: (r: Parameters<AnswerModel["generate"]>[0]) => {
        followUps.push(r.followUp ?? false);
        return offline.generate(r);
      },
    });
    const h = threaded(spy);
    const alone = body(await ask(h, "When was he seen loading crates?"));
    expect(alone.answer.responseType).toBe("no_evidence");
    expect(alone.answer.citations).toEqual([]);
    expect(alone.answer.unknowns[0]).toBe('Whom "he" means is unknown: the question names no one it could be.');
    const t1 = body(await ask(h, "Who did Anna Berg meet at Dock 7?"));
    const t2 = body(await ask(h, "When was he seen loading crates?", t1.threadId));
    expect(t2.answer.citations.map((c) => c.evidenceId)).toEqual(["EV-2"]);
    expect(followUps).toEqual([false, false, true]);
  });

  it("a follow-up's 'he' after a 'who' that found no one means that unknown person: no model is asked to guess", async () => {
    const offline = new OfflineExtractiveModel();
    let asked = 0;
    const spy: AnswerModel = Object.assign(Object.create(offline) as AnswerModel, {
      generate: (r: Parameters<AnswerModel["generate"]>[0]) => {
        asked++;
        return offline.generate(r);
      },
    });
    const h = threaded(spy);
    // Who paid him is only in evidence above the viewer's clearance.
    const t1 = body(await ask(h, "Who paid Boris Kade in cash at Dock 7?"));
    expect(t1.answer.responseType).toBe("no_evidence");
    const t2 = body(await ask(h, "Where did he get the cash from?", t1.threadId));
    expect(t2.turn).toBe(2);
    expect(t2.followUp).toBeUndefined();
    expect(t2.answer.responseType).toBe("no_evidence");
    expect(t2.answer.citations).toEqual([]);
    expect(t2.answer.unknowns[0]).toBe(
      'Whom "he" means is unknown: it refers to what turn 1 asked for ("Who paid Boris Kade in cash at Dock 7?"), which that turn did not answer.',
    );
    expect(asked).toBe(1);
    expect(h.ledger.payloads()).toHaveLength(2);
    expect(JSON.stringify(t2)).not.toContain("CANARY");
    // After a "who" that was answered, "he" is read as whom the answer named.
    const t3 = body(await ask(h, "Who did Anna Berg meet at Dock 7?"));
    const t4 = body(await ask(h, "When was he seen loading crates?", t3.threadId));
    expect(t4.answer.citations.map((c) => c.evidenceId)).toEqual(["EV-2"]);
  });

  it("a first question's prompt is unchanged (no conversation section, the same prompt version)", async () => {
    const { mock, model } = mockLlm(
      answerJson({ answerText: "Anna Berg met Boris Kade [evidence: EV-1].", citations: [{ evidenceId: "EV-1", claimId: "CLM-1" }] }),
    );
    const h = threaded(model);
    await ask(h, "Who did Anna Berg meet at Dock 7?");
    expect(promptsSeen(mock)[0]).not.toContain("<earlier_turns");
    expect(h.ledger.payloads()[0].prompt_version).toBe("prompt_v1");
  });
});
