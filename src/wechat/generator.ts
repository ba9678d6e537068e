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
import type { Clock } from "../clock.ts";
import { probe, type EndpointNow, type ModelEndpoint } from "../model-client.ts";
import type { Source } from "../model-prompt.ts";
import type { Writer } from "../store/backend.ts";
import { RedisDown } from "../store/redis/link.ts";
import { BOOK_TTL_MS, LocalBook, type GenerationBook, type Opened } from "./generation-book.ts";
import { GeneratorStats } from "./generator-stats.ts";
import { SUCCESS, type Inbound, type Reply } from "./message.ts";
import type { CapReached, Caps, Slot } from "./model-caps.ts";
import { ModelAsker, type ModelAnswer } from "./model-answer.ts";
import { PendingFollowers } from "./pending.ts";
import type { Decision } from "./responder.ts";
import type { TokenKeeper } from "./token.ts";
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

const CAP_DETAIL: Record<CapReached, string> = {
  follower: "this key's hourly cap (--ai-per-follower) is reached",
  minute: "the budget per minute (--ai-per-minute) is spent",
  daily: "the daily cap (--ai-daily) is reached",
  concurrency: "as many calls as --ai-concurrency allows are in flight",
};

/** How long what health found of the endpoint is kept: a dashboard asking every second makes one request to it in 15 s. */
const PROBE_MS = 15_000;

export const DELIVERY_TIMES: DeliveryTimes = { lastAnswerMs: 3800, lastAfterMs: 9000, deliveries: 3, holdMs: 15_000 };

export interface GeneratorOptions {
  endpoint: ModelEndpoint;
  caps: Caps;
  write: Writer;
  clock: Clock;
  log: (msg: string) => void;
  /** The cluster's book (Redis); without it, or while Redis is away, this instance's. */
  shared?: GenerationBook | null;
  /** Followers with an answer waiting, told to every instance (a cluster's Redis). */
  pending?: PendingFollowers;
  /** Customer-service messages (--wx-secret), as configured now; without them a late answer waits for the next message. */
  platform?: () => TokenKeeper | null;
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

export class Generator {
  readonly stats: GeneratorStats;
  private readonly local = new LocalBook();
  private readonly times: DeliveryTimes;
  /** Generations this instance opened or joined, and the book each is in. */
  private readonly known = new Map<string, { book: GenerationBook; until: number }>();
  /** Answers ready after the last delivery was answered. */
  private readonly late: LateAnswers;
  private readonly asker: ModelAsker;

  constructor(private readonly o: GeneratorOptions) {
    this.times = { ...DELIVERY_TIMES, ...o.times };
    this.asker = new ModelAsker(o.endpoint, o.fetch);
    this.late = new LateAnswers(o.write, o.clock, o.log, o.platform ?? (() => null), o.pending ?? new PendingFollowers());
    this.stats = new GeneratorStats(o.endpoint, o.caps);
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
    const slot = await this.take(m.from);
    if (typeof slot === "string") return null;
    const fallback = hooks.render(d.reply);
    const firstAt = Date.now();
    let book = this.o.shared?.up ? this.o.shared : this.local;
    let opened: boolean;
    try {
      try {
        opened = await book.open(key, firstAt, fallback);
      } catch (e) {
        if (!(e instanceof RedisDown)) throw e;
        book = this.local;
        opened = await book.open(key, firstAt, fallback);
      }
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
    void this.run(book, m, key, d, g, hooks, fallback, slot).catch((e) => this.o.log(`generated answer for ${key}: ${(e as Error).message}`));
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
    try {
      return await this.deliverFrom(book, key, o, arrivedAt, signal);
    } catch (e) {
      if (!(e instanceof RedisDown)) throw e;
      // Redis went away while this delivery waited: the retrieval reply now; the model's answer follows (run()).
      return { out: o.fallback, keptFallback: true };
    }
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
      r = await this.call(g.question, g.sources, slot);
    } finally {
      hold.stop();
    }
    const { answer, cited, usage, detail } = r;
    let outcome = r.outcome;
    this.stats.called(outcome, usage);
    if (detail) this.o.log(`generated answer for ${key} not used (${outcome}): ${detail}`);

    const out = answer === null ? fallback : hooks.render({ type: "text", content: answer });
    let kept: { kept: boolean; answer: string };
    try {
      kept = await book.keep(key, out);
    } catch {
      // Redis went away: no delivery can be given this answer for sure, so it follows as if late.
      kept = { kept: false, answer: fallback };
    }
    // Logged before anything follows: the message opens the follower's reply window.
    hooks.record(answer !== null && kept.kept ? { ...d, answer: `ai:${cited.join(",")}`, unmatched: false } : d);
    if (answer !== null && !kept.kept) outcome = await this.late.send(m.from, answer, g.question);
    this.stats.delivered(outcome);
    await this.logCall({ at, msgKey: key, who: m.from, question: g.question, sources: g.sources, r: { ...r, outcome }, deliveredAt: outcome === "reply" || outcome === "customer_service" ? new Date(this.o.clock.now()).toISOString() : null });
    if (outcome === "pending") this.late.waiting(m.from);
  }

