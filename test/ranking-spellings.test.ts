/** A British or American spelling no article holds read as the other (src/ranking/spellings-en.ts). */
import { describe, expect, test } from "bun:test";
import { COMPOUNDS, type CompoundSource } from "../src/ranking/compounds.ts";
import { otherSpelling, otherSpellings } from "../src/ranking/spellings-en.ts";
import { rank } from "../src/ranking/rank.ts";
import { termsOf } from "../src/ranking/words.ts";
import { MemorySource } from "../bench/eval/memory-source.ts";

const CLINIC = [
  { id: "peds", title: "Pediatric clinic", keywords: "", body: "Our pediatric clinic sees children from birth to 18, Monday to Friday." },
  { id: "center", title: "Visiting the center", keywords: "", body: "The center is on Main St; parking is free for two hours." },
  { id: "colors", title: "Uniform colors", keywords: "", body: "Nurses wear blue and doctors wear gray." },
];
const clinic = new MemorySource(CLINIC);
const source: CompoundSource = { df: (t) => clinic.df(t), together: () => false };

describe("a word spelled the other side of the Atlantic", () => {
  test("each spelling is the other's, both ways, and a word with none has none", () => {
    expect(otherSpelling("paediatric")).toBe("pediatric");
    expect(otherSpelling("pediatric")).toBe("paediatric");
    expect(otherSpelling("colour")).toBe("color");
    expect(otherSpelling("clinic")).toBeUndefined();
    // Pairs whose other spelling is another word too are not read so.
    for (const w of ["cheque", "tyre", "metre", "storey", "kerb", "draught"]) expect(otherSpelling(w)).toBeUndefined();
  });

  test("a question's word no article holds is read in the spelling an article holds", () => {
    expect(otherSpellings("where is the paediatric centre", source)).toBe("where is the pediatric center");
    expect(otherSpellings("what Colour do nurses wear", source)).toBe("what color do nurses wear");
    expect(rank("is the paediatric clinic open on saturday", clinic).articles[0]?.id).toBe("peds");
  });

  test("a word an article holds stays as written, and so does one whose other spelling no article holds", () => {
    const british = new MemorySource([{ id: "a", title: "Paediatric clinic", keywords: "", body: "Our paediatric clinic is open daily." }]);
    expect(otherSpellings("paediatric", { df: (t) => british.df(t), together: () => false })).toBe("paediatric");
    // "favourite": no article holds "favorite" either.
    expect(otherSpellings("my favourite nurse", source)).toBe("my favourite nurse");
    // The words are read as the ranking reads them: a plural held as its stem is held.
    expect(termsOf("centers")).toEqual(termsOf("center"));
  });

  test(`at most ${COMPOUNDS.words} words with another spelling are looked up in a question`, () => {
    const seen: string[] = [];
    otherSpellings(Array.from({ length: COMPOUNDS.words + 4 }, () => "colour").join(" "), { df: (t) => (seen.push(t), 0), together: () => false });
    expect(seen.filter((t) => t === "colour").length).toBe(COMPOUNDS.words);
  });

  test("joined to another word by an apostrophe or a hyphen, a word is left as written", () => {
    expect(otherSpellings("centre's", source)).toBe("centre's");
    expect(otherSpellings("day-centre", source)).toBe("day-centre");
  });
});
