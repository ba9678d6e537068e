/**
 * Generated answers (docs/answers.md "Generated answers", docs/wechat.md §5): a follower's
 * question that reached the ranking goes to the model (serve --ai-url) with the best passages, once
 * per message whatever the deliveries and instances, within the caps. While the model writes, the
 * platform's deliveries of the message are held open (an earlier one it gives up on is simply
 * redelivered); the answer goes out on whichever is open when it is ready. The last delivery is
 * answered within `lastAnswerMs` whatever happens — with the retrieval reply if the model is not
 * done — and the model's answer then follows as a customer-service message, or, when replyd may
 * not send one, answers the follower's next message. A failed call or an answer the checks refuse
 * is replaced by the retrieval reply at once.
 */
import type { Clock } from "../../base/clock.ts";
import type { ModelEndpoint } from "../../llm/client.ts";
import type { Source } from "../../llm/prompt.ts";
import { REFUSALS } from "../../llm/output/check.ts";
import type { Writer } from "../../store/writer.ts";
import { readingPrefix } from "../../store/log-kinds.ts";
import { viaRedis } from "../../cluster/fallback.ts";
import { BOOK_TTL_MS, LocalBook, type GenerationBook, type Opened } from "./generation-book.ts";
import { GeneratedStats } from "./stats.ts";
import { SUCCESS, type Inbound, type Reply } from "../door/message.ts";
import type { Caps, Slot } from "./caps.ts";
import type { ModelAnswer } from "./llm-answer.ts";
import { MeteredCalls } from "./metered-calls.ts";
import { EndpointProbe } from "./endpoint-probe.ts";
import { PendingFollowers } from "./pending.ts";
import type { Decision } from "../answering/decision.ts";
import type { PlatformClient } from "../platform/client.ts";
import { LateAnswers } from "./late-answers.ts";

export interface DeliveryTimes {
  /**
   * The last delivery waits this long for the model from its arrival (the platform waits 5 s):
   * with the answer kept, rendered and sent after it, the reply leaves within 4 s (bench/generated.ts
   * measured 4.002 s when this was 4,000).
   */
  lastAnswerMs: number;
  /** A delivery this long after the first is the last, whatever the count says (the platform delivers 5 s apart). */
  lastAfterMs: number;
  /** The platform delivers a message this many times at most. */
  deliveries: number;
  /** The longest an earlier delivery is held (the platform closes it at 5 s; through app.handle nothing closes it). */
  holdMs: number;
}

export const DELIVERY_TIMES: DeliveryTimes = { lastAnswerMs: 3800, lastAfterMs: 9000, deliveries: 3, holdMs: 15_000 };

/** The longest a stopping server waits for the given-up calls to be logged (a send to the platform may hang). */
const STOP_WAIT_MS = 3000;

/** The checks' refusals logged at warn: the model's slips. Not refused:secret nor refused:prompt_echo, which may be an injection at work. */
const ROUTINE_REFUSALS: ReadonlySet<string> = new Set(REFUSALS.filter((r) => r !== "secret" && r !== "prompt_echo").map((r) => `refused:${r}`));

export interface GeneratedAnswersOptions {
  endpoint: ModelEndpoint;
  caps: Caps;
  write: Writer;
  clock: Clock;
  log: (msg: string) => void;
  /** What goes wrong as designed — an answer the checks refused, a cap reached — at "warn" (default: log): routine, no one to page. */
  warn?: (msg: string) => void;
  /** The cluster's book (Redis); without it, or while Redis is away, this instance's. */
  shared?: GenerationBook | null;
  /** Followers with an answer waiting, told to every instance (a cluster's Redis). */
  pending?: PendingFollowers;
  /** Customer-service messages (--wx-secret), as configured now; without them a late answer waits for the next message. */
  platform?: () => PlatformClient | null;
  times?: Partial<DeliveryTimes>;
  fetch?: typeof fetch;
}

/** What the callback does for a message: renders (and seals) a reply to it, logs it as decided. */
export interface MessageHooks {
  render(reply: Reply): string;
  record(d: Decision): void;
}

/** How an arrival was answered; `keptFallback`: this delivery gave the retrieval reply (the caller logs the message). */
export interface Delivered {
  out: string;
  keptFallback: boolean;
}

export class GeneratedAnswers {
  readonly stats: GeneratedStats;
  private readonly local = new LocalBook();
  private readonly times: DeliveryTimes;
  /** Generations this instance opened or joined, and the book each is in. */
  private readonly known = new Map<string, { book: GenerationBook; until: number }>();
  /** Answers ready after the last delivery was answered. */
  private readonly late: LateAnswers;
  /** Every call within the caps, counted and logged (metered-calls.ts). */
  private readonly calls: MeteredCalls;
  /** Health's look at the endpoint (endpoint-probe.ts). */
  private readonly probe: EndpointProbe;
  /** The model's calls under way and what follows each (run()): a stopping server waits for them to be logged. */
  private readonly running = new Set<Promise<void>>();
  /** Where what goes wrong as designed is said: o.warn, else the log. */
  private readonly warn: (msg: string) => void;

