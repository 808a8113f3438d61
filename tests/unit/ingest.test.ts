// Issue 17, the pure parts of document ingest: regularising into sections → paragraphs with pages and offsets,
// sentence-boundary chunking within configurable bounds, deterministic and explainable entity linking, call-record
// columns and rows, markings and their defaults, and the type decision by content against the file's name.
import { describe, expect, it } from "vitest";
import { fc, test } from "@fast-check/vitest";
import { regularise, textBlocks } from "@/lib/ingest/regularise";
import { chunkDocument, checkBounds } from "@/lib/ingest/chunk";
import { buildLinkIndex, linkText, type LinkNode } from "@/lib/ingest/link";
import { callColumns, callRecord, callRecordText, callTime, durationSeconds } from "@/lib/ingest/call-records";
import { resolveMarkings, NO_LICENSE } from "@/lib/ingest/markings";
import { decideKind } from "@/lib/ingest/kinds";
import { sentenceSpans, splitSentences } from "@/lib/graphrag/text";
import { CasegraphError } from "@/lib/domain/failure-codes";
import { evidenceSource } from "@/lib/domain/evidence-source";

describe("regularise", () => {
  it("joins paragraphs by a blank line, keeps pages and offsets, opens a section at each heading", () => {
    const doc = regularise(
      [
        { kind: "paragraph", text: "Preamble  text\nover two lines.", page: 1 },
        { kind: "heading", text: "Findings", page: 1, level: 1 },
        { kind: "paragraph", text: "Café  résumé.", page: 2 },
        { kind: "paragraph", text: "   ", page: 2 },
        { kind: "heading", text: "Custody", page: 3, level: 2 },
        { kind: "paragraph", text: "Sealed.\u0007", page: 3 },
      ],
      3,
    );
    expect(doc.text).toBe("Preamble text over two lines.\n\nFindings\n\nCafé résumé.\n\nCustody\n\nSealed.");
    expect(doc.sections.map((s) => [s.title, s.level])).toEqual([
      [null, 0],
      ["Findings", 1],
      ["Custody", 2],
    ]);
    for (const s of doc.sections)
      for (const p of s.paragraphs) expect(doc.text.slice(p.start, p.end)).toBe(doc.text.slice(p.start, p.end).trim());
    expect(doc.sections[1].paragraphs.map((p) => [doc.text.slice(p.start, p.end), p.page])).toEqual([
      ["Findings", 1],
      ["Café résumé.", 2],
    ]);
  });

  it("reads Markdown headings and plain-text paragraphs", () => {
    expect(textBlocks("# Title\nFirst line\nsecond line\n\n## Sub\n\nBody.", true)).toEqual([
      { kind: "heading", text: "Title", page: null, level: 1 },
      { kind: "paragraph", text: "First line\nsecond line", page: null },
      { kind: "heading", text: "Sub", page: null, level: 2 },
      { kind: "paragraph", text: "Body.", page: null },
    ]);
    expect(textBlocks("# not a heading in text\r\n\r\nnext", false).map((b) => b.kind)).toEqual(["paragraph", "paragraph"]);
  });
});

describe("chunking", () => {
  const sentence = (i: number) => `Sentence number ${i} says something about the harbor.`;
  const doc = (pages: string[][]) =>
    regularise(
      pages.flatMap((paras, p) => paras.map((text) => ({ kind: "paragraph" as const, text, page: p + 1 }))),
      pages.length,
    );

  it("never splits a sentence, stays within the bounds, never spans two pages, offsets point into the text", () => {
    const d = doc([[Array.from({ length: 30 }, (_, i) => sentence(i)).join(" ")], [sentence(99)]]);
    const chunks = chunkDocument(d, { minChars: 100, maxChars: 300, hardMaxChars: 1000 });
    const sentences = new Set(splitSentences(d.text));
    for (const c of chunks) {
      expect(c.text).toBe(d.text.slice(c.start, c.end));
      expect(c.text.length).toBeLessThanOrEqual(300);
      for (const s of splitSentences(c.text)) expect(sentences.has(s)).toBe(true);
      expect(c.page).toBe(c.pageEnd);
    }
    expect(chunks[chunks.length - 1]).toMatchObject({ page: 2, text: sentence(99) });
  });

  it("keeps a sentence longer than the maximum whole; cuts only past the hard limit, at a word boundary", () => {
    const long = "word ".repeat(120).trim() + ".";
    const chunks = chunkDocument(doc([[long]]), { minChars: 10, maxChars: 100, hardMaxChars: 700 });
    expect(chunks.map((c) => c.text)).toEqual([long]);
    const cut = chunkDocument(doc([[long]]), { minChars: 10, maxChars: 100, hardMaxChars: 200 });
    expect(cut.length).toBeGreaterThan(1);
    for (const c of cut) expect(c.text).toMatch(/^word( word)*\.?$/);
  });

  it("a short tail joins the chunk before it", () => {
    const d = doc([[`${sentence(1)} ${sentence(2)} ${sentence(3)} Tail.`]]);
    const chunks = chunkDocument(d, { minChars: 20, maxChars: 170, hardMaxChars: 1000 });
    expect(chunks[chunks.length - 1].text.endsWith("Tail.")).toBe(true);
    expect(chunks[chunks.length - 1].text).not.toBe("Tail.");
  });

  it("refuses bounds that contradict each other", () => {
    expect(() => checkBounds({ minChars: 500, maxChars: 100, hardMaxChars: 1000 })).toThrow(RangeError);
  });

  test.prop([fc.array(fc.stringMatching(/^[A-Za-z ,]{1,40}[.!?]$/), { minLength: 1, maxLength: 40 }), fc.integer({ min: 20, max: 400 })])(
    "property: chunks cover every sentence once, in order, and never cut one shorter than the hard limit",
    (sentences, max) => {
      const d = doc([[sentences.join(" ")]]);
      const chunks = chunkDocument(d, { minChars: Math.min(20, max), maxChars: max, hardMaxChars: 1000 });
      expect(chunks.flatMap((c) => sentenceSpans(c.text).map((s) => c.text.slice(s.start, s.end)))).toEqual(splitSentences(d.text));
    },
  );
});

