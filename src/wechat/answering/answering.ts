/**
 * How the callback answers a message it accepted (handler.ts is the door): the responder's
 * decision, unless a generated answer waits for the sender; the deadline; the cluster's shared
 * answers (shared-retries.ts); a model writing the answer (generated-answers.ts); the log entry; the reply
 * rendered, and sealed in safe mode.
 */
import type { Clock } from "../../base/clock.ts";
import type { FollowerLog } from "../../store/follower-log.ts";
import { viaRedis } from "../../cluster/fallback.ts";
import type { GeneratedAnswers } from "../ai/generated-answers.ts";
import { loggedContent, renderReply, SUCCESS, type Inbound, type Reply } from "../door/message.ts";
import type { Decision } from "./decision.ts";
import type { Responder } from "./responder.ts";
import type { Answer } from "../door/retries.ts";
import { GENERATING, type Shared, type SharedAnswers } from "../door/shared-retries.ts";

export interface AnsweringParts {
  /** The message log (the store's, or the database's). */
  messages: Pick<FollowerLog, "add">;
  responder: Pick<Responder, "respond">;
  clock: Clock;
  log: (msg: string) => void;
  /** Answer "success" rather than nothing when the reply is not ready by then (the platform waits 5 s). */
  deadlineMs: number;
  /** The encrypted reply envelope (safe mode). */
  seal: (xml: string) => string;
  /** The cluster's retry answers (serve --redis); without it, this instance's memory only. */
  shared: SharedAnswers | null;
  /** Generated answers (serve --ai-url); null: the retrieval reply is the answer. */
  generator: GeneratedAnswers | null;
}

export class Answering {
  /** Messages answered with this instance's own dedupe because the cluster's Redis was away. */
  answeredAlone = 0;

  constructor(private readonly parts: AnsweringParts) {}

  /**
   * The answer through the cluster (shared.ts): the first one kept by any instance. With
   * Redis away, this instance's own: a resend that lands elsewhere meanwhile is answered (and
   * logged, once: the log's msg_key is unique) there too.
   */
  async shared(m: Inbound, key: string, encrypt: boolean, timestamp: string, nonce: string, signal?: AbortSignal): Promise<string> {
    const arrivedAt = Date.now();
    const shared = this.parts.shared as SharedAnswers;
    let decided: Decision | Promise<Decision>;
    try {
      decided = this.decide(m);
    } catch (e) {
      return this.failed(e);
    }
    const alone = () => {
      this.answeredAlone++;
      return this.answer(m, key, encrypt, decided, signal);
    };
    if (!shared.up) return alone();
    const deadlineAt = Date.now() + this.parts.deadlineMs;
    let computed = false;
    return viaRedis(async () => {
      // Answered at once (the usual case): rendered, then offered to the cluster in one batched
      // round trip. A regex rule or search to wait for: the message is claimed first, so a resend
      // elsewhere waits instead of running it again.
      let out: Shared;
      if (decided instanceof Promise) {
        const work = decided;
        out = await shared.answer(key, timestamp, nonce, deadlineAt, () => ((computed = true), this.answer(m, key, encrypt, work, signal)));
        if (out === GENERATING) return await this.joinGeneration(m, key, encrypt, work, arrivedAt, signal);
        // Another instance's answer: logged here too (below).
        if (!computed) void work.then((d) => this.record(m, key, d)).catch(() => {});
        return out;
      }
      const decision = decided;
      const rendered = this.render(m, decision, encrypt);
      out = await shared.offer(key, timestamp, nonce, deadlineAt, rendered, () => rendered);
      if (out === GENERATING) return await this.joinGeneration(m, key, encrypt, decision, arrivedAt, signal);
      // Logged whichever answer was kept: the instance whose answer it is may have been killed before
      // its log batch was written, and this arrival may be the platform's (or nginx's) retry of it.
      // The log's msg_key is unique, so a message logged by both is kept once.
      this.record(m, key, decision);
      return out;
    }, { local: alone });
  }

