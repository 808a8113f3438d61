// A record kept as timed entries (entries.ts) and the claim checks that read it (ground.ts): a value, a party or an
// act taken from one entry and put with the time or the party of another is not supported; faithful claims about a
// log — one entry, several entries each with its time, a value of its header, an unnamed "she" — stand. A call
// record's "incoming from" and "outgoing to" say who called whom.
import { describe, expect, it } from "vitest";
import { callsInWords } from "@/lib/graphrag/calls";
import { timedEntries } from "@/lib/graphrag/entries";
import { SupportChecker } from "@/lib/graphrag/ground";
import type { RawContext } from "@/lib/graphrag/types";

const snippet = (id: string, text: string, type = "surveillance_note") => ({
  id,
  type,
  sourceSystem: "RMS",
  collectedAt: "2024-09-02T10:00:00.000Z",
  nodeIds: [],
  text,
});

const ctx: RawContext = {
  nodes: [
    { id: "p-okafor", label: "Person", name: "Grace Okafor", properties: {} },
    { id: "p-lindqvist", label: "Person", name: "Per Lindqvist", properties: {} },
    { id: "p-moss", label: "Person", name: "Tobias Moss", properties: {} },
  ],
  edges: [],
  evidenceSnippets: [
    snippet(
      "EV-L1",
      "Observation log, unit 7, 1 Sep 2024, Wharf Road depot. 08:02 white Transit van WX21 KPD arrives; Grace Okafor unlocks the gate. " +
        "08:15 Per Lindqvist arrives on a bicycle. 08:40 Okafor loads 4 boxes into the van. " +
        "09:05 Lindqvist leaves in the van WX21 KPD toward the ring road. 09:30 a woman in a red coat arrives; she photographs the gate.",
    ),
    snippet(
      "EV-L2",
      "Call record, warrant 24-CR-118, target +44 7700 900123 (Tobias Moss). 1 Sep 2024 07:48 outgoing to +44 7700 900456 (Grace Okafor), 1m12s. " +
        "1 Sep 2024 09:07 outgoing to +44 7700 900789, 0m33s. 1 Sep 2024 09:12 incoming from +44 7700 900456 (Grace Okafor), 4m50s.",
      "phone_record",
    ),
    snippet(
      "EV-P",
      "Statement of Per Lindqvist: I left the depot at 09:05 with 4 boxes in the van and drove to the ring road.",
      "statement",
    ),
    snippet(
      "EV-L4",
      "Call record, target 07700 900111 (Per Lindqvist). 2 Sep 2024 10:02 incoming from 07700 900456 (Grace Okafor), 2m05s. " +
        "2 Sep 2024 10:30 outgoing to 07700 900123 (Tobias Moss), 0m40s.",
      "phone_record",
    ),
    snippet(
      "EV-L3",
      "Surveillance of van WX21 KPD and Grace Okafor, 2 Sep 2024. 07:30 WX21 KPD parks at the depot; Okafor gets out. 07:50 Per Lindqvist drives off.",
    ),
  ],
};

const check = new SupportChecker(ctx);

describe("timedEntries: a record's header and its entries", () => {
  it("splits at each sentence that opens with a time, a date before it or not", () => {
    const log = timedEntries(ctx.evidenceSnippets[1].text)!;
    expect(log.header).toBe("Call record, warrant 24-CR-118, target +44 7700 900123 (Tobias Moss).");
    expect(log.entries).toEqual([
      "1 Sep 2024 07:48 outgoing to +44 7700 900456 (Grace Okafor), 1m12s.",
      "1 Sep 2024 09:07 outgoing to +44 7700 900789, 0m33s.",
      "1 Sep 2024 09:12 incoming from +44 7700 900456 (Grace Okafor), 4m50s.",
    ]);
    expect(timedEntries(ctx.evidenceSnippets[0].text)!.entries[4]).toBe("09:30 a woman in a red coat arrives; she photographs the gate.");
  });

  it("finds none in prose, where a time is told inside a sentence", () => {
    expect(timedEntries(ctx.evidenceSnippets[2].text)).toBeNull();
    expect(timedEntries("She arrived at 08:15. He left at 09:05 and came back at 10:00.")).toBeNull();
  });
});

