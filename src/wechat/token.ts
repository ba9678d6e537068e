/**
 * The account's access token, kept in one place (DESIGN §8): replyd is the token keeper, and the
 * operator's other systems take the token from it (GET /api/cli/token) instead of fighting over it.
 *
 * Tokens come from the stable-token endpoint (POST {api}/cgi-bin/stable_token). In its normal mode
 * the platform answers the current token and renews it in its last 5 minutes, so the keeper asks
 * again once less than 6 minutes are left (and on a timer before that), one request in flight at a
 * time. A call the platform refuses for an invalid token (40001, 40014, 42001: another system forced
 * a refresh, say) is refreshed once and retried once — in normal mode first, forced only when that
 * gives the same token, within the platform's limit of 20 forced refreshes a day, 30 s apart.
 * The AppSecret never leaves this file: not in errors, logs or health.
 */
import type { Clock } from "../clock.ts";
import { adviceFor, PlatformError, readJson } from "./platform-answer.ts";

export { adviceFor, PlatformError } from "./platform-answer.ts";

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

/** Where the instances of a cluster keep the token and take turns refreshing it (shared-token.ts). */
export interface TokenShare {
  read(): Promise<{ token: string; expiresAt: number } | null>;
  /** The refresher's turn for up to `ms`: false while another instance has it. */
  lock(ms: number): Promise<boolean>;
  /** Publishes the new token and gives the turn back. */
  write(t: { token: string; expiresAt: number }): Promise<void>;
  release(): Promise<void>;
}

const INVALID_TOKEN = new Set([40001, 40014, 42001]);
/** Refusals that say the link itself is broken (health shows them); others refuse one call on a working link. */
const LINK_ERRORS = new Set([40164, 40125, 40013, 41004, 48001, -1, ...INVALID_TOKEN]);
/** The platform renews a stable token in its last 5 minutes: ask again once less than this is left. */
const RENEW_BEFORE_MS = 6 * 60_000;
const FORCED_PER_DAY = 20;
const FORCED_APART_MS = 30_000;

export interface LinkStatus {
  link: "unknown" | "ok" | "error";
  errcode?: number;
  message?: string;
  advice?: string;
  at?: string;
}

