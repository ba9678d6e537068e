import { inBackground, viaRedis } from "../cluster/fallback.ts";
import { DEFAULT_KEYS, type Keyspace } from "../cluster/keyspace.ts";
import type { RedisLink } from "../store/redis/link.ts";

export interface LimiterOptions {
  /** Failed attempts from one address allowed within `periodMs`; the next one locks it out. */
  maxFailures: number;
  periodMs: number;
  /** How long an address stays locked out. */
  lockMs: number;
  /** Addresses remembered at once; past it the oldest is forgotten (memory stays bounded). */
  maxEntries: number;
}

interface Entry {
  failures: number;
  since: number;
  lockedUntil: number;
}

/**
 * Which address a failure counts against: an IPv4 address as it is (also when IPv4-mapped), an
 * IPv6 address by its /64, the smallest block one subscriber is given, so that rotating through a
 * prefix's addresses does not escape the count.
 */
export function limiterKey(addr: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(addr);
  if (mapped) return mapped[1] as string;
  if (!addr.includes(":")) return addr;
  const [head = "", tail] = addr.toLowerCase().split("::", 2);
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, "")).join(":") + "::/64";
}

/**
 * Counts failed authentications per client address and locks out an address that keeps failing.
 * A lock-out never refuses a valid signature (the caller checks the signature first); it turns an
 * address's further failures into 429s. Memory and per-request cost are bounded: at most
 * `maxEntries` addresses (the oldest forgotten first, in O(1)), and expired entries are swept at most
 * once a period.
 */
export class FailureLimiter {
  private readonly entries = new Map<string, Entry>();
  private nextSweep = 0;
  /** Sweeps run so far (each visits every entry once): how tests see the sweep is not per request. */
  sweeps = 0;

  constructor(readonly opts: LimiterOptions) {}

  /** Milliseconds left on a lock-out, or 0 when the address is not locked out. */
  lockedFor(addr: string, now: number): number {
    const e = this.entries.get(limiterKey(addr));
    return e && e.lockedUntil > now ? e.lockedUntil - now : 0;
  }

  /** Counts a failure; answers the milliseconds left on a lock-out that was already in force. */
  failed(addr: string, now: number): number {
    const locked = this.lockedFor(addr, now);
    this.fail(addr, now);
    return locked;
  }

  fail(addr: string, now: number): void {
    const key = limiterKey(addr);
    let e = this.entries.get(key);
    if (!e || now - e.since > this.opts.periodMs) {
      if (!e) {
        if (now >= this.nextSweep) this.sweep(now);
        if (this.entries.size >= this.opts.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
      }
      e = { failures: 0, since: now, lockedUntil: e?.lockedUntil ?? 0 };
      this.entries.set(key, e);
    }
    if (e.lockedUntil > now) return; // already locked out: the lock runs its course
    e.failures++;
    if (e.failures >= this.opts.maxFailures) {
      e.lockedUntil = now + this.opts.lockMs;
      e.failures = 0;
      e.since = e.lockedUntil;
    }
  }

  /** A valid signature clears the address's count, not a lock in force (others may share the address). */
  succeed(addr: string, now: number): void {
    const key = limiterKey(addr);
    const e = this.entries.get(key);
    if (e && e.lockedUntil <= now) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private sweep(now: number): void {
    this.sweeps++;
    this.nextSweep = now + this.opts.periodMs;
    for (const [key, e] of this.entries) if (e.lockedUntil <= now && now - e.since > this.opts.periodMs) this.entries.delete(key);
  }
}

/**
 * Failed admin authentications counted across the cluster (issue 15): ten failures spread over
 * three instances lock the address at all of them. One script per failure: it answers the lock-out
 * already in force (milliseconds left) and counts the failure, so a failure costs one round trip.
 *
 * Redis away: the instance counts on its own (the local limiter), so guessing is still slowed; the
 * admin interface refuses valid requests with 503 anyway while replay protection is down.
 */
const FAIL = `
local locked = redis.call('PTTL', KEYS[2])
if locked > 0 then return locked end
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
if n >= tonumber(ARGV[1]) then
  redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
  redis.call('DEL', KEYS[1])
end
return 0`;

const SUCCEED = `if redis.call('EXISTS', KEYS[2]) == 0 then redis.call('DEL', KEYS[1]) end return 0`;

export class SharedLimiter {
  constructor(
    private readonly link: RedisLink,
    /** The per-instance count, used while Redis is away; its options are the cluster's too. */
    private readonly local: FailureLimiter,
    private readonly names: Keyspace = DEFAULT_KEYS,
  ) {}

  private keys(addr: string): string[] {
    const k = limiterKey(addr);
    return [this.names.failCount(k), this.names.failLock(k)];
  }

  /** Counts a failure; answers the milliseconds left on a lock-out that was already in force. */
  async failed(addr: string, now: number): Promise<number> {
    const o = this.local.opts;
    return viaRedis(async () => Number(await this.link.eval(FAIL, this.keys(addr), [String(o.maxFailures), String(o.periodMs), String(o.lockMs)])), {
      local: () => this.local.failed(addr, now),
    });
  }

  /** Not awaited: a valid request does not wait on clearing a count. */
  succeed(addr: string, now: number): void {
    this.local.succeed(addr, now);
    inBackground(() => this.link.eval(SUCCEED, this.keys(addr), []));
  }
}
