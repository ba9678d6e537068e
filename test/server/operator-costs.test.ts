/**
 * What an operator's lists and the report read, read once (a review, Session 50): a list's items by
 * their form once a request, the deleted articles' taught questions once until they change, a logged
 * question as far as a teach could take it. The bounds are a fraction of what the code before took
 * and many times what it takes now: no speed target.
 */
import { expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { appendTo, removeFrom } from "../../src/server/append.ts";
import { groupQuestions } from "../../src/server/report/question-groups.ts";
import { DeletedQuestions } from "../../src/store/model/deleted-questions.ts";
import { LIMITS } from "../../src/article/text-rules.ts";
import type { ArticleContent } from "../../src/article/fields.ts";

// A character normalisation makes eighteen of: every reading of a text costs eighteen times its length.
const heavy = (i: number) => `${"\ufdfa".repeat(190)} q${i}`;

test("questions-= reads each stored question's form once a request, not once per question sent", () => {
  const stored = Array.from({ length: 50 }, (_, i) => heavy(i));
  const t = performance.now();
  const taken = removeFrom({ questions: stored, keywords: [] } as unknown as ArticleContent, { questions: [...stored].reverse() } as Partial<ArticleContent>, ["questions"]);
  // Half what reading every stored form per item took on a quiet machine (0.9 s), ten times what it takes now
  // (26–48 ms with the machine's two cores busy): 150 ms had failed once beside a full test run.
  expect(performance.now() - t).toBeLessThan(450);
  expect("value" in taken && taken.value.questions).toEqual([]);
  // And += of what it holds adds nothing.
  const added = appendTo({ questions: stored.slice(0, 25), keywords: [] } as unknown as ArticleContent, { questions: stored } as Partial<ArticleContent>, ["questions"]);
  expect("value" in added && added.value.questions).toEqual(stored);
});

test("the deleted articles' taught questions are read into their forms once: a write that changes none of them costs the next message a lookup, not every form again", () => {
  const db = new Database(":memory:");
  db.run("CREATE TABLE articles (id TEXT, questions TEXT, deleted INTEGER, updated_at INTEGER)");
  const insert = db.query("INSERT INTO articles VALUES (?, ?, 1, ?)");
  for (let a = 0; a < 100; a++) insert.run(`d${a}`, JSON.stringify(Array.from({ length: 20 }, (_, i) => heavy(a * 100 + i))), a);
  const deleted = new DeletedQuestions(db);
  let t = performance.now();
  expect(deleted.articleOf("no such question")).toBeNull();
  const first = performance.now() - t;
  // Another article written: the map is read again, its forms kept.
  deleted.changed();
  t = performance.now();
  expect(deleted.articleOf("no such question")).toBeNull();
  const again = performance.now() - t;
  expect(again).toBeLessThan(first / 4);
  db.close();
});

test("a logged question is grouped on what a teach could take of it (LIMITS.question characters)", () => {
  const opening = "how do i get my deposit back after moving out of the flat ".repeat(4).slice(0, LIMITS.question);
  const asked = (seq: number, rest: string) => ({ seq, at: "2026-11-29T00:00:00Z", from: `o${seq}`, text: opening + rest, answer: "fallback" });
  // Many words past it, none shared, would part them.
  const words = (w: string[]) => " " + w.join(" ");
  const { groups } = groupQuestions([asked(1, words(["kettle", "violin", "harbour", "pepper", "lantern", "saddle", "meadow", "copper", "glacier", "puzzle", "walnut", "orchid"])), asked(2, words(["tractor", "biscuit", "falcon", "marble", "cinema", "ladder", "velvet", "pirate", "tunnel", "garlic", "helmet", "quilt"]))], 10);
  expect(groups).toHaveLength(1);
});
