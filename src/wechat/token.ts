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

export interface PlatformOptions {
  /** Base address of the platform API (https://api.weixin.qq.com; tests: a local fake). */
  api: string;
  appid: string;
  secret: string;
  clock: Clock;
  log: (message: string) => void;
  fetch?: typeof fetch;
}

/** What to do about the platform's errors an operator can act on. */
const ADVICE: Record<string, string> = {
  "40164": "add this server's public IP address to the IP whitelist in the platform console",
  "40125": "the AppSecret is wrong: check --wx-secret",
  "40013": "the AppID is wrong: check --wx-appid",
  "41004": "the AppSecret is missing",
  "48001": "the account lacks the permission for this API (verify or upgrade it in the console)",
  "45009": "the daily quota of this API is spent; it resets at midnight (Beijing time)",
  "45011": "calls are too frequent; slow down",
  "-1": "the platform is busy; try again",
  "45015": "the follower's 48-hour reply window is closed, or they no longer follow the account",
  "45047": "the replies allowed since the follower's last message are spent; they can be answered again after they write",
  "40003": "the platform does not know this openid for this account",
  "43004": "the follower does not follow the account",
  "46003": "the account has no menu made through the API",
};
export const adviceFor = (errcode: number): string | undefined => ADVICE[String(errcode)];

const INVALID_TOKEN = new Set([40001, 40014, 42001]);
/** Refusals that say the link itself is broken (health shows them); others refuse one call on a working link. */
const LINK_ERRORS = new Set([40164, 40125, 40013, 41004, 48001, -1, ...INVALID_TOKEN]);
/** The platform's answers are small JSON; anything larger is not one. */
const MAX_PLATFORM_ANSWER = 1 << 20;

/** Reads a platform answer as JSON, bounded; a proxy's error page becomes a clear error. */
async function readJson(res: Response): Promise<Record<string, unknown>> {
  const declared = Number(res.headers.get("content-length") ?? 0);
  if (declared > MAX_PLATFORM_ANSWER) throw new Error(`the platform's answer is too large (${declared} bytes)`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of (res.body ?? new ReadableStream()) as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > MAX_PLATFORM_ANSWER) throw new Error("the platform's answer is too large");
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v === "object" && v !== null && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {}
  throw new Error(`the platform answered HTTP ${res.status} with something that is not its JSON`);
}
/** The platform renews a stable token in its last 5 minutes: ask again once less than this is left. */
const RENEW_BEFORE_MS = 6 * 60_000;
const FORCED_PER_DAY = 20;
const FORCED_APART_MS = 30_000;

export class PlatformError extends Error {
  constructor(
    readonly errcode: number,
    readonly errmsg: string,
  ) {
    const advice = adviceFor(errcode);
    super(`the platform answered ${errcode}: ${errmsg.slice(0, 200)}${advice ? ` — ${advice}` : ""}`);
    this.name = "PlatformError";
  }
}

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

  private async request(force: boolean): Promise<{ token: string; expiresAt: number }> {
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
