/**
 * The operator's synonyms as the ranking applies them (docs/answers.md "Synonyms"): wherever the
 * terms of one of a group's phrases stand in a text's terms, the group's one term is added after
 * them — in questions and in articles alike, so "Visa" in a question finds an article that says
 * "credit card", and 人工 finds 客服. A phrase is matched on its terms (words.ts), so case, width,
 * plurals and filler words between are read as they are everywhere else: "credit cards" is
 * "credit card". Where two phrases could start at one place, the longer wins.
 *
 * The one hook: termsOf (words.ts) hands every text's terms to canonicalTerms, which applies the
 * table in force — the one the store indexes or ranks with (withSynonyms), none anywhere else. The
 * table is in force only during the synchronous call that set it, so two stores in one process
 * (tests, a cluster's instances) never see each other's.
 */

/** The phrases as a trie of their terms: where a phrase ends, the term its group stands for. */
interface Node {
  next: Map<string, Node>;
  canonical?: string;
}

export class SynonymTable {
  private readonly root: Node = { next: new Map() };
  /** Groups that took part (a group whose phrases are all filler has none). */
  readonly groups: number;

  private constructor(groups: readonly (readonly (readonly string[])[])[], names: readonly string[]) {
    let used = 0;
    groups.forEach((phrases, g) => {
      let any = false;
      for (const terms of phrases) {
        if (!terms.length) continue;
        let node = this.root;
        for (const t of terms) {
          let child = node.next.get(t);
          if (!child) node.next.set(t, (child = { next: new Map() }));
          node = child;
        }
        // A phrase that reads the same as an earlier one (Wi-Fi, wi fi) counts for the first group that has it.
        if (node.canonical !== undefined) continue;
        node.canonical = names[g] as string;
        any = true;
      }
      if (any) used++;
    });
    this.groups = used;
  }

  /**
   * The table of `groups` (each its phrases as written), each phrase read into terms by `termsOf`
   * with no table in force. Each group's term is `syn_` and its first phrase's letters and digits
   * (`syn_credit_card`, `syn_人工`): an underscore no word holds, so it is never a word of the text,
   * and what `replyd ask` shows says which group it is. Null when there are none.
   */
  static of(groups: readonly (readonly string[])[], termsOf: (text: string) => string[]): SynonymTable | null {
    if (!groups.length) return null;
    const names = new Set<string>();
    const canonical = groups.map((phrases) => {
      const runs = (phrases[0] ?? "").normalize("NFKC").toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
      const base = `syn_${runs.join("_") || "group"}`;
      let name = base;
      for (let n = 2; names.has(name); n++) name = `${base}_${n}`;
      names.add(name);
      return name;
    });
    const terms = withSynonyms(null, () => groups.map((phrases) => phrases.map((p) => termsOf(p))));
    return new SynonymTable(terms, canonical);
  }

  /**
   * `terms` with each phrase of the table followed by its group's term, the longest one that starts
   * at a place first; the same array when none stands in it. The phrase's own terms stay: a group's
   * one term in their place had weighed a word of seven terms (核磁共振: its characters and pairs)
   * as one, so the article saying it as the follower did scored a quarter of what it had without
   * the group (score 20.8 → 5.5 in a hospital's account), and "做MRI要多久", alone before, got a
   * list. `replaced`: the group's term alone, where what counts is that two texts say the same. Each place costs a walk down the trie as far as the text follows it: at most the longest
   * phrase's terms, whatever the count of phrases.
   */
  apply(terms: string[], phrases: "kept" | "replaced" = "kept"): string[] {
    let out: string[] | null = null;
    for (let i = 0; i < terms.length; ) {
      const { found, length } = this.longestAt(terms, i);
      if (found !== undefined) {
        out ??= terms.slice(0, i);
        if (phrases === "kept") out.push(...terms.slice(i, i + length));
        out.push(found);
        i += length;
      } else {
        out?.push(terms[i] as string);
        i++;
      }
    }
    return out ?? terms;
  }

  /** The group's term of the longest phrase of the table that starts at `terms[i]`, and how many terms it takes (0: none). */
  private longestAt(terms: readonly string[], i: number): { found: string | undefined; length: number } {
    let node = this.root.next.get(terms[i] as string);
    let found: string | undefined;
    let length = 0;
    for (let j = i + 1; node; j++) {
      if (node.canonical !== undefined) {
        found = node.canonical;
        length = j - i;
      }
      node = j < terms.length ? node.next.get(terms[j] as string) : undefined;
    }
    return { found, length };
  }

  /**
   * For each of `terms`, the group's term of the phrase covering it as apply() would replace it
   * (undefined where none does): how words.ts placesOf finds which places of a question a group
   * holds.
   */
  cover(terms: readonly string[]): (string | undefined)[] {
    const out: (string | undefined)[] = new Array(terms.length).fill(undefined);
    for (let i = 0; i < terms.length; ) {
      const { found, length } = this.longestAt(terms, i);
      if (found !== undefined) {
        out.fill(found, i, i + length);
        i += length;
      } else i++;
    }
    return out;
  }
}

let current: SynonymTable | null = null;

/** The table in force (null: none): what the terms of a text are made with. */
export const synonymsInForce = (): SynonymTable | null => current;

/** The terms of a text with the table in force applied (words.ts termsOf calls it on every text). */
export const canonicalTerms = (terms: string[]): string[] => (current ? current.apply(terms) : terms);

/** The terms of a text with each phrase of the table in force as its group's term alone (words.ts meaningTerms). */
export const groupedTerms = (terms: string[]): string[] => (current ? current.apply(terms, "replaced") : terms);

/** For each of `terms`, the group covering it in the table in force (null: no table in force). */
export const synonymCover = (terms: readonly string[]): (string | undefined)[] | null => (current ? current.cover(terms) : null);

/** Runs `fn` with `table` in force (null: none), synchronously; the table before is in force again after. */
export function withSynonyms<T>(table: SynonymTable | null, fn: () => T): T {
  const before = current;
  current = table;
  try {
    return fn();
  } finally {
    current = before;
  }
}
