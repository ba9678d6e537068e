/**
 * How long the event loop is held while `work` runs: a 1 ms timer runs whenever the loop is free,
 * and the longest gap between its runs (or from the last run to the end) is the longest it was held.
 */
export async function watchingLoop<T>(work: () => Promise<T>): Promise<{ value: T; longestMs: number; ticks: number }> {
  let ticks = 0;
  let longestMs = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longestMs = Math.max(longestMs, now - last);
    last = now;
    ticks++;
  }, 1);
  try {
    const value = await work();
    return { value, longestMs: Math.max(longestMs, performance.now() - last), ticks };
  } finally {
    clearInterval(timer);
  }
}
