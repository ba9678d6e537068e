/**
 * The in-memory passage index that bench/answers-tune.ts tunes on (bench/eval/memory-source.ts)
 * ranks exactly as the read model's SQLite index does: tuning measures the binary's ranking.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MemorySource } from "../bench/eval/memory-source.ts";
import { rank } from "../src/ranking/rank.ts";
import { TIERS } from "../src/ranking/tiers.ts";
import { openDatabase } from "../src/store/model/db.ts";
import { PassageIndex } from "../src/store/model/passage-index.ts";
import { POSTINGS_KEPT, SqlitePostings } from "../src/store/model/postings.ts";

const dir = mkdtempSync(join(tmpdir(), "replyd-source-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FAQ = [
  ["售后政策", ["退货", "退款"], "本店支持七天无理由退货。商品签收后七天内，在订单页面点击申请退款。定制商品不支持无理由退货。"],
  ["配送说明", ["快递"], "全国包邮，新疆西藏除外。下单后四十八小时内发货，顺丰快递配送，一般三天送达。"],
  ["会员积分", [], "每消费一元积一分，积分可以在下单时抵扣现金，一百积分抵一元。积分有效期为一年。\n\n会员生日当月积分双倍。"],
  ["Shipping rates", ["shipping", "delivery"], "Standard shipping is free on orders of $75 or more. Orders placed by 1 pm ship the same day."],
  ["Returns", ["refund"], "Unused gear can be returned within 60 days for a full refund. Worn items are refunded as store credit."],
  ["营业时间", [], "门店每天上午十点营业，晚上十点关门。节假日照常营业，春节期间另行通知。"],
] as const;

test("the in-memory source ranks every question as the SQLite passage index does: the same entries per term and tier, articles, scores, coverage and passages", () => {
  const db = openDatabase(join(dir, "replyd.db"));
  const now = new Date(0).toISOString();
  const insert = db.query("INSERT INTO articles (id, title, url, keywords, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
  // Many articles, so that the tiers and the caps have something to choose between.
  const articles = Array.from({ length: 60 }, (_, i) => {
    const [title, keywords, body] = FAQ[i % FAQ.length] as (typeof FAQ)[number];
    return { id: `a${i}`, title: `${title} ${i}`, keywords: [...keywords], body: `${body}${"补充说明。".repeat(i % 7)}` };
  });
  for (const a of articles) insert.run(a.id, a.title, `https://example.com/${a.id}`, JSON.stringify(a.keywords), a.body, now, now);
  const rows = db.query("SELECT seq, title, keyword_text AS keywords, question_text AS questions, description, body FROM articles ORDER BY seq").all() as {
    seq: number;
    title: string;
    keywords: string;
    questions: string;
    description: string;
    body: string;
  }[];
  new PassageIndex(db).addBatch(rows);
  const sqlite = new SqlitePostings(db);
  const memory = new MemorySource(articles.map((a) => ({ id: a.id, title: a.title, keywords: a.keywords.join("\u001f"), description: "", body: a.body })));
  expect(memory.stats()).toEqual(sqlite.stats());
  const strip = (r: ReturnType<typeof rank>) => ({ ...r, articles: r.articles.map(({ url: _url, ...a }) => a) });
  for (const q of ["还能退款吗", "几点关门", "积分怎么用", "how much is shipping", "refund for worn gear", "快递几天到", "退货运费谁出"]) {
    const got = strip(rank(q, memory));
    expect(got.articles.length).toBeGreaterThan(0);
    expect(got).toEqual(strip(rank(q, sqlite)));
    // Filed alike: each term's entries at each tier, in order.
    for (const { term } of got.terms) for (const tier of TIERS.keys()) expect(memory.postings(term, tier, 1000)).toEqual([...sqlite.postings(term, tier, 1000)]);
  }
  db.close();
});

test("the SQLite source keeps the entries it read until the index is written: a longer limit reads again, a shorter one cuts what was read, and an article filed since is found at once", () => {
  const db = openDatabase(join(dir, "kept.db"));
  const now = new Date(0).toISOString();
  const insert = db.query("INSERT INTO articles (id, title, url, keywords, body, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)");
  const rowsOf = () => db.query("SELECT seq, id, title, keyword_text AS keywords, question_text AS questions, description, body FROM articles ORDER BY seq").all() as { seq: number; id: string; title: string; keywords: string; questions: string; description: string; body: string }[];
  for (let i = 0; i < 30; i++) {
    const [title, keywords, body] = FAQ[i % FAQ.length] as (typeof FAQ)[number];
    insert.run(`a${i}`, `${title} ${i}`, `https://example.com/a${i}`, JSON.stringify(keywords), body, now, now);
  }
  const index = new PassageIndex(db);
  index.addBatch(rowsOf());
  const kept = new SqlitePostings(db);
  const fresh = () => new SqlitePostings(db);
  kept.stats();
  // The term's tier holding the most of the 30 articles.
  const term = "退";
  const tier = [...TIERS.keys()].reduce((best, t) => (fresh().postings(term, t, 1000).length > fresh().postings(term, best, 1000).length ? t : best), 0);
  const all = fresh().postings(term, tier, 1000);
  expect(all.length).toBeGreaterThan(3);
  expect(kept.postings(term, tier, 2)).toEqual(all.slice(0, 2));
  // Read with a longer limit than kept: read again, whole.
  expect(kept.postings(term, tier, 1000)).toEqual(all);
  expect(kept.postings(term, tier, 3)).toEqual(all.slice(0, 3));
  const before = rank("还能退款吗", kept);
  expect(rank("还能退款吗", kept)).toEqual(before);
  // A new article, filed on the writer's side: the next question reads the index again.
  insert.run("new", "退款多久到账", "https://example.com/new", JSON.stringify(["退款", "到账"]), "退款在审核通过后三个工作日内原路退回，退款到账后会短信通知。", now, now);
  const added = rowsOf().find((r) => r.id === "new") as ReturnType<typeof rowsOf>[number];
  index.replace(added.seq, null, added);
  const after = rank("退款多久到账", kept);
  expect(after.articles[0]?.id).toBe("new");
  expect(after).toEqual(rank("退款多久到账", fresh()));
  // Bounded: past POSTINGS_KEPT.entries the lists read longest ago go.
  const bound = POSTINGS_KEPT.entries;
  try {
    POSTINGS_KEPT.entries = all.length + 2;
    for (const q of ["还能退款吗", "几点关门", "积分怎么用", "快递几天到"]) rank(q, kept);
    expect(kept.keptSize().entries).toBeLessThanOrEqual(POSTINGS_KEPT.entries);
    expect(kept.keptSize().lists).toBeGreaterThan(0);
  } finally {
    POSTINGS_KEPT.entries = bound;
  }
  db.close();
});