  constructor(private readonly o: GeneratedAnswersOptions) {
    this.times = { ...DELIVERY_TIMES, ...o.times };
    this.warn = o.warn ?? o.log;
    this.late = new LateAnswers(o.write, o.clock, o.log, o.platform ?? (() => null), o.pending ?? new PendingFollowers());
    this.stats = new GeneratedStats(o.endpoint, o.caps);
    this.calls = new MeteredCalls({ endpoint: o.endpoint, caps: o.caps, write: o.write, clock: o.clock, log: o.log, warn: this.warn, stats: this.stats, ...(o.fetch ? { fetch: o.fetch } : {}) });
    this.probe = new EndpointProbe(o.endpoint, o.clock, o.fetch);
  }

  /** The followers with an answer waiting, as the store knows them (the caps' history is the caller's). */
  load(): Promise<void> {
    return this.late.load();
  }

  /** Whether `openid` may have an answer waiting for their next message (a lookup: every follower message asks). */
  waitingFor(openid: string): boolean {
    return this.late.has(openid);
  }

  /** The answer waiting for `openid`, as the reply to their new message; null when none (or another instance sent it). */
  async takeWaiting(openid: string): Promise<Decision | null> {
    const d = await this.late.take(openid);
    if (d) this.stats.delivered("next_message");
    return d;
  }

  /** A generation this instance knows for message `key`: later arrivals are its deliveries. */
  knows(key: string): boolean {
    const k = this.known.get(key);
    if (k && k.until <= Date.now()) this.known.delete(key);
    return this.known.has(key);
  }

  private remember(key: string, book: GenerationBook): void {
    const now = Date.now();
    if (this.known.size > 10_000) for (const [k, v] of this.known) if (v.until <= now) this.known.delete(k);
    this.known.set(key, { book, until: now + BOOK_TTL_MS });
  }

  /**
   * The first delivery of a message whose decision may be generated: the model called (once),
   * this delivery answered as the window allows. Null when the model is not for it (no sources,
   * past a cap): the caller answers as without a model.
   */
  async start(m: Inbound, key: string, d: Decision, hooks: MessageHooks, signal?: AbortSignal): Promise<Delivered | null> {
    const g = d.generate;
    if (!g || !d.reply) return null;
    const slot = await this.calls.take(m.from);
    if (typeof slot === "string") {
      this.calls.logCapped({ at: new Date(this.o.clock.now()).toISOString(), msgKey: key, who: m.from, question: g.question, sources: g.sources }, slot);
      return null;
    }
    const fallback = hooks.render(d.reply);
    const firstAt = Date.now();
    let book = this.o.shared?.up ? this.o.shared : this.local;
    let opened: boolean;
    try {
      const shared = book;
      opened = await viaRedis(() => shared.open(key, firstAt, fallback), {
        local: () => {
          book = this.local;
          return book.open(key, firstAt, fallback);
        },
      });
    } catch (e) {
      // No call follows: its place in flight is given back.
      slot.release();
      throw e;
    }
    // Another delivery opened it first (a resend racing this one): this is one of its deliveries.
    if (!opened) {
      slot.release();
      return this.join(key, firstAt, signal);
    }
    this.remember(key, book);
    const running = this.run(book, m, key, d, g, hooks, fallback, slot).catch((e) => this.o.log(`generated answer for ${key}: ${(e as Error).message}`));
    this.running.add(running);
    void running.finally(() => this.running.delete(running));
    return this.deliver(book, key, { n: 1, firstAt, fallback }, firstAt, signal);
  }

  /**
   * A later delivery of a message being generated (here or at another instance), which arrived at
   * `arrivedAt` (epoch ms: the last delivery's 4 s count from then); null when none is open.
   */
  async join(key: string, arrivedAt: number, signal?: AbortSignal): Promise<Delivered | null> {
    const book = this.known.get(key)?.book ?? this.o.shared ?? this.local;
    const o = await book.arrive(key);
    if (!o) return null;
    this.remember(key, book);
    if (o.answer !== null) return { out: o.answer, keptFallback: false };
    return this.deliver(book, key, o, arrivedAt, signal);
  }

