/**
 * A sheet's tag column holding the tags' names (下单, "App & account") rather than keys: said once,
 * each name with a key to give it and the document that gives the names as descriptions — not a
 * line per row all suggesting t1 (a grocery's walkthrough: 27 lines for 8 names). Keys stay the
 * operator's: the sheet's order would number them anew on every import.
 */
import { TAG_PATTERN } from "../article/text-rules.ts";

/** Names listed with their lines, at most; the rest counted. */
const NAMED = 12;

/** The per-row problem of a tag name given as a key (article/fields.ts tagProblem), as the CSV's lines tell it: replaced by the summary. */
export const TAG_NAME_LINE = /: tag(?: \(column [^)]*\))?: must match \[a-z0-9\]\{1,16\}: a short Latin key of your choosing/;

/** The summary of the tag names a sheet gives as keys, and a line per name with its rows; null when it gives none. */
export function tagNames(records: readonly Record<string, unknown>[], lines: readonly number[], column: string): string[] | null {
  const names = new Map<string, number[]>();
  records.forEach((r, i) => {
    const tag = r.tag;
    // A key in other case ("Billing") is told per row, with its lower case: no key to choose.
    if (typeof tag !== "string" || TAG_PATTERN.test(tag) || TAG_PATTERN.test(tag.toLowerCase())) return;
    const at = names.get(tag) ?? [];
    at.push(lines[i] ?? i + 2);
    names.set(tag, at);
  });
  if (!names.size) return null;
  // Keys the sheet's other rows use already are not suggested: following the advice would merge two tags (a review).
  const used = new Set(records.map((r) => r.tag).filter((t): t is string => typeof t === "string" && TAG_PATTERN.test(t)));
  let n = 0;
  const nextKey = () => {
    for (;;) {
      const key = `t${++n}`;
      if (!used.has(key)) return key;
    }
  };
  const keyed = [...names.keys()].map((name) => [nextKey(), name] as const);
  const rows = [...names.values()].reduce((s, l) => s + l.length, 0);
  // Every name in the document, however many are listed: copied, it gives them all.
  const example = JSON.stringify({ format: "replyd/1", matter: "articles", articles: [], tags: Object.fromEntries(keyed) });
  const rowsOf = (n: string) => names.get(n) as number[];
  return [
    `tag${column}: ${rows} row${rows === 1 ? " gives a tag's name" : "s give tags' names"}, not keys (${names.size} name${names.size === 1 ? "" : "s"}): a tag's key is a short Latin word of your choosing ([a-z0-9]{1,16}), its name the description a follower sends to have it listed. Write a key in the column for each name (${keyed.slice(0, NAMED).map(([k, n]) => `${JSON.stringify(n)} → ${k}`).join(", ")}${keyed.length > NAMED ? `, and ${keyed.length - NAMED} more` : ""}), and import the names with their keys once, as a document: ${example}`,
    ...keyed.slice(0, NAMED).map(([, n]) => `  ${JSON.stringify(n)}: line${rowsOf(n).length === 1 ? "" : "s"} ${rowsOf(n).slice(0, 8).join(", ")}${rowsOf(n).length > 8 ? " …" : ""}`),
  ];
}
