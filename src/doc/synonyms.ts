/**
 * The operator's synonyms (docs/data.md "Synonyms"): groups of phrases that mean the same to the
 * account's followers — `[["Visa", "credit card"], ["人工", "客服"]]`. A document's `synonyms`
 * section is checked here, as rules are in rule.ts; the ranking applies them
 * (src/ranking/synonyms.ts), to questions and articles alike.
 *
 * A phrase is compared as a follower's text is read: case and width folded ("VISA", "Ｖｉｓａ" and
 * "visa" are one phrase), so no phrase may stand in two groups, nor twice in one. Whether a phrase
 * holds a word the ranking reads is not checked: the ranking's filler words may grow, and a document
 * valid once stays valid (a phrase made only of filler, "the", simply matches nothing).
 */
import { charLength, NO_CONTROL, unprintable } from "../article/text-rules.ts";
import { InvalidDocumentError, type Problem } from "../base/errors.ts";

/** A group's phrases, in the order the operator wrote them; the first names the group. */
export type SynonymGroup = string[];

/**
 * At most 1,000 groups of 2–20 phrases of 1–64 characters, and 20,000 characters of phrases in all —
 * in a document and in what the store keeps once an import is merged in: the table built from them
 * (src/ranking/synonyms.ts) grows with their characters (a Han phrase gives a term per character and
 * per pair), so that is what is bounded.
 */
export const SYNONYM_LIMITS = { groups: 1000, phrases: 20, phrase: 64, characters: 20_000 } as const;

/** A phrase as kept: trimmed, each run of white space one space. */
const phraseForm = (p: string) => p.trim().replace(/\s+/g, " ");
/** A phrase as compared: its kept form, width and case folded. */
export const phraseKey = (p: string) => phraseForm(p).normalize("NFKC").toLowerCase();

/** Checks a document's `synonyms` section: every problem, or the groups as kept. */
export function validateSynonyms(raw: unknown): { value?: SynonymGroup[]; problems: Problem[] } {
  const problems: Problem[] = [];
  const at = (index: number | undefined, field: string, reason: string) => problems.push({ section: "synonyms", ...(index !== undefined ? { index } : {}), field, reason });
  if (!Array.isArray(raw)) {
    at(undefined, "synonyms", 'must be an array of groups, each an array of 2 or more phrases: [["Visa", "credit card"]]');
    return { problems };
  }
  if (raw.length > SYNONYM_LIMITS.groups) {
    at(undefined, "synonyms", `must have at most ${SYNONYM_LIMITS.groups} groups (it has ${raw.length})`);
    return { problems };
  }
  const groups: SynonymGroup[] = [];
  /** Each phrase's key, and the group it was first seen in. */
  const seen = new Map<string, number>();
  raw.forEach((group: unknown, index) => {
    if (!Array.isArray(group) || group.length < 2 || group.length > SYNONYM_LIMITS.phrases || group.some((p) => typeof p !== "string"))
      return void at(index, "(group)", `must be an array of 2–${SYNONYM_LIMITS.phrases} phrases (strings)`);
    const kept: string[] = [];
    for (const p of group as string[]) {
      const label = JSON.stringify(p.length > 40 ? `${p.slice(0, 40)}…` : p);
      // Before white space is folded: a vertical tab folded into a space would hide a control character.
      if (unprintable(p)) return void at(index, label, NO_CONTROL);
      const phrase = phraseForm(p);
      if (!phrase || charLength(phrase) > SYNONYM_LIMITS.phrase) return void at(index, label, `each phrase must be 1–${SYNONYM_LIMITS.phrase} characters`);
      const key = phraseKey(phrase);
      const first = seen.get(key);
      if (first !== undefined)
        return void at(index, label, first === index ? "stands twice in this group (case and width do not count)" : `is also in group ${first}: a phrase may stand in one group only (case and width do not count)`);
      seen.set(key, index);
      kept.push(phrase);
    }
    groups.push(kept);
  });
  const over = beyondLimits(groups);
  if (over) at(undefined, "synonyms", over);
  return problems.length ? { problems } : { value: groups, problems };
}

/** Why `groups` are past what the store may keep, or null. */
function beyondLimits(groups: readonly SynonymGroup[]): string | null {
  if (groups.length > SYNONYM_LIMITS.groups) return `must have at most ${SYNONYM_LIMITS.groups} groups (it has ${groups.length})`;
  const characters = groups.reduce((n, g) => n + g.reduce((m, p) => m + charLength(p), 0), 0);
  if (characters > SYNONYM_LIMITS.characters) return `must hold at most ${SYNONYM_LIMITS.characters} characters of phrases in all (it has ${characters})`;
  return null;
}

export interface SynonymMerge {
  added: number;
  updated: number;
  unchanged: number;
  /**
   * Phrases of stored groups in no group once the import is merged (the first DROPPED_SHOWN, then "and N more"): a
   * file imported again takes back a phrase added since ("抖音" added to a group by a synonyms
   * document, gone with the article file's older group), said so it is not lost unnoticed.
   */
  dropped?: string[];
}

const DROPPED_SHOWN = 20;

/**
 * An import's groups merged into the stored ones (the same on every store), as rules merge by id:
 * a group sharing a phrase with stored groups replaces them, where the first of them stood; one
 * equal to a stored group leaves it; one sharing no phrase is appended. Groups sharing none with
 * the document's are kept.
 */
export function mergeSynonymGroups(current: readonly SynonymGroup[], incoming: readonly SynonymGroup[]): SynonymMerge & { groups: SynonymGroup[] } {
  let groups: (SynonymGroup | null)[] = [...current];
  let added = 0;
  let updated = 0;
  let unchanged = 0;
  for (const group of incoming) {
    const keys = new Set(group.map(phraseKey));
    const overlapping = groups.flatMap((g, i) => (g && g.some((p) => keys.has(phraseKey(p))) ? [i] : []));
    const [first] = overlapping;
    if (first === undefined) {
      groups.push(group);
      added++;
    } else if (overlapping.length === 1 && sameGroup(groups[first] as SynonymGroup, group)) unchanged++;
    else {
      groups[first] = group;
      for (const i of overlapping.slice(1)) groups[i] = null;
      updated++;
    }
    groups = groups.filter((g) => g !== null);
  }
  // What the store would keep must be what a document may hold: else no backup of it could be restored.
  const over = beyondLimits(groups as SynonymGroup[]);
  if (over) throw new InvalidDocumentError([{ section: "synonyms", field: "synonyms", reason: `merged with the ${current.length} groups kept, the synonyms ${over}: remove groups (replyd restore a synonyms document) before adding more` }]);
  // In no group once every incoming group is merged (a phrase a later group of the file keeps is not dropped).
  const kept = new Set((groups as SynonymGroup[]).flat().map(phraseKey));
  const dropped = [...new Set(current.flat().filter((p) => !kept.has(phraseKey(p))))];
  const shown = dropped.length > DROPPED_SHOWN ? [...dropped.slice(0, DROPPED_SHOWN), `and ${dropped.length - DROPPED_SHOWN} more`] : dropped;
  return { groups: groups as SynonymGroup[], added, updated, unchanged, ...(dropped.length ? { dropped: shown } : {}) };
}

const sameGroup = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((p, i) => p === b[i]);

/** Whether two lists of groups are the same, phrase for phrase (a write that changes nothing rebuilds nothing). */
export const sameSynonyms = (a: readonly SynonymGroup[], b: readonly SynonymGroup[]) => a.length === b.length && a.every((g, i) => sameGroup(g, b[i] as SynonymGroup));
