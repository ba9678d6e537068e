/** A follower's compound word read as the two words one article writes (src/ranking/compounds.ts, rank.ts). */
import { describe, expect, test } from "bun:test";
import { COMPOUNDS, splitCompounds, type CompoundSource } from "../src/ranking/compounds.ts";
import { rank } from "../src/ranking/rank.ts";
import { termsOf } from "../src/ranking/words.ts";
import { MemorySource } from "../bench/eval/memory-source.ts";

const VET = [
  { id: "lab", title: "Lab and test results", keywords: "", body: "Most blood work comes back within 24 hours; we call you when the results are in." },
  { id: "hours", title: "Clinic hours", keywords: "", body: "We are open Monday to Saturday. Staff work late on Thursdays." },
  { id: "parking", title: "Finding us", keywords: "", body: "There is a car park behind the clinic, and a bus stop out front." },
  { id: "dental", title: "Dental cleanings", keywords: "", body: "A cleaning under anaesthetic takes about an hour." },
];
const vet = new MemorySource(VET);
/** What splitting reads of an account, as rank.ts gives it from the index: how many articles hold a term, whether one holds two. */
function sourceOf(articles: { id: string; title: string; body: string }[]): CompoundSource {
  const held = articles.map((a) => new Set(termsOf(`${a.title}\n${a.body}`)));
  return { df: (t) => held.filter((h) => h.has(t)).length, together: (a, b) => held.some((h) => h.has(a) && h.has(b)) };
}
const vetSource = sourceOf(VET);
const split = (text: string, source: CompoundSource = vetSource) => splitCompounds(text, source).text;

describe("a word no article holds, read as the two it is made of", () => {
  test("a word the account never uses is written as two words when one article holds both, and named as split", () => {
    expect(splitCompounds("how long does bloodwork take", vetSource)).toEqual({ text: "how long does blood work take", split: ["bloodwork"] });
    expect(split("any bloodtest today")).toBe("any blood test today");
  });

  test("ranked, the compound finds the article writing its two words; the ranking names the word it split", () => {
    // "blood" is the lab article's alone; "work" is the hours' too.
    const r = rank("how long does bloodwork take", vet);
    expect(r.articles[0]?.id).toBe("lab");
    expect(r.split).toEqual(["bloodwork"]);
    expect(rank("bloodwork", vet).articles.map((a) => a.id)).toEqual(["lab", "hours"]);
    // A word that splits into no two words of the account finds nothing, and names nothing split.
    const none = rank("bloodtype", vet);
    expect(none.articles).toEqual([]);
    expect(none.split).toBeUndefined();
    expect(rank({ text: "and how long?", context: "bloodwork" }, vet).articles[0]?.id).toBe("lab");
  });

  test("only where one article holds both parts: two articles holding one each leave the word whole", () => {
    const theatre = sourceOf([
      { id: "books", title: "Book tickets", body: "Book online or at the box office." },
      { id: "notes", title: "Programme notes", body: "Notes on each play are online a week before." },
      { id: "notebook", title: "A note on the book", body: "The note in the book says so." },
    ]);
    expect(split("can i bring my notebook", theatre)).toBe("can i bring my note book");
    const apart = sourceOf([
      { id: "books", title: "Book tickets", body: "Book online or at the box office." },
      { id: "notes", title: "Programme notes", body: "Notes on each play are online a week before." },
    ]);
    expect(split("can i bring my notebook", apart)).toBe("can i bring my notebook");
  });

  test("a word some article holds stays whole, and so does a stop word", () => {
    const held = sourceOf([{ id: "a", title: "Bloodwork", body: "blood and work" }]);
    expect(split("bloodwork", held)).toBe("bloodwork");
    // "without" would be with + out: both stop words, and the whole says nothing either.
    expect(split("without", { df: () => 1, together: () => true })).toBe("without");
  });

  test("only where both parts are words the account uses: one it does not leaves the word whole", () => {
    expect(split("bloodtype")).toBe("bloodtype");
    expect(split("paperwork")).toBe("paperwork");
  });

  test(`each part is at least ${COMPOUNDS.part} letters: a shorter one is no part ("carpet" is not car + pet, at the cost of "carpark")`, () => {
    const pets = sourceOf([{ id: "a", title: "Pets in the car", body: "A pet travels in a crate in the car." }]);
    expect(split("carpet", pets)).toBe("carpet");
    expect(split("carpark")).toBe("carpark");
    // At the edge: parts of COMPOUNDS.part letters each are split.
    expect(split("halfpipe", sourceOf([{ id: "a", title: "Half of the pipe", body: "half pipe" }]))).toBe("half pipe");
  });

  test(`at most ${COMPOUNDS.words} words of a question are looked at, held or not, and none past ${COMPOUNDS.longest} letters`, () => {
    const seen: string[] = [];
    const counting: CompoundSource = { df: (t) => (seen.push(t), t.startsWith("held") ? 1 : 0), together: () => false };
    // Held words count too: 300 of them had cost 300 lookups (a review).
    const words = Array.from({ length: COMPOUNDS.words + 3 }, (_, i) => `${i % 2 ? "held" : "zzyz"}${"abcdefghijkl"[i]}word`);
    splitCompounds(words.join(" "), counting);
    const wholes = seen.filter((t) => /^(?:held|zzyz).word$/.test(t));
    expect(wholes.length).toBe(COMPOUNDS.words);
    const all: CompoundSource = { df: (t) => (t.length > 20 ? 0 : 1), together: () => true };
    const longest = "b".repeat(COMPOUNDS.longest);
    expect(split(longest, all)).not.toBe(longest);
    expect(split(longest + "b", all)).toBe(longest + "b");
  });

  test("a word beside Chinese characters or typed full-width is split; one joined by an apostrophe or a hyphen is left as written", () => {
    expect(split("bloodwork多少钱")).toBe("blood work多少钱");
    expect(split("ｂｌｏｏｄｗｏｒｋ")).toBe("blood work");
    for (const joined of ["bloodwork's", "bloodwork’s", "bloodwork‘s", "pre-bloodwork"]) expect(split(joined)).toBe(joined);
  });
});
