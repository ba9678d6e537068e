/**
 * Answers measured through the binary (issues 29 D, 34 G): each account of an evaluation set
 * (bench/eval/sets.ts) imported as articles with their bodies into a server of its own, each
 * question sent as a follower's text through the real callback, the reply read as the follower gets
 * it.
 *
 *   bun bench/answers.ts [--sets dev,trial,dureader,nq,en,faq-zh,faq-en,fresh-zh,fresh-en,fresh2-zh,fresh2-en,fresh3-zh,fresh3-en,fresh4-zh,fresh4-en,fresh5-zh,fresh5-en,fresh6-zh,fresh6-en,fresh7-zh,fresh7-en,fresh8-zh,fresh8-en,fresh9-zh,fresh9-en,fresh10-zh,fresh10-en,fresh11-zh,fresh11-en,fresh12-zh,fresh12-en,fresh13-zh,fresh13-en,walk-zh,walk-en] [--scale 10000,30000,100000,1000000]
 *   ./scripts/bench --only answers
 *
 * Per set, on its tuning half, its held-out half and all of it (bench/answers-tune.ts figures()):
 * the right article first (the news reply's article, or a list's first entry), among those offered,
 * an article offered alone and wrong, nothing offered, the questions no article answers refused,
 * the passage shown holding the answer text (CMRC), the plain BM25's first and among three on the
 * same articles, and the reply time p50/p99 (one question at a time, client-side, loopback). Per
 * --scale (passages): articles of about 2 KB of body made from the contexts' sentences, the time
 * from the import's answer to the passage index being ready and the server's CPU time over it, the
 * database's size, and the reply time for the dev questions against them.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { wxSignature } from "../src/wechat/door/crypto.ts";
import { figures, type Answered, type Figures } from "./answers-tune.ts";
import { PlainBm25 } from "./eval/bm25.ts";
import { loadSet, type Account } from "./eval/sets.ts";
import { clientFor, procCpuMs, startReplyd, TOKEN, waitHealthy, type StoreArgs } from "./servers.ts";

const URL_BASE = "https://example.com/a/";

export interface QualityRow extends Figures {
  set: string;
  half: "tune" | "held" | "all";
  articles: number;
  reply_p50_ms: number;
  reply_p99_ms: number;
}

export interface ScaleRow {
  passages: number;
  articles: number;
  body_mb: number;
  import_ms: number;
  index_ready_ms: number;
  /** The server's CPU time over those, user and system, all its threads: what other people's load on a shared machine moves less. */
  index_cpu_ms: number;
  db_mb: number;
  reply_p50_ms: number;
  reply_p99_ms: number;
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return +(s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] ?? 0).toFixed(2);
};

const cdata = (xml: string, tag: string) => [...xml.matchAll(new RegExp(`<${tag}><!\\[CDATA\\[([\\s\\S]*?)\\]\\]></${tag}>`, "g"))].map((m) => m[1] as string);

let nonce = 0;
/** One follower's text through the callback, as the platform sends it; the reply's XML and the time it took. */
async function ask(url: string, question: string, follower: string): Promise<{ xml: string; ms: number }> {
  const ts = String(Math.floor(Date.now() / 1000));
  const n = `q${process.pid}x${++nonce}`;
  const body = `<xml><ToUserName><![CDATA[gh_bench]]></ToUserName><FromUserName><![CDATA[${follower}]]></FromUserName><CreateTime>${ts}</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[${question}]]></Content><MsgId>${Date.now()}${nonce}</MsgId></xml>`;
  const t0 = performance.now();
  const res = await fetch(`${url}/wechat?signature=${wxSignature(TOKEN, ts, n)}&timestamp=${ts}&nonce=${n}&openid=${follower}`, { method: "POST", body });
  const xml = await res.text();
  return { xml, ms: performance.now() - t0 };
}

