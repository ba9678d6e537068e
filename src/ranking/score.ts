/**
 * How well an article answers a question (docs/answers.md "How articles are ranked"): BM25 over
 * the article's passages, the best passage's score plus its head's (title, keywords and questions, which
 * weigh more), idf counted over every passage of the account. Pure: the store supplies the counts
 * and the candidates (store/model/answers.ts), this file only scores.
 */
import { passagesOf, sentences, type Span } from "./passages.ts";
import { scoredSpans } from "./scored-passages.ts";
import { utf8Prefix } from "../base/utf8.ts";
import { termCounts, termsOf } from "./words.ts";

/** Tunable by bench/answers-tune.ts; nothing else changes them. */
export const RANKING: { k1: number; b: number; headWeight: number; localIdf: number; titleBoost: number } = {
  /** BM25's term-frequency saturation and length normalisation (tuned on CMRC 2018 dev). */
  k1: 0.9,
  b: 0.4,
  /** A head's score counts this many times a passage's. */
  headWeight: 1.5,
  /** The within-article weight's exponent when choosing the passage to show (0: plain BM25). */
  localIdf: 1,
  /**
   * An article whose whole title the question writes out scores this much more (namesTitle):
   * CMRC 2018 dev first 0.988 → 0.991 at 0.2 (the same from 0.2 to 0.5), trial and English unchanged.
   */
  titleBoost: 0.2,
};

/** Counts over every indexed article, for idf and length normalisation. */
export interface CorpusStats {
  /** Units a term can occur in (each article's head and each of its passages): idf's N. */
  passages: number;
  /** Mean terms per passage and per head. */
  passageLen: number;
  headLen: number;
}

export interface QueryTerm {
  term: string;
  idf: number;
  /** Some unit holds it (its df is above 0): only these are looked up. */
  known: boolean;
}

/** What scoring reads of an article. */
export interface RankedSource {
  id: string;
  title: string;
  keywords: string;
  /** The questions it answers, one a line (absent: none), ranked with the title. */
  questions?: string;
  description: string;
  body: string;
}

export interface PassageScore extends Span {
  score: number;
}

export interface ArticleScore {
  id: string;
  score: number;
  /** Share of the question's weight (sum of idf over the terms some unit holds) that the article holds in its head or the passages scored. */
  coverage: number;
  /** Whether it holds one of the question's words (a Han pair, a Latin word), not only single characters. */
  word: boolean;
  head: number;
  /** The passage to show (null: the article has no text beyond its head); spans index into passageText(). */
  shown: PassageScore | null;
  /** The passages scored (all of them, or SCORED_PASSAGES of a long body: scored-passages.ts), in order. */
  passages: PassageScore[];
}

/** A passage with its terms counted. */
type Cut = PassageScore & { counts: Map<string, number>; len: number };

/** A term that is more than one Han character: a pair, or a Latin word. */
export const isWord = (term: string) => term.length > 1 || !/\p{Script=Han}/u.test(term);

