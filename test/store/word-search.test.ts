/** The word search of titles and keywords (store/model/search.ts): what a follower's short Latin word finds, on each store. */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { article, doc, testApp } from "../helpers.ts";

let t: Awaited<ReturnType<typeof testApp>>;
beforeEach(async () => {
  t = await testApp();
  const articles = [
    article(1, { title: "Children's bikes" }),
    article(2, { title: "How to book a repair" }),
    article(3, { title: "TV and hi-fi repairs", keywords: ["ok-rated"] }),
    article(4, { title: "春节快乐" }),
    article(5, { title: "Smart TVs on sale" }),
  ];
  expect((await t.call("POST", "/api/cli", [["mode", "merge"]], { files: [{ name: "json", content: doc(articles) }] })).status).toBe(200);
});
afterEach(() => t.close());

const found = (...words: string[]) => t.store.articles.search(words, 5).map((a) => a.id);

test("a Latin word of one or two characters is found as a word, never inside another", () => {
  // "hi" inside "Children's", "ok" inside "book": once each sent as the answer to a greeting.
  expect(found("hi")).toEqual(["a3"]);
  expect(found("ok")).toEqual(["a3"]);
  // As a word or its plural: "TV" and "TVs".
  expect(found("tv").sort()).toEqual(["a3", "a5"]);
  expect(found("ch")).toEqual([]);
  // Three characters and more are still found anywhere (a stem in a longer word), and Chinese pairs too.
  expect(found("boo")).toEqual(["a2"]);
  expect(found("child")).toEqual(["a1"]);
  expect(found("春节")).toEqual(["a4"]);
});