/** The articles a reply offers, in order (their indexes in the set), and the passage shown for each. */
function offered(xml: string): { index: number; shown: string }[] {
  if (xml.includes("<MsgType><![CDATA[news]]>")) {
    const urls = cdata(xml, "Url");
    const descriptions = cdata(xml, "Description");
    return urls.map((u, i) => ({ index: u.startsWith(URL_BASE) ? Number(u.slice(URL_BASE.length)) : -1, shown: descriptions[i] ?? "" }));
  }
  const content = cdata(xml, "Content")[0] ?? "";
  const out: { index: number; shown: string }[] = [];
  for (const entry of content.split(/\n\n(?=\d+\. )/)) {
    const m = new RegExp(`${URL_BASE.replace(/[./]/g, "\\$&")}(\\d+)`).exec(entry);
    if (m) out.push({ index: Number(m[1]), shown: entry });
  }
  return out;
}

/** A server holding `doc` with its index ready, for `fn`; stopped and its folder removed after. */
async function withServer<T>(store: StoreArgs, doc: object, fn: (s: Awaited<ReturnType<typeof serverWith>>, dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "replyd-answers-"));
  const started = await serverWith(dir, store, doc);
  try {
    return await fn(started, dir);
  } finally {
    started.s.p.kill("SIGTERM");
    await started.s.p.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

async function serverWith(dir: string, store: StoreArgs, doc: object) {
  const s = startReplyd(dir, ["--max-upload", "4G"], store);
  await waitHealthy(`${s.url}/healthz`, 180_000);
  const c = clientFor(s.url, dir);
  const bytes = new TextEncoder().encode(JSON.stringify(doc));
  const t0 = performance.now();
  await c.call({ method: "POST", path: "/api/cli", fields: [["mode", "init"]], files: [{ name: "json", filename: "doc.json", bytes }] });
  const importMs = performance.now() - t0;
  const cpu0 = procCpuMs(s.p.pid);
  for (;;) {
    const h = await c.call<{ search_index: string }>({ method: "GET", path: "/api/cli" });
    if (h.search_index === "ready") break;
    await Bun.sleep(50);
  }
  return { s, c, importMs, readyMs: performance.now() - t0 - importMs, readyCpuMs: procCpuMs(s.p.pid) - cpu0, bodyBytes: bytes.length };
}

const docOf = (acc: Account) => ({
  format: "replyd/1",
  matter: "articles",
  articles: acc.articles.map((a, i) => ({ id: `e${i}`, title: a.title, url: `${URL_BASE}${i}`, keywords: a.keywords.split("\u001f").filter(Boolean), body: a.body })),
});

export async function quality(name: string, store: StoreArgs = { kind: "sqlite" }): Promise<QualityRow[]> {
  const set = loadSet(name);
  const answered: Answered[] = [];
  const ms: number[] = [];
  let articles = 0;
  for (const acc of set.accounts) {
    if (!acc.questions.length) continue;
    articles += acc.articles.length;
    const bm25 = new PlainBm25(acc.articles, set.language);
    await withServer(store, docOf(acc), async ({ s }) => {
      for (const [i, question] of acc.questions.entries()) {
        const r = await ask(s.url, question.q, `follower${i % 500}`);
        ms.push(r.ms);
        const got = offered(r.xml);
        answered.push({ question, offered: got.map((g) => g.index), bm25: bm25.rank(question.q, 3), shown: got[0]?.shown ?? null });
      }
    });
  }
  const row = (half: QualityRow["half"]): QualityRow => ({
    set: name,
    half,
    articles,
    ...figures(half === "all" ? answered : answered.filter((o) => o.question.half === half)),
    reply_p50_ms: pct(ms, 50),
    reply_p99_ms: pct(ms, 99),
  });
  return [row("tune"), row("held"), row("all")];
}

/** Articles of about 2 KB of body each, together `passages` passages, from the contexts' sentences recombined. */
export function syntheticArticles(passages: number): { articles: object[]; count: number } {
  const source = [...(loadSet("dev").accounts[0] as Account).articles, ...(loadSet("trial").accounts[0] as Account).articles];
  const sentences = source.flatMap((a) => a.body.split(/(?<=[。！？])/).filter((s) => s.trim()));
  let seed = 12345;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const articles: object[] = [];
  let made = 0;
  while (made < passages) {
    let body = "";
    // ≈ 2 KB of UTF-8: about 680 Han characters, cut into two or three passages of ≤ 300.
    while (Buffer.byteLength(body) < 2048) body += sentences[Math.floor(rnd() * sentences.length)];
    const title = (source[Math.floor(rnd() * source.length)] as { title: string }).title;
    articles.push({ id: `s${articles.length}`, title: `${title} ${articles.length}`, url: `${URL_BASE}${articles.length}`, body });
    made += Math.ceil(body.length / 300);
  }
  return { articles, count: articles.length };
}

export async function scale(passages: number, store: StoreArgs = { kind: "sqlite" }): Promise<ScaleRow> {
  const { articles } = syntheticArticles(passages);
  return withServer(store, { format: "replyd/1", matter: "articles", articles }, async ({ s, importMs, readyMs, readyCpuMs, bodyBytes }, dir) => {
    const questions = (loadSet("dev").accounts[0] as Account).questions.slice(0, 1000);
    const ms: number[] = [];
    for (const [i, qa] of questions.entries()) ms.push((await ask(s.url, qa.q, `follower${i % 500}`)).ms);
    let db = 0;
    for (const f of ["replyd.db", "replyd.db-wal"]) {
      try {
        db += statSync(join(dir, "data", f)).size;
      } catch {}
    }
    return {
      passages,
      articles: articles.length,
      body_mb: +(bodyBytes / 2 ** 20).toFixed(1),
      import_ms: Math.round(importMs),
      index_ready_ms: Math.round(readyMs),
      index_cpu_ms: readyCpuMs,
      db_mb: +(db / 2 ** 20).toFixed(1),
      reply_p50_ms: pct(ms, 50),
      reply_p99_ms: pct(ms, 99),
    };
  });
}

export async function answersBench(sets: string[], scales: number[], report: (line: string) => void) {
  const out: { quality: QualityRow[]; scale: ScaleRow[] } = { quality: [], scale: [] };
  for (const name of sets) {
    const rows = await quality(name);
    if (!rows[2]?.questions) {
      report(`  ${name}: no questions yet`);
      continue;
    }
    out.quality.push(...rows);
    for (const r of rows)
      report(
        `  ${name.padEnd(8)} ${r.half.padEnd(4)} ${String(r.questions).padStart(5)} questions, ${r.articles} articles: first ${r.first} (bm25 ${r.bm25First}), offered ${r.offered} (bm25 among three ${r.bm25Three}), single wrong ${r.singleWrong}, nothing ${r.nothing}` +
          `${r.refused === null ? "" : `, unanswerable refused ${r.refused}`}${r.shown === null ? "" : `, shown holds the answer ${r.shown}`}; reply p50 ${r.reply_p50_ms} ms, p99 ${r.reply_p99_ms} ms`,
      );
  }
  for (const n of scales) {
    const row = await scale(n);
    out.scale.push(row);
    report(`  ${String(row.passages).padStart(8)} passages (${row.articles} articles, ${row.body_mb} MB of body): import ${row.import_ms} ms, index ready ${row.index_ready_ms} ms later (the server's CPU ${row.index_cpu_ms} ms), database ${row.db_mb} MB; reply p50 ${row.reply_p50_ms} ms, p99 ${row.reply_p99_ms} ms`);
  }
  return out;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const opt = (name: string, fallback: string) => (args.includes(name) ? (args[args.indexOf(name) + 1] as string) : fallback);
  const sets = opt("--sets", "dev,trial,dureader,nq,en,faq-zh,faq-en,fresh-zh,fresh-en,fresh2-zh,fresh2-en,fresh3-zh,fresh3-en,fresh4-zh,fresh4-en,fresh5-zh,fresh5-en,fresh6-zh,fresh6-en,fresh7-zh,fresh7-en,fresh8-zh,fresh8-en,fresh9-zh,fresh9-en,fresh10-zh,fresh10-en,fresh11-zh,fresh11-en,fresh12-zh,fresh12-en,fresh13-zh,fresh13-en,walk-zh,walk-en").split(",").filter(Boolean);
  const scales = opt("--scale", "10000,30000,100000").split(",").filter(Boolean).map(Number);
  const result = await answersBench(sets, scales, (line) => process.stdout.write(line + "\n"));
  process.stdout.write(JSON.stringify(result) + "\n");
}
