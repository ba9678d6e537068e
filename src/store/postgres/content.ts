import type { TransactionSQL } from "bun";
import type { Menu } from "../../doc/menu.ts";
import type { Rule, Tags, Texts } from "../../doc/rule.ts";
import type { SynonymGroup } from "../../doc/synonyms.ts";
import { mergeRuleList, type RuleMerge } from "../model/content.ts";

/**
 * Tags, rules, texts, the menu and the synonyms in PostgreSQL, with the SQLite store's semantics
 * (content.ts). Every change moves content_gen, inside the writer's transaction: read copies reload
 * them whole (and rebuild their passage index when the synonyms changed: replica.ts).
 */
export const contentChanged = (tx: TransactionSQL) => tx`UPDATE meta SET value = (value::bigint + 1)::text WHERE key = 'content_gen'`;

export async function mergeTags(tx: TransactionSQL, tags: Tags): Promise<void> {
  for (const [tag, description] of Object.entries(tags))
    await tx`INSERT INTO tags (tag, description) VALUES (${tag}, ${description}) ON CONFLICT (tag) DO UPDATE SET description = excluded.description`;
  await contentChanged(tx);
}

/** Removes the descriptions of `tags`; those that had one, in the order given. */
export async function removeTags(tx: TransactionSQL, tags: readonly string[]): Promise<string[]> {
  const gone = new Set(((await tx`DELETE FROM tags WHERE tag = ANY(${[...tags]}::text[]) RETURNING tag`) as { tag: string }[]).map((r) => r.tag));
  if (gone.size) await contentChanged(tx);
  return tags.filter((t) => gone.has(t));
}

export async function replaceTags(tx: TransactionSQL, tags: Tags): Promise<void> {
  await tx`DELETE FROM tags`;
  await mergeTags(tx, tags);
}

export async function rules(tx: TransactionSQL): Promise<Rule[]> {
  return ((await tx`SELECT body FROM rules ORDER BY position`) as { body: string }[]).map((r) => JSON.parse(r.body) as Rule);
}

export async function replaceRules(tx: TransactionSQL, list: readonly Rule[]): Promise<void> {
  await tx`DELETE FROM rules`;
  for (const [i, rule] of list.entries()) await tx`INSERT INTO rules (id, position, body) VALUES (${rule.id}, ${i}, ${JSON.stringify(rule)})`;
  await contentChanged(tx);
}

export async function mergeRules(tx: TransactionSQL, incoming: readonly Rule[]): Promise<RuleMerge> {
  const merged = mergeRuleList(await rules(tx), incoming);
  if (merged.added || merged.updated) await replaceRules(tx, merged.rules);
  // The operator acted on the rules even when nothing changed: read copies reload them.
  else await contentChanged(tx);
  return { added: merged.added, updated: merged.updated, unchanged: merged.unchanged };
}

export async function mergeTexts(tx: TransactionSQL, texts: Texts): Promise<void> {
  for (const [key, value] of Object.entries(texts))
    await tx`INSERT INTO texts (key, value) VALUES (${key}, ${value as string}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
  await contentChanged(tx);
}

export async function replaceTexts(tx: TransactionSQL, texts: Texts): Promise<void> {
  await tx`DELETE FROM texts`;
  await mergeTexts(tx, texts);
}

/** The menu (null: removed). The same menu stored again keeps its times; a changed one is not pushed until `pushedAt` says so. */
export async function setMenu(tx: TransactionSQL, menu: Menu | null, now: string, pushedAt: string | null = null): Promise<void> {
  await contentChanged(tx);
  if (menu === null) return void (await tx`DELETE FROM menu`);
  const body = JSON.stringify(menu);
  const [current] = (await tx`SELECT body FROM menu WHERE id = 1`) as { body: string }[];
  if (current?.body === body) {
    if (pushedAt) await tx`UPDATE menu SET pushed_at = ${pushedAt} WHERE id = 1`;
    return;
  }
  await tx`INSERT INTO menu (id, body, updated_at, pushed_at) VALUES (1, ${body}, ${now}, ${pushedAt})
           ON CONFLICT (id) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at, pushed_at = excluded.pushed_at`;
}

export async function synonyms(tx: TransactionSQL): Promise<SynonymGroup[]> {
  return ((await tx`SELECT phrases FROM synonyms ORDER BY position`) as { phrases: string }[]).map((r) => JSON.parse(r.phrases) as SynonymGroup);
}

export async function replaceSynonyms(tx: TransactionSQL, groups: readonly SynonymGroup[]): Promise<void> {
  await tx`DELETE FROM synonyms`;
  for (const [i, group] of groups.entries()) await tx`INSERT INTO synonyms (position, phrases) VALUES (${i}, ${JSON.stringify(group)})`;
  await contentChanged(tx);
}
