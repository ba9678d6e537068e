/**
 * How many model calls followers may cause (docs/answers.md "Caps"): `perFollower` per follower in
 * any hour, `daily` in all in any 24 hours — rolling windows, so no time zone decides when a day
 * starts. Past either, the follower gets the retrieval reply. One instance counts in memory,
 * starting from the calls its store logged in the last 24 hours (a restart forgets nothing); a
 * cluster counts in Redis, and each instance on its own while Redis is away.
 */
import { RedisDown, type RedisLink } from "../store/redis/link.ts";

export interface CapLimits {
  perFollower: number;
  daily: number;
}

export type CapReached = "follower" | "daily";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export interface Caps {
  readonly limits: CapLimits;
  /** Counts one call for `openid` at `nowMs`, unless a cap is reached: null when counted, else the cap. */
  take(openid: string, nowMs: number): Promise<CapReached | null>;
  /** Calls counted in the last 24 hours. */
  used(nowMs: number): Promise<number>;
}

export class LocalCaps implements Caps {
  /** Call times of the last 24 hours, oldest first. */
  private readonly day: number[] = [];
  private readonly followers = new Map<string, number[]>();

  constructor(
    readonly limits: CapLimits,
    history: readonly { openid: string; atMs: number }[] = [],
  ) {
    for (const h of [...history].sort((a, b) => a.atMs - b.atMs)) this.count(h.openid, h.atMs);
  }

  private count(openid: string, at: number): void {
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

  async take(openid: string, nowMs: number): Promise<CapReached | null> {
    this.forget(nowMs);
    const f = this.followers.get(openid);
    if (f) {
      while (f.length && (f[0] as number) <= nowMs - HOUR) f.shift();
      if (f.length >= this.limits.perFollower) return "follower";
    }
    if (this.day.length >= this.limits.daily) return "daily";
    this.count(openid, nowMs);
    return null;
  }

  async used(nowMs: number): Promise<number> {
    this.forget(nowMs);
    return this.day.length;
  }
}

/** Both windows checked and counted in one script: of two instances at the last call allowed, one gets it. */
const TAKE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1] - ${DAY})
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[1] - ${HOUR})
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[2]) then return 'follower' end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 'daily' end
redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ${DAY})
redis.call('ZADD', KEYS[2], ARGV[1], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ${HOUR})
return 'ok'`;

export class SharedCaps implements Caps {
  constructor(
    private readonly link: RedisLink,
    /** This instance's own count, used while Redis is away (and kept in step meanwhile). */
    private readonly local: LocalCaps,
    private readonly prefix = "replyd:ai:caps:",
  ) {}

  get limits(): CapLimits {
    return this.local.limits;
  }

  async take(openid: string, nowMs: number): Promise<CapReached | null> {
    const member = `${nowMs}:${crypto.randomUUID()}`;
    try {
      const got = await this.link.eval<string>(TAKE, [`${this.prefix}day`, `${this.prefix}f:${openid}`], [String(nowMs), String(this.limits.perFollower), String(this.limits.daily), member]);
      if (got === "ok") {
        void this.local.take(openid, nowMs);
        return null;
      }
      return got === "follower" ? "follower" : "daily";
    } catch (e) {
      if (!(e instanceof RedisDown)) throw e;
      return this.local.take(openid, nowMs);
    }
  }

  async used(nowMs: number): Promise<number> {
    try {
      await this.link.send("ZREMRANGEBYSCORE", [`${this.prefix}day`, "-inf", String(nowMs - DAY)]);
      return Number(await this.link.send("ZCARD", [`${this.prefix}day`]));
    } catch (e) {
      if (!(e instanceof RedisDown)) throw e;
      return this.local.used(nowMs);
    }
  }
}
