import { REFUSE, viaRedis } from "../cluster/fallback.ts";
import { DEFAULT_KEYS, type Keyspace } from "../cluster/keyspace.ts";
import type { RedisLink } from "../store/redis/link.ts";

/**
 * Nonces seen recently. A nonce only has to be remembered while a request carrying it could still
 * pass the timestamp check, i.e. until its ts + window; after that the timestamp refuses it anyway.
 * Only requests with a valid signature get here, so the cache cannot be flooded by strangers.
 */
export class NonceCache {
  private readonly expiries = new Map<string, number>();
  private nextSweep = 0;

  /** Records the nonce; false when it was already seen and is still remembered. */
  remember(nonce: string, expiresAt: number, now: number): boolean {
    if (now >= this.nextSweep) this.sweep(now);
    const known = this.expiries.get(nonce);
    if (known !== undefined && known > now) return false;
    this.expiries.set(nonce, expiresAt);
    return true;
  }

  private sweep(now: number): void {
    for (const [nonce, exp] of this.expiries) if (exp <= now) this.expiries.delete(nonce);
    this.nextSweep = now + 1000;
  }

  get size(): number {
    return this.expiries.size;
  }
}

/**
 * Admin nonces remembered for the whole cluster (issue 15): a request accepted by one instance is
 * refused as a replay by every other. SET NX with the nonce's remaining life as its expiry, so Redis
 * forgets it when the timestamp check would refuse it anyway. Redis away: RedisDown, and the admin
 * interface answers 503 — without shared nonces a replay at another instance would pass.
 */
export class SharedNonces {
  constructor(
    private readonly link: RedisLink,
    private readonly keys: Keyspace = DEFAULT_KEYS,
  ) {}

  async remember(nonce: string, expiresAt: number, now: number): Promise<boolean> {
    const ttl = Math.max(1, Math.ceil(expiresAt - now));
    return (await viaRedis(() => this.link.send<string | null>("SET", [this.keys.nonce(nonce), "1", "PX", String(ttl), "NX"]), REFUSE)) === "OK";
  }
}
