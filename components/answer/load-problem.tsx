"use client";
// What a list in the workbench shows when it could not be loaded: the failure code and, when given, a retry.
export function LoadProblem({ what, code, onRetry }: { what: string; code: string; onRetry?: () => void }) {
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-2 text-sm text-red-900">
      {what} could not be loaded <span className="font-mono text-xs">{code}</span>.{" "}
      {onRetry ? (
        <button type="button" className="underline" onClick={onRetry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}