  private async deliver(book: GenerationBook, key: string, o: Opened, arrivedAt: number, signal?: AbortSignal): Promise<Delivered> {
    // Redis went away while this delivery waited: the retrieval reply now; the model's answer follows (run()).
    return viaRedis(() => this.deliverFrom(book, key, o, arrivedAt, signal), { local: () => ({ out: o.fallback, keptFallback: true }) });
  }

  private async deliverFrom(book: GenerationBook, key: string, o: Opened, arrivedAt: number, signal?: AbortSignal): Promise<Delivered> {
    const last = o.n >= this.times.deliveries || arrivedAt - o.firstAt >= this.times.lastAfterMs;
    const waited = await book.wait(key, arrivedAt + (last ? this.times.lastAnswerMs : this.times.holdMs), last ? undefined : signal);
    if ("answer" in waited) return { out: waited.answer, keptFallback: false };
    // Given up on by the platform (it delivers again): what this delivery says is read by nobody.
    if ("timedOut" in waited && !last) return { out: SUCCESS, keptFallback: false };
    // The last delivery, or the owner is gone: the retrieval reply, unless an answer came meanwhile.
    const kept = await book.keep(key, o.fallback);
    // Counted as health names it: the last delivery's, not one released because the owner is gone or the server stops.
    if (kept.kept && last) this.stats.lastDeliveries++;
    return { out: kept.answer, keptFallback: kept.kept };
  }

  /** The model's call and what becomes of its answer; the message logged by `d`'s record hook. */
  private async run(book: GenerationBook, m: Inbound, key: string, d: Decision, g: { question: string; sources: Source[] }, hooks: MessageHooks, fallback: string, slot: Slot): Promise<void> {
    const at = new Date(this.o.clock.now()).toISOString();
    const hold = book.hold(key);
    let r: ModelAnswer;
    try {
      r = await this.calls.call(g.question, g.sources, slot);
    } finally {
      hold.stop();
    }
    const { answer, cited, usage, detail } = r;
    let outcome = r.outcome;
    this.stats.called(outcome, usage);
    // The checks working as designed (refused:…) are routine; a failed call is the endpoint's trouble,
    // and the key or the instructions written back may be an injection at work — both at error (a review).
    if (detail) (ROUTINE_REFUSALS.has(outcome) ? this.warn : this.o.log)(`generated answer for ${key} not used (${outcome}): ${detail}`);

    const out = answer === null ? fallback : hooks.render({ type: "text", content: answer });
    let kept: { kept: boolean; answer: string };
    try {
      kept = await book.keep(key, out);
    } catch {
      // Redis went away: no delivery can be given this answer for sure, so it follows as if late.
      kept = { kept: false, answer: fallback };
    }
    // Logged before anything follows: the message opens the follower's reply window. The model's
    // answer went out, not the article the ranking chose: no margin (a close call is an article sent alone).
    // A follow-up's stays one (followup:ai:…): teach refuses its few words as it does any follow-up's.
    // Answered by the model, in the inbox still when a person should read it (needs-person.ts).
    hooks.record(answer !== null && kept.kept ? { ...d, answer: `${readingPrefix(d.answer)}ai:${cited.join(",")}`, unmatched: d.person !== undefined, margin: undefined } : d);
    if (answer !== null && !kept.kept) outcome = await this.late.send(m.from, answer, g.question);
    this.stats.delivered(outcome);
    await this.calls.logCall({ at, msgKey: key, who: m.from, question: g.question, sources: g.sources, r: { ...r, outcome }, deliveredAt: outcome === "reply" || outcome === "customer_service" ? new Date(this.o.clock.now()).toISOString() : null });
    if (outcome === "pending") this.late.waiting(m.from);
  }

  /** What the model would answer, for `replyd ask --generate` (metered-calls.ts preview): sent to nobody. */
  preview(question: string, sources: Source[], who: string): Promise<Record<string, unknown>> {
    return this.calls.preview(question, sources, who);
  }

  /**
   * Shutting down: the deliveries held now get the retrieval reply at once (SIGTERM drains the
   * server without waiting on a model), and the calls in flight are given up. Resolves once each
   * given-up call has logged its message and itself (`failed:timeout`) — the store closes after —
   * or after STOP_WAIT_MS, should one hang past its abort (a customer-service send to the platform).
   */
  async stop(): Promise<void> {
    this.local.release();
    this.o.shared?.release();
    this.calls.stop();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.all(this.running), new Promise<void>((r) => (timer = setTimeout(r, STOP_WAIT_MS)))]);
    clearTimeout(timer);
  }

  /** Health: the endpoint (never its key) and whether it answers now, calls and what became of them, tokens, the caps. */
  async status(): Promise<Record<string, unknown>> {
    return {
      ...(await this.stats.report(this.o.clock.now())),
      endpoint_now: await this.probe.endpointNow(),
      ...this.late.status(),
    };
  }
}
