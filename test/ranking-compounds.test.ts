/** A follower's compound word read as the two words an account writes (src/ranking/compounds.ts). */
import { describe, expect, test } from "bun:test";
import { COMPOUNDS, splitCompounds } from "../src/ranking/compounds.ts";
import { rank } from "../src/ranking/rank.ts";
import { MemorySource } from "../bench/eval/memory-source.ts";

const vet = new MemorySource([
  { id: "lab", title: "Lab and test results", keywords: "", body: "Most blood work comes back within 24 hours; we call you when the results are in." },
  { id: "hours", title: "Clinic hours", keywords: "", body: "We are open Monday to Saturday. Staff work late on Thursdays." },
  { id: "parking", title: "Finding us", keywords: "", body: "There is a car park behind the clinic, and a bus stop out front." },
  { id: "dental", title: "Dental cleanings", keywords: "", body: "A cleaning under anaesthetic takes about an hour." },
]);
const df = (t: string) => vet.df(t);

describe("a word no article holds, read as the two it is made of", () => {
  test("a word the account never uses is written as two words when the account uses both", () => {
    expect(splitCompounds("how long does bloodwork take", df)).toBe("how long does blood work take");
    expect(splitCompounds("any bloodtest today", df)).toBe("any blood test today");
  });

  test("ranked, the compound finds the article writing its two words, where it had found none by them", () => {
    // "blood" is the lab article's alone; "work" is the hours' too: without the split, only "long" and "results" could find it.
    expect(rank("how long does bloodwork take", vet).articles[0]?.id).toBe("lab");
    expect(rank("bloodwork", vet).articles.map((a) => a.id)).toEqual(["lab", "hours"]);
    // A word that splits into no two words of the account finds nothing.
    expect(rank("bloodtype", vet).articles).toEqual([]);
    expect(rank({ text: "and how long?", context: "bloodwork" }, vet).articles[0]?.id).toBe("lab");
  });

  test("a word some article holds stays whole, and so does a stop word", () => {
    const held = new MemorySource([{ id: "a", title: "Bloodwork", keywords: "", body: "blood and work" }]);
    expect(splitCompounds("bloodwork", (t) => held.df(t))).toBe("bloodwork");
    // "without" would be with + out: both stop words, and the whole says nothing either.
    expect(splitCompounds("without", () => 1)).toBe("without");
  });

  test("only where both parts are words the account uses: one it does not leaves the word whole", () => {
    expect(splitCompounds("bloodtype", df)).toBe("bloodtype");
    expect(splitCompounds("paperwork", df)).toBe("paperwork");
  });

  test(`each part is at least ${COMPOUNDS.part} letters: a shorter one is no part ("carpet" is not car + pet, at the cost of "carpark")`, () => {
    const pets = new MemorySource([{ id: "a", title: "Pets in the car", keywords: "", body: "A pet travels in a crate in the car." }]);
    expect(splitCompounds("carpet", (t) => pets.df(t))).toBe("carpet");
    expect(splitCompounds("carpark", df)).toBe("carpark");
    // Past the edge: parts of COMPOUNDS.part letters each are split.
    const words = new MemorySource([{ id: "a", title: "Half of the pipe", keywords: "", body: "half pipe" }]);
    expect(splitCompounds("halfpipe", (t) => words.df(t))).toBe("half pipe");
  });

  test(`words of up to ${COMPOUNDS.longest} letters are tried, and at most ${COMPOUNDS.words} of a question`, () => {
    const all = (t: string) => (t.length > 20 ? 0 : 1);
    const seen: string[] = [];
    const counting = (t: string) => (seen.push(t), 0);
    splitCompounds(Array.from({ length: COMPOUNDS.words + 3 }, (_, i) => `zzyzx${"abcdefghijkl"[i]}word`).join(" "), counting);
    // Each word tried is looked up whole once, then its cuts: the words past the limit are not looked up at all.
    const wholes = seen.filter((t) => /^zzyzx.word$/.test(t));
    expect(wholes.length).toBe(COMPOUNDS.words);
    const longest = "b".repeat(COMPOUNDS.longest);
    expect(splitCompounds(longest, all)).not.toBe(longest);
    expect(splitCompounds(longest + "b", all)).toBe(longest + "b");
  });

  test("a word joined to others by an apostrophe or a hyphen is left as written", () => {
    expect(splitCompounds("bloodwork's", df)).toBe("bloodwork's");
    expect(splitCompounds("pre-bloodwork", df)).toBe("pre-bloodwork");
  });
});
