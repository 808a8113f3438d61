import type { InputHTMLAttributes, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import { cn } from "./cn";

const base =
  "block w-full rounded-md border bg-white px-3 py-2 text-sm shadow-sm placeholder:text-slate-400 focus:border-blue-600 focus:outline-none focus:ring-1 focus:ring-blue-600 disabled:bg-slate-100";

export function Input({ className, "aria-invalid": invalid, ...rest }: InputHTMLAttributes<HTMLInputElement>) {
  return <input aria-invalid={invalid} className={cn(base, invalid ? "border-red-500" : "border-slate-300", className)} {...rest} />;
}

export function Textarea({ className, "aria-invalid": invalid, ...rest }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea aria-invalid={invalid} className={cn(base, invalid ? "border-red-500" : "border-slate-300", className)} {...rest} />;
}

export function Select({ className, "aria-invalid": invalid, children, ...rest }: SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <select aria-invalid={invalid} className={cn(base, "pr-8", invalid ? "border-red-500" : "border-slate-300", className)} {...rest}>
      {children}
    </select>
  );
}

export function Checkbox({ label, className, ...rest }: InputHTMLAttributes<HTMLInputElement> & { label: string }) {
  return (
    <label className={cn("inline-flex items-center gap-2 text-sm text-slate-800", className)}>
      <input type="checkbox" className="h-4 w-4 rounded border-slate-300 text-blue-700 focus:ring-blue-600" {...rest} />
      {label}
    </label>
  );
}
