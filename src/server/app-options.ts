/**
 * What createApp is given (AppOptions) and what it takes for an option not given (DEFAULTS):
 * apart from the app, so that serve.ts and the tests can name them without the composition.
 */
import type { Clock } from "../base/clock.ts";
import type { Keys } from "../store/keys.ts";
import type { ClusterPart } from "../store/backend.ts";
import type { ReadModel } from "../store/read-model.ts";
import type { Writer } from "../store/writer.ts";
import type { RedisLink } from "../store/redis/link.ts";
import { DEFAULT_CALLBACK_PATH, type AccountSettings, type AiOptions, type CallbackFlags } from "../account/settings.ts";
import type { Responder } from "../wechat/answering/responder.ts";
import type { WechatOptions } from "../wechat/door/handler.ts";
import type { PlatformClient } from "../wechat/platform/client.ts";
import type { LimiterOptions } from "./limiter.ts";

export interface AppOptions {
  /** The store (store/read-model.ts, store/writer.ts): what routes and the responder read, and what every write goes through. */
  read?: ReadModel;
  write?: Writer;
  /**
   * Several accounts (the config file's [accounts]): each its own store and settings, in place of
   * `read`, `write`, `wechat` and `ai`; every admin request then names its account (server/accounts.ts).
   */
  accounts?: { settings: AccountSettings; read: ReadModel; write: Writer; cluster?: ClusterPart | null }[];
  keys: Keys;
  clock?: Clock;
  /** Accepted |server time − ts|, in ms. */
  windowMs?: number;
  /** Largest accepted upload, in bytes. */
  maxUpload?: number;
  /** Where uploads are spooled while they arrive (default: the data folder). */
  spoolDir?: string;
  /** Bytes all unauthenticated requests may hold together (default: 4 largest uploads). */
  preAuthBytes?: number;
  limiter?: Partial<LimiterOptions>;
  /** The client's address for failure counting; the listening server passes the socket's. */
  clientAddress?: (request: Request) => string;
  logError?: (msg: string) => void;
  /** What goes wrong as designed, at "warn": a model's answer the checks refused, a model cap reached (default: logError). */
  logWarn?: (msg: string) => void;
  /** The messaging callback and the platform API (--wx-*); without a token the callback answers 503. */
  wechat?: CallbackFlags & Partial<WechatOptions>;
  /** Replaces the reply logic (tests inject a slow one to exercise the deadline). */
  responder?: Pick<Responder, "respond">;
  /** Public address used in media URLs; default: the listening address (http://localhost without one). */
  publicUrl?: string;
  /** Largest media (image) upload, in bytes. */
  maxMedia?: number;
  /** Replaces the platform API client made from `wechat` (tests point one at a fake platform). */
  platform?: PlatformClient | null;
  /**
   * One of a cluster (serve --redis): admin nonces, lock-outs and retry answers shared through
   * Redis; `status` is what health shows of the cluster.
   */
  cluster?: { link: RedisLink; instance: string; status: () => Record<string, unknown> };
  /** Generated answers from an OpenAI-compatible model (serve --ai-url; docs/answers.md). */
  ai?: AiOptions;
  /** The appkey of the admin key taken from serve's environment (REPLYD_APPKEY): health names it. */
  environmentKey?: string;
}

export const DEFAULTS = {
  windowMs: 5000,
  maxUpload: 64 * 1024 * 1024,
  limiter: { maxFailures: 10, periodMs: 60_000, lockMs: 60_000, maxEntries: 10_000 },
  /** How many largest uploads the door may be receiving at once, unauthenticated. */
  preAuthUploads: 4,
  maxMedia: 10 * 1024 * 1024,
  wxPath: DEFAULT_CALLBACK_PATH,
} as const;
