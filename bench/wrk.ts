/** What scripts/soak and scripts/bench read from wrk's `--latency` output. */
export interface WrkResult {
  requests: number;
  rps: number;
  /** As wrk prints them ("6.51ms", "950.00us"), and in milliseconds. */
  p50: string;
  p99: string;
  p50_ms: number;
  p99_ms: number;
  non2xx: number;
  socketErrors: number;
}

const toMs = (s: string) => (s.endsWith("us") ? Number(s.slice(0, -2)) / 1000 : s.endsWith("ms") ? Number(s.slice(0, -2)) : s.endsWith("s") ? Number(s.slice(0, -1)) * 1000 : NaN);

export function parseWrk(out: string): WrkResult {
  const p50 = /^\s+50%\s+(\S+)/m.exec(out)?.[1] ?? "";
  const p99 = /^\s+99%\s+(\S+)/m.exec(out)?.[1] ?? "";
  return {
    requests: Number(/(\d+) requests in/.exec(out)?.[1] ?? 0),
    rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0),
    p50,
    p99,
    p50_ms: toMs(p50),
    p99_ms: toMs(p99),
    non2xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
    socketErrors: (/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)?.slice(1) ?? []).reduce((n, x) => n + Number(x), 0),
  };
}
