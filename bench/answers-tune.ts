/**
 * Tuning the ranking without a server: src/ranking.ts over an evaluation set held in memory, with
 * the candidates chosen as the passage index chooses them (each article filed under its terms at
 * their impact; a question reads the heaviest first, up to the same budget) and the exact scores
 * after. What bench/answers.ts measures through the binary, in seconds instead of minutes.
 *
 *   bun bench/answers-tune.ts [dev|trial|passages|en] [--set k=v ...]
 *
 * dev / trial: ../shared/eval/cmrc2018, one article per context. passages: the dev contexts cut
 * into passages of about 150 characters, each its own article (the README's passage task). en: the
 * English FAQ set (bench/eval-en.ts).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { RANKING, analyse, queryTerms, scoreArticle, termImpacts, titleForm, type CorpusStats, type RankedSource } from "../src/ranking/score.ts";
import { ANSWERS, choose } from "../src/ranking/choice.ts";
import { passagesOf } from "../src/ranking/passages.ts";
import { filed } from "../src/store/model/passage-index.ts";
import { buildEnglishSet, type Squad } from "./eval-en.ts";

export interface EvalSet {
  articles: RankedSource[];
  questions: { q: string; article: number; answers: string[]; start: number }[];
}

const EVAL = resolve(process.cwd(), "../shared/eval/cmrc2018");

export function loadSet(name: string): EvalSet {
  const squad: Squad = name === "en" ? buildEnglishSet() : JSON.parse(readFileSync(`${EVAL}/cmrc2018_${name === "trial" ? "trial" : "dev"}.json`, "utf8"));
  const set: EvalSet = { articles: [], questions: [] };
  for (const a of squad.data)
    for (const p of a.paragraphs) {
      if (name === "passages") {
        const spans = passagesOf(p.context, 150);
        const first = set.articles.length;
        for (const s of spans) set.articles.push({ id: `a${set.articles.length}`, title: a.title, keywords: "", description: "", body: p.context.slice(s.start, s.end) });
        for (const qa of p.qas) {
          const at = qa.answers[0]?.answer_start ?? 0;
          const hit = spans.findIndex((s) => at >= s.start && at < s.end);
          set.questions.push({ q: qa.question, article: first + Math.max(hit, 0), answers: qa.answers.map((x) => x.text), start: at - (spans[Math.max(hit, 0)]?.start ?? 0) });
        }
        continue;
      }
      const i = set.articles.push({ id: `a${set.articles.length}`, title: a.title, keywords: "", description: "", body: p.context }) - 1;
      for (const qa of p.qas) set.questions.push({ q: qa.question, article: i, answers: qa.answers.map((x) => x.text), start: qa.answers[0]?.answer_start ?? -1 });
    }
  return set;
}

export function tune(set: EvalSet, budget = 4096, candidates = 24) {
  const df = new Map<string, number>();
  let passages = 0;
  let plen = 0;
  let hlen = 0;
  const analysed = set.articles.map(analyse);
  for (const c of analysed) {
    hlen += c.headLen;
    for (const t of c.head.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    for (const p of c.passages) {
      passages++;
      plen += p.len;
      for (const t of p.counts.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    }
  }
  const stats: CorpusStats = { passages: passages + set.articles.length, passageLen: plen / Math.max(passages, 1), headLen: hlen / Math.max(set.articles.length, 1) };
  const postings = new Map<string, { a: number; w: number }[]>();
  analysed.forEach((a, i) => {
    for (const [t, w] of termImpacts(a, stats)) if (filed(t, a)) (postings.get(t) ?? postings.set(t, []).get(t)!).push({ a: i, w });
  });
  for (const list of postings.values()) list.sort((x, y) => y.w - x.w);
  let first = 0, three = 0, offered = 0, shown = 0, single = 0, singleRight = 0, nothing = 0;
  const t0 = performance.now();
  for (const qa of set.questions) {
    const all = queryTerms(qa.q, (t) => df.get(t) ?? 0, stats);
    const q = all.filter((t) => t.known).sort((x, y) => y.idf - x.idf);
    const approx = new Map<number, number>();
    let read = 0;
    for (const t of q) {
      for (const p of postings.get(t.term) ?? []) {
        if (read++ >= budget) break;
        approx.set(p.a, (approx.get(p.a) ?? 0) + t.idf * p.w);
      }
    }
    const top = [...approx].sort((x, y) => y[1] - x[1]).slice(0, candidates).map(([a]) => a);
    const asked = titleForm(qa.q);
    const scored = top.map((a) => scoreArticle(all, set.articles[a] as RankedSource, stats, asked)).sort((x, y) => y.score - x.score);
    const pick = choose(scored);
    const ids = scored.map((s) => Number(s.id.slice(1)));
    if (ids[0] === qa.article) first++;
    if (ids.slice(0, 3).includes(qa.article)) three++;
    if (pick.kind === "none") nothing++;
    else {
      const n = pick.kind === "one" ? 1 : pick.articles.length;
      if (ids.slice(0, n).includes(qa.article)) offered++;
      if (pick.kind === "one") {
        single++;
        if (ids[0] === qa.article) singleRight++;
      }
    }
    const best = scored[0];
    if (best && ids[0] === qa.article && best.shown) {
      const a = set.articles[qa.article] as RankedSource;
      const text = a.description && a.body ? `${a.description}\n${a.body}` : a.description || a.body;
      if (qa.answers.some((x) => text.slice(best.shown!.start, best.shown!.end).includes(x))) shown++;
    }
  }
  const n = set.questions.length;
  const f = (x: number) => +(x / n).toFixed(3);
  return {
    questions: n,
    articles: set.articles.length,
    passages,
    first: f(first),
    amongThree: f(three),
    offered: f(offered),
    shownHoldsAnswer: f(shown),
    answeredWithOne: f(single),
    oneRight: +(singleRight / Math.max(single, 1)).toFixed(3),
    nothing: f(nothing),
    msPerQuestion: +((performance.now() - t0) / n).toFixed(2),
  };
}

if (import.meta.main) {
  const name = process.argv[2] ?? "dev";
  for (let i = 3; i < process.argv.length; i++) {
    if (process.argv[i] !== "--set") continue;
    const [k, v] = (process.argv[++i] as string).split("=");
    const target = k! in RANKING ? RANKING : ANSWERS;
    (target as Record<string, number>)[k!] = Number(v);
  }
  process.stdout.write(JSON.stringify({ set: name, ranking: RANKING, answers: ANSWERS, ...tune(loadSet(name), Number(process.env.BUDGET ?? 4096), Number(process.env.CANDIDATES ?? 24)) }) + "\n");
}
