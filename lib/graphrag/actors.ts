// Who is it told of (issue 13 §1, a swapped entity): an item that names several people holds every word of "Marchetti
// left first, carrying an envelope" when it says "Delaney leaves first, carrying a folded brown envelope" and names
// Marchetti two lines above — word overlap and the name check pass it. This reads, for each person or organisation
// the claim names, the passages of its sources told of that party (a sentence naming it, and the unnamed sentences
// after it about "he" or "she"), and reports the claim when those passages between them hold less than half of what
// the claim says of it while one passage told of another party, one the claim does not name, holds three quarters or
// more. A sentence about a group ("The three sit at the rear booth") is told of everyone named just before it; one
// about no one in particular (a heading, "I …", "we …", a rule for everyone) may be of anyone; a letter is told by the
// one who signs it; a surname two parties share names both. Pure.
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
/** Sentences naming nobody that still tell of the party named before them ("He walks north"). */
const CARRY = 2;
/** How many naming sentences back a sentence about a group reaches. */
const GROUP_REACH = 4;
/** A sentence that speaks of one person without naming them. */
const PERSONAL = /\b(?:he|she|him|her|his|hers|himself|herself)\b/i;
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
  /** Each party's words of its names, lower-cased. */
  private readonly nameWords: Array<Set<string>>;
  /** The parties as one string: what is read of a source is memoised under it and the text. */
  readonly signature: string;

  constructor(private readonly parties: readonly Party[]) {
    this.keys = mentionKeys(parties);
    this.nameWords = parties.map((p) => new Set([p.name, ...(p.aliases ?? [])].flatMap((n) => words(n).map((w) => w.lower))));
    this.nameStems = new Set([...this.keys.keys()].map(porter));
    this.signature = parties.map((p) => [p.name, ...(p.aliases ?? [])].join("\u0001")).join("\u0002");
  }

  /**
   * The party the claim names that its sources tell what it says of only of another party, one the claim does not
   * name; null when the claim names no party, says nothing checkable of it, or is told of it somewhere.
   */
  toldOfAnother(act: ClaimAct, sources: readonly string[]): ToldOfAnother | null {
    const named = this.namedBy(act.entities);
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
    const passages = sources.flatMap((text) => this.passagesOf(text));
    // Only a passage that names someone the claim does not can tell it of another.
    if (!passages.some((p) => !p.authored && [...p.parties].some((q) => !named.has(q)))) return null;
    const forms = terms.map((t) => [t, baseForm(t)]);
    // How much of the act the passages hold between them.
    const held = (ps: Passage[]) =>
      forms.filter(([t, b]) => ps.some((p) => p.stems.has(t) || p.stems.has(b))).length +
      figures.filter((f) => ps.some((p) => p.figures.has(f))).length;

    let found: ToldOfAnother | null = null;
    for (const party of [...named].sort((a, b) => a - b)) {
      if (held(passages.filter((p) => p.parties.has(party) || !p.parties.size)) / size >= OWN_SHARE) continue;
      // Another's passage: one that does not name this party and names someone the claim does not ("… with Delaney"
      // is not a swap for what a passage tells of Delaney). A short act must be held whole.
      const need = size <= 2 ? size : Math.ceil(size * OTHER_SHARE);
      const others = passages.filter(
        (p) => !p.authored && !p.parties.has(party) && [...p.parties].some((q) => !named.has(q)) && held([p]) >= need,
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

  /**
   * The parties a claim's names are: a name is a party's when each of its longer words is one of that party's
   * ("Marchetti", "Bayline Seafood"), not when it only shares one ("First Harbor Bank" is not the Harbor Kings).
   */
  namedBy(entities: ReadonlyArray<readonly string[]>): Set<number> {
    const named = new Set<number>();
    for (const entity of entities) {
      const long = entity.filter((t) => t.length >= 4 && !isStopword(t));
      for (const t of long) for (const p of this.keys.get(t) ?? []) if (long.every((w) => this.nameWords[p].has(w))) named.add(p);
    }
    return named;
  }

  /** The parties a source text names (a surname two share names both). */
  namedIn(text: string): Set<number> {
    return partiesIn(words(text), this.keys);
  }

  /**
   * The name of the party a text names most fully (by the most words of its names), `except` aside; undefined when it
   * names none or two as fully ("Raymond Dunn" is Raymond, not Lydia Dunn; "Dunn" alone is neither).
   */
  principal(text: string, except?: string): string | undefined {
    const ws = words(text);
    const present = new Set(ws.map((w) => w.lower));
    const scored = [...partiesIn(ws, this.keys)]
      .filter((p) => this.parties[p].name !== except)
      .map((p) => ({ p, n: [...this.nameWords[p]].filter((w) => present.has(w)).length }))
      .sort((a, b) => b.n - a.n);
    if (!scored.length || (scored.length > 1 && scored[1].n === scored[0].n)) return undefined;
    return this.parties[scored[0].p].name;
  }

  /** A party's name, by its number in `namedBy` and `namedIn`. */
  nameOf(party: number): string {
    return this.parties[party].name;
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
  /** The whole text, for the party who wrote it: theirs, never another's passage. */
  authored?: boolean;
}

/** Who wrote a letter or a declaration: "From: M. Sobczak" opening it, "Yours faithfully, M. Sobczak, Director" signing it. */
const FROM_LINE = /^from:\s*(.+)$/i;
const VALEDICTION =
  /\b(?:[Yy]ours (?:faithfully|sincerely|truly)|(?:[Kk]ind |[Bb]est )?[Rr]egards),?\s+(\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*){0,5})/u;
const SIGN_OFF =
  /^(?:(?:yours (?:faithfully|sincerely|truly)|(?:kind |best )?regards|sincerely|signed)[,:]?\s*)?(\p{Lu}[\p{L}'’.-]*(?:\s+\p{Lu}[\p{L}'’.-]*){0,5}),\s*[\p{L} ,&'’.-]{2,60}$/u;

/**
 * The passages of `text` told of a party: each sentence naming parties, with the unnamed sentences after it that
 * speak of "he" or "she"; a sentence about a group, for everyone named just before. Last, what is told of no one in
 * particular (a heading, "I …", "we …", a general rule), which may be of any party: a passage naming none.
 */
function passagesOf(text: string, keys: Map<string, number[]>): Passage[] {
  const out: Passage[] = [];
  const anyone: Passage = { parties: new Set(), stems: new Set(), figures: new Set() };
  let carried = 0;
  for (const sentence of splitSentences(text)) {
    const ws = words(sentence);
    const parties = partiesIn(ws, keys);
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
    const targets = GROUP.test(sentence) ? out.slice(-GROUP_REACH) : PERSONAL.test(sentence) && carried < CARRY ? out.slice(-1) : [];
    for (const p of targets.length ? targets : [anyone]) {
      for (const s of stems) p.stems.add(s);
      for (const f of figures) p.figures.add(f);
    }
    carried++;
  }
  // A letter or declaration is told by the one who signs it (a line of its own: "M. Sobczak, Director").
  const lines = text.split(/\n+/).map((l) => l.trim());
  const signed = [
    FROM_LINE.exec(lines[0] ?? "")?.[1],
    VALEDICTION.exec(text)?.[1],
    ...lines.filter((l) => words(l).length <= 10).map((l) => SIGN_OFF.exec(l)?.[1]),
  ];
  const signer = new Set(signed.flatMap((name) => (name ? [...partiesIn(words(name), keys)] : [])));
  if (signer.size === 1)
    out.push({
      parties: signer,
      stems: new Set([...out, anyone].flatMap((p) => [...p.stems])),
      figures: new Set([...out, anyone].flatMap((p) => [...p.figures])),
      authored: true,
    });
  return [...out, anyone];
}

/** The parties the capitalised words of a text mention. */
function partiesIn(ws: ReturnType<typeof words>, keys: Map<string, number[]>): Set<number> {
  const parties = new Set<number>();
  for (const w of ws) if (w.capitalised) for (const p of keys.get(w.lower) ?? []) parties.add(p);
  return parties;
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
