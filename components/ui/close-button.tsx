/** The "×" that closes a panel or dialog; `label` says what it closes, for screen readers. */
export function CloseButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-label={label}
      className="rounded px-1.5 text-lg leading-none text-slate-600 hover:bg-slate-100 hover:text-slate-900"
    >
      ×
    </button>
  );
}
