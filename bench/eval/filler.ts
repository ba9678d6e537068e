/**
 * The filler of questions, found in the evaluation data rather than written by hand: the words of
 * the tuning halves' questions (bench/eval/sets.ts) whose presence says nothing of which article
 * answers. For each candidate — an English word as words.ts stems it, a run of one to three Han
 * characters — over the questions holding it: how often an article that answers holds it too
 * ("hit"). A word of the subject ("refund", 退款) is in the answer most of the time; a word of the
 * question's phrasing ("what", "how long", 什么, 多少钱, 哪个) almost never, whatever the subject,
 * and in questions from every source. Filler: asked at least MIN times, in questions of at least
 * two of the language's sources (CMRC, DuReader and our FAQ accounts; NQ, the English FAQ and our
 * FAQ accounts), and in the answer for at most HIT of them.
 *
 *   bun bench/eval/filler.ts [--min 4] [--hit 0.2] [--write]
 *
 * Prints the lists; --write puts them in src/ranking/filler-words.ts (what words.ts leaves out).
 * Only the tuning halves are read: the held-out halves measure what the list does.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { stemWord } from "../../src/ranking/stem.ts";
import { loadSet } from "./sets.ts";

const RUN = /\p{Script=Han}+|(?:(?!\p{Script=Han})[\p{L}\p{N}])+/gu;
const HAN = /^\p{Script=Han}/u;

/** Candidates of `text` in `language`: stemmed English words, or Han runs of one to three characters. */
function candidates(text: string, language: "zh" | "en"): Set<string> {
  const out = new Set<string>();
  for (const m of text.normalize("NFKC").toLowerCase().matchAll(RUN)) {
    const run = m[0];
    if (!HAN.test(run)) {
      if (language === "en" && !/\d/.test(run)) out.add(stemWord(run));
      continue;
    }
    if (language !== "zh") continue;
    const cs = Array.from(run);
    for (let i = 0; i < cs.length; i++) for (let n = 1; n <= 3 && i + n <= cs.length; n++) out.add(cs.slice(i, i + n).join(""));
  }
  return out;
}

const SOURCES = { zh: { dev: "cmrc", trial: "cmrc", dureader: "dureader", "faq-zh": "faq" }, en: { nq: "nq", en: "en", "faq-en": "faq" } } as const;

export function fillerOf(language: "zh" | "en", min: number, hit: number): string[] {
  const seen = new Map<string, { n: number; hit: number; by: Map<string, { n: number; hit: number }> }>();
  for (const [name, source] of Object.entries(SOURCES[language])) {
    for (const acc of loadSet(name).accounts) {
      const held = acc.articles.map((a) => candidates(`${a.title}\n${a.keywords}\n${a.body}`, language));
      for (const q of acc.questions) {
        if (q.half !== "tune" || !q.answers.length) continue;
        for (const t of candidates(q.q, language)) {
          const s = seen.get(t) ?? seen.set(t, { n: 0, hit: 0, by: new Map() }).get(t)!;
          const b = s.by.get(source) ?? s.by.set(source, { n: 0, hit: 0 }).get(source)!;
          const h = q.answers.some((i) => held[i]?.has(t)) ? 1 : 0;
          s.n++;
          s.hit += h;
          b.n++;
          b.hit += h;
        }
      }
    }
  }
  return [...seen]
    .filter(([, s]) => s.n >= min && s.hit / s.n <= hit && [...s.by.values()].filter((b) => b.n >= 2 && b.hit / b.n <= hit).length >= 2)
    .map(([t]) => t)
    .sort();
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const opt = (name: string, fallback: string) => (args.includes(name) ? (args[args.indexOf(name) + 1] as string) : fallback);
  const min = Number(opt("--min", "4"));
  const hit = Number(opt("--hit", "0.2"));
  const lists = { zh: fillerOf("zh", min, hit), en: fillerOf("en", min, hit) };
  process.stdout.write(`zh (${lists.zh.length}): ${lists.zh.join(" ")}\nen (${lists.en.length}): ${lists.en.join(" ")}\n`);
  if (args.includes("--write")) {
    const file = resolve(process.cwd(), "src/ranking/filler-words.ts");
    writeFileSync(
      file,
      `/**\n * Filler of questions found in the evaluation data (bench/eval/filler.ts --min ${min} --hit ${hit}): words asked in at least\n * ${min} tuning questions of two sources or more, and held by an article that answers at most ${hit * 100} % of the time.\n * Generated: do not edit by hand.\n */\n` +
        `export const FILLER_HAN: readonly string[] = ${JSON.stringify(lists.zh)};\n\nexport const FILLER_LATIN: readonly string[] = ${JSON.stringify(lists.en)};\n`,
    );
    process.stdout.write(`written to ${file}\n`);
  }
}
