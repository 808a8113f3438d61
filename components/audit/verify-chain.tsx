"use client";
// "Verify chain": the full walk on the server (every entry hash, link, Merkle subtree, signed checkpoint and the
// database's append-only triggers); reports OK or the first bad entry.
import { Alert, Button } from "@/components/ui";
import { verifyChainAction } from "@/app/(workbench)/audit/actions";
import { useAction } from "@/components/admin/use-action";
import { shortHash } from "./format";

const FAULTS: Record<string, string> = {
  seq_gap: "an entry is missing (sequence gap)",
  prev_hash_mismatch: "the entry does not link to its predecessor",
  entry_hash_mismatch: "the entry's content does not match its hash",
  body_mismatch: "the entry's recorded seq, kind or time disagree with its hashed content",
  subtree_hash_mismatch: "a stored Merkle subtree hash is wrong",
  checkpoint_root_mismatch: "the ledger no longer matches a signed checkpoint",
  checkpoint_signature_invalid: "a checkpoint's signature does not verify",
  truncated: "entries were removed from the end (a signed checkpoint covers more)",
};

export function VerifyChain() {
  const { run, busy, error, data } = useAction(verifyChainAction);
  return (
    <div className="space-y-2" data-testid="verify-chain">
      <Button variant="secondary" onClick={() => run({})} busy={busy} data-testid="verify-chain-button">
        Verify chain
      </Button>
      {error ? <Alert tone="error" title={error.message} code={error.code} /> : null}
      {data && data.ok ? (
        <div data-testid="verify-chain-ok">
          <Alert tone="success" title="Ledger verified">
            <span data-testid="verify-chain-result">
              OK — {data.size} entries, {data.checkpointsChecked} signed checkpoint{data.checkpointsChecked === 1 ? "" : "s"} checked
              {data.rootHash ? (
                <>
                  , root <span className="font-mono">{shortHash(data.rootHash, 16)}</span>
                </>
              ) : null}
              {data.durationMs !== null ? ` (${data.durationMs} ms)` : null}.
            </span>
          </Alert>
        </div>
      ) : null}
      {data && !data.ok ? (
        <Alert tone="error" title="The ledger does not verify" code="CG-AUDIT-002">
          <span data-testid="verify-chain-result">
            {data.firstBad ? (
              <>
                First bad entry: <span className="font-mono">#{data.firstBad.seq}</span> —{" "}
                {FAULTS[data.firstBad.fault] ?? data.firstBad.fault}.
              </>
            ) : null}
            {data.protectionProblems.length ? <> Database protection: {data.protectionProblems.join("; ")}.</> : null}
          </span>
        </Alert>
      ) : null}
    </div>
  );
}
