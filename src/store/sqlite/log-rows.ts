/**
 * What the event loop hands the message log's writer thread: rows of plain values and the batch
 * they travel in. Apart from log-worker.ts because the event loop's side (logwriter.ts,
 * messages.ts) needs these values: importing them from the worker's file ran the worker's top level
 * on the main thread, whose `self.onmessage` kept every process that loaded the store alive after
 * it closed (bench/bulkparts.ts never exited).
 */

/**
 * Values per logged row, in this order: received_ms, msg_key, from_user, type, event, content,
 * answer, unmatched, reply_ms, margin. A spill file written before reply_ms and margin were logged
 * holds rows of the first eight (OLD_ROW_WIDTH): they are logged with neither (messages.ts).
 */
export const ROW_WIDTH = 10;
export const OLD_ROW_WIDTH = 8;

export interface LogBatch {
  seq: number;
  /** The rows, ROW_WIDTH values each, as one JSON string (cheaper to post than 2,000 values). */
  json: string;
  rows: number;
}
