import type { ReactNode } from "react";

/** A page's title and, when given, the sentence or two that say what the page is for. */
export function PageHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      {children ? <p className="text-sm text-slate-600">{children}</p> : null}
    </div>
  );
}
