/**
 * How many model calls followers may cause (docs/answers.md "Caps"): `perFollower` per follower in
 * any hour, `perMinute` in all in any 60 seconds, `daily` in all in any 24 hours — rolling windows,
 * so no time zone decides when a day starts — and at most `concurrency` calls in flight at once.
 * Past any of them the follower gets the retrieval reply. The minute's budget is what keeps one
 * follower with a hundred IDs from spending the day's in seconds, and the calls in flight what
 * keeps a burst from opening hundreds of connections to the endpoint.
 *
 * One instance counts in memory, starting from the calls its store logged in the last 24 hours
 * (a restart forgets nothing); a cluster counts in Redis, and each instance on its own while
 * Redis is away. A cluster's call in flight holds a lease in Redis that ends when the call ends,
 * or at the latest `leaseMs` after it started, so an instance killed mid-call frees its places.
 */
import { RedisDown, type RedisLink } from "../store/redis/link.ts";

export interface CapLimits {
  perFollower: number;
  perMinute: number;
  daily: number;
  concurrency: number;
}

export type CapReached = "follower" | "minute" | "daily" | "concurrency";
export const CAPS_REACHED: readonly CapReached[] = ["follower", "minute", "daily", "concurrency"];

/** A call's place among those in flight: released when the call ends, whatever its end. */
export interface Slot {
  release(): void;
}

export interface CapsUse {
  /** Calls counted in the last 24 hours, and in the last minute. */
  day: number;
  minute: number;
  inFlight: number;
}

export interface Caps {
  readonly limits: CapLimits;
  /** Counts one call for `openid` at `nowMs` and takes a place in flight, unless a cap is reached: the place, or the cap. */
  take(openid: string, nowMs: number): Promise<Slot | CapReached>;
  used(nowMs: number): Promise<CapsUse>;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export class LocalCaps implements Caps {
  /** Call times of the last 24 hours, oldest first. */
  private readonly day: number[] = [];
  private readonly followers = new Map<string, number[]>();
  private inFlight = 0;

  constructor(
    readonly limits: CapLimits,
    history: readonly { openid: string; atMs: number }[] = [],
  ) {
    for (const h of [...history].sort((a, b) => a.atMs - b.atMs)) this.count(h.openid, h.atMs);
  }

  /** Counts a call in the windows (one the cluster counted: this instance keeps in step for when Redis is away). */
  count(openid: string, at: number): void {
    this.day.push(at);
    const f = this.followers.get(openid);
    if (f) f.push(at);
    else this.followers.set(openid, [at]);
  }

  private forget(nowMs: number): void {
    while (this.day.length && (this.day[0] as number) <= nowMs - DAY) this.day.shift();
    // Every follower kept has a call in the last hour, and those are among the day's: the map stays within `daily`.
    if (this.followers.size > this.limits.daily)
      for (const [k, v] of this.followers) if ((v.at(-1) as number) <= nowMs - HOUR) this.followers.delete(k);
  }

  /** Calls in the last minute: counted from the newest back, so never more than the minute's budget and one are looked at. */
  private lastMinute(nowMs: number): number {
    let n = 0;
    for (let i = this.day.length - 1; i >= 0 && (this.day[i] as number) > nowMs - MINUTE; i--) n++;
    return n;
  }

  async take(openid: string, nowMs: number): Promise<Slot | CapReached> {
    this.forget(nowMs);
    const f = this.followers.get(openid);
    if (f) {
      while (f.length && (f[0] as number) <= nowMs - HOUR) f.shift();
      if (f.length >= this.limits.perFollower) return "follower";
    }
    if (this.lastMinute(nowMs) >= this.limits.perMinute) return "minute";
    if (this.day.length >= this.limits.daily) return "daily";
    if (this.inFlight >= this.limits.concurrency) return "concurrency";
    this.count(openid, nowMs);
    return this.place();
  }

  /** A place in flight, released once. */
  place(): Slot {
    this.inFlight++;
    let held = true;
    return {
      release: () => {
        if (held) (held = false), this.inFlight--;
      },
    };
  }

  async used(nowMs: number): Promise<CapsUse> {
    this.forget(nowMs);
    return { day: this.day.length, minute: this.lastMinute(nowMs), inFlight: this.inFlight };
  }
}

/** Every window checked and counted, and a place in flight leased, in one script: of two instances at the last call allowed, one gets it. ARGV[1] (the instance's time) only names the call. */
const TAKE = `
-- Redis's clock, not the instance's: instances whose clocks differ count the same windows.
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ${DAY})
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - ${HOUR})
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then return 'follower' end
if redis.call('ZCOUNT', KEYS[1], '(' .. (now - ${MINUTE}), '+inf') >= tonumber(ARGV[5]) then return 'minute' end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 'daily' end
if redis.call('ZCARD', KEYS[3]) >= tonumber(ARGV[6]) then return 'concurrency' end
redis.call('ZADD', KEYS[1], now, ARGV[4])
redis.call('PEXPIRE', KEYS[1], ${DAY})
redis.call('ZADD', KEYS[2], now, ARGV[4])
redis.call('PEXPIRE', KEYS[2], ${HOUR})
redis.call('ZADD', KEYS[3], now + tonumber(ARGV[7]), ARGV[4])
redis.call('PEXPIRE', KEYS[3], tonumber(ARGV[7]))
return 'ok'`;

/** The cluster's use: the day's and the minute's calls, and the places leased now. */
const USED = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ${DAY})
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
return {redis.call('ZCARD', KEYS[1]), redis.call('ZCOUNT', KEYS[1], '(' .. (now - ${MINUTE}), '+inf'), redis.call('ZCARD', KEYS[2])}`;

export class SharedCaps implements Caps {
  constructor(
    private readonly link: RedisLink,
    /** This instance's own count, used while Redis is away (and kept in step meanwhile). */
    private readonly local: LocalCaps,
    /** The longest a call can last (the model's time-out and a margin): a place leased is free after it whatever happens. */
    private readonly leaseMs: number,
    private readonly prefix = "replyd:ai:caps:",
  ) {}

  get limits(): CapLimits {
    return this.local.limits;
  }

  async take(openid: string, nowMs: number): Promise<Slot | CapReached> {
    const member = `${nowMs}:${crypto.randomUUID()}`;
    const l = this.limits;
    let got: string;
    try {
      got = await this.link.eval<string>(
        TAKE,
        [`${this.prefix}day`, `${this.prefix}f:${openid}`, `${this.prefix}flight`],
        [String(nowMs), String(l.perFollower), String(l.daily), member, String(l.perMinute), String(l.concurrency), String(this.leaseMs)],
      );
    } catch (e) {
      if (!(e instanceof RedisDown)) throw e;
      return this.local.take(openid, nowMs);
    }
    if (got !== "ok") return (CAPS_REACHED as readonly string[]).includes(got) ? (got as CapReached) : "daily";
    this.local.count(openid, nowMs);
    const here = this.local.place();
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        here.release();
        // Redis away now: the lease ends by itself.
        void this.link.send("ZREM", [`${this.prefix}flight`, member]).catch(() => {});
      },
    };
  }

  async used(nowMs: number): Promise<CapsUse> {
    try {
      const [day, minute, inFlight] = await this.link.eval<number[]>(USED, [`${this.prefix}day`, `${this.prefix}flight`], [String(nowMs)]);
      return { day: Number(day), minute: Number(minute), inFlight: Number(inFlight) };
    } catch (e) {
      if (!(e instanceof RedisDown)) throw e;
      return this.local.used(nowMs);
    }
  }
}
