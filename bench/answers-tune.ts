/**
 * Tuning the ranking without a server: src/ranking/rank.ts itself over an in-memory passage index
 * (bench/eval/memory-source.ts, filed and counted as the binary files and counts), the choice of
 * src/ranking/choice.ts, and when it offers nothing the word search of titles and keywords the
 * callback falls back on (wechat/answering/responder.ts) — what bench/answers.ts measures through the binary,
 * in seconds instead of minutes.
 *
 *   bun bench/answers-tune.ts [SET ...] [--set k=v ...] [--only tune|held] [--json] [--dump FILE] [--traditional OPENCC_JS_DIR]
 *   bun bench/answers-tune.ts --bm25-check
 *
 * SET: dev trial dureader nq en faq-zh faq-en (all by default; bench/eval/sets.ts), or passages.
 * `--set` changes a value of RANKING (bm25.ts), ANSWERS (choice.ts) or RANKING_LIMITS (rank.ts) for the run. Each set is
 * reported on its tuning half and its held-out half (a fixed hash of each question: sets.ts).
 *
 * Per half, over the questions some article answers: first (the first article offered is a right
 * one), offered (a right one among those offered: the one article, or the list), nothing (neither
 * an article nor a list: the fallback text); over all questions: single wrong (one article offered
 * alone, and not a right one); over the on-topic questions no article answers: refused (the fallback).
 * Beside them the plain BM25 (bench/eval/bm25.ts) on the same articles: first and among three.
 * `--traditional DIR` asks the Chinese sets' questions in traditional characters (DIR: the opencc-js
 * package's folder), as a Hong Kong or Taiwan follower writes them.
 */
import { writeFileSync } from "node:fs";
import { ANSWERS, choose, ordersByHead } from "../src/ranking/choice.ts";
import { partsOf } from "../src/ranking/parts.ts";
import { courtesyOrPraise } from "../src/ranking/courtesy.ts";
import { rank, RANKING_LIMITS } from "../src/ranking/rank.ts";
import { RANKING } from "../src/ranking/bm25.ts";
import type { RankedArticle, Ranking } from "../src/ranking/types.ts";
import { searchTerms, wholeWordOnly } from "../src/store/model/search.ts";
import { termGrams } from "../src/store/model/grams.ts";
import { MAX_INPUT } from "../src/wechat/answering/regex.ts";
import { PlainBm25 } from "./eval/bm25.ts";
import { MemorySource } from "./eval/memory-source.ts";
import { taughtOf } from "../src/wechat/answering/taught.ts";
import { loadSet, SET_NAMES, type Account, type EvalArticle, type EvalQuestion, type EvalSet } from "./eval/sets.ts";

/** What a follower got for one question. */
export interface Outcome {
  question: EvalQuestion;
  /** Article indexes offered, in order (empty: the fallback text). */
  offered: number[];
  how: "one" | "list" | "search" | "none";
  /** The plain BM25's first three. */
  bm25: number[];
  ranking: Ranking;
  /** What is shown of the first article offered: its card's passage, or a list entry's excerpt. */
  shown: string | null;
  /** The ranking's articles, best first. */
  ranked: number[];
}

const asciiLower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** store/model/search.ts findArticles over the account in memory: every word in the title or keywords (and description, when all are long). */
export function wordSearch(question: string, articles: readonly EvalArticle[]): number | null {
  let terms = searchTerms(question.slice(0, MAX_INPUT).split(/\s+/).filter(Boolean));
  const long = (t: string) => [...t].length >= 3;
  const allLong = terms.length > 0 && terms.every(long);
  if (!allLong) terms = terms.filter((t) => long(t) || termGrams(t).length > 0);
  if (!terms.length) return null;
  let best: { i: number; score: number; len: number; id: string } | null = null;
  articles.forEach((a, i) => {
    const cols = allLong ? [a.title, a.keywords, a.description] : [a.title, a.keywords];
    const low = cols.map(asciiLower);
    let score = 0;
    for (const t of terms) {
      // A short Latin word as a word only (search.ts wholeWordOnly), anything else anywhere.
      const at = low.map((c) => (wholeWordOnly(t) ? new RegExp(`(^|[^a-z0-9])${t}s?($|[^a-z0-9])`).test(c) : c.includes(t)));
      if (!at.some(Boolean)) return;
      score += (at[0] ? 10 : 0) + (at[1] ? 5 : 0) + (at[2] ? 1 : 0);
    }
    const len = [...a.title].length;
    if (!best || score > best.score || (score === best.score && (len < best.len || (len === best.len && a.id < best.id)))) best = { i, score, len, id: a.id };
  });
  return (best as { i: number } | null)?.i ?? null;
}

