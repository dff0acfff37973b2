// The start of a trace's input under its title, wherever traces of one function are listed together (dataset
// members, "Add traces", re-run results, replay items): their titles alone often read alike.
export function InputPreview({ input }: { input: string | null | undefined }) {
  if (!input) return null;
  return (
    <span className="block truncate text-xs text-zinc-600" title={input}>
      <span className="text-zinc-400">in </span>{input}
    </span>
  );
}
