import type { ArticleInput } from "../article.ts";
import { ID_PATTERN } from "../article.ts";
import { InvalidDocumentError, ProblemList } from "../errors.ts";

/**
 * Ids and codes of a bulk write's records: every record gets an id (its own, the id of the live
 * article that has its code, or a new one), and the codes the write leaves must stay unique.
 */

/** Gives every record an id: its own, the id of the live article with its code (`liveIdOf`), or a new one. */
export function resolveIds(
  records: ArticleInput[],
  matchByCode: boolean,
  taken: Set<string>,
  liveIdOf: (code: string) => string | undefined,
): (ArticleInput & { id: string })[] {
  // The set of ids in use is only needed to mint new ones; most documents carry every id.
  let used: Set<string> | null = null;
  return records.map((r) => {
    if (r.id) return r as ArticleInput & { id: string };
    if (matchByCode && r.code) {
      const live = liveIdOf(r.code);
      if (live) return { ...r, id: live };
    }
    if (!used) {
      used = new Set(taken);
      for (const x of records) if (x.id) used.add(x.id);
    }
    const id = newArticleId(r.code ?? null, used);
    used.add(id);
    return { ...r, id };
  });
}

/** After the write, live codes must still be unique: the document is checked against the articles it leaves in place. */
export function checkCodes(records: (ArticleInput & { id: string })[], liveCodes: Map<string, string>): void {
  // Nothing outside the document holds a code: its own duplicates were refused when it was validated.
  if (liveCodes.size === 0) return;
  const touched = new Set(records.map((r) => r.id));
  const owner = new Map<string, string>();
  for (const [code, id] of liveCodes) if (!touched.has(id)) owner.set(code, id);
  const problems = new ProblemList();
  records.forEach((r, index) => {
    if (!r.code || r.deleted) return;
    const key = r.code.toLowerCase();
    const other = owner.get(key);
    if (other !== undefined && other !== r.id)
      problems.push({ section: "articles", index, field: "code", reason: `"${r.code}" is already the code of live article "${other}"` });
    else owner.set(key, r.id);
  });
  if (problems.length) throw new InvalidDocumentError(problems);
}

/** A readable id from the code when it fits and is free, otherwise a random one. */
export function newArticleId(code: string | null, used: Set<string>): string {
  const fromCode = code?.toLowerCase();
  if (fromCode && ID_PATTERN.test(fromCode) && !used.has(fromCode)) return fromCode;
  for (;;) {
    const id = "a" + Array.from(crypto.getRandomValues(new Uint8Array(9)), (b) => (b % 36).toString(36)).join("");
    if (!used.has(id)) return id;
  }
}