describe("a value, a party or an act of another entry", () => {
  it.each([
    ["Moss called +44 7700 900789 at 07:48", ["EV-L2"], "in EV-L2 +44 7700 900789 is not at 07:48"],
    ["Moss's call to Okafor at 07:48 lasted 4m50s", ["EV-L2"], "in EV-L2 4m50s is not at 07:48"],
    ["Lindqvist loaded 4 boxes into the van", ["EV-L1"], "in EV-L1 4 is told of Grace Okafor, not Per Lindqvist"],
    ["Okafor arrived at 08:15", ["EV-L1"], "in EV-L1 at 08:15 that is told of Per Lindqvist, not Grace Okafor"],
    ["At 09:30 the van left toward the ring road", ["EV-L1"], "in EV-L1 that is not at 09:30: 09:05 tells it"],
  ])("%s", (claim, ids, reason) => {
    const v = check.claim(claim, ids);
    expect(v.support).toBe("unsupported");
    expect(v.reasons).toContain(reason);
  });
});

describe("who called whom, as a call record writes it (calls.ts)", () => {
  it.each([
    ["Lindqvist called Okafor at 10:02", "in EV-L4 it is Okafor who called Lindqvist, not the other way round"],
    ["Moss rang Lindqvist", "in EV-L4 it is Lindqvist who rang Moss, not the other way round"],
    ["Okafor was called by Lindqvist", "in EV-L4 it is Okafor who called Lindqvist, not the other way round"],
  ])("removes %j: the call goes the other way", (claim, reason) => {
    const v = check.claim(claim, ["EV-L4"]);
    expect(v.support).toBe("unsupported");
    expect(v.reasons).toContain(reason);
  });

  it("reads a call only where a direction stands before a number, not an order placed or a report received", () => {
    const names = ["Karen Ellis", "Adam Kowalczyk"];
    const principal = (text: string, except?: string) => names.find((n) => n !== except && text.includes(n.split(" ")[1]));
    const record = (entries: string) => timedEntries(`Record of Karen Ellis. ${entries}`)!;
    expect(callsInWords(record("14:37 order placed for Adam Kowalczyk. 14:52 report received from Adam Kowalczyk."), principal)).toEqual(
      [],
    );
    expect(
      callsInWords(record("14:37 outgoing to 0161 555 0100, 0m40s. 14:52 incoming call from 0161 555 0100 (Adam Kowalczyk)."), principal),
    ).toEqual(
      ["called", "phoned", "rang", "dialled", "texted", "messaged"].flatMap((v) => [
        `Adam Kowalczyk ${v} Karen Ellis.`,
        `Kowalczyk ${v} Ellis.`,
      ]),
    );
  });

  it.each(["Okafor called Lindqvist at 10:02", "Lindqvist phoned Moss at 10:30", "Per Lindqvist was called by Grace Okafor"])(
    "supports %j",
    (claim) => {
      expect(check.claim(claim, ["EV-L4"])).toMatchObject({ support: "supported", reasons: [] });
    },
  );
});

describe("faithful claims about a log stand", () => {
  it.each([
    ["Moss called +44 7700 900789 at 09:07 for 0m33s", ["EV-L2"]],
    ["Moss's phone called Okafor at 07:48 for 1m12s, and had an incoming call from Okafor at 09:12 for 4m50s", ["EV-L2"]],
    ["Okafor unlocked the gate at 08:02 and Lindqvist arrived on a bicycle at 08:15", ["EV-L1"]],
    ["Okafor arrived in the van WX21 KPD and Lindqvist left in it toward the ring road", ["EV-L1"]],
    // A value of the header is told of every entry.
    ["Tobias Moss's phone +44 7700 900123 called at 09:07", ["EV-L2"]],
    // An entry about an unnamed "she" may be of a party named elsewhere.
    ["At 09:30 a woman photographed the gate", ["EV-L1"]],
    // Another cited source holds it outside any log (EV-L1's 4 boxes are loaded at 08:40).
    ["Lindqvist left the depot at 09:05 with 4 boxes in the van and drove to the ring road", ["EV-L1", "EV-P"]],
    // What the header names is told of every entry.
    ["Per Lindqvist drove off in WX21 KPD at 07:50", ["EV-L3"]],
    ["Okafor was at the depot at 07:50", ["EV-L3"]],
  ])("%s", (claim, ids) => {
    expect(check.claim(claim, ids)).toMatchObject({ support: "supported", reasons: [] });
  });
});
