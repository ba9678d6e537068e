import type { Clock } from "../base/clock.ts";
import type { Account } from "../account/account.ts";

/** The account's name when the server declares its accounts ([accounts]); null for the one account of a server that declares none. */
export const declaredName = (ctx: Pick<AppContext, "account" | "mediaPrefix">): string | null => (ctx.mediaPrefix ? ctx.account : null);

/**
 * What route handlers share: the account they act on (its read model and writer, rules, responder,
 * platform and model), the clock, and what the server reports of itself. Made once, complete:
 * what becomes known later (the listening address, a clock warning) is read through functions.
 */
export interface AppContext {
  /** The account's name (`default` on a server that declares none) and where its callback answers. */
  readonly account: string;
  readonly callbackPath: string;
  /** Its callback has a wx-token (without one it answers 503). */
  callbackConfigured(): boolean;
  /** What messages the callback takes: plaintext (no wx-aeskey), safe (encrypted only) or compatible (both). */
  callbackEncryption(): "plaintext" | "safe" | "compatible";
  /** Where its pictures are under /media/: "" for the one account of a server that declares none, "NAME/" for a declared one. */
  readonly mediaPrefix: string;
  readonly read: Account["read"];
  readonly write: Account["write"];
  readonly regex: Pick<Account["regex"], "disabled" | "probe">;
  readonly rules: Account["rules"];
  readonly responder: Account["responder"];
  readonly platform: Account["platform"];
  readonly generator: Account["generator"];
  readonly clock: Clock;
  readonly startedAt: number;
  readonly windowMs: number;
  readonly maxMedia: number;
  /** Base of media URLs: --public-url, else the address the server listens on (known once it does). */
  publicUrl(): string;
  /** --public-url was given: media URLs are the internet's, not only this machine's. */
  readonly publicUrlGiven: boolean;
  /** Set when the clock disagrees with the newest stored data (health says so). */
  clockWarning(): string | null;
  /** One of a cluster (serve --redis): what health shows of it; null for a single instance. */
  readonly cluster: (() => Record<string, unknown>) | null;
  /** The appkey of the admin key taken from serve's environment (REPLYD_APPKEY/REPLYD_SECRET), or null. */
  readonly environmentKey: string | null;
}
