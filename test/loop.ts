/**
 * How long the event loop is held while `work` runs: a 1 ms timer runs whenever the loop is free,
 * and the longest gap between its runs (or from the last run to the end) is the longest it was held.
 * Measured as this thread's CPU time across the gap (`longestMs`), not the clock's (`longestWallMs`):
 * on a shared machine the process is also paused by the scheduler, and a 58 ms gap of which the
 * thread ran 12 ms says nothing of the code — the CPU time is what the work held the loop for,
 * and what slicing bounds.
 */
const threadMs = () => {
  const u = process.threadCpuUsage();
  return (u.user + u.system) / 1000;
};

export async function watchingLoop<T>(work: () => Promise<T>): Promise<{ value: T; longestMs: number; longestWallMs: number; ticks: number }> {
  let ticks = 0;
  let longestMs = 0;
  let longestWallMs = 0;
  let last = performance.now();
  let lastCpu = threadMs();
  const gap = () => {
    const now = performance.now();
    const cpu = threadMs();
    longestWallMs = Math.max(longestWallMs, now - last);
    longestMs = Math.max(longestMs, cpu - lastCpu);
    last = now;
    lastCpu = cpu;
  };
  const timer = setInterval(() => {
    gap();
    ticks++;
  }, 1);
  try {
    const value = await work();
    gap();
    return { value, longestMs, longestWallMs, ticks };
  } finally {
    clearInterval(timer);
  }
}
