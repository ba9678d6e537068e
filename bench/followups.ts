/**
 * Follow-ups measured (issue 34 E; docs/answers.md "Follow-ups"): question + follow-up pairs on the
 * FAQ accounts (bench/eval/followups/*.jsonl, on bench/eval/faq/accounts/), each follow-up answered as
 * before (each message alone) and in its conversation (src/wechat/answering/reading.ts) — in memory with the
 * real ranking code over each account (eval/memory-source.ts), and with --binary through dist/replyd's
 * callback, each account imported into a server of its own.
 *
 *   bun bench/followups.ts [--half tune|held|all] [--set weight=0.5] [--set frame=0.25] [--set namesAnother=0.5] [--set ownHeld=0.35] [--set lead=2] [--binary] [--json] [--misses]
 *   bun bench/followups.ts --fresh [--binary] [--misses]    (bench/eval/followups-fresh on bench/eval/faq-fresh: never tuned on)
 *   bun bench/followups.ts --fresh2 [--binary] [--misses]    (bench/eval/followups-fresh2 on bench/eval/faq-fresh2: the second fresh set, Session 49)
 *   bun bench/followups.ts --fresh3 [--binary] [--misses]    (bench/eval/followups-fresh3 on bench/eval/faq-fresh3: the third)
 *   bun bench/followups.ts --fresh4 [--binary] [--misses]    (bench/eval/followups-fresh4 on bench/eval/faq-fresh4: pairs written blind to the articles, Session 50)
 *   bun bench/followups.ts --fresh5 [--binary] [--misses]    (bench/eval/followups-fresh5 on bench/eval/faq-fresh5: the same, on accounts written in Session 50)
 *   bun bench/followups.ts --fresh6 [--binary] [--misses]    (bench/eval/followups-fresh6 on bench/eval/faq-fresh6: the same, measured at Session 50's end)
 *   bun bench/followups.ts --fresh7 [--binary] [--misses]    (bench/eval/followups-fresh7 on bench/eval/faq-fresh7: the same, measured at Session 51's end)
 *   bun bench/followups.ts --fresh8 [--binary] [--misses]    (bench/eval/followups-fresh8 on bench/eval/faq-fresh8: the same, Session 52)
 *   bun bench/followups.ts --fresh9 [--binary] [--misses]    (bench/eval/followups-fresh9 on bench/eval/faq-fresh9: the same, Session 53)
 *   bun bench/followups.ts --fresh10 [--binary] [--misses]    (bench/eval/followups-fresh10 on bench/eval/faq-fresh10: the same, Session 54)
 *   bun bench/followups.ts --fresh11 [--binary] [--misses]    (bench/eval/followups-fresh11 on bench/eval/faq-fresh11: the same, Session 55)
 *   bun bench/followups.ts --fresh12 [--binary] [--misses]    (bench/eval/followups-fresh12 on bench/eval/faq-fresh12: the same, Session 56)
 *   bun bench/followups.ts --fresh13 [--binary] [--misses]    (bench/eval/followups-fresh13 on bench/eval/faq-fresh13: the same, Session 57)
 *   bun bench/followups.ts --walk [--binary] [--misses]    (bench/eval/followups-walk on bench/eval/faq-walk: the walkthroughs' pairs)
 *   bun bench/followups.ts --second [--half tune|held|all] [--misses]    (bench/eval/followups-b: a second set on our accounts, Session 41)
 *   bun bench/followups.ts [--fresh|--fresh2|--fresh3|--fresh4|--fresh5|--fresh6|--fresh7|--fresh8|--fresh9|--fresh10|--fresh11|--fresh12|--fresh13|--walk] --cross    (each question of its own asked after every first question of the pairs)
 *   bun bench/followups.ts [--fresh|--fresh2|--fresh3|--fresh4|--fresh5|--fresh6|--fresh7|--fresh8|--fresh9|--fresh10|--fresh11|--fresh12|--fresh13|--walk] --standalone [PATH]    (default: the accounts' own questions.jsonl)
 *   ./scripts/bench --only followups        (both)
 *
 * Kinds: stay (the follow-up is answered by the first question's article), move (by a neighbouring
 * article), change (a question of its own, which must not be dragged back), offtopic (one no
 * article answers, after one that an article does: nothing is the right answer), another ("换一个":
 * the next articles not yet offered), second ("第二个" after a list). Measured: the right article
 * first, and among those offered (stay, move, change); nothing offered, and a single article
 * offered (offtopic); the reply offering only articles not offered before, and the labelled article
 * offered within the two replies (another); the list's entry picked, of the first replies that were
 * lists (second). --standalone: questions of their own (issue 34 D's set), each asked right after the
 * one before it, answered alone and after it: no worse in conversation? `--half tune` is the half of the accounts
 * the weights were chosen on, `held` the other half.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { ANSWERS } from "../src/ranking/choice.ts";
import { CONTEXT, type Question } from "../src/ranking/question.ts";
import { rank } from "../src/ranking/rank.ts";
import type { Ranking } from "../src/ranking/types.ts";
import { wxSignature } from "../src/wechat/door/crypto.ts";
import { courtesyOrPraise } from "../src/ranking/courtesy.ts";
import { read, READING, type Reading } from "../src/wechat/answering/reading.ts";
import { nextTurn, offer } from "../src/wechat/answering/reading-turn.ts";
import { MemorySource } from "./eval/memory-source.ts";
import { clientFor, startReplyd, TOKEN, waitHealthy } from "./servers.ts";

const ROOT = resolve(import.meta.dir, "eval");
/** Followers' questions written blind to the articles (issue 34 D), when the tree has them. */
const STANDALONE = join(ROOT, "faq", "questions.jsonl");
/**
 * The pair sets on accounts of their own, each `--<flag>`: the fresh accounts (written after every
 * setting was chosen, never tuned on), a second and a third fresh set (Session 49: written before any
 * change of that session; the third's misses never read), the walkthroughs' (Session 48: a
 * walkthrough's figure, its misses read).
 */
