// Who is it told of (issue 13 §1, a swapped entity): an item that names several people holds every word of "Marchetti
// left first, carrying an envelope" when it says "Delaney leaves first, carrying a folded brown envelope" and names
// Marchetti two lines above — word overlap and the name check pass it. This reads, for each person or organisation
// the claim names, the passages of its sources told of that party (a sentence naming it, and the sentences after it
// that name nobody — "He walks north"), and reports the claim when those passages between them hold less than half of
// what the claim says of it while one passage told of another party, one the claim does not name, holds three quarters
// or more. A sentence about a group ("The three sit at the rear booth", "They left together") is told of everyone
// named just before it; a surname two parties share names both. Pure.
import { porter } from "./facts";
import { baseForm } from "./irregular";
import { boundedMemo } from "./memo";
import { isStopword, splitSentences, words } from "./text";

/** A person or organisation of the case, by its name and aliases. */
export interface Party {
  name: string;
  aliases?: readonly string[];
}

/** What the claim says of a party, and the stems and figures that say it. */
export interface ClaimAct {
  /** Porter stems of the claim's content words (its names aside). */
  stems: readonly string[];
  /** The claim as written, for its figures ("23:05", "48,500"). */
  text: string;
  /** The claim's named entities, as lower-case word lists. */
  entities: ReadonlyArray<readonly string[]>;
}

export interface ToldOfAnother {
  /** The party the claim names. */
  said: string;
  /** The party its sources tell it of. */
  told: string;
  /** The passage that tells it names none of the claim's parties; else the party may be there unnamed. */
  sure: boolean;
}

/** Share of the claim's act that passages told of the party it names must hold between them for it to stand. */
const OWN_SHARE = 0.5;
/** Share of the act one passage told of another party must hold for the claim to be that party's. */
const OTHER_SHARE = 0.75;
/** Sentences naming nobody that still tell of the party named before them. */
const CARRY = 2;
/** How many naming sentences back a sentence about a group reaches. */
const GROUP_REACH = 4;
/** A sentence that speaks of several people at once without naming them. */
const GROUP =
  /\b(?:they|them|their|both|together|each other|one another|all (?:of them|three|four|five)|the (?:two|three|four|five|pair|group|men|women|couple|others))\b/i;
/**
 * Words of organisations' names that name no one in particular ("Metro Police Department", "Seafood Co."): a mention
 * is by a word that is the party's own.
 */
const GENERIC = new Set(
  (
    "police department council county city state national international bank trust company group holdings limited " +
    "services service solutions logistics authority office agency ministry court hospital university school port " +
    "street road north south east west central general united first seafood trading partners associates"
  ).split(" "),
);

/**
 * Reads what the sources tell of each party (a case's people and organisations); each source's passages are read once
 * and memoised.
 */
export class PartyReader {
  private readonly keys: Map<string, number[]>;
  private readonly nameStems: Set<string>;
  /** The parties as one string: a source's passages are memoised under it and the text. */
  private readonly signature: string;

  constructor(private readonly parties: readonly Party[]) {
    this.keys = mentionKeys(parties);
    this.nameStems = new Set([...this.keys.keys()].map(porter));
    this.signature = parties.map((p) => [p.name, ...(p.aliases ?? [])].join("\u0001")).join("\u0002");
  }

