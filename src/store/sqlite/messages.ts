import type { Database } from "bun:sqlite";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { atomicWrite } from "../../base/fsutil.ts";
import { LISTED, type LoggedMessage, type NewMessage } from "../follower-log.ts";
import { periodOf } from "../log-kinds.ts";
import { OLD_ROW_WIDTH, ROW_WIDTH } from "./log-rows.ts";
import { entryOf, type MessageRow } from "./replies.ts";
import type { LogWriter } from "./logwriter.ts";

/**
 * The follower message log. Messages are queued as flat rows and handed to the writer thread
 * (logwriter.ts) every 10 ms or 256 rows, so logging costs the event loop neither an insert nor an
 * fsync per message. Reading the log, pruning it and closing first wait until everything queued is
 * committed: a message that was answered is in the log by the time anyone can look.
 */
export class MessageLog {
  private rows: unknown[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly db: Database,
    private readonly writer: LogWriter,
    private readonly flushAfterMs = 10,
    private readonly maxQueue = 256,
  ) {}

  add(m: NewMessage): void {
    this.rows.push(m.received_ms, m.msg_key, m.from_user, m.type, m.event, m.content, m.answer, m.unmatched ? 1 : 0, m.reply_ms ?? null, m.margin ?? null);
    if (this.rows.length >= this.maxQueue * ROW_WIDTH) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), this.flushAfterMs);
  }

  /** Hands the queued rows to the writer. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.rows.length) return;
    const batch = this.rows;
    this.rows = [];
    this.writer.write(batch);
  }

  /** Returns once every message added so far is committed. */
  sync(): void {
    this.flush();
    this.writer.sync();
  }

  /** Messages waiting for the writer, and those not logged because that queue was full. */
  get backlog(): { unwritten: number; dropped: number } {
    return { unwritten: this.writer.unwritten + this.rows.length / ROW_WIDTH, dropped: this.writer.dropped };
  }

  /**
   * Writes what is queued and stops the writer. What cannot be written in `waitMs` (the disk is
   * full) is kept in a spill file `spillPath` (JSON lines; logged at the next start) when that can
   * be written; answers what was not logged and where it went.
   */
  close(spillPath?: string, waitMs = 10_000): { unwritten: number; spilled: string | null; error: string | null } {
    try {
      this.flush();
      try {
        this.writer.sync(waitMs);
        return { unwritten: 0, spilled: null, error: null };
      } catch (e) {
        const rows = this.writer.unwrittenRowsList();
        const count = rows.length / ROW_WIDTH;
        if (!count) return { unwritten: 0, spilled: null, error: null };
        if (!spillPath) return { unwritten: count, spilled: null, error: (e as Error).message };
        try {
          atomicWrite(spillPath, (w) => {
            for (let i = 0; i < rows.length; i += ROW_WIDTH) w(JSON.stringify(rows.slice(i, i + ROW_WIDTH)) + "\n");
          });
          return { unwritten: count, spilled: spillPath, error: null };
        } catch (spillError) {
          return { unwritten: count, spilled: null, error: (spillError as Error).message };
        }
      }
    } finally {
      this.writer.close();
    }
  }

  /** Logs what spill files in `dir` kept (shutdowns while the disk was full), each then removed. */
  replaySpills(dir: string, report: (message: string) => void): void {
    for (const name of readdirSync(dir))
      if (/^messages-unwritten-\d+\.jsonl$/.test(name)) {
        try {
          report(`logged ${this.replaySpill(join(dir, name))} follower messages kept in ${name} by a shutdown that could not write them`);
        } catch (e) {
          report(`the messages kept in ${name} could not be logged yet: ${(e as Error).message}`);
        }
      }
  }

  private replaySpill(path: string): number {
    let n = 0;
    for (const line of readFileSync(path, "utf8").split("\n")) {
      if (!line) continue;
      const r = JSON.parse(line) as unknown[];
      // A row kept by a version that logged no reply time or margin: logged without them.
      if (r.length === OLD_ROW_WIDTH) r.push(null, null);
      if (r.length !== ROW_WIDTH) continue;
      this.rows.push(...r);
      n++;
    }
    this.flush();
    this.writer.sync();
    rmSync(path, { force: true });
    return n;
  }

  /** Returns once every message added so far is committed (awaited, never blocking). */
  async settled(): Promise<void> {
    this.flush();
    await this.writer.settled();
  }

  /** What was logged, newest first, once everything added so far is committed (awaited, never blocking). */
  async list(opts: { only: "unmatched" | "lists" | null; limit: number; offset: number }): Promise<{ items: (LoggedMessage & { seq: number })[]; total: number }> {
    this.flush();
    await this.writer.settled();
    const where = opts.only === "unmatched" ? "WHERE unmatched = 1" : opts.only === "lists" ? `WHERE ${LISTED.sqlite}` : "";
    const total = (this.db.query(`SELECT count(*) AS n FROM messages ${where}`).get() as { n: number }).n;
    const rows = this.db.query(`SELECT * FROM messages ${where} ORDER BY seq DESC LIMIT ? OFFSET ?`).all(opts.limit, opts.offset) as MessageRow[];
    return { items: rows.map(entryOf), total };
  }

  async newest(limit: number): Promise<(LoggedMessage & { seq: number })[]> {
    this.flush();
    await this.writer.settled();
    return (this.db.query("SELECT * FROM messages ORDER BY seq DESC LIMIT ?").all(limit) as MessageRow[]).map(entryOf);
  }

  /**
   * Removes the messages and model calls more than `days` older than `nowMs` (--log-days is a
   * promise to followers, kept by the clock whether or not anyone writes), and the followers last
   * heard from before then. Answers how many of each went, and the newest message's time (health
   * warns when it is after the clock).
   */
  async prune(days: number, nowMs: number): Promise<{ removed: number; removedCalls: number; newest: string | null }> {
    this.flush();
    await this.writer.settled();
    const cutoff = new Date(nowMs - days * 86_400_000).toISOString();
    const gone = this.db
      .transaction(() => {
        const removed = this.db.run("DELETE FROM messages WHERE received_at < ?", [cutoff]).changes;
        // A follower last heard from before the cutoff has no window left to keep.
        this.db.run("DELETE FROM followers WHERE last_at < ?", [cutoff]);
        // The model calls' log is kept as long as the messages it answered.
        const removedCalls = this.db.run("DELETE FROM generated WHERE at < ?", [cutoff]).changes;
        // And what a report reads of them: the quarter hours before the one the cutoff falls in.
        this.db.run("DELETE FROM log_counts WHERE period < ?", [periodOf(cutoff)]);
        this.db.run("DELETE FROM log_reply_ms WHERE period < ?", [periodOf(cutoff)]);
        this.db.run("DELETE FROM send_failures WHERE at < ?", [cutoff]);
        return { removed, removedCalls };
      })
      .immediate();
    const newest = (this.db.query("SELECT max(received_at) AS t FROM messages").get() as { t: string | null }).t;
    return { ...gone, newest };
  }
}