const HELD_OUT: Record<string, { accounts: string; pairs: string; title: string }> = {
  fresh: { accounts: "faq-fresh", pairs: "followups-fresh", title: "the fresh accounts, never tuned on" },
  fresh2: { accounts: "faq-fresh2", pairs: "followups-fresh2", title: "the second fresh accounts" },
  fresh3: { accounts: "faq-fresh3", pairs: "followups-fresh3", title: "the third fresh accounts" },
  fresh4: { accounts: "faq-fresh4", pairs: "followups-fresh4", title: "the fourth fresh accounts, pairs written blind to the articles" },
  fresh5: { accounts: "faq-fresh5", pairs: "followups-fresh5", title: "the fifth fresh accounts, pairs written blind to the articles" },
  fresh6: { accounts: "faq-fresh6", pairs: "followups-fresh6", title: "the sixth fresh accounts, pairs written blind to the articles" },
  fresh7: { accounts: "faq-fresh7", pairs: "followups-fresh7", title: "the seventh fresh accounts, pairs written blind to the articles" },
  fresh8: { accounts: "faq-fresh8", pairs: "followups-fresh8", title: "the eighth fresh accounts, pairs written blind to the articles" },
  fresh9: { accounts: "faq-fresh9", pairs: "followups-fresh9", title: "the ninth fresh accounts, pairs written blind to the articles" },
  fresh10: { accounts: "faq-fresh10", pairs: "followups-fresh10", title: "the tenth fresh accounts, pairs written blind to the articles" },
  fresh11: { accounts: "faq-fresh11", pairs: "followups-fresh11", title: "the eleventh fresh accounts, pairs written blind to the articles" },
  fresh12: { accounts: "faq-fresh12", pairs: "followups-fresh12", title: "the twelfth fresh accounts, pairs written blind to the articles" },
  fresh13: { accounts: "faq-fresh13", pairs: "followups-fresh13", title: "the thirteenth fresh accounts, pairs written blind to the articles" },
  walk: { accounts: "faq-walk", pairs: "followups-walk", title: "the walkthroughs' accounts" },
};
/** A second set on our accounts, written in the fresh set's manner (half without a cue word, moves in the follower's words). */
const SECOND_PAIRS = "followups-b";

