// `policy extract` reads PDF (text layer) and DOCX as well as Markdown, text and HTML; fixtures are generated here.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import JSZip from "jszip";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readDocument } from "@/lib/adapters/documents/read-document";
import { regularise } from "@/lib/policy/extract";

/** A minimal one-font PDF with one page per entry of `pages` (text drawn with Tj), offsets computed for the xref. */
function pdfOf(pages: string[]): Buffer {
  const objs: string[] = [];
  const kids = pages.map((_, i) => `${4 + i * 2} 0 R`).join(" ");
  objs.push("<< /Type /Catalog /Pages 2 0 R >>");
  objs.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  objs.push("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  pages.forEach((text, i) => {
    const stream = `BT /F1 12 Tf 72 720 Td (${text.replace(/[()\\]/g, (c) => "\\" + c)}) Tj ET`;
    objs.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`);
    objs.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });
  let out = "%PDF-1.4\n";
  const offsets: number[] = [];
  objs.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out, "latin1"));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, "latin1");
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, "0")} 00000 n \n`).join("")}`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, "latin1");
}

async function docxOf(paragraphs: Array<{ heading?: boolean; text: string }>): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    "[Content_Types].xml",
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
  );
  zip.file(
    "_rels/.rels",
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
  );
  const body = paragraphs
    .map((p) => `<w:p>${p.heading ? `<w:pPr><w:pStyle w:val="Heading1"/></w:pPr>` : ""}<w:r><w:t>${p.text}</w:t></w:r></w:p>`)
    .join("");
  zip.file(
    "word/document.xml",
    `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`,
  );
  return zip.generateAsync({ type: "nodebuffer" });
}

describe("policy documents", { timeout: 60_000 }, () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "cg-policy-docs-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("reads a PDF's text layer page by page", async () => {
    const file = path.join(dir, "handbook.pdf");
    await writeFile(file, pdfOf(["Informant identities must never be disclosed.", "Amounts must cite a bank record."]));
    const doc = await readDocument(file);
    expect(doc.kind).toBe("txt");
    expect(doc.text).toContain("Informant identities must never be disclosed.");
    expect(doc.text).toContain("Amounts must cite a bank record.");
    expect(regularise(doc.text, doc.kind).length).toBeGreaterThan(0);
  });

  it("reads a DOCX with its headings as sections", async () => {
    const file = path.join(dir, "policy.docx");
    await writeFile(
      file,
      await docxOf([{ heading: true, text: "Juveniles" }, { text: "A juvenile's name is given only to supervisors." }]),
    );
    const doc = await readDocument(file);
    expect(doc.kind).toBe("html");
    expect(doc.text).toContain("<h1>Juveniles</h1>");
    const sections = regularise(doc.text, doc.kind);
    expect(JSON.stringify(sections)).toContain("given only to supervisors");
  });

  it("refuses, with CG-POLICY-088 naming the file, what it cannot read", async () => {
    const fake = path.join(dir, "fake.pdf");
    await writeFile(fake, "not a pdf at all");
    await expect(readDocument(fake)).rejects.toMatchObject({ code: "CG-POLICY-088", message: expect.stringContaining("fake.pdf") });
    const truncated = path.join(dir, "truncated.pdf");
    await writeFile(truncated, pdfOf(["text"]).subarray(0, 40));
    await expect(readDocument(truncated)).rejects.toMatchObject({ code: "CG-POLICY-088" });
    const notDocx = path.join(dir, "notes.docx");
    await writeFile(notDocx, "plain text");
    await expect(readDocument(notDocx)).rejects.toMatchObject({ code: "CG-POLICY-088" });
    await expect(readDocument(path.join(dir, "policy.odt"))).rejects.toMatchObject({ code: "CG-POLICY-088" });
    await expect(readDocument(path.join(dir, "missing.md"))).rejects.toMatchObject({ code: "CG-POLICY-088" });
  });
});
