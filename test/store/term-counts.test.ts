/**
 * The passage index's document frequencies (store/model/term-counts.ts, passage-index.ts countInto):
 * counted by the code units of short terms and the text of the rest, each term once per article
 * however many of its fields and passages hold it (docs/performance.md, Session 20).
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { analyse } from "../../src/ranking/score.ts";
import { openDatabase } from "../../src/store/model/db.ts";
import { PassageIndex, type Indexed } from "../../src/store/model/passage-index.ts";
import { TermCounts } from "../../src/store/model/term-counts.ts";

const dir = mkdtempSync(join(tmpdir(), "replyd-term-counts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** U+20BB7, outside the Basic Multilingual Plane: one character, two UTF-16 units. */
const ASTRAL = "\u{20BB7}";

test("terms of one, two and more code units are counted apart, the same units in another order apart, and given back as written", () => {
  const c = new TermCounts();
  const terms = ["款", "退款", "款退", "a", "ab", ASTRAL, `${ASTRAL}野`, `野${ASTRAL}`, "refund", "syn_人工"];
  terms.forEach((t, i) => c.add(t, i + 1));
  c.add("退款", 10);
  for (const [i, t] of terms.entries()) expect(c.get(t)).toBe(i + 1 + (t === "退款" ? 10 : 0));
  expect(c.get("款款")).toBe(0);
  expect(c.get("refunds")).toBe(0);
  const listed = [...c.entries()].sort(([a], [b]) => (a < b ? -1 : 1));
  const expected = terms.map((t, i): [string, number] => [t, i + 1 + (t === "退款" ? 10 : 0)]).sort(([a], [b]) => (a < b ? -1 : 1));
  expect(listed).toEqual(expected);
});

test("a term counted out as often as in is listed with 0, and reads as 0", () => {
  const c = new TermCounts();
  c.add("退款", 1);
  c.add("refund", 1);
  c.add("退款", -1);
  c.add("refund", -1);
  expect([...c.entries()]).toEqual([
    ["退款", 0],
    ["refund", 0],
  ]);
  expect(c.get("退款")).toBe(0);
});

const article = (title: string, body: string, keywords = ""): Indexed => ({ title, keywords, questions: "", description: "", body });

/** Each term's articles as a plain count: the head's terms and every passage's, a Set an article. */
function expectedDf(articles: readonly Indexed[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const a of articles) {
    const x = analyse(a);
    const terms = new Set(x.head.keys());
    for (const p of x.passages) for (const t of p.counts.keys()) terms.add(t);
    for (const t of terms) df.set(t, (df.get(t) ?? 0) + 1);
  }
  return df;
}

function storedDf(db: ReturnType<typeof openDatabase>): Map<string, number> {
  const rows = db.query("SELECT term, df FROM answer_df WHERE df != 0").all() as { term: string; df: number }[];
  return new Map(rows.map((r) => [r.term, r.df]));
}

test("the index counts each term once an article, held in its head, its passages or both, whatever its length (a rebuild's batch, then a single write)", () => {
  const db = openDatabase(join(dir, "replyd.db"));
  const long = "退款须知。".repeat(80); // more than one passage, each holding 退款
  const articles = [
    article("退款说明", `${long}退款在七天内到账。`, "退款"),
    article(`${ASTRAL}野家 menu`, `${ASTRAL}野家的牛丼。Refunds for the menu take 7 days.`),
    article("Refund policy", "A refund is made within 7 days; refunds of gift cards are store credit. 退款"),
  ];
  const index = new PassageIndex(db);
  db.transaction(() => index.addBatch(articles.map((a, i) => ({ ...a, seq: i + 1 }))))();
  const want = expectedDf(articles);
  // The cases the count must keep apart: in head and body, in several passages, two units for one character, words.
  for (const t of ["退款", "退", ASTRAL, `${ASTRAL}野`, "refund", "menu", "7"]) expect(want.get(t)).toBeGreaterThan(0);
  expect(storedDf(db)).toEqual(want);

  const changed = article("退款说明", "七天内到账。");
  db.transaction(() => index.replace(1, articles[0] as Indexed, changed))();
  expect(storedDf(db)).toEqual(expectedDf([changed, articles[1] as Indexed, articles[2] as Indexed]));
  db.close();
});