export interface Pair {
  id: string;
  account: string;
  kind: "stay" | "move" | "change" | "offtopic" | "another" | "second";
  first: string;
  first_article: string | null;
  followup: string;
  followup_article: string | null;
}

export interface Account {
  id: string;
  language: string;
  articles: { id: string; title: string; keywords: string[]; body: string }[];
}

/** `folder`: faq (the accounts the follow-up set was written on and tuned with) or faq-fresh (never tuned on). */
export function loadAccounts(folder = "faq"): Map<string, Account> {
  const dir = join(ROOT, folder, "accounts");
  const out = new Map<string, Account>();
  for (const f of readdirSync(dir).filter((f) => f.endsWith(".json"))) {
    const a = JSON.parse(readFileSync(join(dir, f), "utf8")) as Account;
    out.set(a.id, a);
  }
  return out;
}

/** `folder`: followups, followups-b, or a set of HELD_OUT's (pairs on accounts of their own). */
export function loadPairs(folder = "followups"): Pair[] {
  const dir = join(ROOT, folder);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .flatMap((f) =>
      readFileSync(join(dir, f), "utf8")
        .split("\n")
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as Pair),
    );
}

/** The half of the accounts the weights are chosen on: every other account, in name order, per language. */
export function tuningHalf(accounts: Iterable<string>): Set<string> {
  const names = [...accounts].sort();
  const out = new Set<string>();
  for (const lang of ["zh", "en"]) names.filter((n) => n.startsWith(`${lang}-`)).forEach((n, i) => i % 2 === 0 && out.add(n));
  return out;
}

/** What a follower is shown for a reading, in order. */
export function shownBy(r: Reading): string[] {
  if (r.how === "pick") return [r.id];
  // Courtesy read alone (thanks, a greeting, praise) gets no article, as the responder answers it
  // (wechat/answering/questions.ts): ranked, "thanks so much, love my pack!" had been counted as sent one.
  if (r.how === "alone" && courtesyOrPraise(r.question.text) !== null) return [];
  const c = offer(r);
  return c.kind === "one" ? [c.article.id] : c.kind === "list" ? c.articles.map((a) => a.id) : [];
}

/** One pair as a follower lives it: the articles the first message was offered, then the follow-up. */
type Replies = { first: string[]; second: string[] };
type Answerer = (p: Pair, conversational: boolean) => Promise<Replies>;

interface Tally {
  n: number;
  /** stay, move, change: right first; another: only new articles; second: the entry picked. */
  a: number;
  /** stay, move, change: right among those offered; another: right within the two replies; second: first replies that were lists. */
  b: number;
}

export interface Row {
  set: string;
  n: number;
  metric: string;
  alone: number;
  conversation: number;
}

/** An "another" pair whose follower says what they meant (followup_article labelled) is tallied as "meant": is that article offered in the reply. */
type Tallied = Pair["kind"] | "meant";
const talliedAs = (p: Pair): Tallied => (p.kind === "another" && p.followup_article ? "meant" : p.kind);

const METRICS: Record<Tallied, [string, string]> = {
  meant: ["the one meant first", "the one meant offered"],
  stay: ["right first", "right offered"],
  move: ["right first", "right offered"],
  change: ["right first", "right offered"],
  offtopic: ["nothing offered", "a single article"],
  another: ["only new articles", "right within two replies"],
  second: ["list entry picked", "first reply a list"],
};

function tallyOf(p: Pair, r: Replies, t: Tally, misses: string[]): void {
  t.n++;
  if (talliedAs(p) === "meant") {
    // The follower said what they meant: whether the reply offers it (it may be the article they were offered first, whose body answers what they meant).
    if (r.second[0] === p.followup_article) t.a++;
    else misses.push(`${p.id} meant ${p.first} [${r.first.join(",") || "nothing"}] → ${p.followup}: ${r.second.join(",") || "nothing"} (want ${p.followup_article})`);
    if (r.second.includes(p.followup_article as string)) t.b++;
  } else if (p.kind === "another") {
    if (r.second.length && r.second.every((id) => !r.first.includes(id))) t.a++;
    if ([...r.first, ...r.second].includes(p.first_article as string)) t.b++;
  } else if (p.kind === "offtopic") {
    if (!r.second.length) t.a++;
    else misses.push(`${p.id} offtopic ${p.first} → ${p.followup}: ${r.second.join(",")} (want nothing)`);
    if (r.second.length === 1) t.b++;
  } else if (p.kind === "second") {
    if (r.first.length > 1) {
      t.b++;
      if (r.second.length === 1 && r.second[0] === r.first[1]) t.a++;
    }
  } else {
    if (r.second[0] === p.followup_article) t.a++;
    else misses.push(`${p.id} ${p.kind} ${p.first} [${r.first.join(",") || "nothing"}] → ${p.followup}: ${r.second.join(",") || "nothing"} (want ${p.followup_article})`);
    if (r.second.includes(p.followup_article as string)) t.b++;
  }
}