/** The articles the asking parts of a message of several questions are each sure of, once each (questions.ts partsAnswered). */
function partsSure(q: string, source: MemorySource, spaced = false, least = 1): RankedArticle[] {
  const out: RankedArticle[] = [];
  const asking = partsOf(q.slice(0, MAX_INPUT), spaced).filter((p) => p.asks);
  for (const { text } of asking.length >= least ? asking : []) {
    const c = choose(rank(text, source).articles);
    if (c.kind === "one" && !out.some((a) => a.id === c.article.id)) out.push(c.article);
  }
  return out.slice(0, ANSWERS.listed);
}

/** Every question of one account, as a follower would get it. */
export function runAccount(acc: Account, language: "zh" | "en", only?: "tune" | "held"): Outcome[] {
  const source = new MemorySource(acc.articles);
  const bm25 = new PlainBm25(acc.articles, language);
  const index = new Map(acc.articles.map((a, i) => [a.id, i]));
  return acc.questions.filter((q) => !only || q.half === only).map((question) => {
    const ranking = rank(question.q, source);
    // Thanks or a greeting ("thanks that worked!!"): no question, and no article — as the callback
    // answers it (wechat/answering/questions.ts: nothing, or the welcome text).
    if (courtesyOrPraise(question.q) !== null) return { question, offered: [], how: "none" as const, bm25: bm25.rank(question.q, 3), ranking, shown: null, ranked: ranking.articles.map((a) => index.get(a.id) as number) };
    // A taught question or an article's title: that article alone (wechat/answering/taught.ts).
    const taught = taughtOf(question.q, ranking.articles, { deletedTaught: () => null });
    const choice = taught && "article" in taught ? ({ kind: "one", article: taught.article, margin: 0 } as const) : choose(ranking.articles, ordersByHead({ text: question.q }));
    const at = (id: string) => index.get(id) as number;
    let offered: number[] = [];
    let how: Outcome["how"] = choice.kind;
    let shown: string | null = null;
    if (choice.kind === "one") {
      offered = [at(choice.article.id)];
      shown = choice.article.passage;
      // What the other questions of a message of several are each sure of, listed after it (questions.ts besideParts).
      const beside = partsSure(question.q, source, true, 2).map((a) => at(a.id)).filter((i) => !offered.includes(i));
      if (beside.length) {
        offered = [...offered, ...beside].slice(0, ANSWERS.listed);
        how = "list";
        shown = choice.article.excerpt;
      }
    } else if (choice.kind === "list") {
      offered = choice.articles.map((a) => at(a.id));
      // A list's entry shows its excerpt, the passage cut down around its answering sentence.
      shown = choice.articles[0]?.excerpt ?? null;
    } else {
      // A message of several questions: what its parts are each sure of (wechat/answering/questions.ts partsAnswered).
      const parts = partsSure(question.q, source, false, 2).map((a) => at(a.id));
      const found = parts.length ? null : wordSearch(question.q, acc.articles);
      if (parts.length) {
        offered = parts;
        how = parts.length === 1 ? "one" : "list";
      } else if (found !== null) {
        offered = [found];
        how = "search";
      }
    }
    return { question, offered, how, bm25: bm25.rank(question.q, 3), ranking, shown, ranked: ranking.articles.map((a) => at(a.id)) };
  });
}

