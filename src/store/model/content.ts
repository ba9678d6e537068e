import type { Database } from "bun:sqlite";
import type { Menu } from "../../doc/menu.ts";
import { TEXT_KEYS, type Rule, type Tags, type TextKey, type Texts } from "../../doc/rule.ts";
import type { SynonymGroup } from "../../doc/synonyms.ts";
import { storedSynonyms, writeSynonyms } from "./synonyms.ts";
import type { StoredMenu } from "../read-model.ts";
import type { RuleMerge } from "../writer.ts";

export type { RuleMerge, StoredMenu };


/**
 * Tags, rules, texts, the menu and the synonyms: small tables read whole and replaced or merged whole. Every follower
 * message needs them, so reads are cached; every write goes through here and drops the cache
 * (also when its transaction later rolls back: the next read simply reloads).
 */

/** Rules merged by id (the same on every store): same id replaced where it stands, new ids appended in document order. */
export function mergeRuleList(current: readonly Rule[], incoming: readonly Rule[]): RuleMerge & { rules: Rule[] } {
  const rules = [...current];
  const index = new Map(rules.map((r, i) => [r.id, i]));
  let added = 0,
    updated = 0,
    unchanged = 0;
  for (const rule of incoming) {
    const at = index.get(rule.id);
    if (at === undefined) {
      index.set(rule.id, rules.length);
      rules.push(rule);
      added++;
    } else if (JSON.stringify(rules[at]) === JSON.stringify(rule)) unchanged++;
    else {
      rules[at] = rule;
      updated++;
    }
  }
  return { rules, added, updated, unchanged };
}

export class ContentRepo {
  private cache: { tags?: Tags; rules?: Rule[]; texts?: Texts; menu?: StoredMenu | null; synonyms?: SynonymGroup[] } = {};
  /** Moves on every write of the rules (an import of unchanged rules too): the operator acted on them. */
  rulesVersion = 0;

  constructor(private readonly db: Database) {}

  private changed(): void {
    this.cache = {};
  }

  tags(): Tags {
    return (this.cache.tags ??= this.loadTags());
  }

  private loadTags(): Tags {
    const out: Tags = {};
    for (const r of this.db.query("SELECT tag, description FROM tags ORDER BY tag").all() as { tag: string; description: string }[])
      out[r.tag] = r.description;
    return out;
  }

  mergeTags(tags: Tags): void {
    this.changed();
    const stmt = this.db.query("INSERT INTO tags (tag, description) VALUES (?, ?) ON CONFLICT(tag) DO UPDATE SET description = excluded.description");
    for (const [tag, desc] of Object.entries(tags)) stmt.run(tag, desc);
  }

  /** Removes the descriptions of `tags`; those that had one, in the order given. */
  removeTags(tags: readonly string[]): string[] {
    const stmt = this.db.query("DELETE FROM tags WHERE tag = ? RETURNING tag");
    const removed = tags.filter((tag) => stmt.all(tag).length > 0);
    if (removed.length) this.changed();
    return removed;
  }

  replaceTags(tags: Tags): void {
    this.changed();
    this.db.run("DELETE FROM tags");
    this.mergeTags(tags);
  }

  rules(): Rule[] {
    return (this.cache.rules ??= this.loadRules());
  }

  private loadRules(): Rule[] {
    return (this.db.query("SELECT body FROM rules ORDER BY position").all() as { body: string }[]).map((r) => JSON.parse(r.body) as Rule);
  }

  replaceRules(rules: Rule[]): void {
    this.changed();
    this.rulesVersion++;
    this.db.run("DELETE FROM rules");
    const stmt = this.db.query("INSERT INTO rules (id, position, body) VALUES (?, ?, ?)");
    rules.forEach((rule, i) => stmt.run(rule.id, i, JSON.stringify(rule)));
  }

  /** Same id: replaced where it stands. New ids: appended in document order. */
  mergeRules(incoming: Rule[]): RuleMerge {
    this.rulesVersion++;
    const merged = mergeRuleList(this.rules(), incoming);
    if (merged.added || merged.updated) this.replaceRules(merged.rules);
    return { added: merged.added, updated: merged.updated, unchanged: merged.unchanged };
  }

  texts(): Texts {
    return (this.cache.texts ??= this.loadTexts());
  }

  private loadTexts(): Texts {
    const out: Texts = {};
    for (const r of this.db.query("SELECT key, value FROM texts").all() as { key: string; value: string }[])
      if ((TEXT_KEYS as readonly string[]).includes(r.key)) out[r.key as TextKey] = r.value;
    // Stable key order so documents written from the same data hash the same.
    return Object.fromEntries(TEXT_KEYS.filter((k) => out[k] !== undefined).map((k) => [k, out[k]])) as Texts;
  }

  mergeTexts(texts: Texts): void {
    this.changed();
    const stmt = this.db.query("INSERT INTO texts (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value");
    for (const [k, v] of Object.entries(texts)) stmt.run(k, v);
  }

  replaceTexts(texts: Texts): void {
    this.changed();
    this.db.run("DELETE FROM texts");
    this.mergeTexts(texts);
  }

  /** The stored menu, when there is one. */
  menu(): StoredMenu | null {
    if (this.cache.menu !== undefined) return this.cache.menu;
    const row = this.db.query("SELECT body, updated_at, pushed_at FROM menu WHERE id = 1").get() as { body: string; updated_at: string; pushed_at: string | null } | null;
    return (this.cache.menu = row ? { menu: JSON.parse(row.body) as Menu, updated_at: row.updated_at, pushed_at: row.pushed_at } : null);
  }

  /**
   * Stores the menu (null: removes it). The same menu stored again keeps its times; a changed one
   * counts as not pushed until `pushedAt` says the platform has it.
   */
  setMenu(menu: Menu | null, now: string, pushedAt: string | null = null): void {
    this.changed();
    if (menu === null) return void this.db.run("DELETE FROM menu");
    const body = JSON.stringify(menu);
    const current = this.db.query("SELECT body, pushed_at FROM menu WHERE id = 1").get() as { body: string; pushed_at: string | null } | null;
    if (current?.body === body) {
      if (pushedAt) this.db.run("UPDATE menu SET pushed_at = ? WHERE id = 1", [pushedAt]);
      return;
    }
    this.db.run(
      "INSERT INTO menu (id, body, updated_at, pushed_at) VALUES (1, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at, pushed_at = excluded.pushed_at",
      [body, now, pushedAt],
    );
  }

  /** The menu exactly as another store holds it, times included (a read copy catching up). */
  putMenuExact(stored: StoredMenu | null): void {
    this.changed();
    this.db.run("DELETE FROM menu");
    if (stored) this.db.run("INSERT INTO menu (id, body, updated_at, pushed_at) VALUES (1, ?, ?, ?)", [JSON.stringify(stored.menu), stored.updated_at, stored.pushed_at]);
  }

  /** The operator's synonyms (src/doc/synonyms.ts), as groups of phrases. */
  synonyms(): SynonymGroup[] {
    return (this.cache.synonyms ??= storedSynonyms(this.db));
  }

  /**
   * Replaces the synonyms. The passage index is filed with them: the caller rebuilds it in the same
   * transaction (ArticleIndex.refilePassages, or a bulk write: Model.writeArticles).
   */
  replaceSynonyms(groups: readonly SynonymGroup[]): void {
    this.changed();
    writeSynonyms(this.db, groups);
  }

  counts(): { tags: number; rules: number; texts: number; synonyms: number } {
    return { tags: Object.keys(this.tags()).length, rules: this.rules().length, texts: Object.keys(this.texts()).length, synonyms: this.synonyms().length };
  }
}
