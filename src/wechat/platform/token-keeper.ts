/**
 * The account's access token, kept in one place (DESIGN §8): replyd is the token keeper, and the
 * operator's other systems take the token from it (GET /api/cli/token) instead of fighting over it.
 *
 * Tokens come from the stable-token endpoint (POST {api}/cgi-bin/stable_token). In its normal mode
 * the platform answers the current token and renews it in its last 5 minutes, so the keeper asks
 * again once less than 6 minutes are left (and on a timer before that), one request in flight at a
 * time. A call the platform refuses for an invalid token (client.ts) is refreshed once — in normal
 * mode first, forced only when that gives the same token, within the platform's limit of 20 forced
 * refreshes a day, 30 s apart.
 * Otherwise the platform is asked at most once a minute, whatever asks (a token's claimed life, a
 * failing platform, a flood of callers): lives are measured on the monotonic clock and believed up
 * to the documented 7,200 s (platform-answer.ts), so no wall-clock step or odd claim makes it ask
 * in a loop, and no caller is handed a token past its real end. The link's status (health) is kept
 * here too: the keeper's asks find most of what breaks a link (a wrong secret, an address not
 * allowed), and the calls report to it as well.
 * The AppSecret never leaves this file: not in errors, logs or health.
 */
import type { Clock } from "../../base/clock.ts";
import { viaRedis } from "../../cluster/fallback.ts";
import { adviceFor, PlatformError, readJson, tokenFromResponse } from "./response.ts";

export interface PlatformOptions {
  /** Base address of the platform API (https://api.weixin.qq.com; tests: a local fake). */
  api: string;
  appid: string;
  secret: string;
  clock: Clock;
  log: (message: string) => void;
  fetch?: typeof fetch;
  /** The cluster's token (serve --redis): one instance refreshes, the others take its token. */
  shared?: TokenShare;
}

/**
 * Where the instances of a cluster keep the token and take turns refreshing it (shared-token.ts).
 * A token's remaining life travels as a duration (Redis keeps it as the key's expiry): instances
 * whose wall clocks disagree still agree on when it ends.
 */
export interface TokenShare {
  read(): Promise<SharedToken | null>;
  /** The refresher's turn for up to `ms`: false while another instance has it. */
  lock(ms: number): Promise<boolean>;
  /** Publishes the new token and gives the turn back. */
  write(t: SharedToken): Promise<void>;
  release(): Promise<void>;
}
export interface SharedToken {
  token: string;
  /** Milliseconds it has left. */
  leftMs: number;
}

/** A token held: it ends at `endsAt` on the keeper's monotonic clock. */
interface Held {
  token: string;
  endsAt: number;
}

/** The platform renews a stable token in its last 5 minutes: ask again once less than this is left. */
const RENEW_BEFORE_MS = 6 * 60_000;
/** The platform is asked at most this often, except to replace a token it refused. */
export const ASK_APART_MS = 60_000;
const FORCED_PER_DAY = 20;
const FORCED_APART_MS = 30_000;

export interface LinkStatus {
  link: "unknown" | "ok" | "error";
  errcode?: number;
  message?: string;
  advice?: string;
  at?: string;
  /** What was odd about the platform's last token answer (a life past 7,200 s, none, …). */
  odd?: string;
}