describe("entity linking", () => {
  const nodes: LinkNode[] = [
    { id: "p-perez", label: "Person", name: "José Pérez", properties: { aliases: ["El Flaco"] } },
    { id: "p-hall", label: "Person", name: "Victor Hall", properties: {} },
    { id: "ph-0143", label: "Phone", name: "+1-555-0143", properties: { number: "+1-555-0143" } },
    { id: "veh-tahoe", label: "Vehicle", name: "Black Tahoe HBR-4471", properties: { plate: "HBR-4471" } },
    { id: "acc-bay", label: "Account", name: "Bayline account ...2207", properties: { number: "...2207" } },
    { id: "acc-full", label: "Account", name: "Main account", properties: { number: "4400 1234 5678" } },
    { id: "did:ws-fin-0231", label: "Device", name: "WS-FIN-0231", properties: { ip: "10.20.31.231" } },
    { id: "case:2025-0419", label: "Case", name: "Harbor case file", properties: {} },
  ];
  const index = buildLinkIndex(nodes);
  const linked = (text: string) => Object.fromEntries(linkText(index, text).map((l) => [l.nodeId, `${l.kind}:${l.matched}`]));

  it("names and aliases: whole words, case and accent insensitive", () => {
    expect(linked("JOSE   perez met el flaco.")).toEqual({ "p-perez": "name:JOSE   perez" });
    expect(linked("Josés Perezville")).toEqual({});
    expect(linked("They call him El Flaco.")).toEqual({ "p-perez": "alias:El Flaco" });
  });

  it("a unique surname alone links only when capitalised", () => {
    expect(linked("Hall was there.")).toEqual({ "p-hall": "surname:Hall" });
    expect(linked("in the hall")).toEqual({});
  });

  it("phone numbers in any common format, plates, ids, IPs and account numbers; the link records what matched", () => {
    expect(linked("Called +1 (555) 0143 twice")).toEqual({ "ph-0143": "phone:+1 (555) 0143" });
    expect(linked("called 555-0143")).toEqual({ "ph-0143": "phone:555-0143" });
    expect(linked("plate hbr-4471 seen")).toEqual({ "veh-tahoe": "id:hbr-4471" });
    expect(linked("host WS-FIN-0231 at 10.20.31.231")).toEqual({ "did:ws-fin-0231": "id:WS-FIN-0231" });
    expect(linked("paid from the account ending in 2207")).toEqual({ "acc-bay": "account:ending in 2207" });
    expect(linked("account 4400-1234-5678")).toEqual({ "acc-full": "account:4400-1234-5678" });
    expect(linked("filed under CASE:2025-0419")).toEqual({ "case:2025-0419": "id:CASE:2025-0419" });
  });

  it("is deterministic: the same text links the same way, in order of appearance", () => {
    const text = "HBR-4471 belongs to José Pérez, phone 555 0143";
    expect(linkText(index, text)).toEqual(linkText(buildLinkIndex([...nodes].reverse()), text));
    expect(linkText(index, text).map((l) => l.nodeId)).toEqual(["veh-tahoe", "p-perez"]);
  });
});

