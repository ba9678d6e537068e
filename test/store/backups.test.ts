/** Backups on each store: the same document for the same data, automatic ones before init and restore, pruned alike. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { readDocument } from "../../src/doc/reading.ts";
import { memorySource } from "../../src/doc/byte-source.ts";
import { doc } from "../helpers.ts";
import { openTarget, STORES, type Target } from "./targets.ts";

const fromText = (text: string) => readDocument(memorySource(new TextEncoder().encode(text)));
const rec = (i: number, more: Record<string, unknown> = {}) => ({ id: `a${i}`, code: `C${i}`, title: `Title ${i} 春`, url: `https://e.com/${i}`, keywords: ["k"], ...more });
const SYNONYMS = [
  ["Visa", "credit card"],
  ["人工", "客服", "真人"],
];
const everything = doc([rec(2, { questions: ["还能退吗", "I want my money back, please"] }), rec(1, { deleted: true }), rec(10)], {
  tags: { tips: "Tips", news: "News" },
  rules: [{ id: "hi", match: "exact", pattern: "hello", reply: { type: "text", text: "Hi!" } }],
  texts: { help: "Help!", welcome: "Welcome" },
  menu: { button: [{ type: "click", name: "Help", key: "help" }] },
  synonyms: SYNONYMS,
});

describe.each(STORES)("%s", (kind) => {
  let t: Target;
  beforeEach(async () => void (t = await openTarget(kind)));
  afterEach(() => t.close());

  test("a backup restores exactly what it holds, and verifies by its sha256", async () => {
    await t.importDocument(fromText(everything), "merge");
    const before = [...t.store.articles.iterateAll()];
    const b = await t.backup("all");
    expect(b.counts).toEqual({ articles: 3, tags: 2, rules: 1, texts: 2, menu: 1, synonyms: 2 });
    const text = await t.readBackup(b.id);
    expect(Buffer.byteLength(text)).toBe(b.size);
    await t.importDocument(fromText(doc([rec(1, { title: "Changed" })], { synonyms: [["Visa", "Mastercard"]] })), "init");
    expect(t.store.content.synonyms()).toEqual([["Visa", "Mastercard"], ["人工", "客服", "真人"]]);
    await t.restore(fromText(text), "all");
    // Restored as they were; revs above what the init left, so a stale rev never matches again.
    expect([...t.store.articles.iterateAll()].map((a) => [a.id, a.title, a.questions])).toEqual(before.map((a) => [a.id, a.title, a.questions]));
    expect(t.store.articles.get("a2")?.questions).toEqual(["还能退吗", "I want my money back, please"]);
    expect(t.store.content.menu()?.menu).toEqual({ button: [{ type: "click", name: "Help", key: "help" }] });
    expect(t.store.content.synonyms()).toEqual(SYNONYMS);
    expect(() => fromText(text.replace("Title 2", "Title 3"))).toThrow("does not match its content");
  });

  test("a restore whose menu is null says removed when one was stored, none when none was", async () => {
    await t.importDocument(fromText(everything), "merge");
    const empty = doc([], { tags: {}, rules: [], texts: {}, menu: null });
    expect((await t.restore(fromText(empty), "all")).menu).toBe("removed");
    expect(t.store.content.menu()).toBeNull();
    expect((await t.restore(fromText(empty), "all")).menu).toBe("none");
  });

  test("init and restore take an automatic backup of what they replace; pruning keeps the newest auto one", async () => {
    await t.importDocument(fromText(doc([rec(1)])), "merge");
    const init = await t.importDocument(fromText(doc([rec(2)])), "init");
    expect(init.backup).toMatchObject({ matter: "articles", kind: "auto" });
    expect(await t.readBackup(init.backup!.id)).toContain('"id":"a1"');
    for (let i = 0; i < 6; i++) await t.backup("articles");
    const list = await t.listBackups("articles");
    // Five kept (keep = 5), and the automatic one besides.
    expect(list.length).toBe(6);
    expect(list.map((b) => b.id)).toContain(init.backup!.id);
    expect(list.filter((b) => b.kind === "manual").length).toBe(5);
    // Newest first; stamps never go back (the clock here stands still: each 1 ms after the last).
    const stamps = list.map((b) => Date.parse(b.created_at));
    expect([...stamps].sort((a, b) => b - a)).toEqual(stamps);
    const restored = await t.restore(fromText(await t.readBackup(init.backup!.id)), "articles");
    expect(restored.backup).toMatchObject({ matter: "articles", kind: "auto" });
    expect(t.store.articles.get("a1")).not.toBeNull();
  });
});

test("the same data backs up to the same document, byte for byte, on both stores", async () => {
  const [a, b] = [await openTarget("sqlite"), await openTarget("postgres")];
  try {
    for (const t of [a, b]) await t.importDocument(fromText(everything), "merge");
    const [x, y] = [await a.backup("all"), await b.backup("all")];
    expect(y.id.slice(0, -4)).toBe(x.id.slice(0, -4));
    expect(await b.readBackup(y.id)).toBe(await a.readBackup(x.id));
  } finally {
    await a.close();
    await b.close();
  }
});
