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
