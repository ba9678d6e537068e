/**
 * Telling an answer from none, the signal alone (docs/performance.md Sessions 21 and 25): for every
 * question of our FAQ accounts whose right article is among the ranking's first three (the choice
 * could answer it) and every on-topic question no article answers (the choice should refuse it),
 * signals of the best article, and how well each tells the two apart — the area under the ROC curve
 * (1: every answerable one above every unanswerable one; 0.5: no better than chance). Then a logistic
 * fit of the relevance as shipped (share held, the head's share) on the first accounts' tuning half,
 * alone and with each other signal, measured on their held-out half and on the fresh accounts.
 *
 *   bun bench/answer-signals.ts
 *
 * A signal worth adding to choice.ts raises the held-out and the fresh figures together; none of
 * those below did (Session 25).
 */
import { ANSWERS } from "../src/ranking/choice.ts";
import { termsOf } from "../src/ranking/words.ts";
import { runSet } from "./answers-tune.ts";
import { loadSet } from "./eval/sets.ts";

interface Row {
  group: "first" | "fresh";
  half: "tune" | "held";
  answerable: boolean;
  signals: Record<string, number>;
}

const SIGNALS = ["relevance", "share", "head share", "rarest word held", "rarest word in the head", "words held (counted)", "lead", "score spread (NQC)", "log score", "second's share"] as const;

function rows(): Row[] {
  const out: Row[] = [];
  for (const name of ["faq-zh", "faq-en", "fresh-zh", "fresh-en"]) {
    const set = loadSet(name);
    const accountOf = new Map(set.accounts.flatMap((acc) => acc.questions.map((q) => [q.id, acc] as const)));
    for (const o of runSet(set)) {
      const q = o.question;
      const best = o.ranking.articles[0];
      const top3 = q.answers.length > 0 && o.ranked.slice(0, 3).some((i) => q.answers.includes(i));
      if (!best || !(q.kind === "unanswerable" || top3)) continue;
      const article = accountOf.get(q.id)!.articles[o.ranked[0]!]!;
      const held = new Set(termsOf(`${article.title}\n${article.keywords}\n${article.body}`));
      const inHead = new Set(termsOf(`${article.title}\n${article.keywords}`));
      const terms = o.ranking.terms;
      const rarest = [...terms].sort((a, b) => b.idf - a.idf)[0];
      const scores = o.ranking.articles.slice(0, 5).map((a) => a.score);
      const mean = scores.reduce((s, x) => s + x, 0) / scores.length;
      const spread = Math.sqrt(scores.reduce((s, x) => s + (x - mean) ** 2, 0) / scores.length);
      const second = o.ranking.articles[1];
      out.push({
        group: name.startsWith("fresh") ? "fresh" : "first",
        half: q.half,
        answerable: q.kind !== "unanswerable",
        signals: {
          relevance: best.coverage + ANSWERS.headCredit * best.headCoverage,
          share: best.coverage,
          "head share": best.headCoverage,
          "rarest word held": rarest && held.has(rarest.term) ? 1 : 0,
          "rarest word in the head": rarest && inHead.has(rarest.term) ? 1 : 0,
          "words held (counted)": terms.length ? terms.filter((t) => held.has(t.term)).length / terms.length : 0,
          lead: second ? best.score / second.score : 5,
          "score spread (NQC)": mean ? spread / mean : 0,
          "log score": Math.log(best.score),
          "second's share": second?.coverage ?? 0,
        },
      });
    }
  }
  return out;
}

/** The chance that an answerable question scores above an unanswerable one (ties count half). */
function auc(rs: readonly Row[], score: (r: Row) => number): number {
  const pos = rs.filter((r) => r.answerable).map(score);
  const neg = rs.filter((r) => !r.answerable).map(score);
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return pos.length && neg.length ? wins / (pos.length * neg.length) : NaN;
}

/** Logistic regression by gradient descent on standardised signals (a small ridge keeps it finite). */
function fit(rs: readonly Row[], names: readonly string[]): (r: Row) => number {
  const mu = names.map((k) => rs.reduce((s, r) => s + r.signals[k]!, 0) / rs.length);
  const sd = names.map((k, j) => Math.sqrt(rs.reduce((s, r) => s + (r.signals[k]! - mu[j]!) ** 2, 0) / rs.length) || 1);
  const x = (r: Row) => names.map((k, j) => (r.signals[k]! - mu[j]!) / sd[j]!);
  const w = new Array(names.length + 1).fill(0) as number[];
  for (let step = 0; step < 2000; step++) {
    const g = new Array(w.length).fill(0) as number[];
    for (const r of rs) {
      const xs = x(r);
      const z = xs.reduce((s, v, j) => s + v * w[j]!, w[names.length]!);
      const err = 1 / (1 + Math.exp(-z)) - (r.answerable ? 1 : 0);
      xs.forEach((v, j) => (g[j]! += err * v));
      g[names.length]! += err;
    }
    for (let j = 0; j < w.length; j++) w[j]! -= (0.5 * g[j]!) / rs.length + (j < names.length ? 0.001 * w[j]! : 0);
  }
  return (r: Row) => x(r).reduce((s, v, j) => s + v * w[j]!, w[names.length]!);
}

if (import.meta.main) {
  const all = rows();
  const first = all.filter((r) => r.group === "first");
  const fresh = all.filter((r) => r.group === "fresh");
  const count = (rs: readonly Row[]) => `${rs.filter((r) => r.answerable).length} answerable, ${rs.filter((r) => !r.answerable).length} not`;
  const out = (line: string) => process.stdout.write(line + "\n");
  out(`the best article's signals, area under the ROC curve (all: ${count(all)}; first accounts: ${count(first)}; fresh: ${count(fresh)})`);
  out(`  ${"signal".padEnd(26)} all    first  fresh`);
  for (const k of SIGNALS) out(`  ${k.padEnd(26)} ${[all, first, fresh].map((rs) => auc(rs, (r) => r.signals[k]!).toFixed(3)).join("  ")}`);
  const tune = first.filter((r) => r.half === "tune");
  const held = first.filter((r) => r.half === "held");
  out(`logistic fits on the first accounts' tuning half (${count(tune)}), measured held out (${count(held)}) and fresh:`);
  const base = ["share", "head share"];
  for (const names of [base, ...SIGNALS.filter((k) => !base.includes(k) && k !== "relevance").map((k) => [...base, k])]) {
    const f = fit(tune, names);
    out(`  ${names.join(" + ").padEnd(48)} held ${auc(held, f).toFixed(3)}  fresh ${auc(fresh, f).toFixed(3)}`);
  }
}
