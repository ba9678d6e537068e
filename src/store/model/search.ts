/**
 * Follower search: the live article that best matches a follower's words, in bounded work whatever
 * the words are. No query reads more than SEARCH_LIMITS.candidates index entries, and the scan of
 * articles an index rebuild has not reached yet reads at most SEARCH_LIMITS.tailRows rows: a flood
 * of the costliest messages costs each of them a bounded amount (measured in docs/performance.md).
 * It runs on the search worker's own connection (searcher.ts), never on the event loop.
 *
 * Candidates come from an index: the trigram index over title, keywords and description when every
 * word has three or more characters, otherwise the short-word index (grams.ts) over title and
 * keywords. While the indexes are rebuilt after a bulk write, the articles not yet indexed are
 * scanned too, up to tailRows of them. The candidates are checked (every word must occur) and
 * scored alike: per word 10 for the title, 5 for the keywords, 1 for the description; then the
 * shorter title, then the id. (FTS5's bm25 is not used: it counts each word's documents over the
 * whole index, which for a common word is a scan of a million entries.) A word that matches more
 * than `candidates` articles is ranked among the first `candidates` it matches.
 */
import type { Database } from "bun:sqlite";
import { termGrams } from "./grams.ts";
import { rebuildState } from "./rebuild-marker.ts";

export const SEARCH_LIMITS = {
  /** Words of a message that take part. */
  terms: 8,
  /** Index entries read per search. */
  candidates: 512,
  /** Articles not yet indexed that one search scans. */
  tailRows: 20_000,
} as const;

/** A LIKE pattern matching `word` anywhere, with % _ \\ matching themselves (use with ESCAPE '\\'). */
export const containing = (word: string) => "%" + word.replace(/[\\%_]/g, (c) => "\\" + c) + "%";

/** The words that take part: lower-cased, each once, at most SEARCH_LIMITS.terms. */
export function searchTerms(words: readonly string[]): string[] {
  return [...new Set(words.map((w) => w.trim().toLowerCase()).filter(Boolean))].slice(0, SEARCH_LIMITS.terms);
}

const quoted = (token: string) => `"${token.replace(/"/g, '""')}"`;
const long = (t: string) => [...t].length >= 3;

/** Where a rebuild of the search indexes stands: articles with seq above it are not in them yet (null: all are; a rebuild of the passage index alone leaves them whole). */
function pendingFrom(db: Database): number | null {
  const state = rebuildState(db);
  return state && !state.passagesOnly ? state.from : null;
}

/**
 * A Latin word of two characters ("hi", "ok", "tv"; one is dropped before) is found as a word — or
 * its plural ("tvs") — not inside one: a follower's "hi" found "Children's bikes" and "ok" found
 * "How to book a repair", each sent as the answer. Longer words and Chinese are found anywhere in
 * the text, as before. Its candidates are still the first `candidates` holding its two letters
 * anywhere: on an account where hundreds of titles hold them inside words, the one holding the word
 * may be past them (the fallback text then, as for any word past the candidates).
 */
export const wholeWordOnly = (term: string): boolean => /^[a-z0-9]{1,2}$/.test(term);
/** The GLOB patterns that find `term`, or its plural, as a word in a text padded with a space on each side. */
const asWord = (term: string) => [`*[^a-z0-9]${term}[^a-z0-9]*`, `*[^a-z0-9]${term}s[^a-z0-9]*`];

/** The score and the every-word condition over these columns, with one pattern per column and word (a LIKE, or a GLOB for a short Latin word). */
function scored(terms: string[], withDescription: boolean): { score: string; every: string; args: string[] } {
  const cols = withDescription ? ["title", "keyword_text", "description"] : ["title", "keyword_text"];
  const weights = [10, 5, 1];
  const test = (t: string, c: string) => (wholeWordOnly(t) ? `((' ' || lower(a.${c}) || ' ') GLOB ? OR (' ' || lower(a.${c}) || ' ') GLOB ?)` : `lower(a.${c}) LIKE ? ESCAPE '\\'`);
  const score = terms.map((t) => "(" + cols.map((c, i) => `CASE WHEN ${test(t, c)} THEN ${weights[i]} ELSE 0 END`).join(" + ") + ")").join(" + ");
  const every = terms.map((t) => "(" + cols.map((c) => test(t, c)).join(" OR ") + ")").join(" AND ");
  return { score, every, args: terms.flatMap((t) => cols.flatMap(() => (wholeWordOnly(t) ? asWord(t) : [containing(t)]))) };
}

/** Ids of the best live articles for these words, best first. */
export function findArticles(db: Database, words: readonly string[], limit = 1): string[] {
  // A word of marks alone ("???", "---") is no token of either index: its query would be empty, an error (a review: "s x ---").
  let terms = searchTerms(words).filter((t) => /[\p{L}\p{N}]/u.test(t));
  const allLong = terms.length > 0 && terms.every(long);
  // Short words that the short-word index cannot look up (a single Latin letter) say nothing: dropped.
  if (!allLong) terms = terms.filter((t) => long(t) || termGrams(t).length > 0);
  if (!terms.length) return [];
  const pending = pendingFrom(db);
  const [index, match] = allLong
    ? ["articles_fts", terms.map(quoted).join(" AND ")]
    : ["articles_grams", terms.flatMap(termGrams).map(quoted).join(" AND ")];
  const tail = pending === null ? "" : ` UNION SELECT seq FROM (SELECT seq FROM articles WHERE seq > ? ORDER BY seq LIMIT ${SEARCH_LIMITS.tailRows})`;
  const { score, every, args } = scored(terms, allLong);
  const sql = `SELECT a.id, ${score} AS score
               FROM (SELECT seq FROM (SELECT rowid AS seq FROM ${index} WHERE ${index} MATCH ? LIMIT ${SEARCH_LIMITS.candidates})${tail}) c
               JOIN articles a ON a.seq = c.seq
               WHERE a.deleted = 0 AND ${every} ORDER BY score DESC, length(a.title), a.id LIMIT ?`;
  const params: (string | number)[] = [...args, match, ...(pending === null ? [] : [pending]), ...args, limit];
  return (db.query(sql).all(...params) as { id: string }[]).map((r) => r.id);
}
