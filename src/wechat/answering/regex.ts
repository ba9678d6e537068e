/**
 * Operator regex rules, one account's: input capped at MAX_INPUT characters, run on a thread with
 * a deadline (regex-thread.ts: this matcher's own, or one shared by every account of the process).
 * A pattern that times out STRIKES times is disabled: skipped, reported in health and the log,
 * until the operator writes the rules again.
 */
import { RegexThread, type RegexOwner } from "./regex-thread.ts";

export const MAX_INPUT = 512;
/** Timeouts after which a pattern is disabled. */
export const STRIKES = 2;

export interface DisabledPattern {
  pattern: string;
  timeouts: number;
  since: string;
}

export class RegexMatcher {
  private readonly strikes = new Map<string, number>();
  private readonly disabledPatterns = new Map<string, DisabledPattern>();
  private rulesVersion = -1;
  private readonly thread: RegexThread;
  /** The thread probe() runs on, made when first asked: the operator's reads never queue before a follower's match. */
  private probeThread: RegexThread | null = null;
  /** Whether the thread is this matcher's own (closed with it) rather than shared. */
  private readonly ownThread: boolean;
  private readonly owner: RegexOwner = {
    timedOut: (pattern) => (pattern !== null ? this.strike(pattern) : this.log(`a regex match took over ${this.thread.timeoutMs} ms and was treated as not matching`)),
    isDisabled: (pattern) => this.disabledPatterns.has(pattern),
  };

  constructor(
    timeoutMs = 100,
    private readonly log: (message: string) => void = () => {},
    private readonly now: () => number = Date.now,
    /** A thread shared with other accounts' matchers; without one, this matcher starts its own (with `timeoutMs`). */
    shared?: RegexThread,
  ) {
    this.thread = shared ?? new RegexThread(timeoutMs);
    this.ownThread = !shared;
  }

  /** Patterns disabled for timing out, for health. */
  disabled(): DisabledPattern[] {
    return [...this.disabledPatterns.values()];
  }

  /**
   * Positions (in `patterns`) of the patterns that match `text`; none when the deadline passes
   * twice. `rulesVersion` changes whenever the operator writes the rules: disabled patterns are
   * given another chance then.
   */
  match(patterns: string[], text: string, rulesVersion = 0): Promise<Set<number>> {
    if (rulesVersion !== this.rulesVersion) {
      if (this.disabledPatterns.size) this.log(`the rules were written: ${this.disabledPatterns.size} disabled regex rule(s) enabled again`);
      this.rulesVersion = rulesVersion;
      this.disabledPatterns.clear();
      this.strikes.clear();
    }
    return runEnabled(this.thread, this.owner, patterns, text);
  }

  /**
   * As `match`, for what the operator reads rather than for a follower (the inbox's "now", server/answered-now.ts):
   * on a thread of its own, so that a follower's match never waits behind these (a review: queued behind
   * them, one could miss its deadline and strike its rule); a pattern that misses the deadline is no
   * strike against it — null then, the match not known. The rules written since the last follower's
   * message (`rulesVersion`) have none disabled, as that message's match would find them.
   */
  probe(patterns: string[], text: string, rulesVersion = this.rulesVersion): Promise<Set<number> | null> {
    const disabled = rulesVersion === this.rulesVersion ? this.disabledPatterns : new Map<string, DisabledPattern>();
    let late = false;
    const owner: RegexOwner = { timedOut: () => void (late = true), isDisabled: (pattern) => disabled.has(pattern) };
    this.probeThread ??= new RegexThread(this.thread.timeoutMs);
    return runEnabled(this.probeThread, owner, patterns, text).then((hits) => (late ? null : hits));
  }

  private strike(pattern: string): void {
    const n = (this.strikes.get(pattern) ?? 0) + 1;
    this.strikes.set(pattern, n);
    if (n < STRIKES) {
      this.log(`a regex rule took over ${this.thread.timeoutMs} ms and was treated as not matching: ${pattern}`);
      return;
    }
    this.disabledPatterns.set(pattern, { pattern, timeouts: n, since: new Date(this.now()).toISOString() });
    this.log(`a regex rule timed out ${n} times and is disabled until the rules are written again: ${pattern}`);
  }

  /** Ends its own thread; a shared one is its owner's to close. */
  close(): void {
    if (this.ownThread) this.thread.close();
    this.probeThread?.close();
  }
}

/** Positions (in `patterns`) of those `owner` has not disabled that match `text`, cut to MAX_INPUT, run on `thread`. */
function runEnabled(thread: RegexThread, owner: RegexOwner, patterns: string[], text: string): Promise<Set<number>> {
  const positions = patterns.flatMap((p, i) => (owner.isDisabled(p) ? [] : [i]));
  if (!positions.length) return Promise.resolve(new Set());
  return thread.run(owner, positions, positions.map((i) => patterns[i] as string), text.slice(0, MAX_INPUT));
}
