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
import { complete, ModelFailure, type ModelEndpoint } from "../model-client.ts";
import { checkOutput } from "../model-output.ts";
import { instructions, promptFor, type Source } from "../model-prompt.ts";
import type { Writer } from "../store/backend.ts";
import { PENDING_MS } from "../store/generated-log.ts";
import { RedisDown } from "../store/redis/link.ts";
import { sendFollowUp } from "./follow-up.ts";
import { LocalBook, type GenerationBook, type Opened } from "./generation-book.ts";
import { GeneratorStats } from "./generator-stats.ts";
import type { Inbound, Reply } from "./message.ts";
import { MAX_TEXT_BYTES } from "./message.ts";
import type { Caps } from "./model-caps.ts";
import { PendingFollowers } from "./pending.ts";
import type { Decision } from "./responder.ts";
import { PlatformError, type TokenKeeper } from "./token.ts";

export interface DeliveryTimes {
  /** The last delivery is answered within this long of its arrival (the platform waits 5 s). */
  lastAnswerMs: number;
  /** A delivery this long after the first is the last, whatever the count says (the platform delivers 5 s apart). */
  lastAfterMs: number;
  /** The platform delivers a message this many times at most. */
  deliveries: number;
  /** The longest an earlier delivery is held (the platform closes it at 5 s; through app.handle nothing closes it). */
  holdMs: number;
}

export const DELIVERY_TIMES: DeliveryTimes = { lastAnswerMs: 4000, lastAfterMs: 9000, deliveries: 3, holdMs: 15_000 };

/** Room left in a text reply for the question quoted when an answer waits for the next message. */
const QUOTE_ROOM = 200;

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

export const SUCCESS = "success";

export class Generator {
  readonly stats: GeneratorStats;
  private readonly local = new LocalBook();
  private readonly times: DeliveryTimes;
  /** Generations this instance opened or joined, and the book each is in. */
  private readonly known = new Map<string, { book: GenerationBook; until: number }>();
  readonly pending: PendingFollowers;
  /** A mark of this process in the instructions: an answer holding it repeats them. */
  private readonly canary = Buffer.from(crypto.getRandomValues(new Uint8Array(6))).toString("hex");
  private readonly rules: string;
  /** When the platform refused customer-service messages (48001), and why: late answers wait for the next message meanwhile. */
  private csRefused: { at: number; why: string } | null = null;

  constructor(private readonly o: GeneratorOptions) {
    this.times = { ...DELIVERY_TIMES, ...o.times };
    this.rules = instructions(this.canary);
    this.pending = o.pending ?? new PendingFollowers();
    this.stats = new GeneratorStats(o.endpoint, o.caps);
  }

  /** Loads what the store knows: the calls of the last 24 hours (the caps) are the caller's; the followers with an answer waiting are these. */
  async load(): Promise<void> {
    const since = new Date(this.o.clock.now() - PENDING_MS).toISOString();
    for (const openid of await this.o.write.generated.pendingFollowers(since)) this.pending.note(openid);
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
    this.known.set(key, { book, until: now + 60_000 });
  }

  /**
   * The first delivery of a message whose decision may be generated: the model called (once),
   * this delivery answered as the window allows. Null when the model is not for it (no sources,
   * past a cap): the caller answers as without a model.
   */
  async start(m: Inbound, key: string, d: Decision, hooks: MessageHooks, signal?: AbortSignal): Promise<Delivered | null> {
    const g = d.generate;
    if (!g || !d.reply) return null;
    const capped = await this.o.caps.take(m.from, this.o.clock.now()).catch((e) => (this.o.log(`model caps: ${(e as Error).message}`), "daily" as const));
    if (capped) {
      this.stats.capped[capped]++;
      return null;
    }
    const fallback = hooks.render(d.reply);
    const firstAt = Date.now();
    let book = this.o.shared?.up ? this.o.shared : this.local;
    let opened: boolean;
    try {
      opened = await book.open(key, firstAt, fallback);
    } catch (e) {
      if (!(e instanceof RedisDown)) throw e;
      book = this.local;
      opened = await book.open(key, firstAt, fallback);
    }
    // Another delivery opened it first (a resend racing this one): this is one of its deliveries.
    if (!opened) return this.join(key, signal);
    this.remember(key, book);
    void this.run(book, m, key, d, g, hooks, fallback).catch((e) => this.o.log(`generated answer for ${key}: ${(e as Error).message}`));
    return this.deliver(book, key, { n: 1, firstAt, fallback }, signal);
  }

