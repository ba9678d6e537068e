/**
 * A customer-service message to a follower within the platform's window (DESIGN §8): refused
 * beforehand when the 48 hours are over or the replies allowed since the follower's last message
 * are spent, sent one at a time per follower on every instance (so two senders cannot both spend
 * the last reply allowed), and logged as a reply (direction out) once the platform took it. The
 * operator's `replyd reply` and a generated answer that follows the retrieval reply both send here.
 */
import type { Clock } from "../../base/clock.ts";
import type { Writer } from "../../store/writer.ts";
import type { ReplyWindow } from "../../store/follower-log.ts";
import { sendCustomMessage, type CustomMessage } from "./custom.ts";
import { PlatformError, type PlatformClient } from "./client.ts";

/** The window is closed (or its count spent): nothing was sent. */
export class WindowClosed extends Error {
  constructor(readonly window: ReplyWindow) {
    super(window.reason ?? "the reply window is closed");
    this.name = "WindowClosed";
  }
}

/** Sent, but the log could not take it. */
export class NotLogged extends Error {}

/** The platform could not be reached (or did not answer as documented): nothing is known to be sent. */
export class PlatformUnreachable extends Error {}

export interface FollowUp {
  openid: string;
  message: CustomMessage;
  /** What the log says was sent: the text, or the article's code and title. */
  logged: string;
  /** The admin key that sent it, or "ai" for a generated answer. */
  sentBy: string;
  /** The inbox entry it answers, if one was named. */
  replyTo: number | null;
  /** false: it answers no inbox entry (the model's late answer: follower-log.ts NewReply.answers). */
  answers?: boolean;
}

/** Throws WindowClosed before sending, the platform's refusal (PlatformError) as it is, NotLogged after. */
export async function sendFollowUp(write: Writer, platform: Pick<PlatformClient, "call">, clock: Clock, f: FollowUp): Promise<{ seq: number; window: ReplyWindow }> {
  // The log must hold every message that arrived so far: the newest one opens the window.
  await write.log.settled();
  return write.exclusive(`reply:${f.openid}`, async () => {
    const now = clock.now();
    // What did not go out is counted by the report (by the platform's errcode, or why replyd sent
    // nothing); a failure to keep that count never hides the failure itself.
    const failed = (code: string, detail: string) => write.log.sendFailed({ openid: f.openid, sentBy: f.sentBy, code, detail: detail.slice(0, 500), nowMs: now }).catch(() => {});
    const window = await write.log.window(f.openid, now);
    if (!window.open) {
      await failed(window.closed ?? "window_closed", window.reason ?? "");
      throw new WindowClosed(window);
    }
    try {
      await sendCustomMessage(platform, f.openid, f.message);
    } catch (e) {
      if (e instanceof PlatformError) {
        await failed(String(e.errcode), e.message);
        throw e;
      }
      await failed("unreachable", (e as Error).message);
      throw new PlatformUnreachable((e as Error).message);
    }
    let seq: number;
    try {
      seq = await write.log.record({ openid: f.openid, type: f.message.type, content: f.logged, sentBy: f.sentBy, replyTo: f.replyTo, ...(f.answers === false ? { answers: false } : {}), nowMs: now });
    } catch (e) {
      throw new NotLogged(`the reply was sent to ${f.openid}, but could not be written to the log: ${(e as Error).message}`);
    }
    return { seq, window: await write.log.window(f.openid, clock.now()) };
  });
}