export async function evaluate(pairs: readonly Pair[], answer: Answerer) {
  const alone: Record<string, Tally> = {};
  const together: Record<string, Tally> = {};
  const misses: string[] = [];
  for (const p of pairs) {
    const k = `${p.account.slice(0, 2)}.${talliedAs(p)}`;
    tallyOf(p, await answer(p, false), (alone[k] ??= { n: 0, a: 0, b: 0 }), []);
    tallyOf(p, await answer(p, true), (together[k] ??= { n: 0, a: 0, b: 0 }), misses);
  }
  const rows: Row[] = [];
  const f3 = (x: number, n: number) => +(x / Math.max(n, 1)).toFixed(3);
  for (const k of Object.keys(together).sort()) {
    const [x, y] = [alone[k] as Tally, together[k] as Tally];
    const kind = k.slice(3) as Tallied;
    rows.push({ set: k, n: y.n, metric: METRICS[kind][0], alone: f3(x.a, x.n), conversation: f3(y.a, y.n) });
    rows.push({ set: k, n: y.n, metric: METRICS[kind][1], alone: f3(x.b, x.n), conversation: f3(y.b, y.n) });
  }
  for (const lang of ["zh", "en", "all"]) {
    const keys = Object.keys(together).filter((k) => (lang === "all" || k.startsWith(lang)) && /stay|move/.test(k));
    const sum = (t: Record<string, Tally>) => keys.reduce((s, k) => ({ n: s.n + (t[k] as Tally).n, a: s.a + (t[k] as Tally).a }), { n: 0, a: 0 });
    const [x, y] = [sum(alone), sum(together)];
    rows.push({ set: `${lang}.stay+move`, n: y.n, metric: "right first", alone: f3(x.a, x.n), conversation: f3(y.a, y.n) });
  }
  return { rows, misses };
}

/** In memory: the real ranking and reading over each account's articles, the choice as the callback makes it (without its word search). */
export function inMemory(accounts: Map<string, Account>): Answerer {
  const sources = new Map<string, MemorySource>();
  const source = (id: string) => {
    let s = sources.get(id);
    if (!s) {
      const a = accounts.get(id);
      if (!a) throw new Error(`no account ${id} in bench/eval/faq/accounts/`);
      s = new MemorySource(a.articles.map((x) => ({ id: x.id, title: x.title, keywords: x.keywords.join("\u001f"), body: x.body })));
      sources.set(id, s);
    }
    return s;
  };
  return async (p, conversational) => {
    const ranker = async (q: Question): Promise<Ranking> => rank(q, source(p.account));
    const r1 = await read(p.first, [], ranker);
    const first = shownBy(r1);
    const turns = conversational ? [nextTurn(r1, [], "m1", 0, first)] : [];
    return { first, second: shownBy(await read(p.followup, turns, ranker)) };
  };
}

const cdata = (xml: string, tag: string) => [...xml.matchAll(new RegExp(`<${tag}><!\\[CDATA\\[([\\s\\S]*?)\\]\\]></${tag}>`, "g"))].map((m) => m[1] as string);
const LINK = "https://example.com/a/";

/** The articles a reply offers, in order, by the links it carries. */
function offeredIn(xml: string): string[] {
  const links = xml.includes("<MsgType><![CDATA[news]]>") ? cdata(xml, "Url") : [...(cdata(xml, "Content")[0] ?? "").matchAll(/https:\/\/example\.com\/a\/[a-z0-9_-]+/g)].map((m) => m[0]);
  return links.filter((u) => u.startsWith(LINK)).map((u) => u.slice(LINK.length));
}

