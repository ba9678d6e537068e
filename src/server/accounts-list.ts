/**
 * GET /api/cli/accounts (`replyd accounts`): every account the server serves, each with what
 * health says of it in short — its callback, counts, indexes, message log, platform link, model
 * and newest backup. The server's, not an account's: a key bound to one account may not ask.
 */
import type { AppContext } from "./context.ts";

export async function accountsList(contexts: ReadonlyMap<string, AppContext>) {
  const items = [];
  for (const ctx of contexts.values()) {
    const a = ctx.read.articles.counts();
    const c = ctx.read.content.counts();
    items.push({
      name: ctx.account,
      callback: ctx.callbackPath,
      callback_configured: ctx.callbackConfigured(),
      callback_encryption: ctx.callbackEncryption(),
      counts: { articles_live: a.live, articles_deleted: a.deleted, tags: c.tags, rules: c.rules, texts: c.texts, synonyms: c.synonyms },
      search_index: ctx.read.articles.index.searchIndexComplete ? "ready" : "rebuilding",
      passage_index: ctx.read.articles.index.indexComplete ? "ready" : "rebuilding",
      message_log: ctx.write.log.backlog,
      platform: ctx.platform ? ctx.platform.status : { link: "not configured" },
      generated_answers: ctx.generator ? "configured" : "not configured",
      regex_rules_disabled: ctx.regex.disabled(),
      newest_backup: await ctx.write.newestBackup(),
    });
  }
  return { accounts: items };
}
