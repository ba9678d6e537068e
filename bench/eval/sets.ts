/**
 * The evaluation sets, read into one shape for bench/answers-tune.ts (in memory) and
 * bench/answers.ts (through the binary). A set is one or more accounts (corpora): each account's
 * questions are ranked against that account's articles only.
 *
 * - dev, trial: ../shared/eval/cmrc2018 (CC BY-SA 4.0, ymcui/cmrc2018), one article per context.
 * - passages: the dev contexts cut into passages of about 150 characters, each its own article.
 * - dureader: ../shared/eval/dureader_search_zh (real Baidu queries, the pages returned for them).
 * - nq: ../shared/eval/nq_open_en (real Google questions, Wikipedia chunks, BM25-mined near misses).
 * - en: the English FAQ set bench/eval-en.ts builds from Debian's packages.
 * - fresh-zh, fresh-en: more of our own FAQ accounts, of other kinds (bench/eval/faq-fresh/, the same
 *   layout), made after every setting was chosen and never tuned on: both halves are held out.
 * - fresh2-zh, fresh2-en: six more accounts of other kinds again (bench/eval/faq-fresh2/, the same layout),
 *   written and labelled by helpers in Session 49 and measured before any change of that session.
 * - fresh3-zh, fresh3-en: six more again (bench/eval/faq-fresh3/), written in Session 49 and measured
 *   only at its end: the set whose misses nobody read (until its end).
 * - fresh4-zh, fresh4-en: six more (bench/eval/faq-fresh4/), written at Session 49's end by one helper
 *   per language in three steps, measured once and left unread for the next session.
 * - fresh5-zh, fresh5-en: six more (bench/eval/faq-fresh5/), written in Session 50 by three hands as
 *   the first fresh sets were (articles; messages blind to them; labels), measured at its start.
 * - fresh6-zh, fresh6-en: six more (bench/eval/faq-fresh6/), written the same way during Session 50
 *   and measured only at its end; its misses read in Session 51.
 * - fresh7-zh, fresh7-en: six more (bench/eval/faq-fresh7/), written the same way in Session 51 and
 *   measured once, at its end; its misses read in Session 52.
 * - fresh8-zh, fresh8-en: six more (bench/eval/faq-fresh8/), written the same way in Session 52 and
 *   measured against the code before and after that session's changes; its misses read in Session 53.
 * - fresh9-zh, fresh9-en: six more (bench/eval/faq-fresh9/), written the same way in Session 53 and
 *   measured once, at its end; its misses read in Session 54.
 * - fresh10-zh, fresh10-en: six more (bench/eval/faq-fresh10/), written the same way in Session 54:
 *   measured first in Session 55 (the same as at Session 54's end); its misses read then.
 * - fresh11-zh, fresh11-en: six more (bench/eval/faq-fresh11/), written the same way in Session 55:
 *   measured first then; its misses read in Session 56.
 * - fresh12-zh, fresh12-en: six more (bench/eval/faq-fresh12/), written the same way in Session 56:
 *   measured first then; a tuning set from Session 57.
 * - fresh13-zh, fresh13-en: six more (bench/eval/faq-fresh13/), written the same way in Session 57:
 *   measured first then (the session's start and end code the same to the digit); not read yet.
 * - walk-zh, walk-en: the two walkthroughs' accounts of Session 47 (bench/eval/faq-walk/, the same
 *   layout), labelled in Session 48; their misses were read and some mended, as a walkthrough's are.
 * - faq-zh, faq-en: our own FAQ accounts (bench/eval/faq/: accounts/*.json and questions.jsonl),
 *   questions written by people who never saw the articles, some answered by no article.
 *
 * Every question has a fixed half: "tune" or "held" (held out), from a hash of its set and id, so
 * that settings are chosen on the tuning halves and reported on both.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { CONTROL_CHAR } from "../../src/article/text-rules.ts";
import { bodyText } from "../../src/article/body-text.ts";
import { passagesOf } from "../../src/ranking/passages.ts";
import { buildEnglishSet, type Squad } from "../eval-en.ts";

export interface EvalArticle {
  id: string;
  title: string;
  /** As the read model gives it: the keywords joined by U+001F. */
  keywords: string;
  description: string;
  body: string;
}

export interface EvalQuestion {
  id: string;
  q: string;
  /** Indexes into the account's articles of those that answer; empty: no article answers it. */
  answers: number[];
  /** Texts that answer it (CMRC), for whether the passage shown holds one. */
  texts: string[];
  half: "tune" | "held";
  /** Our FAQ accounts: on-topic but answered by no article ("unanswerable"), or small talk ("chat"). */
  kind: "answerable" | "unanswerable" | "chat";
}

