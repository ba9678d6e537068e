/**
 * What one follower's questions cost the others (issue 33 H): the search worker's queue is fair
 * between followers and bounded per follower (src/store/model/fair-queue.ts, searcher.ts), and a
 * question's ranking and word search share one deadline (src/wechat/answering/responder.ts). The worker is
 * made slow by test/fixtures/workers/slow-search-worker.ts: a text naming "delay<ms>" keeps it busy
 * that long, one naming "stall" is never answered.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { parseDocument } from "../../src/doc/validation.ts";
import { FairQueue } from "../../src/store/model/fair-queue.ts";
import { SEARCHER_DEFAULTS, Searcher, type SearchResult } from "../../src/store/model/searcher.ts";
import type { DataFolder } from "../../src/store/sqlite/data-folder.ts";
import { parseXml } from "../../src/wechat/door/xml.ts";
import { openStore, signedRequest, tempDir, testApp } from "../helpers.ts";
import { textMsg, TOKEN, wxPost } from "../wechat/helpers.ts";
import { DEFAULT_TEXTS } from "../../src/wechat/answering/texts.ts";

const SLOW_WORKER = new URL("../fixtures/workers/slow-search-worker.ts", import.meta.url).href;
/** The questions are Chinese (a control word for the slow worker, then 退款): replyd's own fallback in Chinese (texts.ts languageOf). */
const FALLBACK = DEFAULT_TEXTS.zh.fallback;
const REFUND = { id: "refund", title: "售后政策", url: "https://example.com/refund", body: "本店支持七天无理由退货。商品签收后七天内，在订单页面点击申请退款，审核通过后三个工作日内原路退回。" };
const SHIPPING = { id: "ship", title: "配送说明", url: "https://example.com/ship", body: "全国包邮，新疆西藏除外。下单后四十八小时内发货，顺丰快递配送，一般三天送达。" };

describe("the fair queue", () => {
  const job = (from: string, n: number) => ({ from, n });
  test("the next to run is the oldest request of the follower served least recently", () => {
    const q = new FairQueue<{ from: string; n: number }>(4, 64);
    for (const j of [job("A", 1), job("A", 2), job("A", 3), job("B", 1), job("C", 1)]) expect(q.add(j)).toBe(true);
    const first = q.next() as { from: string; n: number };
    expect(first).toEqual(job("A", 1));
    // A's first still runs when C sends another: A has been served, B and C not yet.
    q.add(job("C", 2));
    const order = [q.next(), q.next(), q.next(), q.next(), q.next()].map((j) => `${j?.from}${j?.n}`);
    expect(order).toEqual(["B1", "C1", "A2", "C2", "A3"]);
    expect(q.next()).toBeUndefined();
  });

  test("a follower past perAsker open, or all past max, is refused; one done or dropped frees its place", () => {
    const q = new FairQueue<{ from: string; n: number }>(2, 3);
    expect([q.add(job("A", 1)), q.add(job("A", 2)), q.add(job("A", 3))]).toEqual([true, true, false]);
    const b = job("B", 1);
    expect([q.add(b), q.add(job("C", 1))]).toEqual([true, false]);
    expect(q.open).toBe(3);
    const running = q.next() as { from: string; n: number };
    expect(q.add(job("A", 4))).toBe(false); // still running: still open
    q.done(running);
    expect(q.add(job("A", 4))).toBe(true);
    expect(q.drop(b)).toBe(true);
    expect(q.drop(b)).toBe(false);
    expect(q.add(job("C", 1))).toBe(true);
  });
});

describe("the searcher", () => {
  let tmp: ReturnType<typeof tempDir>;
  let store: DataFolder;
  beforeAll(async () => {
    tmp = tempDir();
    store = openStore(tmp.dir);
    store.importDocument(parseDocument(JSON.stringify([REFUND, SHIPPING])), "init");
    await store.indexed();
  });
  afterAll(() => {
    store.close();
    tmp.cleanup();
  });

  test("one follower's searches wait behind another's: B's one runs after A's running one, before A's backlog; A's fifth is busy at once", async () => {
    const searcher = new Searcher(store.dbPath, () => {}, { workerEntry: SLOW_WORKER });
    try {
      const order: string[] = [];
      const asked = (name: string, p: Promise<SearchResult>) => p.then((r) => void order.push(r === "busy" ? `${name} busy` : name));
      const a = searcher.asking("A");
      const all = [1, 2, 3, 4, 5].map((i) => asked(`A${i}`, searcher.search(["delay150"], a)));
      all.push(asked("B", searcher.search(["配送"], searcher.asking("B"))));
      await Promise.all(all);
      expect(order).toEqual(["A5 busy", "A1", "B", "A2", "A3", "A4"]);
      expect(searcher.counts).toMatchObject({ busy: 1, late: 0 });
      expect(SEARCHER_DEFAULTS.perFollower).toBe(4);
    } finally {
      searcher.close();
    }
  });

  test("a search still waiting at its deadline is answered as finding nothing and never handed to the worker", async () => {
    const searcher = new Searcher(store.dbPath, () => {}, { workerEntry: SLOW_WORKER });
    try {
      const running = searcher.search(["delay600"], searcher.asking("A"));
      const waiting = searcher.search(["配送"], { from: "B", deadlineAt: Date.now() + 100 });
      expect(await waiting).toEqual({ id: null });
      expect(searcher.counts).toMatchObject({ late: 1, skipped: 1 });
      await running;
      // The fixture counts the searches it was handed: only the first.
      expect((await searcher.countIndex())?.articles).toBe(1);
      // With its time left, the same search is run and found.
      expect(await searcher.search(["配送"], searcher.asking("B"))).toEqual({ id: "ship" });
    } finally {
      searcher.close();
    }
  });
});

