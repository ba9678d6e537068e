export interface LimiterOptions {
  /** Failed attempts from one address allowed within `periodMs`; the next one locks it out. */
  maxFailures: number;
  periodMs: number;
  /** How long an address stays locked out. */
  lockMs: number;
}

interface Entry {
  failures: number;
  since: number;
  lockedUntil: number;
}

/** Counts failed authentications per client address and locks out an address that keeps failing. */
export class FailureLimiter {
  private readonly entries = new Map<string, Entry>();

  constructor(readonly opts: LimiterOptions) {}

  /** Milliseconds left on a lock-out, or 0 when the address may try. */
  lockedFor(addr: string, now: number): number {
    const e = this.entries.get(addr);
    return e && e.lockedUntil > now ? e.lockedUntil - now : 0;
  }

  fail(addr: string, now: number): void {
    let e = this.entries.get(addr);
    if (!e || now - e.since > this.opts.periodMs) {
      e = { failures: 0, since: now, lockedUntil: 0 };
      this.entries.set(addr, e);
    }
    e.failures++;
    if (e.failures >= this.opts.maxFailures) {
      e.lockedUntil = now + this.opts.lockMs;
      e.failures = 0;
      e.since = e.lockedUntil;
    }
    if (this.entries.size > 10_000) this.sweep(now);
  }

  succeed(addr: string): void {
    this.entries.delete(addr);
  }

  private sweep(now: number): void {
    for (const [addr, e] of this.entries) if (e.lockedUntil <= now && now - e.since > this.opts.periodMs) this.entries.delete(addr);
  }
}