export interface Figures {
  questions: number;
  answerable: number;
  first: number;
  offered: number;
  /** An article offered alone, and not a right one: over all questions. */
  singleWrong: number;
  nothing: number;
  /** Questions no article answers that got the fallback (null: the set has none). */
  refused: number | null;
  alone: number;
  shown: number | null;
  bm25First: number;
  bm25Three: number;
  /** The right article among the ranking's first three, whatever was offered (in memory only: null through the binary). */
  three: number | null;
  /** The right article first in the ranking, whatever was offered (in memory only). */
  top: number | null;
}

/** What figures() reads of an outcome (bench/answers.ts gives it from the binary's replies). */
export type Answered = Pick<Outcome, "question" | "offered" | "bm25" | "shown"> & { ranked?: number[] };

export function figures(outcomes: readonly Answered[]): Figures {
  const answerable = outcomes.filter((o) => o.question.answers.length);
  // On-topic questions no article answers; small talk ("hi") is counted in single wrong, not here.
  const unanswerable = outcomes.filter((o) => o.question.kind === "unanswerable");
  const right = (o: Answered, i: number | undefined) => i !== undefined && o.question.answers.includes(i);
  const share = (xs: readonly Answered[], p: (o: Answered) => boolean) => (xs.length ? +(xs.filter(p).length / xs.length).toFixed(3) : 0);
  const withTexts = answerable.filter((o) => o.question.texts.length);
  return {
    questions: outcomes.length,
    answerable: answerable.length,
    first: share(answerable, (o) => right(o, o.offered[0])),
    offered: share(answerable, (o) => o.offered.some((i) => right(o, i))),
    singleWrong: share(outcomes, (o) => o.offered.length === 1 && !right(o, o.offered[0])),
    nothing: share(answerable, (o) => !o.offered.length),
    refused: unanswerable.length ? share(unanswerable, (o) => !o.offered.length) : null,
    alone: share(outcomes, (o) => o.offered.length === 1),
    shown: withTexts.length ? share(withTexts, (o) => right(o, o.offered[0]) && o.question.texts.some((t) => (o.shown ?? "").includes(t))) : null,
    bm25First: share(answerable, (o) => right(o, o.bm25[0])),
    bm25Three: share(answerable, (o) => o.bm25.some((i) => right(o, i))),
    top: answerable.every((o) => o.ranked) ? share(answerable, (o) => right(o, o.ranked?.[0])) : null,
    three: answerable.every((o) => o.ranked) ? share(answerable, (o) => (o.ranked ?? []).slice(0, 3).some((i) => right(o, i))) : null,
  };
}

export function runSet(set: EvalSet, only?: "tune" | "held"): Outcome[] {
  return set.accounts.flatMap((acc) => runAccount(acc, set.language, only));
}

/** One line per half: replyd's figures, then BM25's; "!" marks a figure below the floor. */
export function line(name: string, half: string, f: Figures): string {
  const floor = (mine: number, theirs: number) => `${mine.toFixed(3)}${mine < theirs ? "!" : " "}`;
  return [
    name.padEnd(9),
    half.padEnd(5),
    String(f.questions).padStart(5),
    `first ${floor(f.first, f.bm25First)}`,
    `offered ${floor(f.offered, f.bm25Three)}`,
    `single-wrong ${f.singleWrong.toFixed(3)}`,
    `nothing ${f.nothing.toFixed(3)}`,
    `refused ${f.refused === null ? "  -  " : f.refused.toFixed(3)}`,
    `| bm25 first ${f.bm25First.toFixed(3)} three ${f.bm25Three.toFixed(3)}`,
    f.shown === null ? "" : `| shown ${f.shown.toFixed(3)}`,
  ].join("  ");
}

