// Document fixtures for the ingest tests (issue 17), generated here rather than checked in as blobs: PDFs with text
// layers over several pages (pdf-lib), a DOCX with headings and a table (jszip, the Office Open XML parts by hand), an
// e-mail with an attachment, call records as CSV, and hostile files (truncated or encrypted PDFs, a PDF with
// JavaScript, a DOCX declaring external entities, a zip bomb, HTML with scripts, a sparse 1 GB file).
import { mkdir, open, writeFile } from "node:fs/promises";
import path from "node:path";
import { deflateRawSync } from "node:zlib";
import JSZip from "jszip";
import { PDFDocument, StandardFonts, PDFName, PDFString } from "pdf-lib";

/** A PDF whose pages hold the given paragraphs (wrapped to the page width), each page's text its own. */
export async function makePdf(pages: string[][], options: { javascript?: string; blankPages?: number[] } = {}): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const size = 11;
  pages.forEach((paragraphs, i) => {
    const page = pdf.addPage([595, 842]);
    if (options.blankPages?.includes(i + 1)) return;
    let y = 800;
    for (const para of paragraphs) {
      for (const line of wrap(para, 90)) {
        page.drawText(line, { x: 50, y, size, font });
        y -= size * 1.3;
      }
      y -= size * 1.5; // a blank line between paragraphs
    }
  });
  if (options.javascript) {
    const js = pdf.context.obj({ Type: "Action", S: "JavaScript", JS: PDFString.of(options.javascript) });
    pdf.catalog.set(PDFName.of("OpenAction"), pdf.context.register(js));
  }
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** A PDF that claims to be encrypted (an /Encrypt dictionary in its trailer). */
export async function makeEncryptedPdf(): Promise<Buffer> {
  const plain = (await makePdf([["Secret text."]])).toString("latin1");
  return Buffer.from(
    plain.replace(/trailer\s*<</, "trailer\n<<\n/Encrypt << /Filter /Standard /V 1 /R 2 /O (x) /U (y) /P -4 >>"),
    "latin1",
  );
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A DOCX: headings (Heading1/Heading2 styles), paragraphs and one table. `doctype` adds an external-entity DTD. */
export async function makeDocx(
  body: Array<{ heading?: string; level?: 1 | 2; text?: string; table?: string[][] }>,
  options: { doctype?: boolean } = {},
): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    "[Content_Types].xml",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`,
  );
  zip.file(
    "_rels/.rels",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
  );
  zip.file(
    "word/_rels/document.xml.rels",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
  );
  const style = (id: string, name: string) => `<w:style w:type="paragraph" w:styleId="${id}"><w:name w:val="${name}"/></w:style>`;
  zip.file(
    "word/styles.xml",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">${style("Heading1", "heading 1")}${style("Heading2", "heading 2")}</w:styles>`,
  );
  const p = (text: string, styleId?: string) =>
    `<w:p>${styleId ? `<w:pPr><w:pStyle w:val="${styleId}"/></w:pPr>` : ""}<w:r><w:t xml:space="preserve">${esc(text)}</w:t></w:r></w:p>`;
  const parts = body.map((b) => {
    if (b.heading) return p(b.heading, b.level === 2 ? "Heading2" : "Heading1");
    if (b.table)
      return `<w:tbl>${b.table.map((row) => `<w:tr>${row.map((c) => `<w:tc>${p(c)}</w:tc>`).join("")}</w:tr>`).join("")}</w:tbl>`;
    return p(b.text ?? "");
  });
  const dtd = options.doctype ? `<!DOCTYPE w:document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>` : "";
  zip.file(
    "word/document.xml",
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>${dtd}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${parts.join("")}${options.doctype ? p("&xxe;") : ""}</w:body></w:document>`,
  );
  return zip.generateAsync({ type: "nodebuffer", compression: "DEFLATE" });
}

/** A ZIP named .docx whose one part inflates to `megabytes` MB of zeros (it claims the real size, as bombs may). */
export function makeZipBomb(megabytes = 300): Buffer {
  const data = deflateRawSync(Buffer.alloc(megabytes * 1024 * 1024), { level: 9 });
  const name = Buffer.from("word/document.xml");
  const size = megabytes * 1024 * 1024;
  /** A little-endian record: [offset, bytes, value] fields in a buffer of `length` bytes. */
  const record = (length: number, fields: Array<[number, 2 | 4, number]>) => {
    const b = Buffer.alloc(length);
    for (const [at, bytes, value] of fields) {
      if (bytes === 2) b.writeUInt16LE(value, at);
      else b.writeUInt32LE(value, at);
    }
    return b;
  };
  // Local header, central directory entry, end of central directory: deflate (8), sizes as claimed.
  const local = record(30, [
    [0, 4, 0x04034b50],
    [4, 2, 20],
    [8, 2, 8],
    [18, 4, data.length],
    [22, 4, size],
    [26, 2, name.length],
  ]);
  const central = Buffer.concat([
    record(46, [
      [0, 4, 0x02014b50],
      [4, 2, 20],
      [6, 2, 20],
      [10, 2, 8],
      [20, 4, data.length],
      [24, 4, size],
      [28, 2, name.length],
      [42, 4, 0],
    ]),
    name,
  ]);
  const eocd = record(22, [
    [0, 4, 0x06054b50],
    [8, 2, 1],
    [10, 2, 1],
    [12, 4, central.length],
    [16, 4, 30 + name.length + data.length],
  ]);
  return Buffer.concat([local, name, data, central, eocd]);
}

/** An RFC 822 message with a text body and one attachment. */
export function makeEml(o: {
  from: string;
  to: string;
  subject: string;
  date: string;
  body: string;
  attachment?: { name: string; type: string; bytes: Buffer };
}): Buffer {
  const boundary = "casegraph-boundary-1";
  const head = [
    `From: ${o.from}`,
    `To: ${o.to}`,
    `Subject: ${o.subject}`,
    `Date: ${o.date}`,
    "MIME-Version: 1.0",
    "Message-ID: <fixture-1@example.test>",
  ];
  if (!o.attachment) return Buffer.from([...head, "Content-Type: text/plain; charset=utf-8", "", o.body, ""].join("\r\n"));
  const b64 = o.attachment.bytes.toString("base64").replace(/.{76}/g, "$&\r\n");
  return Buffer.from(
    [
      ...head,
      `Content-Type: multipart/mixed; boundary="${boundary}"`,
      "",
      `--${boundary}`,
      "Content-Type: text/plain; charset=utf-8",
      "",
      o.body,
      `--${boundary}`,
      `Content-Type: ${o.attachment.type}; name="${o.attachment.name}"`,
      `Content-Disposition: attachment; filename="${o.attachment.name}"`,
      "Content-Transfer-Encoding: base64",
      "",
      b64,
      `--${boundary}--`,
      "",
    ].join("\r\n"),
  );
}

/** Call records: a header and rows [caller, callee, time, duration]. */
export function makeCsv(rows: Array<[string, string, string, number]>, header = "caller,callee,start_time,duration_seconds"): Buffer {
  return Buffer.from([header, ...rows.map((r) => r.join(","))].join("\n") + "\n");
}

/** A sparse file of `bytes` bytes (takes no disk space): for the size limit, which must refuse it without reading it. */
export async function makeSparseFile(file: string, bytes: number): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const fh = await open(file, "w");
  try {
    await fh.truncate(bytes);
  } finally {
    await fh.close();
  }
}

export async function writeFixture(dir: string, name: string, bytes: Buffer | string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return file;
}

/** A three-page lab report: the findings (fentanyl in the Tahoe HBR-4471, the prepaid phone) are on page 2. */
export const LAB_PAGES = [
  [
    "Metro Forensic Laboratory. Report LAB-2025-0419 on exhibits from the harbor investigation.",
    "Exhibit H-9 was received on 21 April 2025 from Detective Reyes.",
  ],
  [
    "Findings. The white crystalline residue recovered from the cargo area of the black Tahoe HBR-4471 tested positive for fentanyl at 91 percent purity.",
    "The vehicle is registered to Dmitri Kovac. A prepaid phone, number +1 (555) 0143, was found in the glove box.",
  ],
  ["Chain of custody. The exhibits were sealed by the analyst Ruth Okoye and returned to the property room on 24 April 2025."],
];