describe("call records", () => {
  it("finds the columns by their common names, or names the missing one", () => {
    expect(callColumns(["A_Number", "B Number", "Start Time", "Duration"])).toMatchObject({ caller: 0, callee: 1, time: 2, duration: 3 });
    expect(callColumns(["from", "to"])).toEqual({ missing: "time" });
    expect(callColumns(["x", "to", "time"])).toEqual({ missing: "caller" });
  });

  it("reads times, durations and rows into plain sentences", () => {
    expect(callTime("2025-03-14 21:05")).toBe("2025-03-14T21:05:00.000Z");
    expect(callTime("2025-03-14T21:05:00+0100")).toBe("2025-03-14T20:05:00.000Z");
    expect(callTime("yesterday")).toBeNull();
    expect([durationSeconds("95"), durationSeconds("1:35"), durationSeconds("00:01:35"), durationSeconds("n/a")]).toEqual([
      95,
      95,
      95,
      null,
    ]);
    const cols = callColumns(["caller", "callee", "time", "duration", "cell"]) as Exclude<
      ReturnType<typeof callColumns>,
      { missing: string }
    >;
    const r = callRecord(cols, ["+1-555-0143", "555-0199", "2025-03-14 21:05:00", "95", "C-17"], 2);
    expect(callRecordText(r as never)).toBe(
      "Call from +1-555-0143 to 555-0199 at 2025-03-14T21:05:00.000Z lasting 95 seconds. cell: C-17.",
    );
    expect(callRecord(cols, ["", "555-0199", "x"], 3)).toEqual({ problem: "line 3: no caller or callee number" });
  });
});

describe("markings", () => {
  const ctx = {
    caseClassification: "CUI" as const,
    licenses: new Set(["LIC-A"]),
    defaultSourceSystem: "upload",
    now: new Date("2026-01-01T00:00:00Z"),
  };

  it("defaults: the case's classification, no need-to-know, no license, now", () => {
    expect(resolveMarkings({}, ctx)).toEqual({
      classification: "CUI",
      needToKnow: [],
      license: NO_LICENSE,
      sourceSystem: "upload",
      collectedAt: "2026-01-01T00:00:00.000Z",
      type: null,
    });
  });

  it("reads aliases and tag lists; refuses unknown markings and licenses naming the field", () => {
    expect(
      resolveMarkings({ classification: "ts", needToKnow: " Narcotics, homicide ", license: "LIC-A", type: "lab_report" }, ctx),
    ).toMatchObject({
      classification: "TOP_SECRET",
      needToKnow: ["homicide", "narcotics"],
      license: "LIC-A",
      type: "lab_report",
    });
    for (const [input, path] of [
      [{ classification: "SECRET//NOFORN" }, "classification"],
      [{ license: "LIC-OTHER" }, "license"],
      [{ needToKnow: "a,,b" }, "needToKnow"],
      [{ collectedAt: "last week" }, "collectedAt"],
      [{ type: "bad type!" }, "type"],
    ] as const) {
      try {
        resolveMarkings(input, ctx);
        throw new Error("accepted");
      } catch (err) {
        expect((err as CasegraphError).code).toBe("CG-INGEST-008");
        expect((err as CasegraphError).issues[0].path).toBe(path);
      }
    }
    expect(() => resolveMarkings({}, { ...ctx, caseClassification: "UNREADABLE" })).toThrow(CasegraphError);
  });
});

describe("type by content, checked against the name", () => {
  const pdf = { family: "binary", mime: "application/pdf", ext: "pdf", kind: "pdf" } as const;
  const zip = { family: "binary", mime: "application/zip", ext: "zip", kind: null } as const;
  const png = { family: "binary", mime: "image/png", ext: "png", kind: null } as const;
  const text = { family: "text", guess: "text" } as const;
  it.each([
    ["a.pdf", pdf, "pdf"],
    ["a", pdf, "pdf"],
    ["a.docx", zip, "docx"],
    ["a.csv", text, "csv"],
    ["a.md", text, "markdown"],
    ["a", { family: "text", guess: "email" }, "email"],
    ["a.docx", pdf, "CG-INGEST-006"],
    ["a.pdf", text, "CG-INGEST-006"],
    ["a.txt", pdf, "CG-INGEST-006"],
    ["a.png", png, "CG-INGEST-003"],
    ["a.png", pdf, "CG-INGEST-006"],
    ["a", png, "CG-INGEST-003"],
    ["a.bin", { family: "unknown" }, "CG-INGEST-003"],
  ] as const)("%s (%o) → %s", (name, sniffed, want) => {
    const d = decideKind(name, sniffed);
    expect("kind" in d ? d.kind : d.code).toBe(want);
  });
});

describe("evidence source", () => {
  it("reads the document, page and offsets from the metadata, and names only links to nodes the reader may see", () => {
    const metadata = {
      documentId: "DOC-0123456789abcdef",
      document: "lab.pdf",
      page: 2,
      start: 10,
      end: 90,
      links: [
        { node: "p-visible", kind: "name", matched: "Dmitri Kovac" },
        { node: "p-hidden", kind: "alias", matched: "The Captain" },
      ],
    };
    expect(evidenceSource(metadata, new Set(["p-visible"]))).toEqual({
      documentId: "DOC-0123456789abcdef",
      document: "lab.pdf",
      page: 2,
      start: 10,
      end: 90,
      links: [{ node: "p-visible", kind: "name", matched: "Dmitri Kovac" }],
    });
    expect(evidenceSource({ sourceRef: "RMS" }, new Set())).toBeNull();
  });
});