  /**
   * The party the claim names that its sources tell what it says of only of another party, one the claim does not
   * name; null when the claim names no party, says nothing checkable of it, or is told of it somewhere.
   */
  toldOfAnother(act: ClaimAct, sources: readonly string[]): ToldOfAnother | null {
    const named = new Set<number>();
    for (const entity of act.entities) for (const t of entity) for (const p of this.keys.get(t) ?? []) named.add(p);
    if (!named.size) return null;
    // The act: the claim's words that are not a name, and its figures.
    const names = new Set(act.entities.flatMap((e) => e.map(porter)));
    const terms = [...new Set(act.stems.filter((s) => !this.nameStems.has(s) && !names.has(s)))];
    const figures = [
      ...new Set(
        words(act.text)
          .filter((w) => /\d/.test(w.lower))
          .map((w) => w.lower),
      ),
    ];
    const size = terms.length + figures.length;
    if (!size) return null;
    const held = (stems: ReadonlySet<string>, given: ReadonlySet<string>) =>
      terms.filter((t) => stems.has(t) || stems.has(baseForm(t))).length + figures.filter((f) => given.has(f)).length;

    const passages = sources.flatMap((text) => this.passagesOf(text));
    let found: ToldOfAnother | null = null;
    for (const party of [...named].sort((a, b) => a - b)) {
      const own = passages.filter((p) => p.parties.has(party));
      if (held(new Set(own.flatMap((p) => [...p.stems])), new Set(own.flatMap((p) => [...p.figures]))) / size >= OWN_SHARE) continue;
      // Another's passage: one that does not name this party and names someone the claim does not ("… with Delaney"
      // is not a swap for what a passage tells of Delaney). A short act must be held whole.
      const need = size <= 2 ? size : Math.ceil(size * OTHER_SHARE);
      const others = passages.filter(
        (p) => !p.parties.has(party) && [...p.parties].some((q) => !named.has(q)) && held(p.stems, p.figures) >= need,
      );
      // Sure when the passage names none of the claim's parties; when it names another of them, this party may be
      // there unnamed ("Kovac met a man while Delaney watched … the man was Luis Ortega").
      const clear = others.find((p) => ![...p.parties].some((q) => named.has(q)));
      const other = clear ?? others[0];
      if (!other) continue;
      const q = Math.min(...[...other.parties].filter((x) => !named.has(x)));
      const finding = { said: this.parties[party].name, told: this.parties[q].name, sure: !!clear };
      if (clear) return finding;
      found ??= finding;
    }
    return found;
  }

  private passagesOf(text: string): Passage[] {
    return passageMemo(`${this.signature}\u0000${text}`, () => passagesOf(text, this.keys));
  }
}

/** The same evidence recurs across the answers of a case, and the checker is made anew for each. */
const passageMemo = boundedMemo<Passage[]>(500);

interface Passage {
  parties: Set<number>;
  stems: Set<string>;
  figures: Set<string>;
}

/** The passages of `text` told of a party: each sentence naming parties, with the unnamed sentences after it. */
function passagesOf(text: string, keys: Map<string, number[]>): Passage[] {
  const out: Passage[] = [];
  let carried = 0;
  for (const sentence of splitSentences(text)) {
    const ws = words(sentence);
    const parties = new Set<number>();
    for (const w of ws) if (w.capitalised) for (const p of keys.get(w.lower) ?? []) parties.add(p);
    const stems = new Set<string>();
    const figures = new Set<string>();
    for (const w of ws) {
      if (/\d/.test(w.lower)) figures.add(w.lower);
      // "hi-vis" is read by its parts too, as a claim's words are.
      else
        for (const part of [w.lower, ...(w.lower.includes("-") ? w.lower.split("-") : [])]) if (!isStopword(part)) stems.add(porter(part));
    }
    if (parties.size) {
      out.push({ parties, stems, figures });
      carried = 0;
      continue;
    }
    // Unnamed: a group sentence is told of everyone named just before; another, of the last naming sentence's parties.
    const targets = GROUP.test(sentence) ? out.slice(-GROUP_REACH) : carried < CARRY ? out.slice(-1) : [];
    for (const p of targets) {
      for (const s of stems) p.stems.add(s);
      for (const f of figures) p.figures.add(f);
    }
    carried++;
  }
  return out;
}

/**
 * Each word that mentions a party, with the parties it may mention: the words of their names and aliases of four
 * letters or more that name no one in particular. A surname two parties share mentions both: a passage that may be
 * told of the party the claim names is its own.
 */
function mentionKeys(parties: readonly Party[]): Map<string, number[]> {
  const keys = new Map<string, number[]>();
  parties.forEach((p, i) => {
    for (const name of [p.name, ...(p.aliases ?? [])])
      for (const w of words(name)) {
        if (w.lower.length < 4 || /\d/.test(w.lower) || isStopword(w.lower) || GENERIC.has(w.lower)) continue;
        const who = keys.get(w.lower) ?? [];
        if (!who.includes(i)) keys.set(w.lower, [...who, i]);
      }
  });
  return keys;
}
