/**
 * Health: what a signed GET /api/cli without a query answers (`replyd health`) — the server and the
 * account it is asked of as they are now, the state of its search and passage indexes among them.
 */
import { TEXT_KEYS } from "../doc/rule.ts";
import { VERSION } from "../base/version.ts";
import { deadToldCodes, ruleWarnings, tagWarnings } from "./write-warnings.ts";
import { numberedCodeClash } from "./numbered-clash.ts";
import { FALLBACK_BORROWERS, operatorText } from "../wechat/answering/texts.ts";
import type { SignedRequest } from "./auth.ts";
import type { AppContext } from "./context.ts";

/** `complete`: the index asked about (a rebuild of the passage index alone leaves the search index whole). */
const indexState = (ctx: AppContext, complete: boolean) =>
  !complete ? `rebuilding (${Math.floor(ctx.read.articles.index.indexProgress() * 100)}%)` : ctx.read.indexVerified === "checking" ? "checking" : "ready";

export async function health(ctx: AppContext, req: SignedRequest) {
  const now = ctx.clock.now();
  const texts = ctx.read.content.texts();
  const database = ctx.write.database?.();
  const cluster = ctx.cluster?.();
  const redis = (cluster as { redis?: { state?: string } } | undefined)?.redis;
  /**
   * What PostgreSQL answers — not asked while it is known to be down (an unreachable host answers
   * nothing until a timeout), null when it fails (health is read all the same); SQLite's as it is.
   */
  const unlessAway = async <T>(read: () => Promise<T>): Promise<T | null> =>
    ctx.write.kind !== "postgres" ? read() : database?.state === "down" ? null : read().catch(() => null);
  const a = ctx.read.articles.counts();
  const c = ctx.read.content.counts();
  return {
    // "degraded": followers are answered, but from what this instance holds (the database or the cluster's Redis away).
    status: database?.state === "down" || (redis && redis.state !== "up") ? "degraded" : "ok",
    version: VERSION,
    // The account this health is of (`default` on a server that declares none), and where its callback answers.
    account: ctx.account,
    callback: ctx.callbackPath,
    // Without a wx-token the callback answers 503 to everything: an account added without one says so here, not only in the log.
    callback_configured: ctx.callbackConfigured(),
    // plaintext, safe or compatible: which the console's 消息加解密方式 must be.
    callback_encryption: ctx.callbackEncryption(),
    // Where the data is kept: sqlite (the data folder) or postgres (--db), and its schema version.
    store: ctx.write.kind,
    schema: ctx.write.schema,
    // PostgreSQL: reached now, or down since when and why (the figures read from it are then null).
    ...(database ? { database } : {}),
    uptime_s: Math.round((now - ctx.startedAt) / 1000),
    server_time: new Date(now).toISOString(),
    counts: { articles_live: a.live, articles_deleted: a.deleted, tags: c.tags, rules: c.rules, texts: c.texts, synonyms: c.synonyms },
    // The texts followers still get in replyd's own words (English, or Chinese to a follower writing it): a Chinese account that set its welcome and fallback answered "h" in English.
    texts_default: TEXT_KEYS.filter((k) => operatorText(texts, k) === undefined),
    // not_found and media unwritten, the fallback written: followers get its "could not answer" for a
    // photo or a location, a search finding nothing, "换一个" with nothing before (a water utility's operator found out from a meter's photo).
    texts_as_fallback: FALLBACK_BORROWERS.filter((k) => texts[k] === undefined && texts.fallback !== undefined),
    // Rules that answer with nothing (articles gone, tags no article carries): the callback passes them over.
    rule_warnings: ruleWarnings(ctx),
    // Tags followers can never have listed: a help word, or an article's code (answered first).
    tag_warnings: tagWarnings(ctx),
    // Numbers the welcome or help text tells followers to send that no article has as its code.
    text_warnings: [...deadToldCodes(ctx), ...numberedCodeClash(ctx)],
    db_bytes: await unlessAway(() => ctx.write.size()),
    search_index: indexState(ctx, ctx.read.articles.index.searchIndexComplete),
    // The passage index followers' questions are ranked from (docs/answers.md): rebuilt with the search
    // index after a bulk write, alone after an upgrade or new synonyms.
    passage_index: { state: indexState(ctx, ctx.read.articles.index.indexComplete), ...ctx.read.articles.index.passageIndexSizes() },
    // Follower messages waiting for the log writer, and those not logged because its queue was full.
    message_log: ctx.write.log.backlog,
    // Follower searches waiting now, and since start answered "busy" or past their deadline.
    search: { queued: ctx.read.searcher.queued, ...ctx.read.searcher.counts },
    regex_rules_disabled: ctx.regex.disabled(),
    // The platform API: ok, or the last error with its code and what to do.
    platform: ctx.platform ? ctx.platform.status : { link: "not configured" },
    // The stored menu, and whether the platform has it as it is now.
    menu: (() => {
      const m = ctx.read.content.menu();
      return m ? { updated_at: m.updated_at, pushed_at: m.pushed_at } : null;
    })(),
    // A model writing answers (serve --ai-url): calls, what became of them, tokens, the caps; never the key.
    generated_answers: ctx.generator ? await ctx.generator.status() : { endpoint: "not configured" },
    ...(ctx.clockWarning() ? { clock_warning: ctx.clockWarning() } : {}),
    ...(cluster ? { cluster } : {}),
    newest_backup: await unlessAway(() => ctx.write.newestBackup()),
    // Temp files of backups cut short (kill -9) found and removed when the server started.
    backup_temp_files_removed_at_start: ctx.write.backupTempFilesRemovedAtStart,
    // Which key asked, and whether it is the one taken from the server's environment (served until
    // the server restarts without it: `replyd keys rm` cannot revoke it), named whichever key asks.
    key: { appkey: req.key.appkey, scope: req.key.scope, source: req.key.appkey === ctx.environmentKey ? "environment" : "stored" },
    environment_key: ctx.environmentKey,
    window_s: ctx.windowMs / 1000,
  };
}
