/**
 * The follower message log as both stores keep it: its entries, which events open a follower's
 * reply window, the window's rules, the bound on messages waiting to be written, and the log as the
 * writer offers it (FollowerLog).
 */
import type { FailedSend, LogFigures, ReportQuery } from "./report-query.ts";

export interface LoggedMessage {
  received_at: string;
  msg_key: string;
  from_user: string;
  type: string;
  event: string | null;
  content: string | null;
  /** How it was answered: rule:<id>, help, code, tag, answer:<id>, answers:<id>,…, search, search_busy, welcome, fallback[:<ids considered>], not_found[:<ids>], none; followup:…, another:…, pick:<id> (wechat/answering/responder.ts Decision). */
  answer: string;
  unmatched: boolean;
  /** in: from the follower; out: a reply sent to them (from_user is then the recipient). */
  direction: "in" | "out";
  /** The admin key that sent a reply. */
  sent_by: string | null;
  /** The inbox entry a reply answered. */
  reply_to: number | null;
  /** When a reply first answered this message. */
  answered_at: string | null;
  /** Milliseconds from the message's arrival to its answer (null: not recorded, or a reply the account sent). */
  reply_ms: number | null;
  /** An article sent alone: the best relevant runner-up's score over the article's (a close call from CLOSE_MARGIN, store/log-kinds.ts). */
  margin: number | null;
  /** The follower's message this one asks again after (store/log-kinds.ts againOf). */
  again_of: number | null;
}

/** A message as the callback hands it to the log: the time is epoch ms, formatted by the writer thread; what follows it is decided there. */
/**
 * A follower's question the ranking answered with a list — unsure which article answers it: its
 * answer is answers:… (followup:answers:… read with the question before) —, and a "换一个" that got
 * more articles (another:answers:…, another:answer:…): the follower turning down what a question
 * got, a list or one article sent alone, whose question the inbox names beside it (asked_of). The
 * stores' partial indexes messages_lists hold these (store/model/db.ts, postgres/schema.ts), so that
 * replyd inbox --lists reads no more of the log than it shows.
 */
export const LISTED = {
  sqlite: "(answer GLOB 'answers:*' OR answer GLOB 'followup:answers:*' OR answer GLOB 'another:answer*')",
  postgres: "(answer LIKE 'answers:%' OR answer LIKE 'followup:answers:%' OR answer LIKE 'another:answer%')",
} as const;

export interface NewMessage extends Omit<LoggedMessage, "received_at" | "direction" | "sent_by" | "reply_to" | "answered_at" | "reply_ms" | "margin" | "again_of"> {
  received_ms: number;
  reply_ms?: number | null;
  margin?: number | null;
}

/**
 * Interactions that open a follower's reply window, per the platform's list: any message, and the
 * events of following, scanning a QR code and the menu buttons that report to the account (click,
 * scancode_push, scancode_waitmsg). Opening a link (VIEW), a location report or unfollowing do not.
 */
export const OPENING_EVENTS = ["subscribe", "SCAN", "CLICK", "scancode_push", "scancode_waitmsg"] as const;

/** Messages the writer may hold unwritten (≈ 100 MB of queue at the worst); past it new ones are counted, not kept. */
export const MAX_UNWRITTEN = 250_000;

/** The platform lets an account message a follower for 48 hours after the follower's last interaction. */
export const REPLY_WINDOW_MS = 48 * 3_600_000;

/** How many messages it allows per interaction, in today's documentation (--reply-limit). */
export const DEFAULT_REPLY_LIMIT = 5;

export interface ReplyWindow {
  open: boolean;
  /** The follower's last interaction, which opened the window. */
  opened_at: string | null;
  until: string | null;
  /** Replies sent since it opened, and how many more the platform allows. */
  sent: number;
  left: number;
  /** Why it is closed: the 48 hours are over (or nothing is known), or the count is spent; and in one line. */
  closed?: "window_closed" | "reply_limit";
  reason?: string;
}

