/**
 * The one "Redis away → this instance alone" decision (issue 36 A), for every user of the
 * cluster's Redis. A call goes to Redis; when it rejects with RedisDown — Redis unreachable,
 * slower than the link's time-out, or answering with an error reply (OOM, READONLY, LOADING,
 * MISCONF, WRONGTYPE, BUSY, …: unusable as one that is away, store/redis/link.ts) — the user's
 * `whenAway` decides: its own structure in this instance's memory answers (`{ local }`), or the
 * refusal reaches its caller (REFUSE: nonces, where a replay at another instance would pass, and
 * the pieces whose caller decides). Any other error is a real failure and is thrown as it is.
 *
 * Nothing here waits on a Redis known to be away or keeps state of its own: while the link is
 * down it rejects every call at once without reaching Redis, so each call tries Redis and the
 * first one after the link is back goes through. The outage is logged once, by the link, when it
 * goes down and when it answers again — never once per fallen-back call
 * (test/cluster/fallback.test.ts).
 */
import { RedisDown } from "./redis-down.ts";

/** RedisDown reaches the caller: one instance's memory would not do. */
export const REFUSE = "refuse";

export type WhenAway<T> = { local: () => T | Promise<T> } | typeof REFUSE;

/** Redis's answer; while Redis is away, `whenAway`'s. */
export async function viaRedis<T>(call: () => Promise<T>, whenAway: WhenAway<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    if (!(e instanceof RedisDown) || whenAway === REFUSE) throw e;
    return whenAway.local();
  }
}

/**
 * Not awaited and whatever becomes of it ignored: what Redis would be told is also seen to another
 * way (a lease that ends by itself, a claim that lapses, a notice the others also learn by polling).
 */
export function inBackground(call: () => Promise<unknown>): void {
  call().catch(() => {});
}
