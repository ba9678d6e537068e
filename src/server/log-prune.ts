/**
 * --log-days, kept by the clock: the message log and the model calls' log are pruned when the
 * server starts (before it listens) and then every hour, whether or not a message arrives — a
 * quiet account's old questions go as surely as a busy one's.
 */
import type { Clock } from "../base/clock.ts";
import type { FollowerLog } from "../store/follower-log.ts";

export const PRUNE_EVERY_MS = 3600_000;

export interface LogPruneOptions {
  log: Pick<FollowerLog, "prune">;
  days: number;
  clock: Clock;
  /** How often after the first; an hour but in tests. */
  everyMs?: number;
  /** The clock warning for health (null: none), set after every prune. */
  warn(warning: string | null): void;
  emit(fields: Record<string, unknown>): void;
}

export interface LogPrune {
  stop(): void;
}

/** Prunes once now (awaited) and then every `everyMs`; a failed prune is logged and tried again at the next. */
export async function startLogPrune(o: LogPruneOptions): Promise<LogPrune> {
  const prune = async () => {
    try {
      const now = o.clock.now();
      const { removed, removedCalls, newest } = await o.log.prune(o.days, now);
      if (removed || removedCalls) o.emit({ event: "log_pruned", log_days: o.days, messages: removed, model_calls: removedCalls });
      // The newest message logged is from the future: this clock is behind, or was ahead before.
      const skew = newest === null ? 0 : Date.parse(newest) - now;
      const warning = skew > 60_000 ? `the newest logged message (${newest}) is ${Math.round(skew / 1000)} s after this server's clock: the clock is behind, or ran ahead earlier; check NTP` : null;
      o.warn(warning);
      if (warning) o.emit({ level: "warn", msg: warning });
    } catch (e) {
      o.emit({ level: "error", msg: `message log prune failed: ${(e as Error).message}` });
    }
  };
  await prune();
  // Prunes never overlap: the next is scheduled when one ends.
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  const next = () => {
    if (stopped) return;
    timer = setTimeout(() => void prune().finally(next), o.everyMs ?? PRUNE_EVERY_MS);
    timer.unref();
  };
  next();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
