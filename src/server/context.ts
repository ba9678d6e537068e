import type { Clock } from "../clock.ts";
import type { ReadModel, Writer } from "../store/backend.ts";
import type { RegexMatcher } from "../wechat/regex.ts";
import type { Responder } from "../wechat/responder.ts";
import type { TokenKeeper } from "../wechat/token.ts";
import type { Generator } from "../wechat/generator.ts";

/** What route handlers share: the backend's read model and writer, the clock, and the settings they report. */
export interface AppContext {
  /** What the callback and listings read (on PostgreSQL: the local copy); nothing writes through it. */
  read: ReadModel;
  /** Every write, backups and the message log: the store of record's. */
  write: Writer;
  clock: Clock;
  startedAt: number;
  windowMs: number;
  maxMedia: number;
  /** Base of media URLs: --public-url, else the address the server listens on (set once it does). */
  publicUrl: string;
  /** Set when the clock disagrees with the newest stored data (health says so). */
  clockWarning: string | null;
  /** The platform API (--wx-secret): null when not configured. */
  platform: TokenKeeper | null;
  /** For health: the regex rules disabled for timing out. */
  regex: Pick<RegexMatcher, "disabled">;
  /** The operator's rules as the callback applies them (which menu keys are answered). */
  rules: Pick<Responder, "ruleFor" | "rulesMatching">;
  /** What a follower's text would get, for `replyd ask`. */
  responder: Pick<Responder, "respond">;
  /** One of a cluster (serve --redis): what health shows of it; null for a single instance. */
  cluster: (() => Record<string, unknown>) | null;
  /** Generated answers (serve --ai-url): null when no model is configured. */
  generator: Generator | null;
  /** The appkey of the admin key taken from serve's environment (REPLYD_APPKEY/REPLYD_SECRET), or null. */
  environmentKey: string | null;
}
