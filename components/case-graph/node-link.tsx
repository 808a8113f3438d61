import { SafeText } from "@/components/ui/safe-text";

/** A node named in text (explanation steps, evidence links): a button that selects it in the graph. */
export function NodeLink({ id, name, onSelect }: { id: string; name: string | null | undefined; onSelect: (id: string) => void }) {
  return (
    <button
      type="button"
      onClick={() => onSelect(id)}
      className="rounded border border-slate-300 bg-slate-50 px-1.5 py-px text-slate-800 hover:border-blue-600"
      title={id}
    >
      <SafeText text={name ?? id} />
    </button>
  );
}