  /** A later delivery of a message being generated (here or at another instance); null when none is open. */
  async join(key: string, signal?: AbortSignal): Promise<Delivered | null> {
    const book = this.known.get(key)?.book ?? this.o.shared ?? this.local;
    const o = await book.arrive(key);
    if (!o) return null;
    this.remember(key, book);
    if (o.answer !== null) return { out: o.answer, keptFallback: false };
    return this.deliver(book, key, o, signal);
  }

  private async deliver(book: GenerationBook, key: string, o: Opened, signal?: AbortSignal): Promise<Delivered> {
    try {
      return await this.deliverFrom(book, key, o, signal);
    } catch (e) {
      if (!(e instanceof RedisDown)) throw e;
      // Redis went away while this delivery waited: the retrieval reply now; the model's answer follows (run()).
      return { out: o.fallback, keptFallback: true };
    }
  }

  private async deliverFrom(book: GenerationBook, key: string, o: Opened, signal?: AbortSignal): Promise<Delivered> {
    const now = Date.now();
    const last = o.n >= this.times.deliveries || now - o.firstAt >= this.times.lastAfterMs;
    const waited = await book.wait(key, now + (last ? this.times.lastAnswerMs : this.times.holdMs), last ? undefined : signal);
    if ("answer" in waited) return { out: waited.answer, keptFallback: false };
    // Given up on by the platform (it delivers again): what this delivery says is read by nobody.
    if ("timedOut" in waited && !last) return { out: SUCCESS, keptFallback: false };
    // The last delivery, or the owner is gone: the retrieval reply, unless an answer came meanwhile.
    const kept = await book.keep(key, o.fallback);
    if (kept.kept) this.stats.lastDeliveries++;
    return { out: kept.answer, keptFallback: kept.kept };
  }

  /** The model's call and what becomes of its answer; the message logged by `d`'s record hook. */
  private async run(book: GenerationBook, m: Inbound, key: string, d: Decision, g: { question: string; sources: Source[] }, hooks: MessageHooks, fallback: string): Promise<void> {
    const at = new Date(this.o.clock.now()).toISOString();
    const hold = book.hold(key);
    this.stats.inFlight++;
    let output: string | null = null;
    let usage: { prompt: number; completion: number } | null = null;
    let ms: number | null = null;
    let outcome: string;
    let detail: string | null = null;
    let answer: string | null = null;
    let cited: string[] = [];
    const started = performance.now();
    try {
      const c = await complete(this.o.endpoint, promptFor(g.question, g.sources, this.canary), this.o.fetch);
      output = c.text;
      usage = c.usage;
      const checked = checkOutput(c.text, g.sources, { secrets: this.o.endpoint.key ? [this.o.endpoint.key] : [], instructions: this.rules, canary: this.canary, maxBytes: MAX_TEXT_BYTES - QUOTE_ROOM });
      if (checked.ok) {
        answer = checked.text;
        cited = checked.cited.map((s) => s.id);
        outcome = "reply";
      } else {
        outcome = `refused:${checked.reason}`;
        detail = checked.detail;
      }
    } catch (e) {
      const f = e instanceof ModelFailure ? e : new ModelFailure("refused", (e as Error).message);
      outcome = `failed:${f.kind}`;
      detail = f.message;
    } finally {
      ms = Math.round(performance.now() - started);
      hold.stop();
      this.stats.inFlight--;
    }
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
    if (answer !== null && !kept.kept) outcome = await this.followUp(m, answer, g.question);
    this.stats.delivered(outcome);
    await this.o.write.generated
      .add({
        at,
        msg_key: key,
        openid: m.from,
        question: g.question,
        model: this.o.endpoint.model,
        sources: g.sources.map((s) => ({ id: s.id, title: s.title, url: s.url, passages: s.passages })),
        output,
        answer,
        cited,
        outcome,
        detail,
        ms,
        tokens_prompt: usage?.prompt ?? null,
        tokens_completion: usage?.completion ?? null,
        delivered_at: outcome === "reply" || outcome === "customer_service" ? new Date(this.o.clock.now()).toISOString() : null,
      })
      .catch((e) => this.o.log(`the model call for ${key} could not be logged: ${(e as Error).message}`));
    if (outcome === "pending") this.pending.add(m.from);
  }

