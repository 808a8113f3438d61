import { describe, expect, it } from "vitest";
import { extractFacts } from "@/lib/graphrag/facts";
import { SupportChecker } from "@/lib/graphrag/ground";
import { momentsOf } from "@/lib/graphrag/moments";
import type { RawContext } from "@/lib/graphrag/types";

const item = (id: string, text: string) => ({
  id,
  type: "log",
  sourceSystem: "S",
  collectedAt: "2025-06-01T00:00:00.000Z",
  nodeIds: [],
  text,
});
const ctx: RawContext = {
  nodes: [],
  edges: [],
  evidenceSnippets: [
    item("EV-1", "Surveillance log, 4 May 2025. 10:30 subject leaves the flat on foot. 5 May 2025. 22:30 subject returns by taxi."),
    item(
      "EV-2",
      "Calls.\ndate | time | from | to\n04/05/2025 | 10:30 | 0770 900 412 | 0770 900 187\n05/05/2025 | 22:30 | 0770 900 187 | 0770 900 412",
    ),
    item("EV-3", "DFIR report, 17 May 2025. The tool transferred the archive between 02:41 and 03:18 on 14 May."),
    item("EV-4", "At 10:30 the subject left the flat. The camera covers 4 May to 6 May."),
    item("EV-5", "CCTV review covering 10 April to 12 April 2025. At 01:58 a black Tahoe enters the lot."),
    item(
      "EV-7",
      "Boarding notes, 06 Mar 2025. 09:30 boarded. 10:20 display shows last alarm entry 19 Feb. 11:50 hose found behind the feed tank.",
    ),
    item(
      "EV-9",
      "Interview of Frank Delaney, 9 May 2025.\nPARK: Your bank shows cash deposits on March 17th and April 28th.\nPARK: Interview terminated at 11:42.",
    ),
    item("EV-8", "Analyst note, 10 Mar 2025: pump No. 2 ran 01:22-03:36 UTC on 03 Mar. The oil band was seen from the air at 07:40."),
    item(
      "EV-6",
      "Dunn left the bar at 23:40 on 11 April 2025. The next morning at 06:18 police were dispatched. He was pronounced dead on 12 April 2025.",
    ),
  ],
};
const check = (text: string, id: string) => new SupportChecker(ctx).claim(text, [id]);

describe("a time and a date must be paired in what the claim cites", () => {
  it("reads which day each time falls under: its own line's date, else any day named before it", () => {
    const text = ctx.evidenceSnippets[0].text;
    const m = momentsOf(text, extractFacts(text, { source: true }));
    expect([...m.moments].filter((k) => k.startsWith("--"))).toEqual(["--5-4@630", "--5-4@1350", "--5-5@1350"]);
    expect(m.loose.size).toBe(0);
  });

  it.each([
    ["The subject left the flat at 10:30 on 4 May 2025", "EV-1"],
    ["The subject returned by taxi at 22:30 on 5 May", "EV-1"],
    ["0770 900 412 called 0770 900 187 at 10:30 on 4 May 2025", "EV-2"],
    // A report's own date is not the day of what it reports in the same sentence.
    ["The archive was transferred between 02:41 and 03:18 on 14 May", "EV-3"],
    // A range governs what follows it; a time before any date is not judged.
    ["A black Tahoe entered the lot at 01:58 on 12 April 2025", "EV-5"],
    ["The subject left the flat at 10:30 on 4 May", "EV-4"],
    // A day counted on from the date ("the next morning") is not the date's own.
    ["Police were dispatched at 06:18 on 12 April 2025", "EV-6"],
    // A date a log line speaks of does not move the log to it.
    ["The hose was found behind the feed tank at 11:50 on 6 March 2025", "EV-7"],
    // A note's own date, then a day named: either may be the day of what follows.
    ["The oil band was seen from the air at 07:40 on 3 March", "EV-8"],
    ["Pump No. 2 ran from 01:22 to 03:36 UTC on 3 March", "EV-8"],
    // A line that names no day may be on any day named before it: the interview's, or one its dialogue mentions.
    ["The interview of Frank Delaney was terminated at 11:42 on 9 May 2025", "EV-9"],
    ["The subject returned by taxi at 22:30 on 5 May", "EV-1"],
  ])("supported: %s", (claim, id) => {
    expect(check(claim, id).support).not.toBe("unsupported");
  });

  it.each([
    ["The subject left the flat on foot at 10:30 on 5 May 2025", "EV-1", "time 10:30 not on 5 May 2025 in EV-1"],
    ["0770 900 187 called 0770 900 412 at 22:30 on 4 May 2025", "EV-2", "time 22:30 not on 4 May 2025 in EV-2"],
    ["The tool transferred the archive between 02:41 and 03:18 on 17 May", "EV-3", "time 02:41 not on 17 May in EV-3"],
    ["The display showed the last alarm entry at 10:20 on 19 Feb", "EV-7", "time 10:20 not on 19 Feb in EV-7"],
    ["Pump No. 2 ran from 01:22 to 03:36 UTC on 10 March", "EV-8", "time 01:22 not on 10 March in EV-8"],
  ])("unsupported: %s", (claim, id, reason) => {
    const v = check(claim, id);
    expect(v.support).toBe("unsupported");
    expect(v.reasons).toContain(reason);
  });
});
