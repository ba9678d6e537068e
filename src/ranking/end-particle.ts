/**
 * A sentence-final particle a phone's message ends with (營業時間呀, 营业时间呢, 索道几点停啊): read
 * without it where a message is compared whole — to an exact rule (wechat/answering/end-marks.ts),
 * to a taught question (taught-form.ts).
 */
export const END_PARTICLE = /^[呀啊吖啦喇㗎啰哦呢嘛吗么]$/u;
