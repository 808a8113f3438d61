import type { Metadata } from "next";
import "./globals.css";

// Every page is rendered per request: its scripts carry the request's CSP nonce (proxy.ts), which a prerendered page
// could not.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: "Casegraph",
  description: "Evidence-first GraphRAG workbench",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">{children}</body>
    </html>
  );
}
