/**
 * Customer-service messages (POST /cgi-bin/message/custom/send): how an account answers a follower
 * outside the 5-second passive reply, within the platform's window after the follower's last
 * interaction. A news message carries one article (the platform's limit since 2023).
 */
import type { Article } from "../../article/article.ts";
import type { TokenKeeper } from "./token.ts";

export type CustomMessage = { type: "text"; text: string } | { type: "news"; article: Pick<Article, "title" | "description" | "url" | "picurl"> };

export async function sendCustomMessage(platform: Pick<TokenKeeper, "call">, openid: string, m: CustomMessage): Promise<void> {
  const body =
    m.type === "text"
      ? { touser: openid, msgtype: "text", text: { content: m.text } }
      : {
          touser: openid,
          msgtype: "news",
          news: { articles: [{ title: m.article.title, description: m.article.description, url: m.article.url, ...(m.article.picurl ? { picurl: m.article.picurl } : {}) }] },
        };
  await platform.call("/cgi-bin/message/custom/send", body);
}