  /**
   * This arrival is a delivery of a message another instance (or an earlier delivery here) gave
   * to the model: answered as the window allows. With no generation open after all, answered
   * as any message.
   */
  private async joinGeneration(m: Inbound, key: string, encrypt: boolean, decided: Decision | Promise<Decision>, arrivedAt: number, signal?: AbortSignal): Promise<string> {
    const joined = this.parts.generator ? await this.parts.generator.join(key, arrivedAt, signal) : null;
    if (!joined) return this.answer(m, key, encrypt, decided, signal);
    // This delivery gave the retrieval reply: logged here too (the model's instance may be gone).
    if (joined.keptFallback) void Promise.resolve(decided).then((d) => this.record(m, key, d), () => {});
    return joined.out;
  }

  /** The responder's decision, unless the sender has a generated answer waiting for their next message. */
  private decide(m: Inbound): Decision | Promise<Decision> {
    const g = this.parts.generator;
    if (g && m.type !== "event" && g.waitingFor(m.from))
      return g.takeWaiting(m.from).then(
        (d) => d ?? this.parts.responder.respond(m),
        (e) => {
          this.parts.log(`a generated answer waiting for ${m.from} could not be taken: ${(e as Error).message}`);
          return this.parts.responder.respond(m);
        },
      );
    return this.parts.responder.respond(m);
  }

  /** The model writes the answer (generated-answers.ts); null from it: answered as without a model. */
  private async generate(m: Inbound, key: string, d: Decision, encrypt: boolean, signal?: AbortSignal): Promise<string> {
    const hooks = { render: (reply: Reply) => this.rendered(m, reply, encrypt), record: (x: Decision) => this.record(m, key, x) };
    const got = await (this.parts.generator as GeneratedAnswers).start(m, key, d, hooks, signal);
    return got ? got.out : this.finish(m, key, d, encrypt);
  }

  private failed(e: unknown): string {
    this.parts.log(`wechat reply failed: ${(e as Error).message}`);
    return SUCCESS;
  }

  /**
   * Computes and logs the answer once; past the deadline the follower gets "success" instead. A
   * decision made in time that a model may write (generated-answers.ts) has the window's deadlines instead.
   */
  answer(m: Inbound, key: string, encrypt: boolean, made?: Decision | Promise<Decision>, signal?: AbortSignal): Answer {
    let decided: Decision | Promise<Decision>;
    try {
      decided = made ?? this.decide(m);
      // Answered at once (no regex rule had to run): no deadline to race.
      if (!(decided instanceof Promise)) return this.finish(m, key, decided, encrypt);
    } catch (e) {
      return this.failed(e);
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    let late = false;
    const work = decided
      .then((d) => {
        if (!late && d.generate && this.parts.generator) {
          clearTimeout(timer);
          return this.generate(m, key, d, encrypt, signal);
        }
        return this.finish(m, key, d, encrypt);
      })
      .catch((e) => this.failed(e));
    const deadline = new Promise<string>((resolve) => {
      timer = setTimeout(() => {
        late = true;
        this.parts.log(`wechat reply not ready in ${this.parts.deadlineMs} ms; answered "success"`);
        resolve(SUCCESS);
      }, this.parts.deadlineMs);
    });
    return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
  }

  /** Logs the message and renders (and seals) its reply. */
  private finish(m: Inbound, key: string, decision: Decision, encrypt: boolean): string {
    this.record(m, key, decision);
    return this.render(m, decision, encrypt);
  }

  /** Logs the message as answered now: its reply time counts from its arrival (a model's answer included). */
  private record(m: Inbound, key: string, decision: Decision): void {
    this.parts.messages.add({
      received_ms: this.parts.clock.now(),
      msg_key: key,
      from_user: m.from,
      type: m.type,
      event: m.event ?? null,
      content: loggedContent(m),
      answer: decision.answer,
      unmatched: decision.unmatched,
      reply_ms: m.arrived === undefined ? null : Math.max(0, Math.round(this.parts.clock.monotonic() - m.arrived)),
      margin: decision.margin ?? null,
    });
  }

  private render(m: Inbound, decision: Decision, encrypt: boolean): string {
    return decision.reply ? this.rendered(m, decision.reply, encrypt) : SUCCESS;
  }

  /** A reply to `m` as the platform is answered: its XML, sealed in safe mode. */
  private rendered(m: Inbound, reply: Reply, encrypt: boolean): string {
    const xml = renderReply(reply, m, Math.floor(this.parts.clock.now() / 1000));
    return encrypt ? this.parts.seal(xml) : xml;
  }
}
