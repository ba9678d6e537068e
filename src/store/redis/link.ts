/**
 * The connection to Redis (issue 15): what the instances of a cluster share — replay protection,
 * lock-outs, retry answers, change notices, the access token — goes through here.
 *
 * Fail fast, never queue: a command while Redis is away (or slower than `timeoutMs`) rejects with
 * RedisDown at once, so the callback can fall back to per-instance dedupe and the admin interface
 * can answer 503 instead of hanging. Bun's client gives up reconnecting after a number of tries, so
 * the link reconnects itself, with a fresh client each time (200 ms, doubling to 2 s between tries),
 * and says when Redis is away and when it is back — nothing needs a restart.
 */
import { RedisClient } from "bun";
import { ReplydError } from "../../errors.ts";
import { redactUrl, scrubPassword } from "../pg/url.ts";

/** Redis is away: the admin interface answers 503 with this; the callback falls back to its own memory. */
export class RedisDown extends ReplydError {
  constructor(reason: string) {
    super("redis_unavailable", 503, `Redis is unreachable (${reason}): admin requests are refused until it answers again (followers are still answered)`, { retry_after: 2 });
    this.name = "RedisDown";
  }
}

export interface LinkOptions {
  /** A command slower than this counts as Redis being away for that command. */
  timeoutMs?: number;
  log?: (message: string) => void;
}

type Listener = (message: string) => void;

export class RedisLink {
  private client: RedisClient | null = null;
  private subscriber: RedisClient | null = null;
  private readonly listeners = new Map<string, Listener>();
  private reconnectMs = 200;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;
  private readonly scripts = new Map<string, string>();
  /** Why Redis is away, while it is; null when it answers. */
  downSince: number | null = Date.now();
  lastError: string | null = "not connected yet";
  /** The URL without its password, for messages and health. */
  readonly where: string;
  private readonly timeoutMs: number;
  private readonly log: (message: string) => void;

  constructor(
    private readonly url: string,
    opts: LinkOptions = {},
  ) {
    this.where = redactUrl(url);
    this.timeoutMs = opts.timeoutMs ?? 1000;
    this.log = opts.log ?? (() => {});
  }

  get up(): boolean {
    return this.downSince === null;
  }

  /**
   * Connects (at start the caller waits: a cluster does not start without its Redis). Bun's
   * auto-pipelining is off: with it, a script call's reply was now and then never delivered (1 test
   * run in 8 timed out; 0 in 24 without it), and the callback batches its own calls anyway.
   */
  async connect(): Promise<void> {
    const client = new RedisClient(this.url, { autoReconnect: false, enableOfflineQueue: false, enableAutoPipelining: false, connectionTimeout: 2000 });
    const subscriber = new RedisClient(this.url, { autoReconnect: false, enableOfflineQueue: false, enableAutoPipelining: false, connectionTimeout: 2000 });
    try {
      await client.connect();
      await subscriber.connect();
      for (const [channel, listener] of this.listeners) await subscriber.subscribe(channel, listener);
    } catch (e) {
      client.close();
      subscriber.close();
      throw new RedisDown(this.scrub((e as Error).message));
    }
    this.client = client;
    this.subscriber = subscriber;
    this.scripts.clear();
    const lost = (e: Error | undefined) => {
      if (this.client !== client) return;
      this.markDown(e?.message ?? "connection closed");
    };
    client.onclose = lost;
    subscriber.onclose = lost;
    if (this.downSince !== null && this.lastError !== "not connected yet") this.log(`Redis at ${this.where} answers again`);
    this.downSince = null;
    this.lastError = null;
    this.reconnectMs = 200;
  }

  private scrub(message: string): string {
    return scrubPassword(message.replaceAll(this.url, this.where), this.url);
  }

  private markDown(reason: string): void {
    if (this.closed) return;
    const was = this.up;
    this.downSince ??= Date.now();
    this.lastError = this.scrub(reason);
    const old = [this.client, this.subscriber];
    this.client = null;
    this.subscriber = null;
    for (const c of old)
      if (c) {
        c.onclose = null;
        c.close();
      }
    if (was) this.log(`Redis at ${this.where} is unreachable (${this.lastError}); trying again`);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.connect().catch((e) => {
        this.reconnectMs = Math.min(2000, this.reconnectMs * 2);
        this.markDown((e as Error).message);
      });
    }, this.reconnectMs);
    this.timer.unref?.();
  }

  /** One command; RedisDown when Redis is away or does not answer within the timeout. */
  async send<T = unknown>(command: string, args: string[]): Promise<T> {
    const client = this.client;
    if (!client || !client.connected) throw new RedisDown(this.lastError ?? "not connected");
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      return (await Promise.race([
        client.send(command, args) as Promise<T>,
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new RedisDown(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
        }),
      ])) as T;
    } catch (e) {
      if (e instanceof RedisDown) {
        this.markDown(e.message);
        throw e;
      }
      // An error reply (a script's error, a wrong type) is Redis answering: not a lost link.
      if ((e as { code?: string }).code === "ERR_REDIS_SERVER_ERROR") throw e;
      this.markDown((e as Error).message);
      throw new RedisDown(this.scrub((e as Error).message));
    } finally {
      clearTimeout(timer);
    }
  }

  /** Runs a Lua script by its digest, loading it once per connection. */
  async eval<T = unknown>(script: string, keys: string[], args: string[]): Promise<T> {
    let sha = this.scripts.get(script);
    if (!sha) {
      sha = (await this.send<string>("SCRIPT", ["LOAD", script])) as string;
      this.scripts.set(script, sha);
    }
    try {
      return await this.send<T>("EVALSHA", [sha, String(keys.length), ...keys, ...args]);
    } catch (e) {
      // Redis restarted (its script cache is empty): load it again.
      if (!String((e as Error).message).includes("NOSCRIPT")) throw e;
      this.scripts.delete(script);
      return this.eval(script, keys, args);
    }
  }

  /** Listens on a channel, now and after every reconnect. */
  async subscribe(channel: string, listener: Listener): Promise<void> {
    this.listeners.set(channel, listener);
    if (this.subscriber?.connected) await this.subscriber.subscribe(channel, listener).catch(() => {});
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.send("PUBLISH", [channel, message]);
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const c of [this.client, this.subscriber])
      if (c) {
        c.onclose = null;
        c.close();
      }
    this.client = null;
    this.subscriber = null;
  }
}
