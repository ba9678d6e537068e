/**
 * The connection to Redis (issue 15): what the instances of a cluster share — replay protection,
 * lock-outs, retry answers, change notices, the access token — goes through here.
 *
 * Fail fast, never queue: a command while Redis is away (or slower than `timeoutMs`) rejects with
 * RedisDown at once, so the callback can fall back to per-instance dedupe and the admin interface
 * can answer 503 instead of hanging. Bun's client gives up reconnecting after a number of tries, so
 * the link reconnects itself, with a fresh client each time (200 ms, doubling to 2 s between tries),
 * and says when Redis is away and when it is back — nothing needs a restart.
 *
 * A Redis that answers with an error (out of memory under noeviction, a read-only replica, loading
 * its data, refusing writes after a failed save, a wrong type at a key) is as unusable as one that
 * is away: the command rejects with RedisDown and the link counts as down — followers are answered
 * from the instance's own memory, admin gets 503 — until a probe write succeeds again. Only
 * NOSCRIPT (a restarted Redis's empty script cache) is answered by loading the script again.
 */
import { LinkNotices } from "./link-notices.ts";
import { RedisClient } from "bun";
import { DEFAULT_KEYS } from "../../cluster/keyspace.ts";
import { RedisDown } from "../../cluster/redis-down.ts";
import { redactUrl, scrubPassword } from "../postgres/url.ts";

/** An error reply, as Bun's client reports one: Redis answered, with an error. */
const isErrorReply = (e: unknown) => (e as { code?: string }).code === "ERR_REDIS_SERVER_ERROR";
/** The error reply's first word (OOM, READONLY, LOADING, MISCONF, WRONGTYPE, NOSCRIPT, ERR …). */
export const replyClass = (e: unknown) => /^[A-Z]+/.exec(String((e as Error).message))?.[0] ?? "ERR";

export interface LinkOptions {
  /** A command slower than this counts as Redis being away for that command. */
  timeoutMs?: number;
  log?: (message: string) => void;
  /** What is back to normal (Redis answers again): information, not an error; `log` when not given. */
  info?: (message: string) => void;
  /** The key a probe writes while Redis refuses commands, to tell when it takes them again. */
  probeKey?: string;
  /** Between probes while Redis refuses commands. */
  probeMs?: number;
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
  /** Connected, but Redis answers commands with errors (lastError says which): probed until it takes them. */
  refusing = false;
  /** The last error reply that made the link count as down, kept after it recovers (health). */
  lastRefusal: { at: number; error: string } | null = null;
  private probe: ReturnType<typeof setTimeout> | null = null;
  private readonly probeKey: string;
  private readonly probeMs: number;
  /** The URL without its password, for messages and health. */
  readonly where: string;
  private readonly timeoutMs: number;
  private readonly notices: LinkNotices;

  constructor(
    private readonly url: string,
    opts: LinkOptions = {},
  ) {
    this.where = redactUrl(url);
    this.timeoutMs = opts.timeoutMs ?? 1000;
    const log = opts.log ?? (() => {});
    this.notices = new LinkNotices(this.where, log, opts.info ?? log);
    this.probeKey = opts.probeKey ?? DEFAULT_KEYS.probe;
    this.probeMs = opts.probeMs ?? 500;
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
    this.reconnectMs = 200;
    this.refusing = false;
    // Connected is not usable: a Redis loading its data or out of memory takes connections too.
    if (!(await this.probeOnce(client))) return this.startProbing();
    this.markUp();
  }

  private markUp(): void {
    if (this.downSince !== null && this.lastError !== "not connected yet") this.notices.up();
    this.downSince = null;
    this.lastError = null;
    this.refusing = false;
  }