describe("through the callback", () => {
  const asFollower = (xml: string, from: string) => xml.replace("o_follower", from);

  test("a question's ranking and word search share one deadline: with the worker stalled the follower has the fallback text after ~2 s, not 4", async () => {
    const t = await testApp({ wechat: { token: TOKEN } });
    const searcher = new Searcher(t.store.dbPath, () => {}, { workerEntry: SLOW_WORKER });
    Object.defineProperty(t.store, "searcher", { value: searcher });
    try {
      const now = Math.floor(t.clock.now() / 1000);
      const t0 = performance.now();
      const reply = parseXml(await (await t.handle(wxPost(textMsg("stall 退款", now), now))).text());
      const took = performance.now() - t0;
      expect(reply.Content).toBe(FALLBACK);
      // The deadline was waited for, and the word search had none of its own after it: 4 s would
      // mean two deadlines (the callback's own, 4.5 s, would answer "success" instead).
      expect(took).toBeGreaterThanOrEqual(SEARCHER_DEFAULTS.deadlineMs - 50);
      expect(took).toBeLessThan(SEARCHER_DEFAULTS.deadlineMs + 1500);
      // The ranking ran out of time; the word search was not queued at all.
      expect(searcher.counts).toMatchObject({ late: 2, skipped: 0 });
      expect((await searcher.countIndex())?.articles).toBe(1);
    } finally {
      searcher.close();
      t.close();
    }
  });

  test("through a listening server: A's flood of costly questions delays B's ranked answer by one of them, and A's excess gets the fallback at once", async () => {
    const t = await testApp({ wechat: { token: TOKEN } });
    const searcher = new Searcher(t.store.dbPath, () => {}, { workerEntry: SLOW_WORKER });
    Object.defineProperty(t.store, "searcher", { value: searcher });
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => t.handle(req) });
    try {
      const r = await t.handle(
        signedRequest("POST", "/api/cli", { nowMs: t.clock.now(), files: [{ name: "json", content: JSON.stringify({ format: "replyd/1", matter: "articles", articles: [REFUND, SHIPPING] }) }] }),
      );
      expect(r.status).toBe(200);
      const now = Math.floor(t.clock.now() / 1000);
      const done: string[] = [];
      const t0 = performance.now();
      const say = async (name: string, from: string, text: string) => {
        const req = wxPost(asFollower(textMsg(text, now), from), now);
        const target = new URL(req.url);
        target.searchParams.set("openid", from); // the platform names the sender in the query too
        const res = await fetch(new URL(target.pathname + target.search, server.url), { method: "POST", body: await req.text() });
        const xml = parseXml(await res.text());
        done.push(name);
        return { xml, ms: performance.now() - t0 };
      };
      const flood = Array.from({ length: 6 }, (_, i) => say(`A${i + 1}`, "o_a", "delay400 退款"));
      // B asks once A's four are in (the worker on the first, three waiting).
      for (let i = 0; i < 200 && searcher.queued < SEARCHER_DEFAULTS.perFollower; i++) await Bun.sleep(5);
      expect(searcher.queued).toBe(SEARCHER_DEFAULTS.perFollower);
      const asked = performance.now() - t0;
      const b = await say("B", "o_b", "顺丰几天能送到？");
      const a = await Promise.all(flood);
      // B's ranked answer, after at most the one of A's running: A's three waiting (1.2 s) were not waited for.
      expect(((b.xml.Articles as Record<string, unknown>).item as Record<string, unknown>).Url).toBe(SHIPPING.url);
      expect(b.ms - asked).toBeLessThan(1000);
      expect(done.indexOf("B")).toBeLessThan(done.length - 3);
      // A's excess two: the fallback text at once, before any of A's ranked answers.
      const fallbacks = a.filter((x) => x.xml.Content === FALLBACK);
      const ranked = a.filter((x) => x.xml.Articles);
      expect([fallbacks.length, ranked.length]).toEqual([2, 4]);
      expect(Math.max(...fallbacks.map((x) => x.ms))).toBeLessThan(Math.min(...ranked.map((x) => x.ms)));
      expect(searcher.counts.busy).toBe(2);
    } finally {
      server.stop(true);
      searcher.close();
      t.close();
    }
  });
});