export interface Account {
  id: string;
  articles: EvalArticle[];
  questions: EvalQuestion[];
}

export interface EvalSet {
  name: string;
  language: "zh" | "en";
  accounts: Account[];
}

export const SET_NAMES = ["dev", "trial", "dureader", "nq", "en", "faq-zh", "faq-en", "fresh-zh", "fresh-en", "fresh2-zh", "fresh2-en", "fresh3-zh", "fresh3-en", "fresh4-zh", "fresh4-en", "fresh5-zh", "fresh5-en", "fresh6-zh", "fresh6-en", "fresh7-zh", "fresh7-en", "fresh8-zh", "fresh8-en", "fresh9-zh", "fresh9-en", "fresh10-zh", "fresh10-en", "fresh11-zh", "fresh11-en", "fresh12-zh", "fresh12-en", "fresh13-zh", "fresh13-en", "walk-zh", "walk-en"] as const;

const SHARED = resolve(process.cwd(), "../shared/eval");
const FAQ = resolve(process.cwd(), "bench/eval/faq");
/** Our FAQ-like sets, `<name>-zh` and `<name>-en`: the folder of each (the layout of bench/eval/faq). */
const FAQ_LIKE: Record<string, string> = {
  faq: FAQ,
  fresh: resolve(process.cwd(), "bench/eval/faq-fresh"),
  fresh2: resolve(process.cwd(), "bench/eval/faq-fresh2"),
  fresh3: resolve(process.cwd(), "bench/eval/faq-fresh3"),
  fresh4: resolve(process.cwd(), "bench/eval/faq-fresh4"),
  fresh5: resolve(process.cwd(), "bench/eval/faq-fresh5"),
  fresh6: resolve(process.cwd(), "bench/eval/faq-fresh6"),
  fresh7: resolve(process.cwd(), "bench/eval/faq-fresh7"),
  fresh8: resolve(process.cwd(), "bench/eval/faq-fresh8"),
  fresh9: resolve(process.cwd(), "bench/eval/faq-fresh9"),
  fresh10: resolve(process.cwd(), "bench/eval/faq-fresh10"),
  fresh11: resolve(process.cwd(), "bench/eval/faq-fresh11"),
  fresh12: resolve(process.cwd(), "bench/eval/faq-fresh12"),
  fresh13: resolve(process.cwd(), "bench/eval/faq-fresh13"),
  walk: resolve(process.cwd(), "bench/eval/faq-walk"),
};