/**
 * Simplified to traditional, character by character (OpenCC's STCharacters, its first choice), from
 * the opencc-js package's folder (npm pack opencc-js@1.4.2; not a dependency): what the ranking's
 * folding of traditional characters (src/ranking/traditional-chars.ts) is measured with.
 */
async function simplifiedToTraditional(dir: string): Promise<(text: string) => string> {
  const text = (await import(`${dir}/dist/esm-lib/dict/STCharacters.js`)).default as string;
  const map = new Map(text.split("|").map((e) => e.split(" ") as [string, string]));
  return (q) => [...q].map((c) => map.get(c) ?? c).join("");
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const names: string[] = [];
  let json = false;
  let dump: string | null = null;
  let only: "tune" | "held" | undefined;
  let traditional: ((text: string) => string) | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "--set") {
      const [k, v] = (args[++i] as string).split("=");
      const target = [RANKING, ANSWERS, RANKING_LIMITS].find((t) => (k as string) in t);
      if (!target) throw new Error(`no setting ${k}`);
      (target as Record<string, number>)[k as string] = Number(v);
    } else if (a === "--json") json = true;
    else if (a === "--dump") dump = args[++i] as string;
    else if (a === "--only") only = args[++i] as "tune" | "held";
    else if (a === "--traditional") traditional = await simplifiedToTraditional(args[++i] as string);
    else if (a === "--bm25-check") {
      for (const name of ["dureader", "nq"]) {
        const set = loadSet(name);
        const acc = set.accounts[0] as Account;
        const bm = new PlainBm25(acc.articles, set.language);
        const hit = (k: number) => acc.questions.filter((q) => bm.rank(q.q, k).some((i) => q.answers.includes(i))).length / acc.questions.length;
        process.stdout.write(`${name}: hit@1 ${hit(1).toFixed(3)} hit@3 ${hit(3).toFixed(3)} over ${acc.questions.length} questions\n`);
      }
      process.exit(0);
    } else names.push(a);
  }
  const report: Record<string, { tune: Figures; held: Figures; all: Figures }> = {};
  const dumped: string[] = [];
  for (const name of names.length ? names : SET_NAMES) {
    const set = loadSet(name);
    // The questions of a Chinese set as a Hong Kong or Taiwan follower would type them.
    if (traditional && set.language === "zh") for (const acc of set.accounts) for (const q of acc.questions) q.q = traditional(q.q);
    if (!set.accounts.some((a) => a.questions.length)) {
      process.stderr.write(`${name}: no questions yet, skipped\n`);
      continue;
    }
    const t0 = performance.now();
    const out = runSet(set, only);
    const ms = (performance.now() - t0) / Math.max(out.length, 1);
    report[name] = { tune: figures(out.filter((o) => o.question.half === "tune")), held: figures(out.filter((o) => o.question.half === "held")), all: figures(out) };
    if (!json) for (const half of ["tune", "held"] as const) process.stdout.write(line(name, half, report[name][half]) + (half === "held" ? `  (${ms.toFixed(1)} ms/question)\n` : "\n"));
    if (dump)
      for (const o of out)
        dumped.push(
          JSON.stringify({
            set: name,
            id: o.question.id,
            half: o.question.half,
            q: o.question.q,
            answers: o.question.answers,
            offered: o.offered,
            how: o.how,
            bm25: o.bm25,
            terms: o.ranking.terms.map((t) => `${t.term}:${t.idf}`).join(" "),
            kind: o.question.kind,
            shown: o.shown,
            texts: o.question.texts,
            ranked: o.ranking.articles.map((a, i) => ({ i: o.ranked[i], id: a.id, title: a.title, score: a.score, coverage: a.coverage, headCoverage: a.headCoverage, word: a.word, head: a.head })),
          }),
        );
  }
  if (dump) writeFileSync(dump, dumped.join("\n") + "\n");
  if (json) process.stdout.write(JSON.stringify({ ranking: RANKING, answers: ANSWERS, report }) + "\n");
}
