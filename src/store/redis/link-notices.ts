/**
 * What the log says of the link to the cluster's Redis: each change once — unreachable, refusing
 * commands, answering again — and a Redis at a limit once, not twice a second. Full under
 * `noeviction`, a Redis takes the link's small probe write and refuses the next real one: it went
 * "refuses commands", "answers again", "refuses commands" 9 ms later for half a minute (a
 * walkthrough). Refused again within `flapMs` of taking commands is that: said once, the probes
 * spaced out (backoff), and "answers again" said once it has held for `flapMs`.
 */
export const FLAP_MS = 10_000;

export class LinkNotices {
  private upAt = -Infinity;
  private flaps = 0;
  private held: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly where: string,
    private readonly log: (message: string) => void,
    private readonly info: (message: string) => void,
    private readonly flapMs = FLAP_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** How many times the usual probe interval to wait: doubling with each flap, at most 16. */
  get backoff(): number {
    return 2 ** Math.min(this.flaps, 4);
  }

  /** Redis takes commands again after it was away or refused them. */
  up(): void {
    this.upAt = this.now();
    if (!this.flaps) return this.info(`Redis at ${this.where} answers again`);
    this.stopWaiting();
    this.held = setTimeout(() => {
      this.held = null;
      this.flaps = 0;
      this.info(`Redis at ${this.where} answers again, and has taken commands for ${this.flapMs / 1000} s`);
    }, this.flapMs);
    this.held.unref?.();
  }

  /** Redis answered a command with an error, having taken them until then. */
  refusing(reason: string): void {
    this.stopWaiting();
    const after = this.now() - this.upAt;
    if (after < this.flapMs) {
      if (!this.flaps++)
        this.log(
          `Redis at ${this.where} refuses commands again ${after} ms after taking them (${reason}): it is at a limit (its memory?); followers are answered by each instance alone while it does, and the log says no more of it until it has taken commands for ${this.flapMs / 1000} s`,
        );
      return;
    }
    this.flaps = 0;
    this.log(`Redis at ${this.where} refuses commands (${reason}); followers are answered by each instance alone until it takes them again`);
  }

  /** The connection to Redis is lost, or a command went unanswered. */
  unreachable(reason: string): void {
    this.stopWaiting();
    this.flaps = 0;
    this.log(`Redis at ${this.where} is unreachable (${reason}); trying again`);
  }

  close(): void {
    this.stopWaiting();
  }

  private stopWaiting(): void {
    if (this.held) clearTimeout(this.held);
    this.held = null;
  }
}
