// An evidence item's text cut into the runs the evidence panel draws: plain, the passage a claim cites, and passages
// that read as instructions to an automated reader (withheld from every model). The two kinds of mark may overlap.

export interface Passage {
  text: string;
  cited: boolean;
  instruction: boolean;
}

type Span = { start: number; end: number };

export function passagesOf(content: string, cited: Span | null, instructions: readonly Span[]): Passage[] {
  const inside = (at: number, s: Span) => at >= s.start && at < s.end;
  const cuts = new Set([0, content.length]);
  for (const s of [...(cited ? [cited] : []), ...instructions]) {
    cuts.add(Math.max(0, Math.min(content.length, s.start)));
    cuts.add(Math.max(0, Math.min(content.length, s.end)));
  }
  const at = [...cuts].sort((a, b) => a - b);
  const out: Passage[] = [];
  for (let i = 0; i + 1 < at.length; i++) {
    const [start, end] = [at[i], at[i + 1]];
    if (start === end) continue;
    const run = { cited: !!cited && inside(start, cited), instruction: instructions.some((s) => inside(start, s)) };
    const last = out[out.length - 1];
    if (last && last.cited === run.cited && last.instruction === run.instruction) last.text += content.slice(start, end);
    else out.push({ text: content.slice(start, end), ...run });
  }
  return out;
}