/** FNV-1a over `set:id`: the question's half, the same on every run and machine. */
export function halfOf(set: string, id: string): "tune" | "held" {
  let h = 0x811c9dc5;
  for (const c of `${set}:${id}`) {
    h ^= c.codePointAt(0) as number;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h & 1 ? "held" : "tune";
}

/**
 * An article as the binary keeps it: the title within its 64 characters (the body's first 20 when
 * it has none), the body as bodyText() reduces it — so that the in-memory ranking reads what the
 * binary's reads.
 */
const CONTROL_CHAR_G = new RegExp(CONTROL_CHAR.source, "g");

function article(id: string, title: string, body: string, keywords: string[] = []): EvalArticle {
  // Control characters are refused (article-rules.ts): a page's stray ones are spaces here.
  const clean = (s: string) => s.toWellFormed().replace(CONTROL_CHAR_G, " ");
  const kept = bodyText(clean(body));
  return { id, title: [...(clean(title).trim() || kept.slice(0, 20))].slice(0, 64).join("").trim(), keywords: keywords.join("\u001f"), description: "", body: kept };
}

function squad(name: string, data: Squad): Account {
  const acc: Account = { id: name, articles: [], questions: [] };
  for (const a of data.data)
    for (const p of a.paragraphs) {
      if (name === "passages") {
        const spans = passagesOf(p.context, 150);
        const first = acc.articles.length;
        for (const s of spans) acc.articles.push(article(`a${acc.articles.length}`, a.title, p.context.slice(s.start, s.end)));
        for (const qa of p.qas) {
          const at = qa.answers[0]?.answer_start ?? 0;
          const hit = Math.max(spans.findIndex((s) => at >= s.start && at < s.end), 0);
          acc.questions.push({ id: qa.id, q: qa.question, answers: [first + hit], texts: qa.answers.map((x) => x.text), half: halfOf(name, qa.id), kind: "answerable" });
        }
        continue;
      }
      const i = acc.articles.push(article(`a${acc.articles.length}`, a.title, p.context)) - 1;
      for (const qa of p.qas) acc.questions.push({ id: qa.id, q: qa.question, answers: [i], texts: qa.answers.map((x) => x.text), half: halfOf(name, qa.id), kind: "answerable" });
    }
  return acc;
}

const jsonl = <T>(path: string): T[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as T);

/** A set of ../shared/eval in its articles.jsonl / questions.jsonl form. */
function shared(name: string, dir: string): Account {
  const arts = jsonl<{ id: string; title: string; body: string }>(join(SHARED, dir, "articles.jsonl"));
  const at = new Map(arts.map((a, i) => [a.id, i]));
  const acc: Account = { id: name, articles: arts.map((a) => article(a.id, a.title ?? "", a.body ?? "")), questions: [] };
  for (const q of jsonl<{ id: string; question: string; answer_ids: string[] }>(join(SHARED, dir, "questions.jsonl"))) {
    const answers = q.answer_ids.map((id) => at.get(id)).filter((i): i is number => i !== undefined);
    if (answers.length) acc.questions.push({ id: q.id, q: q.question, answers, texts: [], half: halfOf(name, q.id), kind: "answerable" });
  }
  return acc;
}

interface FaqAccount {
  id: string;
  language: "zh" | "en";
  articles: { id: string; title: string; keywords?: string[]; body: string }[];
}

/** A line of questions.jsonl: `kind` (or, in the first form, `answerable`) says whether an article answers it. */
interface FaqQuestion {
  account: string;
  question: string;
  answer_ids: string[];
  kind?: "answerable" | "unanswerable" | "chat";
  answerable?: boolean;
}

/** A line of answer-texts.jsonl: for an answerable question, the exact texts of its article's body that answer it. */
interface AnswerTexts {
  account: string;
  question: string;
  article: string;
  texts: string[];
}

/** Our FAQ accounts of one language, with their questions (when questions.jsonl is there). */
function faq(name: string, language: "zh" | "en", root = FAQ): Account[] {
  const dir = join(root, "accounts");
  if (!existsSync(dir)) return [];
  const questions = existsSync(join(root, "questions.jsonl")) ? jsonl<FaqQuestion>(join(root, "questions.jsonl")) : [];
  // What a follower needs to read of the answering article (answer-texts.jsonl, labelled from the articles by helpers who never saw a reply): what "shown" is measured on.
  const texts = new Map((existsSync(join(root, "answer-texts.jsonl")) ? jsonl<AnswerTexts>(join(root, "answer-texts.jsonl")) : []).map((l) => [`${l.account}\u0000${l.question}`, l.texts]));
  const out: Account[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".json")).sort()) {
    const a = JSON.parse(readFileSync(join(dir, file), "utf8")) as FaqAccount;
    if (a.language !== language) continue;
    const at = new Map(a.articles.map((x, i) => [x.id, i]));
    const acc: Account = { id: a.id, articles: a.articles.map((x) => article(x.id, x.title, x.body, x.keywords ?? [])), questions: [] };
    questions
      .filter((q) => q.account === a.id)
      .forEach((q, i) => {
        const answers = q.answer_ids.map((id) => at.get(id)).filter((x): x is number => x !== undefined);
        if (answers.length !== q.answer_ids.length) throw new Error(`${a.id}: "${q.question}" names an article the account does not have`);
        const kind = q.kind ?? (q.answerable === false ? "unanswerable" : "answerable");
        if ((kind === "answerable") !== answers.length > 0) throw new Error(`${a.id}: "${q.question}" is ${kind} with ${answers.length} answers`);
        const id = `${a.id}#${i}`;
        acc.questions.push({ id, q: q.question, answers, texts: texts.get(`${a.id}\u0000${q.question}`) ?? [], half: halfOf(name, id), kind });
      });
    out.push(acc);
  }
  return out;
}

export function loadSet(name: string): EvalSet {
  switch (name) {
    case "dev":
    case "passages":
      return { name, language: "zh", accounts: [squad(name, JSON.parse(readFileSync(join(SHARED, "cmrc2018/cmrc2018_dev.json"), "utf8")))] };
    case "trial":
      return { name, language: "zh", accounts: [squad(name, JSON.parse(readFileSync(join(SHARED, "cmrc2018/cmrc2018_trial.json"), "utf8")))] };
    case "en":
      return { name, language: "en", accounts: [squad(name, buildEnglishSet())] };
    case "dureader":
      return { name, language: "zh", accounts: [shared(name, "dureader_search_zh")] };
    case "nq":
      return { name, language: "en", accounts: [shared(name, "nq_open_en")] };
    default: {
      const [, kind, language] = name.match(/^([a-z0-9]+)-(zh|en)$/) ?? [];
      const folder = kind === undefined ? undefined : FAQ_LIKE[kind];
      if (folder === undefined) throw new Error(`no evaluation set ${name} (sets: ${SET_NAMES.join(", ")}, passages)`);
      return { name, language: language as "zh" | "en", accounts: faq(name, language as "zh" | "en", folder) };
    }
  }
}
