/**
 * Follower search (issue 12 E): short words through an index, every path bounded, the bounds
 * themselves tested one past the limit.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { parseDocument } from "../../src/doc/validation.ts";
import { gramsOf, termGrams } from "../../src/store/model/grams.ts";
import { findArticles, SEARCH_LIMITS } from "../../src/store/model/search.ts";
import { Searcher } from "../../src/store/model/searcher.ts";
import type { DataFolder } from "../../src/store/sqlite/data-folder.ts";
import { openStore, tempDir } from "../helpers.ts";

const load = (store: DataFolder, articles: object[]) => store.importDocument(parseDocument(JSON.stringify(articles)), "init");
const a = (i: number, extra: object = {}) => ({ id: `a${i}`, title: `Plain article ${i}`, url: `https://e.com/${i}`, ...extra });

let tmp: ReturnType<typeof tempDir>;
let store: DataFolder;
beforeAll(async () => {
  tmp = tempDir();
  store = openStore(tmp.dir);
  load(store, [
    a(1, { title: "春节 holiday tips", keywords: ["假期"] }),
    a(2, { title: "Refund policy", keywords: ["money back"] }),
    a(3, { title: "Opening hours", description: "we are open on 春节 too" }),
    a(4, { title: "Gift ideas", keywords: ["holiday"] }),
    a(5, { title: "Holiday", deleted: true }),
  ]);
  await store.indexed();
});
afterAll(() => {
  store.close();
  tmp.cleanup();
});
const find = (...words: string[]) => findArticles(store.db, words, 5);

describe("short words use the short-word index (title and keywords)", () => {
  test("a two-character Chinese word in a title or in keywords; one Chinese character", () => {
    expect(find("春节")).toEqual(["a1"]);
    expect(find("假期")).toEqual(["a1"]);
    expect(find("节")).toEqual(["a1"]);
  });
  test("a two-letter Latin word is looked for as a word, not inside one ('po' is not 'policy'); as a word: test/store/word-search.test.ts", () => {
    expect(find("po")).toEqual([]);
    expect(find("holiday", "ti")).toEqual([]);
    expect(find("holiday", "春节")).toEqual(["a1"]);
  });
  test("a single Latin letter or digit says nothing and is dropped", () => {
    expect(find("a", "e", "i", "o", "u", "1", "2", "3")).toEqual([]);
    expect(find("r", "refund")).toEqual(["a2"]);
  });
  test("a word of marks alone is no token of either index: dropped, no empty query sent (\"s x ---\", \"a ???\")", () => {
    expect(find("x", "---")).toEqual([]);
    expect(find("a", "???")).toEqual([]);
    expect(find("---")).toEqual([]);
    expect(find("---", "refund")).toEqual(["a2"]);
  });
  test("a short word only in a description is not found (descriptions are in the trigram index only)", () => {
    expect(find("春节")).not.toContain("a3");
    expect(find("春节 too".split(" ")[0] as string, "open")).toEqual([]);
  });
  test("grams: bigrams of letter runs, single non-ASCII characters, never across punctuation", () => {
    expect(gramsOf("Ab-c 春节!").split(" ").sort()).toEqual(["ab", "春", "春节", "节"].sort());
    expect(termGrams("a")).toEqual([]);
    expect(termGrams("ab")).toEqual(["ab"]);
  });
});

describe("long words use the trigram index; ranking", () => {
  test("title counts most, then keywords, then description; deleted articles never", () => {
    expect(find("holiday")).toEqual(["a1", "a4"]);
    expect(find("open")).toEqual(["a3"]);
  });
});

describe("bounds", () => {
  test(`a word matching more than ${SEARCH_LIMITS.candidates} articles is ranked among the first ${SEARCH_LIMITS.candidates} it matches`, async () => {
    const t = tempDir();
    const s = openStore(t.dir);
    try {
      const n = SEARCH_LIMITS.candidates + 50;
      const docs = (titleAt: number) => Array.from({ length: n }, (_, i) => a(i, i === titleAt ? { title: "zebra crossing" } : { description: "a zebra somewhere" }));
      load(s, docs(SEARCH_LIMITS.candidates - 1));
      await s.indexed();
      expect(findArticles(s.db, ["zebra"], 1)).toEqual([`a${SEARCH_LIMITS.candidates - 1}`]);
      load(s, docs(SEARCH_LIMITS.candidates));
      await s.indexed();
      expect(findArticles(s.db, ["zebra"], 1)).not.toEqual([`a${SEARCH_LIMITS.candidates}`]);
    } finally {
      s.close();
      t.cleanup();
    }
  });
  test(`during a rebuild, at most ${SEARCH_LIMITS.tailRows} articles not yet indexed are scanned`, () => {
    const t = tempDir();
    const s = openStore(t.dir);
    try {
      const n = SEARCH_LIMITS.tailRows + 10;
      load(s, Array.from({ length: n }, (_, i) => a(i, i === SEARCH_LIMITS.tailRows - 1 ? { title: "okapi" } : i === SEARCH_LIMITS.tailRows ? { title: "quokka" } : {})));
      expect(s.articles.index.indexComplete).toBe(false);
      expect(findArticles(s.db, ["okapi"])).toEqual([`a${SEARCH_LIMITS.tailRows - 1}`]);
      expect(findArticles(s.db, ["quokka"])).toEqual([]);
    } finally {
      s.close();
      t.cleanup();
    }
  });
  test("no path scans the articles table: the query plan reads indexes and primary keys only", () => {
    const plans: string[] = [];
    const original = store.db.query.bind(store.db);
    const spy = ((sql: string) => {
      if (sql.startsWith("SELECT a.id")) {
        const plan = original(`EXPLAIN QUERY PLAN ${sql}`);
        plans.push(...(plan.all(...Array(plan.paramsCount).fill("x")) as { detail: string }[]).map((r) => r.detail));
      }
      return original(sql);
    }) as typeof store.db.query;
    store.db.query = spy;
    try {
      find("春节");
      find("holiday", "gift");
      find("holiday", "ti");
    } finally {
      store.db.query = original;
    }
    expect(plans.length).toBeGreaterThan(0);
    for (const detail of plans) expect(detail).not.toMatch(/^SCAN (a|articles)\b(?! VIRTUAL)/);
  });
});

describe("the searcher (off the event loop)", () => {
  test("finds through its worker; past maxQueued it answers busy at once", async () => {
    const searcher = new Searcher(store.dbPath, () => {}, { maxQueued: 2, deadlineMs: 5000 });
    try {
      const results = await Promise.all([searcher.search(["春节"]), searcher.search(["refund"]), searcher.search(["gift"])]);
      expect(results).toEqual([{ id: "a1" }, { id: "a2" }, "busy"]);
      expect(searcher.counts.busy).toBe(1);
      expect(await searcher.search(["nothing-like-it"])).toEqual({ id: null });
    } finally {
      searcher.close();
    }
  });
  test("a search past its deadline counts as finding nothing", async () => {
    const searcher = new Searcher(store.dbPath, () => {}, { maxQueued: 8, deadlineMs: 0 });
    try {
      expect(await searcher.search(["春节"])).toEqual({ id: null });
      expect(searcher.counts.late).toBe(1);
    } finally {
      searcher.close();
    }
  });
});

test("a follower whose search finds the queue full gets the fallback at once, logged as search_busy in the inbox", async () => {
  const { testApp } = await import("../helpers.ts");
  const { textMsg, TOKEN, wxPost } = await import("../wechat/helpers.ts");
  const { parseXml } = await import("../../src/wechat/door/xml.ts");
  const t = await testApp({ wechat: { token: TOKEN } });
  try {
    (t.store.searcher as { search: Searcher["search"] }).search = () => Promise.resolve("busy");
    const now = Math.floor(t.clock.now() / 1000);
    const reply = parseXml(await (await t.handle(wxPost(textMsg("anything at all", now), now))).text());
    expect(reply.Content).toBe("Sorry, I did not understand that. Send h for help.");
    const [logged] = (await t.log.list({ only: "unmatched", limit: 1, offset: 0 })).items;
    expect(logged).toMatchObject({ answer: "search_busy", unmatched: true, content: "anything at all" });
  } finally {
    t.close();
  }
});
