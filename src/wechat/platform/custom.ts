/**
 * Customer-service messages (POST /cgi-bin/message/custom/send): how an account answers a follower
 * outside the 5-second passive reply, within the platform's window after the follower's last
 * interaction. A news message carries one article (the platform's limit since 2023).
 */
import type { Article } from "../../article/article.ts";
import type { PlatformClient } from "./client.ts";
import { cardDescription } from "../../article/card-description.ts";

export type CustomMessage = { type: "text"; text: string } | { type: "news"; article: Pick<Article, "title" | "description" | "url" | "picurl"> & { body?: string } };

export async function sendCustomMessage(platform: Pick<PlatformClient, "call">, openid: string, m: CustomMessage): Promise<void> {
  const body =
    m.type === "text"
      ? { touser: openid, msgtype: "text", text: { content: m.text } }
      : {
          touser: openid,
          msgtype: "news",
          // An article with no description shows its body's opening, as the callback's card does (replyd reply --article had sent a title alone: a gym's walkthrough).
          news: { articles: [{ title: m.article.title, description: cardDescription(m.article), url: m.article.url, ...(m.article.picurl ? { picurl: m.article.picurl } : {}) }] },
        };
  await platform.call("/cgi-bin/message/custom/send", body);
}
