/** Clocks, injected so tests can move time without sleeping. */
export interface Clock {
  /** Wall clock: milliseconds since the Unix epoch. It can jump (NTP, an operator, a dead RTC). */
  now(): number;
  /** Monotonic milliseconds from an arbitrary origin: never goes back, for measuring elapsed time. */
  monotonic(): number;
}

export const systemClock: Clock = { now: () => Date.now(), monotonic: () => performance.now() };

/**
 * A test clock: `advance` moves both clocks (time passes), `set` moves only the wall clock (someone
 * stepped it), as a real machine's clocks behave.
 */
export function fixedClock(start: number): Clock & { set(ms: number): void; advance(ms: number): void } {
  let t = start;
  let mono = 0;
  return {
    now: () => t,
    monotonic: () => mono,
    set: (ms) => void (t = ms),
    advance: (ms) => {
      t += ms;
      mono += ms;
    },
  };
}