  /** An answer ready after the retrieval reply went out: by customer-service message, else kept for the next message. */
  private async followUp(m: Inbound, answer: string, question: string): Promise<string> {
    const platform = this.o.platform?.();
    if (!platform) return "pending";
    if (this.csRefused && Date.now() - this.csRefused.at < 24 * 3_600_000) return "pending";
    try {
      await this.o.write.log.settled().catch(() => {});
      await sendFollowUp(this.o.write, platform, this.o.clock, { openid: m.from, message: { type: "text", text: answer }, logged: answer, sentBy: "ai", replyTo: null });
      this.csRefused = null;
      return "customer_service";
    } catch (e) {
      if (e instanceof PlatformError && e.errcode === 48001) {
        this.csRefused = { at: Date.now(), why: e.message };
        this.o.log(`customer-service messages refused (48001: the account may not send them); generated answers that miss the reply's window wait for the follower's next message`);
      } else this.o.log(`a generated answer could not follow for "${question.slice(0, 40)}": ${(e as Error).message}; it waits for the follower's next message`);
      return "pending";
    }
  }

  /** The answer waiting for `m`'s sender, as the reply to this message; null when none (or another instance sent it). */
  async takePending(m: Inbound): Promise<Decision | null> {
    const now = this.o.clock.now();
    const e = await this.o.write.generated.takePending(m.from, new Date(now - PENDING_MS).toISOString(), new Date(now).toISOString());
    this.pending.remove(m.from);
    if (!e?.answer) return null;
    this.stats.delivered("next_message");
    const quoted = e.question.length > 60 ? `${e.question.slice(0, 60)}…` : e.question;
    // The new message is not answered by it: listed in the inbox for the operator.
    return { reply: { type: "text", content: `“${quoted}”\n\n${e.answer}` }, answer: `ai-pending:${e.seq}`, unmatched: true };
  }

  /**
   * What the model would answer `question` from `sources` and what the checks make of it, for
   * `replyd ask --generate`: counted in health and the caps (as `who`), sent to nobody, not logged.
   */
  async preview(question: string, sources: Source[], who: string): Promise<Record<string, unknown>> {
    const capped = await this.o.caps.take(who, this.o.clock.now());
    if (capped) return { outcome: `capped:${capped}`, detail: capped === "daily" ? "the daily cap (--ai-daily) is reached" : "this key's hourly cap (--ai-per-follower) is reached" };
    try {
      const c = await complete(this.o.endpoint, promptFor(question, sources, this.canary), this.o.fetch);
      const checked = checkOutput(c.text, sources, { secrets: this.o.endpoint.key ? [this.o.endpoint.key] : [], instructions: this.rules, canary: this.canary, maxBytes: MAX_TEXT_BYTES - QUOTE_ROOM });
      const outcome = checked.ok ? "reply" : `refused:${checked.reason}`;
      this.stats.called(outcome, c.usage);
      return {
        outcome,
        output: c.text,
        ...(checked.ok ? { answer: checked.text, cited: checked.cited.map((s) => s.id) } : { detail: checked.detail }),
        ms: c.ms,
        tokens: c.usage,
      };
    } catch (e) {
      const f = e instanceof ModelFailure ? e : new ModelFailure("refused", (e as Error).message);
      this.stats.called(`failed:${f.kind}`, null);
      return { outcome: `failed:${f.kind}`, detail: f.message };
    }
  }

  /** Health: the endpoint (never its key), calls and what became of them, tokens, the caps. */
  async status(): Promise<Record<string, unknown>> {
    return {
      ...(await this.stats.report(this.o.clock.now())),
      customer_service: !this.o.platform?.()
        ? "not configured (no --wx-secret): an answer the model finishes after the last delivery waits for the follower's next message"
        : this.csRefused
          ? `refused since ${new Date(this.csRefused.at).toISOString()}: ${this.csRefused.why}`
          : "ok",
      pending_followers: this.pending.size,
    };
  }
}