/** Through dist/replyd: one server per account, each pair's messages sent by a follower of its own (alone: the follow-up by a follower who asked nothing before). */
export async function throughBinary(pairs: readonly Pair[], accounts: Map<string, Account>, log: (line: string) => void = () => {}) {
  const servers = new Map<string, { url: string; stop(): Promise<void> }>();
  let n = 0;
  /** The follow-ups' reply times, alone and in conversation (client-side, loopback, one at a time). */
  const ms = { alone: [] as number[], conversation: [] as number[] };
  const say = async (url: string, follower: string, content: string) => {
    const ts = String(Math.floor(Date.now() / 1000));
    const nonce = `f${process.pid}x${++n}`;
    const body = `<xml><ToUserName><![CDATA[gh_bench]]></ToUserName><FromUserName><![CDATA[${follower}]]></FromUserName><CreateTime>${ts}</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[${content}]]></Content><MsgId>${Date.now()}${n}</MsgId></xml>`;
    const res = await fetch(`${url}/wechat?signature=${wxSignature(TOKEN, ts, nonce)}&timestamp=${ts}&nonce=${nonce}&openid=${follower}`, { method: "POST", body });
    return offeredIn(await res.text());
  };
  const server = async (id: string) => {
    const known = servers.get(id);
    if (known) return known.url;
    const a = accounts.get(id);
    if (!a) throw new Error(`no account ${id} in bench/eval/faq/accounts/`);
    const dir = mkdtempSync(join(tmpdir(), "replyd-followups-"));
    const s = startReplyd(dir);
    await waitHealthy(`${s.url}/healthz`, 60_000);
    const c = clientFor(s.url, dir);
    const doc = { format: "replyd/1", matter: "articles", articles: a.articles.map((x) => ({ id: x.id, title: x.title, keywords: x.keywords, url: `${LINK}${x.id}`, body: x.body })) };
    await c.call({ method: "POST", path: "/api/cli", fields: [["mode", "init"]], files: [{ name: "json", filename: "doc.json", bytes: new TextEncoder().encode(JSON.stringify(doc)) }] });
    for (;;) {
      const h = await c.call<{ search_index: string }>({ method: "GET", path: "/api/cli" });
      if (h.search_index === "ready") break;
      await Bun.sleep(20);
    }
    log(`  ${id}: ${a.articles.length} articles imported`);
    servers.set(id, {
      url: s.url,
      stop: async () => {
        s.p.kill("SIGTERM");
        await s.p.exited;
        rmSync(dir, { recursive: true, force: true });
      },
    });
    return s.url;
  };
  let follower = 0;
  const answer: Answerer = async (p, conversational) => {
    const url = await server(p.account);
    const who = `o_followups_${++follower}`;
    const first = await say(url, who, p.first);
    // Alone: the follow-up from a follower who asked nothing before it.
    const t0 = performance.now();
    const second = await say(url, conversational ? who : `${who}_alone`, p.followup);
    ms[conversational ? "conversation" : "alone"].push(performance.now() - t0);
    return { first, second };
  };
  try {
    const result = await evaluate(pairs, answer);
    const pct = (xs: number[], q: number) => +([...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * q) / 100))] ?? 0).toFixed(2);
    return { ...result, replyMs: { alone: { p50: pct(ms.alone, 50), p99: pct(ms.alone, 99) }, conversation: { p50: pct(ms.conversation, 50), p99: pct(ms.conversation, 99) } } };
  } finally {
    for (const s of servers.values()) await s.stop();
  }
}

/** A follower's message of bench/eval/faq/questions.jsonl (written blind to the articles, issue 34 D). */
interface Standalone {
  account: string;
  question: string;
  answer_ids: string[];
  kind: "answerable" | "unanswerable" | "chat";
}

/**
 * Questions that stand on their own, each asked right after the one before it in the file (the
 * same account): answered as well in conversation as alone? Answerable: the right article first, a
 * single wrong one; the others: nothing offered, a single article.
 */
const readQuestions = (path: string) =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Standalone);

