import type { CommandContext } from "../context.ts";
import { CLIError, usage } from "../errors.ts";
import { CODE } from "../../base/errors.ts";
import { type ReplyWindow } from "../../store/follower-log.ts";
import { defineCommand } from "../command.ts";

/** replyd reply <openid|inbox-id> TEXT | --article ID: a customer-service message to a follower. */
export async function reply(c: CommandContext): Promise<void> {
  const [to, ...words] = c.args;
  const article = c.str("--article");
  const text = words.join(" ");
  if (!to || (article === undefined) === (text === "")) throw usage('reply needs a follower and one message: replyd reply <openid|inbox-id> "text", or replyd reply <openid|inbox-id> --article ID (or its code)');
  // An inbox id is a number; openids never are.
  const target: [string, string] = /^\d+$/.test(to) ? ["inbox", to] : ["openid", to];
  const client = c.client();
  const send = (field: "article" | "code" | "text") =>
    client.call<{ openid: string; type: string; seq: number; reply_to: number | null; window: ReplyWindow }>({ method: "POST", path: "/api/cli/reply", fields: [target, [field, field === "text" ? text : (article as string)]] });
  const r = article === undefined ? await send("text") : await byOlderServer(send);
  c.print(r, () =>
    [
      `sent to ${r.openid}${client.inAccount} (${r.type === "news" ? "article" : "text"}), logged as message ${r.seq}${r.reply_to !== null ? `, answering message ${r.reply_to}` : ""}`,
      r.window.open ? `${r.window.left} more repl${r.window.left === 1 ? "y" : "ies"} allowed until ${r.window.until}` : `no more replies until the follower writes again: ${r.window.reason}`,
    ].join("\n"),
  );
}

/**
 * A server before 0.2.29 knows an article by its code only (code=): refused `article=`, the same
 * words sent as a code — what --article named there (a review: every --article had failed against one).
 */
export async function byOlderServer<T>(send: (field: "article" | "code") => Promise<T>): Promise<T> {
  try {
    return await send("article");
  } catch (e) {
    if (e instanceof CLIError && e.code === CODE.unknown_field && /\barticle\b/.test(e.message)) return send("code");
    throw e;
  }
}

export const replyCommand = defineCommand({
  usage: "reply <to> [...text]",
  summary: "answer a follower (openid, or an inbox message's id) with a text or --article ID",
  description: "Answers a follower with a customer-service message: a text, or a live article (--article: its id, or its code). Refused beforehand, with the reason, when the platform's 48-hour window is closed or its count of replies is spent; every reply is logged with the key that sent it.",
  examples: ['replyd reply 41 "It ships tomorrow."', "replyd reply o6_bmjrPTlm6_2sgVt7hMZOPfL2M --article fv3"],
  options: [{ flags: "--article <id>", help: "send this article (its id, or its code) instead of a text" }],
  run: reply,
});
