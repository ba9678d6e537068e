// @ts-expect-error: node-webot's wechat-crypto ships no types
import WXBizMsgCrypt from "wechat-crypto";
import { wxSignature } from "../../src/wechat/door/crypto.ts";
import { parseXml, type XmlNode } from "../../src/wechat/door/xml.ts";

export const TOKEN = "replydtoken";
export const AESKEY = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG";
export const APPID = "wxb11529c136998cb6";
export const peer = new WXBizMsgCrypt(TOKEN, AESKEY, APPID);

let msgIds = 1000;
export const textMsg = (content: string, createTime: number, msgId = String(++msgIds)) =>
  `<xml><ToUserName><![CDATA[gh_account]]></ToUserName><FromUserName><![CDATA[o_follower]]></FromUserName><CreateTime>${createTime}</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[${content}]]></Content><MsgId>${msgId}</MsgId></xml>`;
export const eventMsg = (event: string, createTime: number, key?: string) =>
  `<xml><ToUserName><![CDATA[gh_account]]></ToUserName><FromUserName><![CDATA[o_follower]]></FromUserName><CreateTime>${createTime}</CreateTime><MsgType><![CDATA[event]]></MsgType><Event><![CDATA[${event}]]></Event>${key !== undefined ? `<EventKey><![CDATA[${key}]]></EventKey>` : ""}</xml>`;
/** A message of another type, with its own fields (`{ PicUrl: "…" }`) as the platform names them. */
export const otherMsg = (type: string, createTime: number, fields: Record<string, string> = {}) =>
  `<xml><ToUserName><![CDATA[gh_account]]></ToUserName><FromUserName><![CDATA[o_follower]]></FromUserName><CreateTime>${createTime}</CreateTime><MsgType><![CDATA[${type}]]></MsgType>${Object.entries(fields).map(([k, v]) => `<${k}><![CDATA[${v}]]></${k}>`).join("")}<MsgId>${++msgIds}</MsgId></xml>`;

/** A platform POST: plain, or encrypted by the peer implementation. */
export function wxPost(xml: string, nowSec: number, o: { encrypt?: boolean; path?: string; badSignature?: boolean; nonce?: string; body?: string; openid?: string } = {}): Request {
  const timestamp = String(nowSec);
  // A fresh nonce per request, as the platform signs: one signature carries one message.
  const nonce = o.nonce ?? String(1e9 + Math.floor(Math.random() * 9e9));
  const q = new URLSearchParams({ timestamp, nonce, openid: o.openid ?? "o_follower", signature: wxSignature(TOKEN, timestamp, nonce) });
  let body = o.body ?? xml;
  if (o.encrypt) {
    const encrypted = peer.encrypt(xml) as string;
    q.set("encrypt_type", "aes");
    q.set("msg_signature", peer.getSignature(timestamp, nonce, encrypted));
    body = `<xml><ToUserName><![CDATA[gh_account]]></ToUserName><Encrypt><![CDATA[${encrypted}]]></Encrypt></xml>`;
  }
  if (o.badSignature) q.set(o.encrypt ? "msg_signature" : "signature", "0".repeat(40));
  return new Request(`http://localhost${o.path ?? "/wechat"}?${q}`, { method: "POST", body, headers: { "content-type": "text/xml" } });
}

/** Opens an encrypted reply with the peer implementation, checking its signature. */
export function openReply(text: string, with_ = peer): XmlNode {
  const outer = parseXml(text);
  const { Encrypt, MsgSignature, TimeStamp, Nonce } = outer as Record<string, string>;
  if (with_.getSignature(TimeStamp, Nonce, Encrypt) !== MsgSignature) throw new Error("reply signature does not verify");
  const { message, id } = with_.decrypt(Encrypt) as { message: string; id: string };
  if (id !== APPID) throw new Error("reply appid mismatch");
  return parseXml(message);
}
