/**
 * The stores of a process share one search thread (issue 36 B: accounts share the worker threads,
 * src/store/model/search-thread.ts): each store's searches run on its own connection in that
 * thread, so each is answered from its own articles; a store closed ends its connection alone; a
 * worker that fails fails what each store had in it, and every store's next search is answered.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { parseDocument } from "../../src/doc/validation.ts";
import { Searcher } from "../../src/store/model/searcher.ts";
import { searchThread } from "../../src/store/model/search-thread.ts";
import type { DataFolder } from "../../src/store/sqlite/data-folder.ts";
import { openStore, tempDir } from "../helpers.ts";

const SLOW_WORKER = new URL("../fixtures/workers/slow-search-worker.ts", import.meta.url).href;
const REFUND = { id: "refund", title: "售后政策", url: "https://example.com/refund", body: "本店支持七天无理由退货。商品签收后七天内，在订单页面点击申请退款。" };
const SHIPPING = { id: "ship", title: "配送说明", url: "https://example.com/ship", body: "全国包邮，新疆西藏除外。下单后四十八小时内发货，顺丰快递配送。" };

let tmp: ReturnType<typeof tempDir>[] = [];
let stores: DataFolder[] = [];
beforeAll(async () => {
  for (const doc of [[REFUND], [SHIPPING]]) {
    const t = tempDir();
    const store = openStore(t.dir);
    store.importDocument(parseDocument(JSON.stringify(doc)), "init");
    await store.indexed();
    tmp.push(t);
    stores.push(store);
  }
});
afterAll(() => {
  for (const s of stores) s.close();
  for (const t of tmp) t.cleanup();
});

test("two stores' searchers share one thread, each answered from its own articles; one closed, the other still answers", async () => {
  const [shop, blog] = stores as [DataFolder, DataFolder];
  const thread = searchThread(SLOW_WORKER);
  const a = new Searcher(shop.dbPath, () => {}, { workerEntry: SLOW_WORKER });
  const b = new Searcher(blog.dbPath, () => {}, { workerEntry: SLOW_WORKER });
  try {
    expect(await a.search(["售后"])).toEqual({ id: "refund" });
    expect(await b.search(["售后"])).toEqual({ id: null });
    expect(await b.search(["配送"])).toEqual({ id: "ship" });
    expect(await a.search(["配送"])).toEqual({ id: null });
    expect(thread.open_channels).toBe(2);
    a.close();
    expect(thread.open_channels).toBe(1);
    expect(await b.search(["配送"])).toEqual({ id: "ship" });
  } finally {
    a.close();
    b.close();
  }
  expect(thread.open_channels).toBe(0);
});

test("the shared worker failing fails what each store had in it; each store's next search is answered on a new one", async () => {
  const [shop, blog] = stores as [DataFolder, DataFolder];
  const logs: string[] = [];
  const a = new Searcher(shop.dbPath, (l) => logs.push(l), { workerEntry: SLOW_WORKER });
  const b = new Searcher(blog.dbPath, (l) => logs.push(l), { workerEntry: SLOW_WORKER });
  try {
    expect(await b.search(["配送"])).toEqual({ id: "ship" });
    expect(await a.search(["crash"])).toEqual({ id: null });
    expect(logs.filter((l) => l.includes("the search worker failed"))).toHaveLength(2);
    expect(await a.search(["售后"])).toEqual({ id: "refund" });
    expect(await b.search(["配送"])).toEqual({ id: "ship" });
  } finally {
    a.close();
    b.close();
  }
});
