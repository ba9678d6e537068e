/**
 * The operator's synonyms as the read model keeps them (src/doc/synonyms.ts): one row a group, and a
 * version in meta that moves with every write, so that the search worker, on a connection of its
 * own, reads them again before it ranks the next question with them. The passage index is built
 * with them (passage-index.ts): whoever writes them rebuilds it in the same transaction
 * (ArticleIndex.refilePassages, or Model.writeArticles in bulk).
 */
import type { Database } from "bun:sqlite";
import { SynonymTable } from "../../ranking/synonyms.ts";
import { termsOf } from "../../ranking/words.ts";
import type { SynonymGroup } from "../../doc/synonyms.ts";

export function storedSynonyms(db: Database): SynonymGroup[] {
  return (db.query("SELECT phrases FROM synonyms ORDER BY position").all() as { phrases: string }[]).map((r) => JSON.parse(r.phrases) as SynonymGroup);
}

export function writeSynonyms(db: Database, groups: readonly SynonymGroup[]): void {
  db.run("DELETE FROM synonyms");
  const insert = db.query("INSERT INTO synonyms (position, phrases) VALUES (?, ?)");
  groups.forEach((g, i) => insert.run(i, JSON.stringify(g)));
  db.run("INSERT INTO meta (key, value) VALUES ('synonyms_version', '1') ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1");
}

/** Moves whenever the synonyms are written. */
export function synonymsVersion(db: Database): string {
  return (db.query("SELECT value FROM meta WHERE key = 'synonyms_version'").get() as { value: string } | null)?.value ?? "0";
}

/** The table the ranking applies (null: there are no synonyms). */
export const synonymTableIn = (db: Database): SynonymTable | null => SynonymTable.of(storedSynonyms(db), termsOf);