export class TokenKeeper {
  private current: { token: string; expiresAt: number } | null = null;
  private inFlight: Promise<{ token: string; expiresAt: number }> | null = null;
  private forced: number[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  status: LinkStatus = { link: "unknown" };

  constructor(private readonly opts: PlatformOptions) {}

  private get fetch(): typeof fetch {
    return this.opts.fetch ?? globalThis.fetch;
  }

  private note(e: unknown): void {
    const at = new Date(this.opts.clock.now()).toISOString();
    if (e instanceof PlatformError) {
      const advice = adviceFor(e.errcode);
      this.status = { link: "error", errcode: e.errcode, message: e.errmsg.slice(0, 200), ...(advice ? { advice } : {}), at };
    }
    else this.status = { link: "error", message: `the platform could not be reached: ${(e as Error).message}`.slice(0, 200), at };
  }

  /** The current token, refreshed first when it is missing or near its end. */
  async token(): Promise<{ token: string; expiresInS: number }> {
    const now = this.opts.clock.now();
    const c = this.current && this.current.expiresAt - now > RENEW_BEFORE_MS ? this.current : await this.refresh(false);
    return { token: c.token, expiresInS: Math.max(0, Math.floor((c.expiresAt - this.opts.clock.now()) / 1000)) };
  }

  /** Asks the stable-token endpoint; one request in flight, whoever asks. */
  refresh(force: boolean): Promise<{ token: string; expiresAt: number }> {
    this.inFlight ??= this.request(force).finally(() => (this.inFlight = null));
    return this.inFlight;
  }

  /**
   * Through the cluster: a token another instance fetched is taken as it is (never the one this
   * instance holds, which is near its end or was refused); otherwise the instance that gets the turn asks
   * the platform and publishes the answer, and the others wait for it. Redis away, or the turn's
   * holder silent for longer than the platform takes: this instance asks for itself.
   */
  private async request(force: boolean): Promise<{ token: string; expiresAt: number }> {
    const shared = this.opts.shared;
    if (!shared) return this.ask(force);
    const refused = this.current?.token;
    const usable = (c: { token: string; expiresAt: number } | null) =>
      // Never the token this instance holds: it asks because that one is near its end or was refused.
      c !== null && c.expiresAt - this.opts.clock.now() > RENEW_BEFORE_MS && c.token !== refused;
    const adopt = (c: { token: string; expiresAt: number }) => {
      this.current = c;
      this.status = { link: "ok", at: new Date(this.opts.clock.now()).toISOString() };
      this.schedule();
      return c;
    };
    try {
      const known = await shared.read();
      if (usable(known)) return adopt(known as { token: string; expiresAt: number });
      if (await shared.lock(15_000)) {
        let fresh: { token: string; expiresAt: number };
        try {
          fresh = await this.ask(force);
        } catch (e) {
          await shared.release().catch(() => {});
          throw e;
        }
        await shared.write(fresh).catch(() => {});
        return fresh;
      }
      for (const until = performance.now() + 12_000; performance.now() < until; ) {
        await Bun.sleep(100);
        const c = await shared.read();
        if (usable(c)) return adopt(c as { token: string; expiresAt: number });
      }
    } catch (e) {
      if (e instanceof PlatformError || (e as Error).message.startsWith("the platform could not be reached")) throw e;
      // Redis away: on our own.
    }
    return this.ask(force);
  }

  private async ask(force: boolean): Promise<{ token: string; expiresAt: number }> {
    if (force) {
      const now = this.opts.clock.now();
      this.forced = this.forced.filter((t) => now - t < 86_400_000);
      const last = this.forced[this.forced.length - 1];
      if (this.forced.length >= FORCED_PER_DAY) throw new PlatformError(45009, `the ${FORCED_PER_DAY} forced token refreshes of the last day are spent`);
      if (last !== undefined && now - last < FORCED_APART_MS) throw new PlatformError(45011, "forced token refreshes must be 30 s apart");
      this.forced.push(now);
    }
    let body: { access_token?: unknown; expires_in?: unknown; errcode?: unknown; errmsg?: unknown };
    try {
      const res = await this.fetch(`${this.opts.api}/cgi-bin/stable_token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ grant_type: "client_credential", appid: this.opts.appid, secret: this.opts.secret, force_refresh: force }),
        signal: AbortSignal.timeout(10_000),
        redirect: "manual",
      });
      body = (await readJson(res)) as typeof body;
    } catch (e) {
      this.note(e);
      throw new Error(`the platform could not be reached: ${(e as Error).message}`);
    }
    if (typeof body.access_token !== "string" || typeof body.expires_in !== "number") {
      const err = new PlatformError(Number(body.errcode ?? -1), String(body.errmsg ?? "no token in the answer"));
      this.note(err);
      this.opts.log(`access token refresh failed: ${err.message}`);
      throw err;
    }
    this.current = { token: body.access_token, expiresAt: this.opts.clock.now() + body.expires_in * 1000 };
    this.status = { link: "ok", at: new Date(this.opts.clock.now()).toISOString() };
    this.schedule();
    return this.current;
  }

  /** Refreshes ahead of the end on a timer (it does not keep the process alive). */
  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    if (!this.current) return;
    const wait = Math.max(1000, this.current.expiresAt - this.opts.clock.now() - RENEW_BEFORE_MS + 1000);
    this.timer = setTimeout(() => void this.refresh(false).catch(() => {}), wait);
    this.timer.unref?.();
  }

  /**
   * Calls a platform API with the token: GET without `body`, POST JSON with it. An invalid-token
   * refusal is refreshed once (normal mode, then forced if that changed nothing) and retried once.
   */
  async call<T extends object>(path: string, body?: unknown): Promise<T> {
    const attempt = async (token: string) => {
      const url = `${this.opts.api}${path}${path.includes("?") ? "&" : "?"}access_token=${encodeURIComponent(token)}`;
      try {
        const res = await this.fetch(url, {
          method: body === undefined ? "GET" : "POST",
          ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(10_000),
          redirect: "manual",
        });
        return (await readJson(res)) as T & { errcode?: number; errmsg?: string };
      } catch (e) {
        // Never the URL: it carries the token.
        const err = new Error(`the platform could not be reached: ${(e as Error).message}`.replaceAll(token, "…"));
        this.note(err);
        throw err;
      }
    };
    const first = await this.token();
    let answer = await attempt(first.token);
    if (typeof answer.errcode === "number" && INVALID_TOKEN.has(answer.errcode)) {
      let fresh = await this.refresh(false);
      if (fresh.token === first.token) fresh = await this.refresh(true);
      answer = await attempt(fresh.token);
    }
    if (typeof answer.errcode === "number" && answer.errcode !== 0) {
      const err = new PlatformError(answer.errcode, String(answer.errmsg ?? ""));
      if (LINK_ERRORS.has(answer.errcode)) this.note(err);
      else this.status = { link: "ok", at: new Date(this.opts.clock.now()).toISOString() };
      throw err;
    }
    this.status = { link: "ok", at: new Date(this.opts.clock.now()).toISOString() };
    return answer;
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
