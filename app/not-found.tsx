// Anything that does not exist, or that this user may not see — the two look the same (CG-ACCESS-003).
import Link from "next/link";

export default function NotFound() {
  return (
    <main className="mx-auto max-w-xl p-8">
      <h1 className="text-2xl font-semibold tracking-tight">Not found</h1>
      <p className="mt-2 text-slate-700">
        <span className="font-mono text-sm">CG-ACCESS-003</span>: this page does not exist, or you may not see it.
      </p>
      <p className="mt-4">
        <Link href="/" className="text-blue-800 hover:underline">
          Back to Casegraph
        </Link>
      </p>
    </main>
  );
}
