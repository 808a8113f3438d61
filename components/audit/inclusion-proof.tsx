"use client";
// The entry's inclusion proof, fetched from the server and checked here, in the browser, with WebCrypto: the entry's
// content → its hash → the Merkle path → the root signed in the checkpoint → the Ed25519 signature. The server's own
// check (same rules, node:crypto) is shown beside it.
import { useEffect, useState } from "react";
import { Alert, Badge, Button } from "@/components/ui";
import { inclusionProofAction } from "@/app/(workbench)/audit/actions";
import { verifyInclusionInBrowser, type BrowserProofReport } from "./browser-verify";
import { shortHash, utc } from "./format";

type Loaded = Extract<Awaited<ReturnType<typeof inclusionProofAction>>, { ok: true }>["data"];

export function InclusionProof({ seq }: { seq: number }) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [browser, setBrowser] = useState<BrowserProofReport | null>(null);
  const [error, setError] = useState<{ code: string; message: string } | null>(null);

  useEffect(() => {
    let live = true;
    (async () => {
      const r = await inclusionProofAction({ seq });
      if (!live) return;
      if (!r.ok) return setError(r.error);
      setLoaded(r.data);
      const serverHash = r.data.server.checks.find((c) => c.name === "entry hash")?.ok;
      const report = await verifyInclusionInBrowser(r.data.file, r.data.trustedPublicKeyPem ?? undefined, serverHash);
      if (live) setBrowser(report);
    })().catch(() => live && setError({ code: "CG-SYS-002", message: "The proof could not be loaded." }));
    return () => {
      live = false;
    };
  }, [seq]);

  if (error) return <Alert tone="error" title={error.message} code={error.code} />;
  if (!loaded || !browser)
    return (
      <p className="text-sm text-slate-500" data-testid="proof-loading">
        Checking the inclusion proof…
      </p>
    );
  const { file, server } = loaded;
  const ok = browser.ok && server.ok;
  return (
    <div className="space-y-3" data-testid="inclusion-proof" data-verified={ok ? "true" : "false"}>
      <Alert
        tone={ok ? "success" : "error"}
        title={ok ? "Inclusion proof verified" : "Inclusion proof does NOT verify"}
        code={ok ? undefined : "CG-AUDIT-004"}
      >
        <span data-testid="proof-status">
          Entry #{file.entry.seq} is leaf {file.leafIndex} of the {file.treeSize}-entry tree signed at {utc(file.checkpoint.time)} (key{" "}
          {file.checkpoint.keyId}).
        </span>
      </Alert>
      <ul className="grid gap-1 text-sm">
        {browser.checks.map((c) => (
          <li
            key={c.name}
            className="flex items-start gap-2"
            data-testid={`proof-check-${c.name.replace(/\s+/g, "-")}`}
            data-ok={c.ok ? "true" : "false"}
          >
            <Badge tone={c.ok ? "green" : "red"}>{c.ok ? "✓" : "✗"}</Badge>
            <span>
              <span className="font-medium">{c.name}</span>
              {c.detail ? <span className="text-slate-600"> — {c.detail}</span> : null}
            </span>
          </li>
        ))}
      </ul>
      <p className="text-xs text-slate-500">
        Checked in this browser{browser.signatureCheckedHere ? "" : " (signature not checkable here)"}; server check:{" "}
        {server.ok ? "verified" : "failed"}. Root <span className="font-mono">{shortHash(file.checkpoint.rootHash, 16)}</span>, path of{" "}
        {file.path.length} hashes.
      </p>
      <Button
        variant="secondary"
        size="sm"
        onClick={() => {
          const blob = new Blob([JSON.stringify(file, null, 2) + "\n"], { type: "application/json" });
          const url = URL.createObjectURL(blob);
          const a = document.createElement("a");
          a.href = url;
          a.download = `casegraph-proof-${file.entry.seq}-of-${file.treeSize}.json`;
          a.click();
          setTimeout(() => URL.revokeObjectURL(url), 10_000);
        }}
      >
        Download proof (check offline: casegraph audit verify-proof)
      </Button>
    </div>
  );
}
