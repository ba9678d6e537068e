/**
 * The operator teaches the ranking (issue 34 D; docs/answers.md "Teaching"), through the app on each
 * store: an article's questions, answered after through the callback, and lists appended to (append=).
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { LIMITS } from "../../src/article.ts";
import { CODE } from "../../src/errors.ts";
import type { Param } from "../../src/sign.ts";
import { parseXml, type XmlNode } from "../../src/wechat/xml.ts";
import { body, doc, READER, signedRequest, testApp } from "../helpers.ts";
import { textMsg, TOKEN, wxPost } from "../wechat/helpers.ts";

let t: Awaited<ReturnType<typeof testApp>>;
beforeEach(async () => (t = await testApp({ wechat: { token: TOKEN } })));
afterEach(() => t.close());

const call = async (method: string, path: string, fields: Param[] = [], o: { files?: { name: string; content: string }[]; key?: typeof READER } = {}) => {
  t.clock.advance(1);
  const res = await t.handle(signedRequest(method, path, { fields, nowMs: t.clock.now(), ...o }));
  return { status: res.status, ...(await body(res)) };
};
/** A document of articles (with `extra`), or of `extra` alone (synonyms). */
const document = (extra: Record<string, unknown>, articles?: object[]) => (articles ? doc(articles, extra) : JSON.stringify({ format: "replyd/1", ...extra }));
const importDoc = async (extra: Record<string, unknown>, articles?: object[]) => {
  const r = await call("POST", "/api/cli", [["mode", "merge"]], { files: [{ name: "json", content: document(extra, articles) }] });
  expect(r.status).toBe(200);
  return r.data;
};
async function say(content: string): Promise<XmlNode | "success"> {
  t.clock.advance(1000);
  const res = await t.handle(wxPost(textMsg(content, Math.floor(t.clock.now() / 1000)), Math.floor(t.clock.now() / 1000)));
  const text = await res.text();
  return text === "success" ? text : parseXml(text);
}
const titleOf = (x: XmlNode | "success") => ((((x as XmlNode).Articles as XmlNode | undefined)?.item as XmlNode | undefined)?.Title as string | undefined) ?? null;

// A shop's FAQ account: none of its articles says "money" or "back".
const SHOP = [
  { id: "returns", title: "Returns and refunds", url: "https://shop.example/returns", body: "You can return any item within 30 days of delivery. Refunds are paid to the original payment method within 5 working days." },
  { id: "delivery", title: "Delivery times", url: "https://shop.example/delivery", body: "Orders ship within 2 days. Standard delivery takes 3 to 5 working days; express delivery arrives the next day." },
  { id: "password", title: "Reset your password", url: "https://shop.example/password", body: "Click forgot password on the sign-in page and follow the link we email you." },
  { id: "payment", title: "Ways to pay", url: "https://shop.example/payment", body: "We accept credit cards and bank transfers. Invoices are sent by email." },
  { id: "contact", title: "联系我们", url: "https://shop.example/contact", body: "客服电话四零零八八八，服务时间每天九点到十八点。" },
];