  /** One probe write on `client`; false (lastError set) when Redis refuses it; throws when it does not answer. */
  private async probeOnce(client: RedisClient): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await Promise.race([
        client.send("SET", [this.probeKey, String(Date.now()), "PX", "10000"]),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${this.timeoutMs} ms`)), this.timeoutMs);
        }),
      ]);
      return true;
    } catch (e) {
      if (!isErrorReply(e)) throw e;
      this.lastError = this.scrub((e as Error).message);
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Redis answered a command with an error: down until a probe write succeeds. */
  private markRefusing(reason: string): void {
    if (this.closed) return;
    const was = this.up;
    this.downSince ??= Date.now();
    this.lastError = this.scrub(reason);
    this.lastRefusal = { at: Date.now(), error: this.lastError };
    if (was) this.notices.refusing(this.lastError);
    this.startProbing();
  }

  private startProbing(): void {
    this.refusing = true;
    if (this.probe || this.closed) return;
    this.probe = setTimeout(async () => {
      this.probe = null;
      const client = this.client;
      if (!client || this.closed || !this.refusing) return;
      try {
        if (await this.probeOnce(client)) return this.markUp();
      } catch (e) {
        return this.markDown((e as Error).message);
      }
      this.startProbing();
    }, this.probeMs * this.notices.backoff);
    this.probe.unref?.();
  }

  private scrub(message: string): string {
    return scrubPassword(message.replaceAll(this.url, this.where), this.url);
  }

  private markDown(reason: string): void {
    if (this.closed) return;
    const was = this.up;
    this.downSince ??= Date.now();
    this.lastError = this.scrub(reason);
    this.refusing = false;
    const old = [this.client, this.subscriber];
    this.client = null;
    this.subscriber = null;
    for (const c of old)
      if (c) {
        c.onclose = null;
        c.close();
      }
    if (was) this.notices.unreachable(this.lastError);
    this.timer ??= setTimeout(() => {
      this.timer = null;
      this.connect().catch((e) => {
        this.reconnectMs = Math.min(2000, this.reconnectMs * 2);
        // connect() says RedisDown: its reason, not its whole message ("Redis is unreachable (Redis is unreachable (…): …): …" had been said: a walkthrough).
        this.markDown(e instanceof RedisDown ? e.reason : (e as Error).message);
      });
    }, this.reconnectMs);
    this.timer.unref?.();
  }

  /** One command; RedisDown when Redis is away or does not answer within the timeout. */
  async send<T = unknown>(command: string, args: string[]): Promise<T> {
    const client = this.client;
    if (!client || !client.connected) throw new RedisDown(this.lastError ?? "not connected");
    if (this.refusing) throw new RedisDown(this.lastError ?? "refusing commands", true);
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
        this.markDown(e.reason);
        throw e;
      }
      if (isErrorReply(e)) {
        // The script cache emptied by a restart: the caller loads the script again.
        if (replyClass(e) === "NOSCRIPT") throw e;
        this.markRefusing((e as Error).message);
        throw new RedisDown(this.scrub((e as Error).message), true);
      }
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
      if (!isErrorReply(e) || replyClass(e) !== "NOSCRIPT") throw e;
    }
    // Redis restarted (its script cache is empty): loaded again and tried once more; NOSCRIPT twice
    // in a row is a Redis that does not keep scripts, and unusable as one that refuses them.
    this.scripts.delete(script);
    sha = (await this.send<string>("SCRIPT", ["LOAD", script])) as string;
    this.scripts.set(script, sha);
    try {
      return await this.send<T>("EVALSHA", [sha, String(keys.length), ...keys, ...args]);
    } catch (e) {
      if (!isErrorReply(e)) throw e;
      this.markRefusing((e as Error).message);
      throw new RedisDown(this.scrub((e as Error).message), true);
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
    this.notices.close();
    if (this.timer) clearTimeout(this.timer);
    if (this.probe) clearTimeout(this.probe);
    for (const c of [this.client, this.subscriber])
      if (c) {
        c.onclose = null;
        c.close();
      }
    this.client = null;
    this.subscriber = null;
  }
}
