/**
 * A generated answer ready after the message's last delivery was answered with the retrieval reply
 * (docs/wechat.md §5): sent as a customer-service message within the platform's window, or — with
 * no --wx-secret, or once the platform refused such messages (48001: an unverified account; replyd
 * remembers this for a day) — kept until the follower's next message, which it answers instead.
 */
import type { Clock } from "../../base/clock.ts";
import type { Writer } from "../../store/writer.ts";
import { PENDING_MS } from "../../store/generated-log.ts";
import { sendFollowUp } from "../platform/follow-up.ts";
import type { PendingFollowers } from "./pending.ts";
import type { Decision } from "../answering/decision.ts";
import { PlatformError, type PlatformClient } from "../platform/client.ts";

/** How long a 48001 is believed before customer-service messages are tried again. */
const REFUSAL_KEPT_MS = 24 * 3_600_000;

export class LateAnswers {
  /** When the platform refused customer-service messages (48001), and its words. */
  private refused: { at: number; why: string } | null = null;

  constructor(
    private readonly write: Writer,
    private readonly clock: Clock,
    private readonly log: (msg: string) => void,
    /** The platform API as configured now (--wx-secret), or null. */
    private readonly platform: () => PlatformClient | null,
    /** Followers with an answer waiting: looked up on every message. */
    readonly pending: PendingFollowers,
  ) {}

  async load(): Promise<void> {
    const since = new Date(this.clock.now() - PENDING_MS).toISOString();
    for (const openid of await this.write.generated.pendingFollowers(since)) this.pending.note(openid);
  }

  /** Sends `answer` to `openid` now if it may: "customer_service", else "pending" (the caller logs it so). */
  async send(openid: string, answer: string, question: string): Promise<"customer_service" | "pending"> {
    const platform = this.platform();
    if (!platform) return "pending";
    if (this.refused && Date.now() - this.refused.at < REFUSAL_KEPT_MS) return "pending";
    try {
      await sendFollowUp(this.write, platform, this.clock, { openid, message: { type: "text", text: answer }, logged: answer, sentBy: "ai", replyTo: null, answers: false });
      this.refused = null;
      return "customer_service";
    } catch (e) {
      if (e instanceof PlatformError && e.errcode === 48001) {
        this.refused = { at: Date.now(), why: e.message };
        this.log("customer-service messages refused (48001: the account may not send them); generated answers that miss the reply's window wait for the follower's next message");
      } else this.log(`a generated answer could not follow for "${question.slice(0, 40)}": ${(e as Error).message}; it waits for the follower's next message`);
      return "pending";
    }
  }

  /** `openid`'s answer is logged as pending: every instance learns it waits. */
  waiting(openid: string): void {
    this.pending.add(openid);
  }

  /** Whether `openid` may have an answer waiting (a lookup: every follower message asks). */
  has(openid: string): boolean {
    return this.pending.has(openid);
  }

  /** The answer waiting for `openid`, as the reply to their new message; null when none (or another instance sent it). */
  async take(openid: string): Promise<Decision | null> {
    const now = this.clock.now();
    const e = await this.write.generated.takePending(openid, new Date(now - PENDING_MS).toISOString(), new Date(now).toISOString());
    this.pending.remove(openid);
    if (!e?.answer) return null;
    const quoted = e.question.length > 60 ? `${e.question.slice(0, 60)}…` : e.question;
    // The new message is not answered by it: listed in the inbox for the operator.
    return { reply: { type: "text", content: `“${quoted}”\n\n${e.answer}` }, answer: `ai-pending:${e.seq}`, unmatched: true };
  }

  status(): { customer_service: string; pending_followers: number } {
    return {
      customer_service: !this.platform()
        ? "not configured (no --wx-secret): an answer the model finishes after the last delivery waits for the follower's next message"
        : this.refused
          ? `refused since ${new Date(this.refused.at).toISOString()}: ${this.refused.why}`
          : "ok",
      pending_followers: this.pending.size,
    };
  }
}
