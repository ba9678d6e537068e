import { cdata, XmlError, type XmlNode } from "./xml.ts";
import { truncateUtf8 } from "../../base/utf8.ts";

/** A follower's message or event, as far as replyd reads it. */
export interface Inbound {
  to: string;
  from: string;
  createTime: number;
  type: string;
  msgId?: string;
  /** Text of a text message (Recognition of a voice message when the platform sends one). */
  content?: string;
  event?: string;
  /** EventKey, with subscribe's "qrscene_" prefix removed into `scene`. */
  eventKey?: string;
  scene?: string;
  fields: XmlNode;
  /** When the platform's request arrived, on the clock's monotonic count: the log's reply time counts from it. */
  arrived?: number;
}

const str = (node: XmlNode, name: string): string | undefined => {
  const v = node[name];
  return typeof v === "string" ? v : undefined;
};

export function toInbound(node: XmlNode): Inbound {
  const to = str(node, "ToUserName");
  const from = str(node, "FromUserName");
  const createTime = str(node, "CreateTime");
  const type = str(node, "MsgType");
  if (!to || !from || !type || !createTime || !/^\d{1,13}$/.test(createTime.trim()))
    throw new XmlError("a message needs ToUserName, FromUserName, CreateTime and MsgType");
  const m: Inbound = { to, from, createTime: seconds(Number(createTime.trim())), type: type.trim(), fields: node };
  const msgId = str(node, "MsgId") ?? str(node, "MsgID");
  if (msgId) m.msgId = msgId.trim();
  if (m.type === "text") m.content = str(node, "Content") ?? "";
  if (m.type === "voice" && str(node, "Recognition")) m.content = str(node, "Recognition");
  if (m.type === "event") {
    m.event = (str(node, "Event") ?? "").trim();
    const key = str(node, "EventKey");
    if (key !== undefined) {
      m.eventKey = key;
      if (m.event === "subscribe" && key.startsWith("qrscene_")) m.scene = key.slice("qrscene_".length);
    }
  }
  return m;
}

/** Media a follower sends that replyd cannot read: answered with the fallback text and listed in the inbox. */
export const MEDIA_TYPES: readonly string[] = ["image", "voice", "video", "shortvideo", "location", "link"];

/**
 * What the log keeps of a message, at most 1024 characters: a text's words (a voice message's
 * recognised speech), an event's key; of media, what lets the operator see what was sent from
 * `replyd inbox` — an image's PicUrl (the platform's copy of the picture), a location's label and
 * coordinates, a link's title and address. Null for voice and video the platform did not
 * transcribe: only the platform's media API holds them.
 */
export function loggedContent(m: Inbound): string | null {
  const f = (name: string) => str(m.fields, name)?.trim() ?? "";
  let said: string | null = m.content ?? m.eventKey ?? null;
  if (said === null && m.type === "image") said = f("PicUrl") || null;
  if (said === null && m.type === "location") said = [f("Label"), f("Location_X") || f("Location_Y") ? `(${f("Location_X")}, ${f("Location_Y")})` : ""].filter(Boolean).join(" ") || null;
  if (said === null && m.type === "link") said = [f("Title"), f("Url")].filter(Boolean).join(" ") || null;
  return said === null ? null : said.slice(0, 1024);
}

/**
 * CreateTime is Unix seconds; some tools and other frameworks' tests send milliseconds (13 digits),
 * taken as the same moment in seconds. Below 10¹¹ (the year 5138 in seconds, 1973 in ms) it is seconds.
 */
const seconds = (n: number) => (n >= 1e11 ? Math.floor(n / 1000) : n);

/**
 * Identifies a message across the platform's retries (DESIGN §5). The sender is part of it:
 * MsgIds from different followers have been seen to collide.
 */
export function dedupeKey(m: Inbound): string {
  if (m.type !== "event" && m.msgId) return `m:${m.from}:${m.msgId}`;
  return `e:${m.from}:${m.createTime}:${m.event ?? m.type}:${m.eventKey ?? ""}`;
}

export interface NewsItem {
  title: string;
  description: string;
  picurl: string | null;
  url: string;
}

export type Reply = { type: "text"; content: string } | { type: "news"; articles: NewsItem[] };

/** The empty reply: the platform shows the follower nothing (and delivers no more). */
export const SUCCESS = "success";

/** The platform's limits: 1 article in reply to a message, 8 to an event; text up to 2048 bytes. */
export const MAX_NEWS_FOR_MESSAGE = 1;
export const MAX_NEWS_FOR_EVENT = 8;
export const MAX_TEXT_BYTES = 2048;

/** The reply XML, To/From swapped, CreateTime in seconds. */
export function renderReply(reply: Reply, m: Inbound, nowSec: number): string {
  const head = `<ToUserName>${cdata(m.from)}</ToUserName><FromUserName>${cdata(m.to)}</FromUserName><CreateTime>${nowSec}</CreateTime>`;
  if (reply.type === "text") {
    const content = truncateUtf8(reply.content, MAX_TEXT_BYTES);
    if (!content.trim()) throw new Error("a text reply must not be empty");
    return `<xml>${head}<MsgType>${cdata("text")}</MsgType><Content>${cdata(content)}</Content></xml>`;
  }
  const limit = m.type === "event" ? MAX_NEWS_FOR_EVENT : MAX_NEWS_FOR_MESSAGE;
  const items = reply.articles.length > limit ? reply.articles.slice(0, limit) : reply.articles;
  if (!items.length) throw new Error("a news reply needs an article");
  let xmlItems = "";
  for (const a of items)
    xmlItems += `<item><Title>${cdata(a.title)}</Title><Description>${cdata(a.description)}</Description><PicUrl>${cdata(a.picurl ?? "")}</PicUrl><Url>${cdata(a.url)}</Url></item>`;
  return `<xml>${head}<MsgType>${cdata("news")}</MsgType><ArticleCount>${items.length}</ArticleCount><Articles>${xmlItems}</Articles></xml>`;
}