/** Questions of their own, each asked right after the one before it in the file (same account). */
export async function standalone(path: string, answer: Answerer): Promise<Row[]> {
  const qs = readQuestions(path);
  const asked: [string, Standalone][] = [];
  for (let i = 1; i < qs.length; i++) if ((qs[i - 1] as Standalone).account === (qs[i] as Standalone).account) asked.push([(qs[i - 1] as Standalone).question, qs[i] as Standalone]);
  return askedAfter(asked, answer);
}

/**
 * Questions of their own, each asked after every first question of the follow-up pairs on its
 * account: a rule that reads more messages with the one before is tried on every question a
 * follower might ask next, not only the one the file happens to put there (the review of Session 24
 * found a rule that the adjacent lines hardly exercised drag a tenth of them back).
 */
export async function crossed(path: string, pairs: readonly Pair[], answer: Answerer): Promise<Row[]> {
  const firsts = new Map<string, Set<string>>();
  for (const p of pairs) (firsts.get(p.account) ?? firsts.set(p.account, new Set()).get(p.account)!).add(p.first);
  const asked: [string, Standalone][] = [];
  for (const q of readQuestions(path)) for (const before of firsts.get(q.account) ?? []) asked.push([before, q]);
  return askedAfter(asked, answer);
}

async function askedAfter(asked: readonly [string, Standalone][], answer: Answerer): Promise<Row[]> {
  const t: Record<string, { n: number; alone: [number, number]; together: [number, number] }> = {};
  for (const [i, [before, q]] of asked.entries()) {
    const p: Pair = { id: `q${i}`, account: q.account, kind: "change", first: before, first_article: null, followup: q.question, followup_article: null };
    const k = `${q.account.slice(0, 2)}.${q.kind === "answerable" ? "answerable" : "unanswerable"}`;
    const row = (t[k] ??= { n: 0, alone: [0, 0], together: [0, 0] });
    row.n++;
    for (const [mode, got] of [["alone", await answer(p, false)], ["together", await answer(p, true)]] as const) {
      const shown = got.second;
      const x = row[mode];
      if (q.kind === "answerable") {
        if (q.answer_ids.includes(shown[0] as string)) x[0]++;
        if (shown.length === 1 && !q.answer_ids.includes(shown[0] as string)) x[1]++;
      } else {
        if (!shown.length) x[0]++;
        if (shown.length === 1) x[1]++;
      }
    }
  }
  const rows: Row[] = [];
  const f3 = (x: number, n: number) => +(x / Math.max(n, 1)).toFixed(3);
  for (const k of Object.keys(t).sort()) {
    const r = t[k] as (typeof t)[string];
    const [m0, m1] = k.endsWith(".answerable") ? ["right first", "a single wrong article"] : ["nothing offered", "a single article"];
    rows.push({ set: k, n: r.n, metric: m0, alone: f3(r.alone[0], r.n), conversation: f3(r.together[0], r.n) });
    rows.push({ set: k, n: r.n, metric: m1, alone: f3(r.alone[1], r.n), conversation: f3(r.together[1], r.n) });
  }
  return rows;
}

export function printRows(title: string, rows: readonly Row[], out: (line: string) => void): void {
  out(title);
  for (const r of rows) out(`  ${r.set.padEnd(14)} ${String(r.n).padStart(4)}  ${r.metric.padEnd(26)} alone ${r.alone.toFixed(3)}  in conversation ${r.conversation.toFixed(3)}`);
}

