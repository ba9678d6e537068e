/**
 * What the message log's writer thread and the stores' side of it say to each other
 * (log-thread.ts posts, log-worker.ts answers): a batch of rows, a channel opened or closed, and a
 * failure reported. Apart from both so that neither imports the other.
 */
import type { LogBatch } from "./log-rows.ts";

export interface LogWorkerReport {
  error: string;
  /** The failure's code (SQLITE_FULL …), when it is being retried. */
  code?: string;
  retrying?: boolean;
}

export type LogThreadMessage = { ch: number; open: string; committed: SharedArrayBuffer } | { ch: number; batch: LogBatch } | { ch: number; close: true } | { exit: true };
export type LogThreadReport = { ch: number; report: LogWorkerReport };
