/**
 * A call to the model as the account pays for it: a place taken within every cap (caps.ts), the
 * call made and its place held while it runs (llm-answer.ts), counted in health (stats.ts), and
 * logged in the model calls' log (`inbox --ai`) — for a follower's message and for `replyd ask
 * --generate` alike. Apart from generated-answers.ts, which decides when a follower's message calls
 * and which delivery its answer goes out on: this is what every call costs, whoever asked.
 */
import type { Clock } from "../../base/clock.ts";
import type { ModelEndpoint } from "../../llm/client.ts";
import type { Source } from "../../llm/prompt.ts";
import type { Writer } from "../../store/writer.ts";
import type { CapReached, Caps, Slot } from "./caps.ts";
import { ModelAsker, type ModelAnswer } from "./llm-answer.ts";
import type { GeneratedStats } from "./stats.ts";

const CAP_DETAIL: Record<CapReached, string> = {
  follower: "this follower's (or key's) hourly cap (--ai-per-follower) is reached",
  minute: "the budget per minute (--ai-per-minute) is spent",
  daily: "the daily cap (--ai-daily) is reached",
  concurrency: "as many calls as --ai-concurrency allows are in flight",
};

/** A cap reached is said at most this often, each. */
const REACHED_SAID_MS = 60_000;

export interface MeteredCallsOptions {
  endpoint: ModelEndpoint;
  caps: Caps;
  write: Writer;
  clock: Clock;
  log: (msg: string) => void;
  /** A cap reached, said once a minute each (a gym's walkthrough: the daily cap reached had logged nothing). */
  warn: (msg: string) => void;
  stats: GeneratedStats;
  fetch?: typeof fetch;
}

/** One call in the model calls' log: who asked what, from which sources, what became of it. */
export interface LoggedCall {
  at: string;
  msgKey: string;
  who: string;
  question: string;
  sources: Source[];
  r: ModelAnswer;
  deliveredAt: string | null;
}

export class MeteredCalls {
  private readonly asker: ModelAsker;

  constructor(private readonly o: MeteredCallsOptions) {
    this.asker = new ModelAsker(o.endpoint, o.fetch);
  }

  /** One call in the model calls' log (inbox --ai), followers' and ask's alike; a failure to log it is logged. */
  async logCall(c: LoggedCall): Promise<void> {
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

  /**
   * A follower's message the caps kept from the model (the retrieval reply went out): logged with
   * the calls as `capped:<cap>`, no call made, the sources named without their passages — so the
   * inbox (`inbox --ai`) and the report show when the budget decided, after a restart too.
   */
  logCapped(c: Omit<LoggedCall, "r" | "deliveredAt">, cap: CapReached): void {
    const sources = c.sources.map((s) => ({ ...s, passages: [] }));
    void this.logCall({ ...c, sources, deliveredAt: null, r: { outcome: `capped:${cap}`, answer: null, cited: [], output: null, usage: null, ms: null, detail: CAP_DETAIL[cap] } });
  }

  /** A place for one more call within every cap, or the cap reached (counted in health). */
  async take(who: string): Promise<Slot | CapReached> {
    // The caps could not be read (Redis refusing): held as the daily cap, said as what it is, not as a cap reached (a review).
    let failed = false;
    const taken = await this.o.caps.take(who, this.o.clock.now()).catch((e): CapReached => {
      failed = true;
      this.o.log(`model caps: ${(e as Error).message}`);
      return "daily";
    });
    if (typeof taken === "string") {
      this.o.stats.capped[taken]++;
      if (!failed) this.saidReached(taken);
    }
    return taken;
  }

  /** When each cap was last said reached: once a minute at most, however many questions meet it. */
  private readonly reachedSaid = new Map<CapReached, number>();

  private saidReached(cap: CapReached): void {
    const now = this.o.clock.now();
    if (now - (this.reachedSaid.get(cap) ?? -Infinity) < REACHED_SAID_MS) return;
    this.reachedSaid.set(cap, now);
    this.o.warn(`model calls capped: ${CAP_DETAIL[cap]} — questions get the retrieval reply meanwhile (replyd health counts them)`);
  }

  /** The call, its place in flight held while it runs. */
  async call(question: string, sources: Source[], slot: Slot): Promise<ModelAnswer> {
    this.o.stats.inFlight++;
    try {
      return await this.asker.ask(question, sources);
    } finally {
      this.o.stats.inFlight--;
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
    this.o.stats.called(r.outcome, r.usage);
    const outcome = r.outcome === "reply" ? "ask" : r.outcome;
    this.o.stats.delivered(outcome);
    await this.logCall({ at, msgKey: `ask:${crypto.randomUUID()}`, who, question, sources, r: { ...r, outcome }, deliveredAt: null });
    return {
      outcome: r.outcome,
      ...(r.output !== null ? { output: r.output } : {}),
      ...(r.answer !== null ? { answer: r.answer, cited: r.cited } : { detail: r.detail }),
      ms: r.ms,
      tokens: r.usage,
    };
  }

  /** The calls in flight are given up (shutting down). */
  stop(): void {
    this.asker.stop();
  }
}
