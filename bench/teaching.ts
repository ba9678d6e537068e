/**
 * What teaching buys (issue 34 D; docs/answers.md "Teaching"): an operator's first week, in memory.
 * Each FAQ set's tuning half is asked; the answerable questions that reached the inbox (the
 * fallback: `replyd inbox` lists what nothing answered, not the word search's guesses) are taught to their right article — `replyd teach SEQ
 * ARTICLE`, the follower's text added to the article's questions — and then the held-out half,
 * other followers' questions the operator never saw, is asked of the taught articles. With
 * `--misses` the operator also teaches every answerable question whose first article offered was
 * not a right one (a list led by another, a wrong article alone: what `replyd report`'s close calls
 * and a follower's complaint show); with `--all`, every answerable question of the tuning half (an
 * operator who writes the questions of each article ahead).
 *
 *   bun bench/teaching.ts [SET ...] [--misses | --all]     (SET: faq-zh faq-en en; all three by default)
 *
 * Taught as the store takes them: at most 50 questions an article, each at most 200 characters
 * (longer ones left out, as `replyd teach` refuses them).
 */
import { figures, line, runAccount, type Answered } from "./answers-tune.ts";
import { loadSet, type Account } from "./eval/sets.ts";

const MAX_QUESTIONS = 50;
/** Which of the tuning half's answerable questions are taught: those in the inbox; also those whose first article was wrong; every one. */
export type Mode = "inbox" | "misses" | "all";
const MAX_CHARS = 200;

/** The account with `taught` (article index → the followers' texts) in its articles' questions. */
export function taughtAccount(acc: Account, taught: ReadonlyMap<number, readonly string[]>): Account {
  return {
    ...acc,
    articles: acc.articles.map((a, i) => {
      const qs = (taught.get(i) ?? []).filter((q) => [...q].length <= MAX_CHARS).slice(0, MAX_QUESTIONS);
      return qs.length ? { ...a, questions: qs.join("\n") } : a;
    }),
  };
}

/** The tuning half's answerable questions an operator would teach, by their right article. */
export function toTeach(outcomes: readonly (Answered & { how: string })[], mode: Mode): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const o of outcomes) {
    const right = o.question.answers;
    if (!right.length) continue;
    const inInbox = o.how === "none";
    const missed = !right.includes(o.offered[0] as number);
    if (!(inInbox || mode === "all" || (mode === "misses" && missed))) continue;
    const to = right[0] as number;
    (out.get(to) ?? out.set(to, []).get(to)!).push(o.question.q);
  }
  return out;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const mode: Mode = args.includes("--all") ? "all" : args.includes("--misses") ? "misses" : "inbox";
  const names = args.filter((a) => !a.startsWith("--"));
  for (const name of names.length ? names : ["faq-zh", "faq-en", "en"]) {
    const set = loadSet(name);
    const before = { tune: [] as Answered[], held: [] as Answered[] };
    const after = { tune: [] as Answered[], held: [] as Answered[] };
    let taughtCount = 0;
    for (const acc of set.accounts) {
      const tune = runAccount(acc, set.language, "tune");
      const teach = toTeach(tune, mode);
      for (const qs of teach.values()) taughtCount += qs.length;
      const taught = taughtAccount(acc, teach);
      before.tune.push(...tune);
      before.held.push(...runAccount(acc, set.language, "held"));
      after.tune.push(...runAccount(taught, set.language, "tune"));
      after.held.push(...runAccount(taught, set.language, "held"));
    }
    process.stdout.write(`${name}: ${taughtCount} questions taught from the tuning half (${mode})\n`);
    for (const half of ["tune", "held"] as const) {
      const [b, a] = [figures(before[half]), figures(after[half])];
      process.stdout.write(line(name, `${half}-`, b) + "\n");
      process.stdout.write(line(name, `${half}+`, a) + "\n");
      // The counts behind the shares: a move of one question reads as 0.013 on 75.
      const right = (f: typeof a) => Math.round(f.first * f.answerable);
      process.stdout.write(`${name.padEnd(9)} ${half}: right first ${right(b)} → ${right(a)} of ${a.answerable} answerable\n`);
    }
  }
}
