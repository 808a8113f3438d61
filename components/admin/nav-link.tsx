"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";

/** A navigation link that marks itself current when the path is under it. */
export function NavLink({ href, children, exact }: { href: string; children: React.ReactNode; exact?: boolean }) {
  const path = usePathname() ?? "";
  const active = exact ? path === href : path === href || path.startsWith(href + "/");
  return (
    <Link
      href={href}
      aria-current={active ? "page" : undefined}
      className={cn("rounded-md px-3 py-1.5 text-sm font-medium", active ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100")}
    >
      {children}
    </Link>
  );
}
