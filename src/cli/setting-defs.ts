/**
 * Every `replyd serve` setting, declared once: its flag, environment variable, config-file key,
 * default, parser and help. `serve` reads its settings here and nowhere else (resolved in
 * settings.ts), the command line's help is made from it, and `serve --check-config` prints it
 * resolved. Apart from the resolving, because what reads a config file (config-file.ts) and an
 * account's settings (account-settings.ts) need the declarations and settings.ts needs them both.
 *
 * Secrets (the AppSecret, the callback token and EncodingAESKey, passwords in URLs) belong in the
 * environment or the config file (its owner's alone: config-file.ts): a flag is visible to every
 * user of the machine in `ps`, and is warned about.
 */
import { usage } from "./errors.ts";

type Value = string | number | boolean;

export interface Setting<T extends Value = Value> {
  /** The flag without its dashes; also the key in the config file. */
  readonly name: string;
  readonly env?: string;
  readonly default?: T;
  readonly help: string;
  /** A flag that takes no value (`--trust-proxy`). */
  readonly boolean?: true;
  /** A number of bytes: shown as a size (64 MiB). */
  readonly bytes?: true;
  /** Never printed as it is; warned about when given as a flag. */
  readonly secret?: true;
  /** A URL whose password is hidden when printed, and warned about when given in a flag. */
  readonly url?: true;
  /** Refused as a flag: a key read from the environment or the config file only. */
  readonly noFlag?: true;
  parse(raw: string): T;
}

const text = (check?: (v: string) => string | null) => (raw: string) => {
  const why = check?.(raw);
  if (why) throw usage(why);
  return raw;
};
const number = (flag: string, min: number, max: number) => (raw: string) => {
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || n < min || n > max) throw usage(`--${flag} must be a number from ${min} to ${max}`);
  return n;
};
const UNITS: Record<string, number> = { "": 1, b: 1, k: 1024, kb: 1024, kib: 1024, m: 1024 ** 2, mb: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3, gib: 1024 ** 3 };
const size = (flag: string) => (raw: string) => {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(raw.trim());
  const unit = m ? UNITS[(m[2] ?? "").toLowerCase()] : undefined;
  if (!m || unit === undefined) throw usage(`--${flag} must be a size like 64M, 512K or a number of bytes`);
  const bytes = Math.floor(Number(m[1]) * unit);
  if (bytes < 1024) throw usage(`--${flag} must be at least 1K`);
  return bytes;
};
const httpUrl = (flag: string) => text((v) => (/^https?:\/\/[^/]+/.test(v) ? null : `--${flag} must be an http(s) address`));
const yes = () => true;
/** A query parameter that carries a credential (Azure's `api-key`, Gemini's `key`, `access_token` …). */
const KEY_PARAM = /(?:^|[-_.])(?:key|api[-_]?key|apikey|access[-_]?token|token|secret|password|passwd|auth|authorization|sig|signature)$/i;
const aiUrl = (raw: string) => {
  const v = httpUrl("ai-url")(raw).replace(/\/+$/, "");
  if (/\/chat\/completions$/.test(v)) throw usage("--ai-url is the base address as the SDKs take it (…/v1), without /chat/completions: replyd adds that");
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw usage("--ai-url is not an address replyd can read");
  }
  // Never quoted back: the value is what must not be printed.
  if (url.username || url.password) throw usage("--ai-url holds a user name or password: give the key in REPLYD_AI_KEY (or ai-key in the config file), not in the address");
  for (const name of url.searchParams.keys())
    if (KEY_PARAM.test(name)) throw usage(`--ai-url carries a key in its query ("${name}"): give it in REPLYD_AI_KEY (or ai-key in the config file), where it is never printed`);
  return v;
};

// The object's own type is kept: whether it has a default says whether its value can be absent.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const define = <const S extends Setting<any>>(s: S): S => s;

