import { NO_CONTROL, unprintable } from "../article/article.ts";
import { badRequest, conflict, notFound, ReplydError } from "../base/errors.ts";
import type { CustomMessage } from "../wechat/platform/custom.ts";
import { NotLogged, PlatformUnreachable, sendFollowUp, WindowClosed } from "../wechat/platform/follow-up.ts";
import { PlatformError } from "../wechat/platform/client.ts";
import { MAX_TEXT_BYTES } from "../wechat/door/message.ts";
import type { SignedRequest } from "./auth.ts";
import type { AppContext } from "./context.ts";
import { Fields } from "./fields.ts";
import { liveByIdOrCode } from "./id-hint.ts";
import { onPlatform, platformOf } from "./platform.ts";

/**
 * POST /api/cli/reply: a customer-service message to a follower, named by openid= or by inbox= (a
 * message's log entry), saying text= or sending an article: article= (its id, else its live code, as
 * teach reads it: an imported help centre's articles have no codes — a theatre's walkthrough could
 * send none of them) or code= (its live code only, as before 0.2.29). Refused beforehand when
 * the platform's window is closed or its count spent; logged (direction out, the admin key) and
 * the answered messages marked once the platform took it.
 */
export async function postReply(ctx: AppContext, req: SignedRequest) {
  const f = new Fields(req.fields).only(["openid", "inbox", "text", "code", "article"]);
  if (req.files.size) throw badRequest("a reply takes form fields only");
  if (f.has("openid") === f.has("inbox")) throw badRequest("name the follower with openid= or the message with inbox=, one of the two");
  if ([f.has("text"), f.has("code"), f.has("article")].filter(Boolean).length !== 1) throw badRequest("say text= or send an article with article= (its id or code) or code=, one of them");
  const platform = platformOf(ctx);

  let message: CustomMessage;
  let logged: string;
  if (f.has("text")) {
    const text = f.require("text");
    if (text.trim() === "") throw badRequest('"text" is empty');
    if (Buffer.byteLength(text) > MAX_TEXT_BYTES) throw badRequest(`"text" must be at most ${MAX_TEXT_BYTES} bytes (${Buffer.byteLength(text)} given)`, "text_too_long");
    if (unprintable(text)) throw badRequest(`"text" ${NO_CONTROL}`);
    message = { type: "text", text };
    logged = text;
  } else {
    const a = f.has("article") ? liveByIdOrCode(ctx.read.articles, f.require("article")) : ctx.read.articles.getLiveByCode(f.require("code"));
    if (!a) throw notFound(f.has("article") ? `no live article with id or code "${f.require("article").slice(0, 64)}"` : `no live article with code "${f.require("code").slice(0, 64)}"`);
    message = { type: "news", article: a };
    logged = `${a.code ?? a.id}: ${a.title}`;
  }

  // The log must hold every message that arrived so far: the named entry may be the newest.
  await ctx.write.log.settled();
  let openid: string;
  let replyTo: number | null = null;
  if (f.has("inbox")) {
    const seq = f.int("inbox", 1, Number.MAX_SAFE_INTEGER, 0);
    const entry = await ctx.write.log.entry(seq);
    if (!entry) throw notFound(`no message ${seq} in the log (it may have been pruned; replyd inbox lists those there are)`, "no_message");
    if (entry.direction !== "in") throw badRequest(`message ${seq} is a reply the account sent, not a follower's message`, "not_a_follower_message");
    openid = entry.from_user;
    replyTo = seq;
  } else openid = f.require("openid");
  if (openid.length > 128 || /[\s\p{C}]/u.test(openid)) throw badRequest('"openid" is not an openid', "bad_openid");

  let sent: Awaited<ReturnType<typeof sendFollowUp>>;
  try {
    sent = await sendFollowUp(ctx.write, platform, ctx.clock, { openid, message, logged, sentBy: req.key.appkey, replyTo });
  } catch (e) {
    if (e instanceof WindowClosed) throw conflict(`cannot reply to ${openid}: ${e.window.reason}`, e.window.closed ?? "window_closed", { window: e.window });
    if (e instanceof NotLogged) throw new ReplydError("not_logged", e.message);
    // Only the platform's own answer (or its absence) is the platform's: a database that failed is the store's error.
    if (e instanceof PlatformError || e instanceof PlatformUnreachable) await onPlatform("the platform refused the reply", () => Promise.reject(e), "; nothing was sent");
    throw e;
  }
  return { sent: true, openid, type: message.type, seq: sent.seq, reply_to: replyTo, window: sent.window };
}
