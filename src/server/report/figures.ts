/**
 * `replyd report`'s figures (docs/operations.md "The report") from what the store counted
 * (store/report-query.ts): per day of the operator's time zone, how follower messages were answered
 * and the share answered, close calls and follow-ups, reply times, the model's calls and the
 * customer-service sends; the questions nothing answered, grouped. The terminal, --json and --html
 * show these same figures.
 */
import { termsOf } from "../../ranking/words.ts";
import { namesNothing } from "../teach-leaning.ts";
import { AGAIN_MS, CHOSEN_KINDS, CLOSE_MARGIN, unprefixed } from "../../store/log-kinds.ts";
import { ANSWERS } from "../../ranking/choice.ts";
import type { LogFigures, ReplyTimeCount } from "../../store/report-query.ts";
import { saidBetweenQuestions } from "../../ranking/cues.ts";
import { groupQuestions, type QuestionGroup } from "./question-groups.ts";
import { LIMITS } from "../../article/text-rules.ts";

/** Kinds of answer that answered the follower (store/log-kinds.ts kindOf); pick: an entry the follower picked from the list before. */
export const ANSWERED = ["rule", "code", "tag", "help", "answer", "answers", "search", "ai", "pick"] as const;
/**
 * Kinds that left a follower's message unanswered: the fallback text, an explicit search that found
 * nothing, too busy to search, and a message answered with the generated answer to their previous
 * question (ai-pending). The share answered is ANSWERED over both; welcomes, events without a reply
 * and media get neither.
 */
export const UNANSWERED = ["fallback", "not_found", "search_busy", "ai-pending"] as const;
/** Kinds that need no answer or cannot have one, shown apart: thanks and greetings (courtesy) among them. */
export const NEITHER = ["welcome", "courtesy", "media", "none"] as const;
/** What the account sent as customer-service messages (not follower messages). */
export const SENT = ["reply", "reply_ai"] as const;
/** Groups of unanswered questions shown. */
export const GROUPS_SHOWN = 20;

export interface ReplyTimes {
  /** Messages with a reply time, and its median and 99th percentile (a bucket's lower bound, ms). */
  n: number;
  p50: number;
  p99: number;
}

export interface DayFigures {
  day: string;
  /** Follower messages logged. */
  messages: number;
  answered: number;
  unanswered: number;
  /** answered / (answered + unanswered); null when neither. */
  share: number | null;
  /** Follower messages per kind (other: a kind this version does not know). */
  kinds: Record<string, number>;
  close: number;
  again: number;
  reply_ms: ReplyTimes | null;
  /** Follower messages logged without a reply time (before replyd recorded it). */
  no_reply_time: number;
  sent: { operator: number; ai: number };
  model_calls: number;
}

export interface Example {
  seq: number;
  at: string;
  text: string;
  answer: string;
}

export interface Report {
  /** The account reported on, on a server of several (null: the one account of a server that declares none). */
  account?: string | null;
  since: string;
  until: string;
  /** The days' offset from UTC, as +08:00. */
  tz: string;
  days: DayFigures[];
  totals: Omit<DayFigures, "day">;
  unanswered_questions: {
    groups: QuestionGroup[];
    /** Groups in all, and the texts grouped (the newest, UNANSWERED_READ at most). */
    groups_total: number;
    grouped: number;
    /** Texts naming nothing to teach (emoji or marks alone, only how long, what time or what to bring): not grouped (0.2.27). */
    nothing_named?: number;
  };
  close_calls: { count: number; alone: number; margin_from: number; list_from: number; examples: (Example & { margin: number })[] };
  asked_again: { count: number; chosen: number; within_s: number; examples: (Example & { after: Example | null })[] };
  model: {
    calls: number;
    outcomes: Record<string, number>;
    failed: Record<string, number>;
    refused: Record<string, number>;
    /** Followers' messages the caps kept from the model, by cap (no call made: not in calls). */
    capped: Record<string, number>;
    tokens: { prompt: number; completion: number };
  };
  sends: { sent: { operator: number; ai: number }; failed: { code: string; by: "operator" | "ai"; n: number; meaning: string | null }[] };
  /** The articles the report names, with their titles (null: no longer stored). */
  articles: Record<string, string | null>;
  /** From when reply times, close calls and follow-ups are known (the upgrade that began them), when after `since`. */
  details_since: string | null;
}

/** +08:00 for 480. */
export const offsetName = (tz: number): string => `${tz < 0 ? "-" : "+"}${String(Math.floor(Math.abs(tz) / 60)).padStart(2, "0")}:${String(Math.abs(tz) % 60).padStart(2, "0")}`;

