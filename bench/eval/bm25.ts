/**
 * The plain BM25 every set is compared with: a port of ../shared/eval/bm25.py (k1 1.2, b 0.75;
 * Chinese: NFKC, lower case, every CJK character and every pair of neighbours, other runs of
 * letters and digits as words; English: lower-case words, no stemming, no stop words; each article
 * title + "\n" + body — and its keywords between them, where it has any; a question's terms summed
 * once per occurrence; ties by article order). On dureader_search_zh and nq_open_en it gives
 * bm25.py's figures to the digit (`bun bench/answers-tune.ts --bm25-check`).
 */
import type { EvalArticle } from "./sets.ts";

const CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff";
const CJK_SPLIT = new RegExp(`([${CJK}]+)`, "u");
const CJK_RUN = new RegExp(`^[${CJK}]+$`, "u");
// Python's [^\W_]: letters and digits (str.isalnum).
const WORD = /[\p{L}\p{N}]+/gu;

export function tokenize(text: string, language: "zh" | "en"): string[] {
  const t = text.normalize("NFKC").toLowerCase();
  if (language === "en") return t.match(WORD) ?? [];
  const out: string[] = [];
  for (const piece of t.split(CJK_SPLIT)) {
    if (!piece) continue;
    if (CJK_RUN.test(piece)) {
      const cs = [...piece];
      out.push(...cs);
      for (let i = 0; i + 1 < cs.length; i++) out.push((cs[i] as string) + (cs[i + 1] as string));
    } else out.push(...(piece.match(WORD) ?? []));
  }
  return out;
}

export class PlainBm25 {
  private readonly postings = new Map<string, { d: number; tf: number }[]>();
  private readonly idf = new Map<string, number>();
  private readonly norm: number[];

  constructor(
    articles: readonly EvalArticle[],
    private readonly language: "zh" | "en",
    private readonly k1 = 1.2,
    b = 0.75,
  ) {
    const docs = articles.map((a) => tokenize(a.keywords ? `${a.title}\n${a.keywords}\n${a.body}` : `${a.title}\n${a.body}`, language));
    const n = docs.length;
    const avg = docs.reduce((s, d) => s + d.length, 0) / Math.max(n, 1);
    docs.forEach((toks, d) => {
      const tf = new Map<string, number>();
      for (const t of toks) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [t, f] of tf) (this.postings.get(t) ?? this.postings.set(t, []).get(t)!).push({ d, tf: f });
    });
    for (const [t, p] of this.postings) this.idf.set(t, Math.log(1 + (n - p.length + 0.5) / (p.length + 0.5)));
    this.norm = docs.map((d) => (avg ? k1 * (1 - b + (b * d.length) / avg) : k1));
  }

  /** Article indexes, best first, the first `top` of those sharing a term with the question. */
  rank(question: string, top = 10): number[] {
    const acc = new Map<number, number>();
    for (const t of tokenize(question, this.language)) {
      const list = this.postings.get(t);
      if (!list) continue;
      const idf = this.idf.get(t) as number;
      for (const { d, tf } of list) acc.set(d, (acc.get(d) ?? 0) + (idf * tf * (this.k1 + 1)) / (tf + (this.norm[d] as number)));
    }
    return [...acc]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, top)
      .map(([d]) => d);
  }
}
