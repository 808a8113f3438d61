"use client";
// A button that asks before doing something destructive. Uses the native <dialog> (focus trap, Escape to cancel).
import { useRef, useState, type ReactNode } from "react";
import { Button, type ButtonVariant } from "./button";

export function ConfirmButton({
  children,
  title,
  description,
  confirmLabel = "Confirm",
  variant = "danger",
  size = "sm",
  onConfirm,
  disabled,
  testId,
}: {
  children: ReactNode;
  title: string;
  description?: ReactNode;
  confirmLabel?: string;
  variant?: ButtonVariant;
  size?: "sm" | "md";
  onConfirm: () => Promise<void> | void;
  disabled?: boolean;
  testId?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  return (
    <>
      <Button variant={variant} size={size} disabled={disabled} onClick={() => ref.current?.showModal()} data-testid={testId}>
        {children}
      </Button>
      <dialog
        ref={ref}
        aria-labelledby={testId ? `${testId}-title` : undefined}
        className="m-auto w-full max-w-md rounded-lg border border-slate-200 p-0 shadow-xl backdrop:bg-slate-900/40"
      >
        <div className="p-5">
          <h2 id={testId ? `${testId}-title` : undefined} className="text-base font-semibold text-slate-900">
            {title}
          </h2>
          {description ? <div className="mt-2 text-sm text-slate-600">{description}</div> : null}
          <div className="mt-5 flex justify-end gap-2">
            <Button variant="secondary" onClick={() => ref.current?.close()} disabled={busy}>
              Cancel
            </Button>
            <Button
              variant={variant}
              busy={busy}
              data-testid={testId ? `${testId}-confirm` : undefined}
              onClick={async () => {
                setBusy(true);
                try {
                  await onConfirm();
                } finally {
                  setBusy(false);
                  ref.current?.close();
                }
              }}
            >
              {confirmLabel}
            </Button>
          </div>
        </div>
      </dialog>
    </>
  );
}