/** The local days from `since` to `until`, in order. */
export function daysBetween(since: string, until: string, tz: number): string[] {
  const dayOf = (ms: number) => new Date(ms + tz * 60_000).toISOString().slice(0, 10);
  const last = dayOf(Date.parse(until));
  const days: string[] = [];
  for (let d = dayOf(Date.parse(since)); days.length <= 400; ) {
    days.push(d);
    if (d >= last) break;
    d = new Date(Date.parse(`${d}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  }
  return days;
}

/** The median and 99th percentile of bucketed reply times: the bucket the q-th message falls in. */
export function percentiles(buckets: readonly { ms: number; n: number }[]): ReplyTimes | null {
  const sorted = [...buckets].sort((a, b) => a.ms - b.ms);
  const n = sorted.reduce((s, b) => s + b.n, 0);
  if (!n) return null;
  const at = (q: number) => {
    const rank = Math.max(1, Math.ceil(q * n));
    let seen = 0;
    for (const b of sorted) if ((seen += b.n) >= rank) return b.ms;
    return (sorted[sorted.length - 1] as { ms: number }).ms;
  };
  return { n, p50: at(0.5), p99: at(0.99) };
}

const KNOWN = new Set<string>([...ANSWERED, ...UNANSWERED, ...NEITHER, ...SENT]);
/** Answers whose name is followed by article ids (rule:<id> names a rule, ai-pending:<seq> a model call). */
const NAMING_ARTICLES = new Set(["answer", "answers", "ai", "fallback", "not_found", "pick"]);
const sum = (r: Record<string, number>, names: readonly string[]) => names.reduce((s, k) => s + (r[k] ?? 0), 0);

function emptyDay(day: string): DayFigures {
  return { day, messages: 0, answered: 0, unanswered: 0, share: null, kinds: {}, close: 0, again: 0, reply_ms: null, no_reply_time: 0, sent: { operator: 0, ai: 0 }, model_calls: 0 };
}

/** Fills a day's derived figures from its kinds, and its reply times. */
function finish(d: DayFigures, times: ReplyTimeCount[]): void {
  const k = d.kinds;
  d.answered = sum(k, ANSWERED);
  d.unanswered = sum(k, UNANSWERED);
  d.share = d.answered + d.unanswered ? d.answered / (d.answered + d.unanswered) : null;
  d.messages = Object.entries(k).reduce((s, [kind, n]) => s + (SENT.includes(kind as (typeof SENT)[number]) ? 0 : n), 0);
  d.sent = { operator: k.reply ?? 0, ai: k.reply_ai ?? 0 };
  for (const s of SENT) delete k[s];
  d.reply_ms = percentiles(times);
  d.no_reply_time = Math.max(0, d.messages - (d.reply_ms?.n ?? 0));
}

/** What the route answers: the store's figures made into the report (grouping the unanswered questions, which reads the synonyms in force). */
export function assembleReport(f: LogFigures, q: { since: string; until: string; tz: number }, meaning: (code: string) => string | null, title: (id: string) => string | null): Report {
  const days = new Map(daysBetween(q.since, q.until, q.tz).map((d) => [d, emptyDay(d)]));
  const dayOf = (d: string) => days.get(d) ?? (days.set(d, emptyDay(d)).get(d) as DayFigures);
  for (const c of f.kinds) {
    const d = dayOf(c.day);
    const kind = KNOWN.has(c.kind) ? c.kind : "other";
    d.kinds[kind] = (d.kinds[kind] ?? 0) + c.n;
    d.close += c.close;
    d.again += c.again;
  }
  for (const m of f.model) if (!m.outcome.startsWith("capped:")) dayOf(m.day).model_calls += m.n;
  for (const d of days.values()) finish(d, f.replyTimes.filter((t) => t.day === d.day));
  const ordered = [...days.values()].sort((a, b) => (a.day < b.day ? -1 : 1));

  const totals = emptyDay("");
  for (const d of ordered) {
    for (const [k, n] of Object.entries(d.kinds)) totals.kinds[k] = (totals.kinds[k] ?? 0) + n;
    totals.kinds.reply = (totals.kinds.reply ?? 0) + d.sent.operator;
    totals.kinds.reply_ai = (totals.kinds.reply_ai ?? 0) + d.sent.ai;
    totals.close += d.close;
    totals.again += d.again;
    totals.model_calls += d.model_calls;
  }
  finish(totals, f.replyTimes);
  const { day: _, ...total } = totals;

  const model = { calls: 0, outcomes: {} as Record<string, number>, failed: {} as Record<string, number>, refused: {} as Record<string, number>, capped: {} as Record<string, number>, tokens: { prompt: 0, completion: 0 } };
  for (const m of f.model) {
    if (m.outcome.startsWith("capped:")) {
      const cap = m.outcome.slice("capped:".length);
      model.capped[cap] = (model.capped[cap] ?? 0) + m.n;
      continue;
    }
    model.calls += m.n;
    model.outcomes[m.outcome] = (model.outcomes[m.outcome] ?? 0) + m.n;
    const [head, detail] = [m.outcome.split(":")[0] as string, m.outcome.slice(m.outcome.indexOf(":") + 1)];
    if (head === "failed") model.failed[detail] = (model.failed[detail] ?? 0) + m.n;
    if (head === "refused") model.refused[detail] = (model.refused[detail] ?? 0) + m.n;
    model.tokens.prompt += m.tokens_prompt;
    model.tokens.completion += m.tokens_completion;
  }

  // "thx", "2", "another": nothing to teach (teach refuses them), so not listed as questions.
  // Read on what a teach could take of each (LIMITS.question characters): the whole of 5,000 logged
  // texts of 1,024 characters had held the event loop 0.7 s, 12 s of characters normalisation
  // multiplies (a review).
  const questions = f.unanswered.filter((t) => !(t.text.length <= LIMITS.question && saidBetweenQuestions(t.text)));
  // Nor what names nothing to teach — emoji and marks alone ("😡😡😡"), only how long or what time
  // (要多久), only what to bring (要带啥) —, which teach refuses: counted, for the inbox that lists them
  // (a bookkeeping app's operator was offered to teach "😡😡😡"). Read as teach reads them, the first
  // LIMITS.question characters (code points: a question after 100 emoji is one — a review).
  const taught = questions.filter((t) => namesSomething([...t.text].slice(0, LIMITS.question).join("")));
  const nothingNamed = questions.length - taught.length;
  const grouped = groupQuestions(taught, GROUPS_SHOWN);
  // Every article an example's answer or a group names, with its title.
  const articles: Record<string, string | null> = {};
  const named = (ids: string[]) => {
    for (const id of ids) if (id && !(id in articles)) articles[id] = title(id);
  };
  const example = (e: Example): Example => {
    named(articlesNamedBy(e.answer));
    return { seq: e.seq, at: e.at, text: e.text, answer: e.answer };
  };
  for (const g of grouped.groups) named(g.considered);

  return {
    since: q.since,
    until: q.until,
    tz: offsetName(q.tz),
    days: ordered,
    totals: total,
    unanswered_questions: { groups: grouped.groups, groups_total: grouped.total, grouped: taught.length, nothing_named: nothingNamed },
    close_calls: { count: total.close, alone: total.kinds.answer ?? 0, margin_from: CLOSE_MARGIN, list_from: 1 / ANSWERS.lead, examples: f.closeCalls.map((c) => ({ ...example(c), margin: Math.round(c.margin * 1000) / 1000 })) },
    asked_again: {
      count: total.again,
      chosen: sum(total.kinds, CHOSEN_KINDS),
      within_s: AGAIN_MS / 1000,
      examples: f.askedAgain.map((a) => ({ ...example(a), after: a.after ? example(a.after) : null })),
    },
    model,
    sends: { sent: total.sent, failed: f.failures.map((x) => ({ ...x, meaning: meaning(x.code) })) },
    articles,
    details_since: f.detailsSince !== null && f.detailsSince > q.since ? f.detailsSince : null,
  };
}

/** The articles a logged answer names (answer:ID, answers:IDs…, a conversation's prefix aside); none for the others. */
function articlesNamedBy(answer: string): string[] {
  const plain = unprefixed(answer);
  const colon = plain.indexOf(":");
  return colon >= 0 && NAMING_ARTICLES.has(plain.slice(0, colon)) ? plain.slice(colon + 1).split(",") : [];
}

/** `answers` (a group's phrasing → how it is answered now) set on the report's groups, the articles they name titled. */
export function withAnsweredNow(r: Report, answers: ReadonlyMap<string, string>, title: (id: string) => string | null): Report {
  for (const g of r.unanswered_questions.groups) {
    const now = answers.get(g.text);
    if (!now) continue;
    g.answered_now = now;
    for (const id of articlesNamedBy(now)) if (id && !(id in r.articles)) r.articles[id] = title(id);
  }
  return r;
}

/** A text teach could take: a word the ranking reads, and more than a question's frame or what to bring. */
const namesSomething = (text: string): boolean => termsOf(text).length > 0 && !namesNothing(text);