export interface NewReply {
  openid: string;
  type: "text" | "news";
  /** What was said, for the log: the text, or the article's code and title. */
  content: string;
  sentBy: string;
  /** The inbox entry answered, or null when the reply went to the follower directly. */
  replyTo: number | null;
  /**
   * false: it answers no inbox entry — the model's answer following late (wechat/ai/late-answers.ts),
   * which no person wrote: the message it answers got the fallback and waits in the inbox, open (a
   * gym's walkthrough: a complaint the fallback promised a colleague for read "answered" once the
   * model's late text went out). Else the entry named, or every unanswered one of the window.
   */
  answers?: boolean;
  nowMs: number;
}

/** The window a follower's last interaction (`openedAt`; null: none logged) and the replies since leave open. The same on every store. */
export function windowOf(openedAt: string | null, sent: number, nowMs: number, limit: number): ReplyWindow {
  if (openedAt === null)
    return { open: false, opened_at: null, until: null, sent: 0, left: 0, closed: "window_closed", reason: "no message from this follower is in the log: the platform allows replies only for 48 hours after the follower writes" };
  const until = Date.parse(openedAt) + REPLY_WINDOW_MS;
  const base = { opened_at: openedAt, until: new Date(until).toISOString(), sent, left: Math.max(0, limit - sent) };
  if (nowMs >= until) return { ...base, open: false, left: 0, closed: "window_closed", reason: `the 48-hour reply window closed at ${base.until} (the follower's last message was at ${openedAt}); it opens again when they write` };
  if (sent >= limit)
    return { ...base, open: false, closed: "reply_limit", reason: `the ${limit} replies allowed since the follower's last message (at ${openedAt}) are spent; it opens again when they write` };
  return { ...base, open: true };
}

/** The follower message log and the replies kept in it. */
export interface FollowerLog {
  /** Queued, written in batches: never waits. */
  add(m: NewMessage): void;
  /** Messages waiting to be written, and those not logged because that queue was full. */
  readonly backlog: { unwritten: number; dropped: number };
  /** Resolves once every message added so far is written. */
  settled(): Promise<void>;
  /** Newest first: every message, those nothing answered, or those the ranking answered with a list (LISTED). */
  list(opts: { only: "unmatched" | "lists" | null; limit: number; offset: number }): Promise<{ items: (LoggedMessage & { seq: number })[]; total: number }>;
  /** The `limit` messages logged last, newest first, uncounted: what teach looks back over (server/teach-moves.ts) on every teach. */
  newest(limit: number): Promise<(LoggedMessage & { seq: number })[]>;
  /** Removes messages and model calls more than `days` older than `nowMs`; answers how many went and the newest message's time. */
  prune(days: number, nowMs: number): Promise<{ removed: number; removedCalls: number; newest: string | null }>;
  /** Replies allowed per follower interaction (--reply-limit). */
  readonly replyLimit: number;
  window(openid: string, nowMs: number): Promise<ReplyWindow>;
  record(r: NewReply): Promise<number>;
  entry(seq: number): Promise<(LoggedMessage & { seq: number }) | null>;
  /** The follower's message logged last before `seq`, received at `since` (ISO) or after; a reply the account sent is none. */
  before(seq: number, openid: string, since: string): Promise<(LoggedMessage & { seq: number }) | null>;
  /** The follower's message logged next after `seq`, received between `since` and `until` (ISO); a reply the account sent is none. */
  after(seq: number, openid: string, since: string, until: string): Promise<(LoggedMessage & { seq: number }) | null>;
  /** A customer-service message that did not go out, kept for the report (pruned with the log). */
  sendFailed(f: FailedSend): Promise<void>;
  /** What `replyd report` shows of the log (store/report-query.ts), once every message added so far is written. */
  figures(q: ReportQuery): Promise<LogFigures>;
}