export const SERVE_SETTINGS = {
  data: define({ name: "data", env: "REPLYD_DATA", default: "./replyd-data", help: "data folder", parse: text() }),
  db: define({ name: "db", env: "REPLYD_DB", url: true, help: "keep everything in PostgreSQL instead, postgres://… (parts left out come from DATABASE_URL and PG*); --data is then not used", parse: text() }),
  redis: define({
    name: "redis",
    env: "REPLYD_REDIS",
    url: true,
    help: "one of several instances on the --db database: replay protection, retry answers, change notices and the access token shared through this Redis, redis://…",
    parse: text((v) => (/^rediss?:\/\/[^\s]+$/.test(v) ? null : "--redis must be a redis:// (or rediss://) URL, like redis://127.0.0.1:6379")),
  }),
  host: define({ name: "host", env: "REPLYD_HOST", default: "0.0.0.0", help: "address to listen on", parse: text() }),
  port: define({ name: "port", env: "REPLYD_PORT", default: 8080, help: "port to listen on", parse: number("port", 0, 65535) }),
  window: define({ name: "window", default: 5, help: "accepted clock difference of signed requests, in seconds", parse: number("window", 0.05, 3600) }),
  keep: define({ name: "keep", default: 30, help: "server backups kept per matter", parse: number("keep", 1, 10_000) }),
  "max-upload": define({ name: "max-upload", bytes: true, default: 64 * 1024 * 1024, help: "largest upload, e.g. 64M", parse: size("max-upload") }),
  "max-auth-failures": define({ name: "max-auth-failures", default: 10, help: "failed signatures per address per minute before a 429 lock-out", parse: number("max-auth-failures", 1, 1_000_000) }),
  "trust-proxy": define({ name: "trust-proxy", boolean: true, default: false, help: "take the client address from X-Forwarded-For (only behind a proxy you run)", parse: yes }),
  "wx-token": define({
    name: "wx-token",
    env: "REPLYD_WX_TOKEN",
    secret: true,
    help: "the messaging callback's token (as set in the platform's console)",
    parse: text((v) => (/^[A-Za-z0-9]{3,32}$/.test(v) ? null : "--wx-token must be 3–32 letters or digits (as the platform requires)")),
  }),
  "wx-aeskey": define({
    name: "wx-aeskey",
    env: "REPLYD_WX_AESKEY",
    secret: true,
    help: "the 43-character EncodingAESKey for safe mode",
    parse: text((v) => (/^[A-Za-z0-9+/]{43}$/.test(v) ? null : "--wx-aeskey must be the 43-character EncodingAESKey")),
  }),
  "wx-appid": define({ name: "wx-appid", env: "REPLYD_WX_APPID", help: "the account's AppID, checked in safe mode and used for the access token", parse: text() }),
  "wx-path": define({
    name: "wx-path",
    default: "/wechat",
    help: "the callback's path",
    parse: text((v) => (/^\/[A-Za-z0-9._~/-]*$/.test(v) ? null : "--wx-path must be a path like /wechat")),
  }),
  "wx-secret": define({
    name: "wx-secret",
    env: "REPLYD_WX_SECRET",
    secret: true,
    help: "the account's AppSecret: turns on the platform API and the token keeper",
    parse: text((v) => (/^[A-Za-z0-9]{16,64}$/.test(v) ? null : "--wx-secret must be the account's AppSecret (letters and digits)")),
  }),
  "wx-api": define({ name: "wx-api", env: "REPLYD_WX_API", default: "https://api.weixin.qq.com", help: "the platform API's base address", parse: (raw) => httpUrl("wx-api")(raw).replace(/\/+$/, "") }),
  "wx-id": define({
    name: "wx-id",
    env: "REPLYD_WX_ID",
    help: "the account's original id (gh_…): a message to any other account (its ToUserName) is refused",
    parse: text((v) => (/^gh_[A-Za-z0-9]{1,32}$/.test(v) ? null : "--wx-id must be the account's original id, gh_ and letters or digits (the console's 原始ID)")),
  }),
  "wx-mode": define({
    name: "wx-mode",
    env: "REPLYD_WX_MODE",
    default: "safe",
    help: "with --wx-aeskey: safe (encrypted only) or compatible (plaintext too, weaker)",
    parse: text((v) => (v === "safe" || v === "compatible" ? null : "--wx-mode must be safe (encrypted messages only) or compatible (plaintext too)")),
  }),
  "public-url": define({ name: "public-url", env: "REPLYD_PUBLIC_URL", help: "public address for media URLs", parse: httpUrl("public-url") }),
  "max-media": define({ name: "max-media", bytes: true, default: 10 * 1024 * 1024, help: "largest image upload", parse: size("max-media") }),
  "log-days": define({ name: "log-days", default: 30, help: "days of follower messages and model calls kept (pruned at start and hourly)", parse: number("log-days", 1, 3650) }),
  "reply-limit": define({ name: "reply-limit", default: 5, help: "replies the platform allows per follower message, within 48 hours", parse: number("reply-limit", 1, 1000) }),
  "ai-url": define({
    name: "ai-url",
    env: "REPLYD_AI_URL",
    url: true,
    help: "an OpenAI-compatible model's base address (https://api.deepseek.com/v1, http://127.0.0.1:11434/v1 …): followers' questions answered in its words from the account's articles",
    parse: aiUrl,
  }),
  "ai-model": define({
    name: "ai-model",
    env: "REPLYD_AI_MODEL",
    help: "the model's name at --ai-url (deepseek-chat, qwen-plus, gpt-4o-mini, llama3.1 …)",
    parse: text((v) => (/^\S{1,128}$/.test(v) ? null : "--ai-model must be a model's name (no spaces)")),
  }),
  "ai-key": define({
    name: "ai-key",
    env: "REPLYD_AI_KEY",
    secret: true,
    noFlag: true,
    help: "the key for --ai-url, from the environment or the config file only (never a flag)",
    parse: text((v) => (/^[\x21-\x7e]{1,512}$/.test(v) ? null : "REPLYD_AI_KEY must be printable ASCII without spaces")),
  }),
  "ai-timeout": define({ name: "ai-timeout", default: 30, help: "seconds a model call may take in all", parse: number("ai-timeout", 1, 300) }),
  "ai-per-follower": define({ name: "ai-per-follower", default: 10, help: "generated answers per follower in any hour", parse: number("ai-per-follower", 1, 100_000) }),
  "ai-per-minute": define({ name: "ai-per-minute", default: 30, help: "model calls in all in any 60 seconds (the cluster's, when it is one)", parse: number("ai-per-minute", 1, 100_000) }),
  "ai-daily": define({ name: "ai-daily", default: 1000, help: "generated answers in all in any 24 hours", parse: number("ai-daily", 1, 1_000_000) }),
  "ai-concurrency": define({ name: "ai-concurrency", default: 8, help: "model calls in flight at once (the cluster's, when it is one)", parse: number("ai-concurrency", 1, 10_000) }),
} as const;

type Settings = typeof SERVE_SETTINGS;
export type SettingName = keyof Settings;
/** The resolved settings: a value for each (undefined where nothing set one and there is no default). */
export type Resolved = { [K in SettingName]: "default" extends keyof Settings[K] ? ReturnType<Settings[K]["parse"]> : ReturnType<Settings[K]["parse"]> | undefined };
export type Source = "flag" | "environment" | "file" | "default";
