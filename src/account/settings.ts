/**
 * What one account is, resolved once: the callback it answers, the platform API it calls, the model
 * it may ask. Every factory of the account (account.ts) reads this one object; the server's own
 * settings (address, keys, uploads) are not here.
 */
import type { ModelEndpoint } from "../llm/client.ts";
import type { CapLimits } from "../wechat/ai/caps.ts";
import type { DeliveryTimes } from "../wechat/ai/generated-answers.ts";
import type { WechatOptions } from "../wechat/door/handler.ts";

/** The name of the one account of a server that declares none. */
export const DEFAULT_ACCOUNT = "default";
export const DEFAULT_CALLBACK_PATH = "/wechat";

/** Generated answers from an OpenAI-compatible model (serve --ai-url; docs/answers.md). */
export interface AiOptions {
  endpoint: ModelEndpoint;
  caps: CapLimits;
  /** The window's timings (tests shorten them). */
  times?: Partial<DeliveryTimes>;
  fetch?: typeof fetch;
}

/** The platform's HTTP API (--wx-secret with --wx-appid): where it is and what the account signs in with. */
export interface PlatformSettings {
  api: string;
  appid: string;
  secret: string;
}

export interface AccountSettings {
  name: string;
  /** Where the platform posts the account's messages. */
  path: string;
  /** The callback's door: token, EncodingAESKey, AppID, mode (and, in tests, its timings). */
  callback: Partial<WechatOptions>;
  /** Null without --wx-secret: replies, menus and tokens are refused as not configured. */
  platform: PlatformSettings | null;
  /** Null without --ai-url: the retrieval reply is the answer. */
  ai: AiOptions | null;
}

/** The callback settings as `serve` takes them (flags, environment, config file). */
export interface CallbackFlags {
  token?: string;
  aesKey?: string;
  appid?: string;
  path?: string;
  mode?: "safe" | "compatible";
  secret?: string | undefined;
  api?: string;
  /** The account's original id (gh_…): messages to any other are refused. */
  id?: string;
}

/** An account the config file declares (`[accounts.NAME]`): its callback's and platform's settings, its model. */
export interface DeclaredAccount {
  name: string;
  wechat: CallbackFlags;
  ai?: AiOptions;
}

export const PLATFORM_API = "https://api.weixin.qq.com";

/** An account from serve's settings: the one of a server that declares none (`default`), or a declared one. */
export function accountSettings(wx: (CallbackFlags & Partial<WechatOptions>) | undefined, ai: AiOptions | undefined, name = DEFAULT_ACCOUNT): AccountSettings {
  const { path, secret, api, ...callback } = wx ?? {};
  return {
    name,
    path: path ?? DEFAULT_CALLBACK_PATH,
    callback,
    platform: secret && callback.appid ? { api: api ?? PLATFORM_API, appid: callback.appid, secret } : null,
    ai: ai ?? null,
  };
}