/** The token and the link's status; PlatformClient (client.ts) calls the API with it. */
export class TokenKeeper {
  private inFlight: Promise<Held> | null = null;
  private forced: number[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** When the platform was last asked (monotonic), and what went wrong then. */
  private lastAsk = -Infinity;
  private lastFailure: Error | null = null;
  private odd: string | undefined;
  status: LinkStatus = { link: "unknown" };

  // #-private, not TypeScript's `private` (a compile-time word): the AppSecret and the access token
  // must not show when a client is printed, inspected or serialised.
  readonly #opts: PlatformOptions;
  #current: Held | null = null;

  constructor(opts: PlatformOptions) {
    this.#opts = opts;
  }

  /** Only the address reaches the calls (client.ts): the options hold the AppSecret. */
  protected get api(): string {
    return this.#opts.api;
  }

  protected get fetch(): typeof fetch {
    return this.#opts.fetch ?? globalThis.fetch;
  }

  private get mono(): number {
    return this.#opts.clock.monotonic();
  }

  private at(): string {
    return new Date(this.#opts.clock.now()).toISOString();
  }

  protected ok(): void {
    this.status = { link: "ok", at: this.at(), ...(this.odd ? { odd: this.odd } : {}) };
  }

  protected note(e: unknown): void {
    const at = this.at();
    if (e instanceof PlatformError) {
      const advice = adviceFor(e.errcode);
      this.status = { link: "error", errcode: e.errcode, message: e.errmsg.slice(0, 200), ...(advice ? { advice } : {}), at };
    } else this.status = { link: "error", message: `the platform could not be reached: ${(e as Error).message}`.slice(0, 200), at };
  }

  /** The current token, refreshed first when it is missing or near its end. */
  async token(): Promise<{ token: string; expiresInS: number }> {
    const c = this.#current && this.#current.endsAt - this.mono > RENEW_BEFORE_MS ? this.#current : await this.refresh(false);
    return { token: c.token, expiresInS: Math.max(0, Math.floor((c.endsAt - this.mono) / 1000)) };
  }

  /**
   * Asks the stable-token endpoint; one request in flight, whoever asks. `refused`: the token the
   * platform just refused — only then may the platform be asked within a minute of the last time.
   */
  refresh(force: boolean, refused?: string): Promise<Held> {
    this.inFlight ??= this.request(force, refused).finally(() => (this.inFlight = null));
    return this.inFlight;
  }

  /** Held back within a minute of the last ask: the token held while it lasts, else the last failure. */
  private heldBack(refused: string | undefined): Held | null {
    if (this.mono - this.lastAsk >= ASK_APART_MS) return null;
    // Another caller already replaced the refused token: that one, without asking.
    if (refused !== undefined) return this.#current && this.#current.token !== refused && this.#current.endsAt > this.mono ? this.#current : null;
    if (this.#current && this.#current.endsAt > this.mono) return this.#current;
    if (this.lastFailure) throw this.lastFailure;
    return null;
  }

  /**
   * Through the cluster: a token another instance fetched is taken as it is (never the one this
   * instance holds, which is near its end or was refused); otherwise the instance that gets the turn asks
   * the platform and publishes the answer, and the others wait for it. Redis away, or the turn's
   * holder silent for longer than the platform takes: this instance asks for itself.
   */
  private async request(force: boolean, refused: string | undefined): Promise<Held> {
    const shared = this.#opts.shared;
    if (!shared) return this.ask(force, refused);
    // Redis away: on our own. The platform's refusals and silence are thrown as they are.
    return viaRedis(() => this.throughCluster(shared, force, refused), { local: () => this.ask(force, refused) });
  }

  private async throughCluster(shared: TokenShare, force: boolean, refused: string | undefined): Promise<Held> {
    const mine = this.#current?.token;
    const usable = (c: SharedToken | null): c is SharedToken =>
      // Never the token this instance holds: it asks because that one is near its end or was refused.
      c !== null && c.leftMs > RENEW_BEFORE_MS && c.token !== mine;
    const adopt = (c: SharedToken) => {
      this.#current = { token: c.token, endsAt: this.mono + c.leftMs };
      this.ok();
      this.schedule();
      return this.#current;
    };
    const known = await shared.read();
    if (usable(known)) return adopt(known);
    if (await shared.lock(15_000)) {
      let fresh: Held;
      try {
        fresh = await this.ask(force, refused);
      } catch (e) {
        await shared.release().catch(() => {});
        throw e;
      }
      await shared.write({ token: fresh.token, leftMs: fresh.endsAt - this.mono }).catch(() => {});
      return fresh;
    }
    for (const until = performance.now() + 12_000; performance.now() < until; ) {
      await Bun.sleep(100);
      const c = await shared.read();
      if (usable(c)) return adopt(c);
    }
    // The turn's holder silent for longer than the platform takes.
    return this.ask(force, refused);
  }

  private async ask(force: boolean, refused: string | undefined): Promise<Held> {
    if (!force) {
      const held = this.heldBack(refused);
      if (held) return held;
    } else {
      const now = this.#opts.clock.monotonic();
      this.forced = this.forced.filter((t) => now - t < 86_400_000);
      const last = this.forced[this.forced.length - 1];
      if (this.forced.length >= FORCED_PER_DAY) throw new PlatformError(45009, `the ${FORCED_PER_DAY} forced token refreshes of the last day are spent`);
      if (last !== undefined && now - last < FORCED_APART_MS) throw new PlatformError(45011, "forced token refreshes must be 30 s apart");
      this.forced.push(now);
    }
    this.lastAsk = this.mono;
    let answer: { status: number; body: Record<string, unknown> };
    try {
      const res = await this.fetch(`${this.#opts.api}/cgi-bin/stable_token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ grant_type: "client_credential", appid: this.#opts.appid, secret: this.#opts.secret, force_refresh: force }),
        signal: AbortSignal.timeout(10_000),
        redirect: "manual",
      });
      answer = { status: res.status, body: await readJson(res) };
    } catch (e) {
      this.note(e);
      throw (this.lastFailure = new Error(`the platform could not be reached: ${(e as Error).message}`));
    }
    let got: ReturnType<typeof tokenFromResponse>;
    try {
      got = tokenFromResponse(answer.status, answer.body);
    } catch (e) {
      this.note(e);
      this.#opts.log(`access token refresh failed: ${(e as Error).message}`);
      throw (this.lastFailure = e as Error);
    }
    if (got.odd !== this.odd && got.odd) this.#opts.log(`the platform's token answer was odd: ${got.odd}`);
    this.odd = got.odd;
    this.lastFailure = null;
    this.#current = { token: got.token, endsAt: this.mono + got.lifeMs };
    this.ok();
    this.schedule();
    return this.#current;
  }

  /**
   * Refreshes ahead of the end on a timer (it does not keep the process alive): never sooner than the
   * platform may be asked again, never later than a timer can wait.
   */
  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    if (!this.#current) return;
    const wait = Math.min(2 ** 31 - 1, Math.max(ASK_APART_MS, this.#current.endsAt - this.mono - RENEW_BEFORE_MS + 1000));
    this.timer = setTimeout(() => void this.refresh(false).catch(() => {}), wait);
    this.timer.unref?.();
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