  /** One call in the model calls' log (inbox --ai), followers' and ask's alike; a failure to log it is logged. */
  private async logCall(c: { at: string; msgKey: string; who: string; question: string; sources: Source[]; r: ModelAnswer; deliveredAt: string | null }): Promise<void> {
    const { r } = c;
    await this.o.write.generated
      .add({
        at: c.at,
        msg_key: c.msgKey,
        openid: c.who,
        question: c.question,
        model: this.o.endpoint.model,
        sources: c.sources.map((s) => ({ id: s.id, title: s.title, url: s.url, passages: s.passages })),
        output: r.output,
        answer: r.answer,
        cited: r.cited,
        outcome: r.outcome,
        detail: r.detail,
        ms: r.ms,
        tokens_prompt: r.usage?.prompt ?? null,
        tokens_completion: r.usage?.completion ?? null,
        delivered_at: c.deliveredAt,
      })
      .catch((e) => this.o.log(`the model call ${c.msgKey} could not be logged: ${(e as Error).message}`));
  }

  /** A place for one more call within every cap, or the cap reached (counted in health). */
  private async take(who: string): Promise<Slot | CapReached> {
    const taken = await this.o.caps.take(who, this.o.clock.now()).catch((e): CapReached => (this.o.log(`model caps: ${(e as Error).message}`), "daily"));
    if (typeof taken === "string") this.stats.capped[taken]++;
    return taken;
  }

  /** The call, its place in flight held while it runs. */
  private async call(question: string, sources: Source[], slot: Slot): Promise<ModelAnswer> {
    this.stats.inFlight++;
    try {
      return await this.asker.ask(question, sources);
    } finally {
      this.stats.inFlight--;
      slot.release();
    }
  }

  /**
   * What the model would answer `question` from `sources` and what the checks make of it, for
   * `replyd ask --generate`: within the caps (counted as `who`, the asking key), counted in health
   * and logged with the followers' calls (`inbox --ai`, outcome `ask` when it passed), sent to nobody.
   */
  async preview(question: string, sources: Source[], who: string): Promise<Record<string, unknown>> {
    const at = new Date(this.o.clock.now()).toISOString();
    const slot = await this.take(who);
    if (typeof slot === "string") return { outcome: `capped:${slot}`, detail: CAP_DETAIL[slot] };
    const r = await this.call(question, sources, slot);
    this.stats.called(r.outcome, r.usage);
    const outcome = r.outcome === "reply" ? "ask" : r.outcome;
    this.stats.delivered(outcome);
    await this.logCall({ at, msgKey: `ask:${crypto.randomUUID()}`, who, question, sources, r: { ...r, outcome }, deliveredAt: null });
    return {
      outcome: r.outcome,
      ...(r.output !== null ? { output: r.output } : {}),
      ...(r.answer !== null ? { answer: r.answer, cited: r.cited } : { detail: r.detail }),
      ms: r.ms,
      tokens: r.usage,
    };
  }

  /**
   * Shutting down: the deliveries held now get the retrieval reply at once (SIGTERM drains the
   * server without waiting on a model), and the calls in flight are given up.
   */
  stop(): void {
    this.local.release();
    this.o.shared?.release();
    this.asker.stop();
  }

  /** The endpoint as last looked at, and the look under way. */
  private found: EndpointNow | null = null;
  private looking: Promise<EndpointNow> | null = null;
  private lookedAt = 0;

  /**
   * Whether the endpoint answers now: looked at once per PROBE_MS however often health is asked.
   * Health waits for the first look only; after it, it answers with the last one while the next is
   * under way, so a hanging endpoint never holds health up.
   */
  private async endpointNow(): Promise<EndpointNow> {
    if (!this.looking && Date.now() - this.lookedAt >= PROBE_MS) {
      this.lookedAt = Date.now();
      this.looking = probe(this.o.endpoint, new Date(this.o.clock.now()).toISOString(), 3000, this.o.fetch).then((f) => {
        this.found = f;
        this.looking = null;
        return f;
      });
    }
    return this.found ?? (await (this.looking as Promise<EndpointNow>));
  }

  /** Health: the endpoint (never its key) and whether it answers now, calls and what became of them, tokens, the caps. */
  async status(): Promise<Record<string, unknown>> {
    return {
      ...(await this.stats.report(this.o.clock.now())),
      endpoint_now: await this.endpointNow(),
      ...this.late.status(),
    };
  }
}