export const idf = (df: number, n: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

const tfPart = (f: number, len: number, avg: number) => (f * (RANKING.k1 + 1)) / (f + RANKING.k1 * (1 - RANKING.b + (RANKING.b * len) / Math.max(avg, 1)));

/** The words an article's head is ranked on: its title, keywords and the questions it answers. */
export const headText = (a: { title: string; keywords: string; questions?: string }) => (a.questions ? `${a.title}\n${a.keywords}\n${a.questions}` : `${a.title}\n${a.keywords}`);

/** The text passages are cut from: the description, then the body. */
export const passageText = (a: { description: string; body: string }) => (a.description && a.body ? `${a.description}\n${a.body}` : a.description || a.body);

/**
 * The question's terms, each once, with their idf. A term no unit holds gets the highest idf there
 * is: it matches nothing, and it weighs in the share of the question an article holds (coverage).
 */
export function queryTerms(question: string, df: (term: string) => number, stats: CorpusStats): QueryTerm[] {
  const out: QueryTerm[] = [];
  const n = Math.max(stats.passages, 1);
  for (const term of new Set(termsOf(question))) {
    const d = df(term);
    out.push({ term, idf: idf(d, Math.max(n, d)), known: d > 0 });
  }
  return out;
}

function bm25(q: readonly QueryTerm[], counts: Map<string, number>, len: number, avg: number): number {
  let s = 0;
  for (const { term, idf } of q) {
    const f = counts.get(term);
    if (f) s += idf * tfPart(f, len, avg);
  }
  return s;
}

/** Text as titles are looked for in a question: NFKC, lower case, spaces folded. */
export const titleForm = (s: string) => s.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();

/**
 * Whether `question` (in titleForm) writes out the article's title whole — "前肛鳗的体长是多少？"
 * names 前肛鳗, not 异齿前肛鳗 — its qualifier in brackets left off ("大曲车站 (秋田县)" is named
 * by "大曲车站"). A title of one character names nothing; a Latin one only as whole words.
 */
export function namesTitle(question: string, title: string): boolean {
  const t = titleForm(title.replace(/\s*[(（][^()（）]*[)）]\s*$/, ""));
  if ([...t].length < 2) return false;
  let at = question.indexOf(t);
  while (at >= 0) {
    const before = question[at - 1] ?? " ";
    const after = question[at + t.length] ?? " ";
    const latinEdge = (c: string, inner: string | undefined) => /[\p{L}\p{N}]/u.test(c) && /[a-z0-9]/.test(inner ?? "") && !/\p{Script=Han}/u.test(c);
    if (!latinEdge(before, t[0]) && !latinEdge(after, t[t.length - 1])) return true;
    at = question.indexOf(t, at + 1);
  }
  return false;
}

/** `question`: the question's text in titleForm, for namesTitle (without it, no title counts as named). */
export function scoreArticle(q: readonly QueryTerm[], a: RankedSource, stats: CorpusStats, question?: string): ArticleScore {
  // The head whole; of a long body, only the passages scoredSpans() chooses (the work is bounded whatever its size).
  const text = passageText(a);
  const x = analysed(a, text, scoredSpans(text, passagesOf(text), q));
  const head = RANKING.headWeight * bm25(q, x.head, x.headLen, stats.headLen);
  const found = new Set(x.head.keys());
  const passages: Cut[] = x.passages.map((p) => {
    for (const t of p.counts.keys()) found.add(t);
    return { ...p, score: bm25(q, p.counts, p.len, stats.passageLen) };
  });
  let best: PassageScore | null = null;
  for (const p of passages) if (!best || p.score > best.score) best = p;
  // Over the terms some unit holds: a word the account never uses says nothing of this article.
  const known = q.filter((t) => t.known);
  const total = known.reduce((s, t) => s + t.idf, 0);
  const held = known.reduce((s, t) => s + (found.has(t.term) ? t.idf : 0), 0);
  // A question of single characters only ("茶") has no word to hold: its characters count as words.
  const words = q.filter((t) => isWord(t.term));
  return {
    id: a.id,
    word: words.length ? words.some((t) => found.has(t.term)) : held > 0,
    score: (head + (best?.score ?? 0)) * (question !== undefined && RANKING.titleBoost && namesTitle(question, a.title) ? 1 + RANKING.titleBoost : 1),
    coverage: total > 0 ? held / total : 0,
    head,
    shown: shownPassage(q, passages, stats),
    passages: passages.map(({ start, end, score }) => ({ start, end, score })),
  };
}

/**
 * The passage to show: the question's words weighted also by how few of this article's passages
 * hold them, so that the passage with the word only it has wins over the lead that repeats the
 * article's subject (CMRC 2018 dev: the passage shown held the answer 0.897 → 0.915 of the time).
 */
function shownPassage(q: readonly QueryTerm[], passages: readonly Cut[], stats: CorpusStats): PassageScore | null {
  if (passages.length <= 1) return passages[0] ? { start: passages[0].start, end: passages[0].end, score: passages[0].score } : null;
  const n = passages.length;
  const local = q.map((t) => {
    const d = passages.reduce((c, p) => c + (p.counts.has(t.term) ? 1 : 0), 0);
    return { ...t, idf: t.idf * Math.pow(idf(d, n), RANKING.localIdf) };
  });
  let best = passages[0] as Cut;
  let bestScore = -1;
  for (const p of passages) {
    const s = bm25(local, p.counts, p.len, stats.passageLen);
    if (s > bestScore) {
      bestScore = s;
      best = p;
    }
  }
  return { start: best.start, end: best.end, score: best.score };
}

/**
 * A passage cut down to `maxBytes` of UTF-8 around its sentence that holds most of the question,
 * with "…" where it was cut.
 */
export function excerpt(text: string, span: Span, q: readonly QueryTerm[], maxBytes: number): string {
  const whole = text.slice(span.start, span.end).trim();
  if (Buffer.byteLength(whole) <= maxBytes) return whole;
  const parts = sentences(text, span.start, span.end);
  const scores = parts.map((s) => bm25(q, termCounts(termsOf(text.slice(s.start, s.end))), 1, 1));
  let at = 0;
  for (let i = 1; i < parts.length; i++) if ((scores[i] as number) > (scores[at] as number)) at = i;
  let lo = at;
  let hi = at;
  const size = (a: number, b: number) => Buffer.byteLength(text.slice((parts[a] as Span).start, (parts[b] as Span).end).trim()) + 6;
  for (;;) {
    if (hi + 1 < parts.length && size(lo, hi + 1) <= maxBytes) hi++;
    else if (lo > 0 && size(lo - 1, hi) <= maxBytes) lo--;
    else break;
  }
  const kept = text.slice((parts[lo] as Span).start, (parts[hi] as Span).end).trim();
  const out = Buffer.byteLength(kept) + 6 > maxBytes ? utf8Prefix(kept, maxBytes - 6) : kept;
  return `${lo > 0 ? "…" : ""}${out}${hi < parts.length - 1 || out !== kept ? "…" : ""}`;
}

/** An article's terms counted once: its head's and each passage's (spans index into passageText()). What scoring reads, and what the index files and counts. */
export interface Analysis {
  head: Map<string, number>;
  headLen: number;
  passages: (Span & { counts: Map<string, number>; len: number })[];
}

export function analyse(a: Omit<RankedSource, "id">): Analysis {
  const text = passageText(a);
  return analysed(a, text, passagesOf(text));
}

/** The head and the passages `spans` of `text` (the article's passageText) analysed. */
function analysed(a: Omit<RankedSource, "id">, text: string, spans: readonly Span[]): Analysis {
  const headTerms = termsOf(headText(a));
  return {
    head: termCounts(headTerms),
    headLen: headTerms.length,
    passages: spans.map((p) => {
      const terms = termsOf(text.slice(p.start, p.end));
      return { start: p.start, end: p.end, counts: termCounts(terms), len: terms.length };
    }),
  };
}

/**
 * Each term of an article with the most it can add to the article's score short of its idf: the
 * best passage's term-frequency part, plus the head's times headWeight. The index files an article
 * under each term at this weight (store/model/answer-index.ts), so that a question reads the
 * articles where its words weigh most first.
 */
export function termImpacts(x: Analysis, stats: CorpusStats): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of x.passages) {
    for (const [t, f] of p.counts) {
      const w = tfPart(f, p.len, stats.passageLen);
      if (w > (out.get(t) ?? 0)) out.set(t, w);
    }
  }
  for (const [t, f] of x.head) out.set(t, (out.get(t) ?? 0) + RANKING.headWeight * tfPart(f, x.headLen, stats.headLen));
  return out;
}