test("questions: set, shown with the article and in listings, kept one a line, refused past their limits with the field named", async () => {
  await importDoc({ matter: "articles" }, SHOP);
  const set = await call("PUT", "/api/cli", [["id", "returns"], ["questions", "还能退吗\n  I want my money back,  please \n"]]);
  expect(set.status).toBe(200);
  expect(set.data.article.questions).toEqual(["还能退吗", "I want my money back, please"]);
  expect((await call("GET", "/api/cli", [["id", "returns"]])).data.questions).toEqual(["还能退吗", "I want my money back, please"]);
  const listed = await call("GET", "/api/cli", [["q", "refunds"]]);
  expect(listed.data.items[0]).toMatchObject({ id: "returns", questions: ["还能退吗", "I want my money back, please"] });
  expect(listed.data.items[0].body).toBeUndefined();

  const tooMany = Array.from({ length: LIMITS.questions + 1 }, (_, i) => `question ${i}`).join("\n");
  const many = await call("PUT", "/api/cli", [["id", "returns"], ["questions", tooMany]]);
  expect(many).toMatchObject({ status: 400, error: { code: CODE.invalid_article } });
  expect(many.error.problems).toEqual([{ field: "questions", reason: `must have at most ${LIMITS.questions} questions (it has ${LIMITS.questions + 1})` }]);
  const long = await call("PUT", "/api/cli", [["id", "returns"], ["questions", "x".repeat(LIMITS.question + 1)]]);
  expect(long.error.problems[0]).toMatchObject({ field: "questions", reason: expect.stringContaining(`1–${LIMITS.question} characters`) });
  const twice = await call("PUT", "/api/cli", [["id", "returns"], ["questions", "Can I return it?\ncan i return it?"]]);
  expect(twice.error.problems[0]).toMatchObject({ field: "questions", reason: expect.stringContaining("question 2 repeats question 1") });
  // Each limit exactly is taken; nothing refused was written.
  expect((await call("PUT", "/api/cli", [["id", "delivery"], ["questions", Array.from({ length: LIMITS.questions }, (_, i) => `q${i}`).join("\n")]])).status).toBe(200);
  expect((await call("PUT", "/api/cli", [["id", "password"], ["questions", "y".repeat(LIMITS.question)]])).status).toBe(200);
  expect((await call("GET", "/api/cli", [["id", "returns"]])).data).toMatchObject({ rev: 2, questions: ["还能退吗", "I want my money back, please"] });
});

test("an article whose words the follower does not use is answered alone once its questions hold a close phrasing", async () => {
  await importDoc({ matter: "articles" }, SHOP);
  expect(titleOf(await say("I want my money back"))).toBeNull();
  await call("PUT", "/api/cli", [["id", "returns"], ["questions", "I want my money back"]]);
  expect(titleOf(await say("I want my money back"))).toBe("Returns and refunds");
  expect(titleOf(await say("can I get my money back?"))).toBe("Returns and refunds");
  await t.log.settled();
  expect((await call("GET", "/api/cli", [["inbox", "all"], ["limit", "1"]])).data.items[0].answer).toBe("answer:returns");
});

test("set with append=: the lists grow, what they hold (in any case) skipped; past a limit refused whole", async () => {
  await importDoc({ matter: "articles" }, [{ ...SHOP[0], keywords: ["refund"], questions: ["Can I return it?"] }]);
  const r = await call("PUT", "/api/cli", [["id", "returns"], ["keywords", "REFUND,return,exchange"], ["questions", "can i return it?\nI want my money back"], ["append", "keywords,questions"]]);
  expect(r.status).toBe(200);
  expect(r.data.article).toMatchObject({ rev: 2, keywords: ["refund", "return", "exchange"], questions: ["Can I return it?", "I want my money back"] });
  // Everything held already: unchanged, the rev kept.
  const again = await call("PUT", "/api/cli", [["id", "returns"], ["questions", "I WANT MY MONEY BACK"], ["append", "questions"]]);
  expect(again.data).toMatchObject({ changed: false, article: { rev: 2 } });
  // Without append= the list is replaced.
  expect((await call("PUT", "/api/cli", [["id", "returns"], ["keywords", "refund"]])).data.article.keywords).toEqual(["refund"]);
  // Past the limit once appended: refused, nothing written.
  const full = Array.from({ length: LIMITS.keywords }, (_, i) => `k${i}`).join(",");
  const over = await call("PUT", "/api/cli", [["id", "returns"], ["keywords", full], ["append", "keywords"]]);
  expect(over).toMatchObject({ status: 400, error: { code: CODE.invalid_article } });
  expect(over.error.problems[0]).toMatchObject({ field: "keywords", reason: expect.stringContaining(`at most ${LIMITS.keywords} words`) });
  expect((await call("GET", "/api/cli", [["id", "returns"]])).data.keywords).toEqual(["refund"]);
  // append= names list fields that are sent.
  expect((await call("PUT", "/api/cli", [["id", "returns"], ["title", "x"], ["append", "title"]])).status).toBe(400);
  expect((await call("PUT", "/api/cli", [["id", "returns"], ["title", "x"], ["append", "questions"]])).error.message).toContain("no questions= was sent");
  // add takes no append.
  expect((await call("POST", "/api/cli", [["title", "x"], ["url", "https://e.com/"], ["keywords", "a"], ["append", "keywords"]])).error.code).toBe(CODE.unknown_field);
});
