import type { ReactNode } from "react";
import { cn } from "./cn";

export { fieldErrors } from "@/lib/domain/field-errors";

/** A labelled form control with hint and error text; the error is linked to the control by id for screen readers. */
export function Field({
  label,
  htmlFor,
  error,
  hint,
  children,
  className,
}: {
  label: string;
  htmlFor?: string;
  error?: string | null;
  hint?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn("space-y-1", className)}>
      <label htmlFor={htmlFor} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {hint && !error ? <p className="text-xs text-slate-500">{hint}</p> : null}
      {error ? (
        <p
          id={htmlFor ? `${htmlFor}-error` : undefined}
          role="alert"
          className="text-xs font-medium text-red-700"
          data-field-error={htmlFor}
        >
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Field errors from an ActionResult's issues, by path. */
