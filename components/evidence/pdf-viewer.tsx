"use client";
// A PDF page rendered in the browser with PDF.js (pdfjs-dist, bundled with the app: no network), the cited passage
// highlighted over it (issue 17). The file comes from the guarded original route; PDF.js runs no document scripts
// (isEvalSupported off, no scripting sandbox) and renders no annotation layer or forms.
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui";

interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

interface PdfItem {
  str: string;
  transform: number[];
  width: number;
}

/** The items of a page's text that hold `passage`, compared without whitespace (how ingest joined them). */
export function passageItems(items: readonly PdfItem[], passage: string): number[] {
  const owners: number[] = [];
  let flat = "";
  items.forEach((it, i) => {
    for (const ch of it.str) {
      if (/\s/.test(ch)) continue;
      flat += ch;
      owners.push(i);
    }
  });
  const needle = passage.replace(/\s+/g, "");
  if (!needle) return [];
  let at = flat.indexOf(needle);
  let length = needle.length;
  if (at < 0) {
    // Fall back to the passage's opening (ligatures or hyphenation may differ further on).
    length = Math.min(60, needle.length);
    at = flat.indexOf(needle.slice(0, length));
    if (at < 0) return [];
  }
  return [...new Set(owners.slice(at, at + length))];
}

export function PdfViewer({
  url,
  initialPage,
  passage,
}: {
  url: string;
  initialPage: number;
  passage: { page: number | null; text: string } | null;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [doc, setDoc] = useState<{ numPages: number; getPage: (n: number) => Promise<any> } | null>(null);
  const [page, setPage] = useState(Math.max(1, initialPage));
  const [boxes, setBoxes] = useState<Box[]>([]);
  const [size, setSize] = useState<{ width: number; height: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [located, setLocated] = useState<boolean | null>(null);

  useEffect(() => {
    let cancelled = false;
    let task: { destroy(): Promise<void> } | null = null;
    (async () => {
      try {
        const pdfjs = await import("pdfjs-dist");
        pdfjs.GlobalWorkerOptions.workerPort ??= new Worker(new URL("pdfjs-dist/build/pdf.worker.min.mjs", import.meta.url), {
          type: "module",
        });
        const loading = pdfjs.getDocument({ url, isEvalSupported: false, enableXfa: false, withCredentials: true });
        task = loading;
        const pdf = await loading.promise;
        if (!cancelled) setDoc(pdf);
      } catch (err) {
        if (!cancelled) setError((err as Error).message || "The PDF could not be opened.");
      }
    })();
    return () => {
      cancelled = true;
      void task?.destroy();
    };
  }, [url]);

  useEffect(() => {
    if (!doc || !canvas.current) return;
    let cancelled = false;
    (async () => {
      const pdfjs = await import("pdfjs-dist");
      const p = await doc.getPage(Math.min(page, doc.numPages));
      const viewport = p.getViewport({ scale: 1.4 });
      const c = canvas.current!;
      c.width = Math.floor(viewport.width);
      c.height = Math.floor(viewport.height);
      setSize({ width: c.width, height: c.height });
      await p.render({ canvas: c, canvasContext: c.getContext("2d")!, viewport }).promise;
      if (cancelled) return;
      if (passage && (passage.page === null || passage.page === page)) {
        const content = await p.getTextContent();
        const items = content.items as PdfItem[];
        const hit = passageItems(items, passage.text);
        setLocated(hit.length > 0);
        setBoxes(
          hit.map((i) => {
            const tx = pdfjs.Util.transform(viewport.transform, items[i].transform);
            const height = Math.hypot(tx[2], tx[3]);
            return { left: tx[4], top: tx[5] - height, width: items[i].width * viewport.scale, height: height * 1.15 };
          }),
        );
      } else setBoxes([]);
    })().catch((err) => setError((err as Error).message));
    return () => {
      cancelled = true;
    };
  }, [doc, page, passage]);

  if (error)
    return (
      <p role="alert" className="rounded-md border border-red-200 bg-red-50 p-2 text-sm text-red-900">
        The PDF could not be shown: {error}
      </p>
    );
  return (
    <div className="space-y-2" data-testid="pdf-viewer" data-page={page} data-located={located === null ? "" : String(located)}>
      <div className="flex items-center gap-2 text-sm">
        <Button size="sm" variant="secondary" disabled={page <= 1} onClick={() => setPage((n) => n - 1)}>
          ← Previous
        </Button>
        <span data-testid="pdf-page">
          Page {page} of {doc?.numPages ?? "…"}
        </span>
        <Button size="sm" variant="secondary" disabled={!doc || page >= doc.numPages} onClick={() => setPage((n) => n + 1)}>
          Next →
        </Button>
        {passage?.page && passage.page !== page ? (
          <Button size="sm" variant="ghost" onClick={() => setPage(passage.page!)}>
            Back to the cited page ({passage.page})
          </Button>
        ) : null}
        {located === false ? <span className="text-xs text-slate-600">The exact passage could not be located on this page.</span> : null}
      </div>
      <div
        className="relative inline-block border border-slate-300 shadow-sm"
        style={size ? { width: size.width, height: size.height } : undefined}
      >
        <canvas ref={canvas} aria-label={`Page ${page} of the document`} />
        {boxes.map((b, i) => (
          <span
            key={i}
            data-testid="pdf-highlight"
            className="pointer-events-none absolute rounded-sm bg-amber-300/50 outline outline-1 outline-amber-500"
            style={{ left: b.left, top: b.top, width: b.width, height: b.height }}
          />
        ))}
      </div>
    </div>
  );
}
