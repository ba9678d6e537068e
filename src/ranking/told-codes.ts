/**
 * What the account's welcome and help texts tell followers to send ("回复3 主厅地址", "Reply 2 for
 * payments"): the server's warnings say when such a code is gone (server/write-warnings.ts), and a
 * number sent after a list labelled by codes is read as that code when a text tells followers to
 * send it (wechat/answering/questions.ts).
 */
import { TELLS_TO_SEND } from "./picks.ts";

/** What a follower is told to send with (cues.ts), and the words only texts for followers write so ("发送3", "输入3", "text 3"). */
const TOLD = `(?:${TELLS_TO_SEND}|发送|输入|text)`;
/** …then a colon and an opening mark, as texts write them ("回复：【3】"); each space run read once (no backtracking over a long one). */
export const TOLD_THEN = `${TOLD}\\s*(?:[：:]\\s*)?[“"'「【]?`;
/**
 * A measure written after a number makes it a figure, not a code to send: "小程序3公里内送到家" had been
 * read as telling followers to send 3 (a fresh-food chain's walkthrough, Session 52). Only measures no
 * menu's entry opens on: "1月卡 2季卡", "1号店", "1元秒杀 2折专区", "1天津店" are codes (a review). A
 * count of things or people neither ("有6个站点", "3位老师": a parcel chain's walkthrough, 0.2.27), nor
 * a figure written beside a slash ("24/7": a service desk's walkthrough).
 */
const UNIT = "\\s*(?:公里|千米|公斤|小[时時]|分[钟鐘]|个|個|位|岁|歲)|家(?![居电電政具纺紡庭])|%|％";
/** A code's characters at most (article/text-rules.ts CODE_PATTERN). */
export const MAX_CODE_CHARS = 32;
/** The beginnings of a Han run after 回复 tried as codes, at most: an account's Chinese codes are words, not sentences. */
export const HAN_CODE_CHARS = 8;

/**
 * `text` tells followers to send `code`: right after 回复 / reply / send ("回复3", "回复：【3】",
 * "Reply h"), or — a code with a digit, or of three letters or more — standing alone in a text that
 * says to send anything ("Reply 1 for hours, … 8 for support", "回复1-6"), not inside a time or a
 * figure ("营业时间9:00-17:00", "9~17点", "9-18点"). Only a warning: a code "a" reads in "Send a message" too.
 */
export function tellsToSend(text: string, code: string): boolean {
  const escaped = code.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  if (new RegExp(`${TOLD_THEN}${escaped}(?![a-z0-9])`, "iu").test(text)) return true;
  // Standing alone: not part of a time, a date or a figure (营业时间9:00-17:00, 9~17点, 9-18点, 6月25日, 3.5元,
  // 3公里, 40家门店); a range of codes' ends are ("回复1-6").
  return (/\d/.test(code) || code.length >= 3) && new RegExp(TOLD, "iu").test(text) && new RegExp(`(?<![a-z0-9]|\\d[:.：~～/]|月)${escaped}(?![a-z0-9]|[:.：~～/]\\d|[-－]\\d+\\s*[点點时時:：]|\\s*[点點时時]|月\\d|${UNIT})`, "iu").test(text);
}
