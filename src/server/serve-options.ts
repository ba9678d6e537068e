/**
 * What `replyd serve` is started with (cli/commands/serve.ts makes it from the resolved settings):
 * apart from serve.ts because what checks it (serve-checks.ts) and what decides what a reload may
 * change (reload.ts) need it, and serve.ts needs them both.
 */
import type { AiOptions, CallbackFlags, DeclaredAccount } from "../account/settings.ts";
import type { Clock } from "../base/clock.ts";
import type { Responder } from "../wechat/answering/responder.ts";

export interface ServeOptions {
  dataDir: string;
  /** postgres://…: everything kept in that database, nothing in dataDir (--db, REPLYD_DB). */
  db?: string;
  /** redis://…: one of a cluster of instances on `db` (--redis, REPLYD_REDIS). */
  redis?: string;
  host: string;
  port: number;
  windowMs: number;
  keep: number;
  maxUpload: number;
  maxAuthFailures: number;
  /** Take the client address from X-Forwarded-For (only behind a proxy you run). */
  trustProxy: boolean;
  /** The messaging callback: token, EncodingAESKey, appid, path. */
  wechat?: CallbackFlags;
  /**
   * The accounts the config file declares (`[accounts.NAME]`): each its own data folder under
   * `dataDir/accounts/`, its callback and model; `wechat` and `ai` are then not an account's.
   */
  accounts?: DeclaredAccount[];
  /** Public address for media URLs (https://replyd.example.com). */
  publicUrl?: string;
  maxMedia?: number;
  /** Days of message log kept (and of the model calls' log): pruned at start and every hour. */
  logDays?: number;
  /** How often the logs are pruned after the start: an hour (tests make it short). */
  pruneEveryMs?: number;
  /** Replies the platform allows per follower interaction (5 in its documentation today). */
  replyLimit?: number;
  /** Generated answers from an OpenAI-compatible model (--ai-url, --ai-model, REPLYD_AI_KEY). */
  ai?: AiOptions;
  env: Record<string, string | undefined>;
  clock?: Clock;
  /** Replaces every account's reply logic (tests hold messages in flight across a reload). */
  responder?: Pick<Responder, "respond">;
  /** One JSON line per request. */
  log?: (line: string) => void;
  /** Human messages: the first-start key, warnings. */
  say?: (line: string) => void;
}