/** ./scripts/bench --only followups: in memory, then through the binary, on every pair. */
export async function followupsBench(report: (line: string) => void) {
  const accounts = loadAccounts();
  const pairs = loadPairs();
  const memory = await evaluate(pairs, inMemory(accounts));
  printRows(`  in memory (${pairs.length} pairs, ${accounts.size} accounts):`, memory.rows, report);
  const binary = await throughBinary(pairs, accounts);
  printRows("  through dist/replyd:", binary.rows, report);
  const t = binary.replyMs;
  report(`  the follow-up's reply: alone p50 ${t.alone.p50} ms, p99 ${t.alone.p99} ms; in conversation p50 ${t.conversation.p50} ms, p99 ${t.conversation.p99} ms`);
  // Issue 34 D's questions, when the tree has them: questions of their own are answered no worse after another.
  const own = existsSync(STANDALONE) ? await standalone(STANDALONE, inMemory(accounts)) : [];
  if (own.length) printRows("  questions of their own, each right after the one before (bench/eval/faq/questions.jsonl, in memory):", own, report);
  // The pair sets on accounts of their own, when the tree has them.
  const heldOut: Record<string, Row[]> = {};
  for (const [name, set] of Object.entries(HELD_OUT)) {
    const pairs = loadPairs(set.pairs);
    if (!pairs.length) continue;
    heldOut[name] = (await throughBinary(pairs, loadAccounts(set.accounts))).rows;
    printRows(`  ${set.title} (bench/eval/${set.pairs}, ${pairs.length} pairs), through dist/replyd:`, heldOut[name], report);
  }
  return { memory: memory.rows, binary: binary.rows, reply_ms: t, standalone: own, ...heldOut };
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const half = args.includes("--half") ? args[args.indexOf("--half") + 1] : "all";
  for (let i = 0; i < args.length; i++) {
    if (args[i] !== "--set") continue;
    const [k, v] = (args[i + 1] as string).split("=") as [string, string];
    if (k === "weight") CONTEXT.weight = Number(v);
    else if (k === "frame") CONTEXT.frame = Number(v);
    else if (k in READING) (READING as Record<string, number>)[k] = Number(v);
    else if (k === "lead") ANSWERS.lead = Number(v);
    else throw new Error(`unknown setting ${k}`);
  }
  // --fresh … --fresh13 (accounts nobody tuned to), --walk (the walkthroughs'): every pair, --half does not apply.
  const flag = Object.keys(HELD_OUT).find((name) => args.includes(`--${name}`));
  const heldOut = flag ? (HELD_OUT[flag] as (typeof HELD_OUT)[string]) : null;
  const accounts = loadAccounts(heldOut?.accounts ?? "faq");
  const tuning = tuningHalf(accounts.keys());
  // --second: the second set written on our accounts (Session 41), in the fresh set's manner.
  const pairs = loadPairs(heldOut?.pairs ?? (args.includes("--second") ? SECOND_PAIRS : "followups")).filter((p) => heldOut || half === "all" || (half === "tune") === tuning.has(p.account));
  const out = (line: string) => process.stdout.write(line + "\n");
  // The followers' questions of their own written for these accounts.
  const ownQuestions = heldOut ? join(ROOT, heldOut.accounts, "questions.jsonl") : STANDALONE;
  if (args.includes("--cross")) {
    printRows(`questions of their own, each asked after every first question of the follow-up pairs (${ownQuestions}):`, await crossed(ownQuestions, pairs, inMemory(accounts)), out);
    process.exit(0);
  }
  if (args.includes("--standalone")) {
    // The path is optional, anywhere after --standalone: the first argument that is neither a flag nor a flag's value.
    const given = args.slice(args.indexOf("--standalone") + 1).find((a, i, rest) => !a.startsWith("--") && !["--set", "--half"].includes(rest[i - 1] ?? ""));
    const path = given ?? ownQuestions;
    printRows(`questions of their own, each right after the one before (${path}):`, await standalone(path, inMemory(accounts)), out);
    process.exit(0);
  }
  const result = args.includes("--binary") ? await throughBinary(pairs, accounts, out) : await evaluate(pairs, inMemory(accounts));
  const replyMs = "replyMs" in result ? (result.replyMs as Awaited<ReturnType<typeof throughBinary>>["replyMs"]) : null;
  if (args.includes("--json")) out(JSON.stringify({ half, weight: CONTEXT.weight, binary: args.includes("--binary"), rows: result.rows, reply_ms: replyMs }));
  else {
    printRows(`${args.includes("--binary") ? "through dist/replyd" : "in memory"}, ${half} (${pairs.length} pairs):`, result.rows, out);
    if (replyMs) out(`the follow-up's reply: alone p50 ${replyMs.alone.p50} ms, p99 ${replyMs.alone.p99} ms; in conversation p50 ${replyMs.conversation.p50} ms, p99 ${replyMs.conversation.p99} ms`);
  }
  if (args.includes("--misses")) out(result.misses.join("\n"));
}
