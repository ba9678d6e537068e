/**
 * `replyd report` over a big message log (issue 35 C, docs/performance.md): N follower messages
 * (1,000,000 when not given) spread over the 92 days a report may cover, written straight into a
 * data folder's replyd.db and into a PostgreSQL database by one INSERT … SELECT over a generated
 * series each (the writer's path would take far longer to fill them), with the quarter hours'
 * counts the log writer keeps summed from them, a model call for every twentieth message and 2,000
 * failed sends. Then dist/replyd serves each store and its client asks `replyd report --json` for
 * 92 days and for 7: the wall time of the whole command (signing, the server's queries, grouping
 * the unanswered questions, the JSON), the median of five after one to warm up.
 *
 *   bun bench/report.ts [n] [--stores sqlite,postgres]
 */
import { Database } from "bun:sqlite";
import { SQL } from "bun";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fixedClock } from "../src/base/clock.ts";
import { openBackend } from "../src/store/open.ts";
import { startPostgres } from "../test/pg.ts";

const args = process.argv.slice(2);
const N = Number(args.find((a) => /^\d+$/.test(a)) ?? 1_000_000);
const STORES = (args[args.indexOf("--stores") + 1] && args.includes("--stores") ? (args[args.indexOf("--stores") + 1] as string) : "sqlite,postgres").split(",");
const BIN = resolve(import.meta.dir, "..", "dist", "replyd");
const ADMIN = { appkey: "bench", secret: "bench-secret-0123456789abcdef" };
const DAYS = 92;
const NOW = Date.now();
const START_S = Math.floor((NOW - DAYS * 86_400_000) / 1000) + 60;
/** Seconds between two generated messages. */
const STEP_S = ((DAYS * 86_400 - 120) / N).toFixed(6);

/**
 * Each message from `i` (0 … N-1), in SQL both stores take: the answer by i % 100 in about the
 * shares an account sees (30 ranked articles alone, 15 lists, 15 fallbacks …), the texts of the
 * unanswered from 300 questions in three wordings, two English and one Chinese, a reply time in ms, a margin
 * (one article alone in seven a close call), one message in fifty asking again after the one before.
 */
const ANSWER = `CASE WHEN i % 100 < 30 THEN 'answer:a' || (i % 40)
  WHEN i % 100 < 45 THEN 'answers:a' || (i % 40) || ',a' || ((i + 1) % 40)
  WHEN i % 100 < 55 THEN 'rule:r' || (i % 5) WHEN i % 100 < 60 THEN 'code' WHEN i % 100 < 63 THEN 'tag' WHEN i % 100 < 65 THEN 'help'
  WHEN i % 100 < 70 THEN 'search' WHEN i % 100 < 75 THEN 'ai:a' || (i % 40)
  WHEN i % 100 < 90 THEN 'fallback:a' || (i % 40) || ',a' || ((i + 7) % 40) WHEN i % 100 < 93 THEN 'not_found'
  WHEN i % 100 < 96 THEN 'welcome' WHEN i % 100 < 98 THEN 'fallback' WHEN i % 100 < 99 THEN 'none' ELSE 'reply' END`;
// 300 questions: a verb of ten and a noun of thirty, each fixed-width in a string (substr counts characters on both stores).
const NOUNS = "refund    invoice   delivery  coupon    warranty  password  membershipaddress   payment   discount  parcel    receipt   exchange  battery   charger   size      colour    voucher   account   order     shipping  return    repair    gift      card      points    bill      tax       store     app       ";
const VERBS = "change    cancel    get       use       check     find      update    track     renew     print     ";
const NOUNS_ZH = "退款发票快递优惠保修密码会员地址付款折扣包裹收据换货电池充电尺码颜色礼券账号订单运费退货维修礼品卡片积分账单税费门店应用";
const VERBS_ZH = "修改取消领取使用查询找回更新跟踪续费打印";
const NOUN = `trim(substr('${NOUNS}', ((i / 100) % 30) * 10 + 1, 10))`;
const VERB = `trim(substr('${VERBS}', ((i / 3000) % 10) * 10 + 1, 10))`;
const CONTENT = `CASE WHEN i % 100 >= 93 AND i % 100 < 99 THEN NULL
  WHEN i % 100 < 75 THEN 'how long does delivery to region ' || (i % 97) || ' take'
  WHEN (i / 7) % 3 = 0 THEN 'how do I ' || ${VERB} || ' my ' || ${NOUN}
  WHEN (i / 7) % 3 = 1 THEN 'Can I ' || ${VERB} || ' the ' || ${NOUN} || ' please?'
  ELSE '怎么' || substr('${VERBS_ZH}', ((i / 3000) % 10) * 2 + 1, 2) || substr('${NOUNS_ZH}', ((i / 100) % 30) * 2 + 1, 2) END`;
const TYPE = `CASE WHEN i % 100 >= 93 AND i % 100 < 96 THEN 'event' WHEN i % 100 >= 96 AND i % 100 < 98 THEN 'image' WHEN i % 100 = 98 THEN 'event' ELSE 'text' END`;
const UNMATCHED = "(i % 100 >= 75 AND i % 100 < 93)";
const MARGIN = "CASE WHEN i % 100 < 30 THEN CASE WHEN i % 7 = 0 THEN 0.6 + (i % 30) / 100.0 ELSE 0.2 END END";
const AGAIN = "CASE WHEN i % 50 = 1 THEN i END";
// Already a bucket (store/log-kinds.ts replyBucket): 10 ms steps below a second.
const REPLY_MS = "CASE WHEN i % 100 < 99 THEN 10 * (5 + ((i % 95) * 83) % 95) END";
/** The kind a row is counted as, as the migration counts the rows logged before (store/model/db.ts). */
const KIND = (split: (s: string) => string) =>
  `CASE WHEN direction = 'out' THEN 'reply' WHEN split_answer = 'fallback' AND NOT_UNMATCHED THEN 'media' ELSE split_answer END`.replace(/split_answer/g, split("answer"));

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

export async function fillSqlite(dir: string): Promise<void> {
  const backend = await openBackend(dir, { clock: fixedClock(NOW), keep: 5, extraKeys: [], firstKey: false, logError: () => {} });
  await backend.close();
  const db = new Database(join(dir, "replyd.db"));
  db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = OFF");
  const series = `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${N - 1})`;
  const at = `strftime('%Y-%m-%dT%H:%M:%fZ', ${START_S} + i * ${STEP_S}, 'unixepoch')`;
  db.transaction(() => {
    db.exec(`${series} INSERT INTO messages (seq, received_at, msg_key, from_user, type, event, content, answer, unmatched, direction, sent_by, reply_ms, margin, again_of)
      SELECT i + 1, ${at}, 'b:' || i, 'o_' || (i % 50000), ${TYPE}, NULL, ${CONTENT}, ${ANSWER}, ${UNMATCHED},
             CASE WHEN i % 100 = 99 THEN 'out' ELSE 'in' END, CASE WHEN i % 100 = 99 THEN 'admin1' END, ${REPLY_MS}, ${MARGIN}, ${AGAIN} FROM s`);
    const period = `substr(received_at, 1, 14) || CASE WHEN substr(received_at, 15, 2) < '15' THEN '00' WHEN substr(received_at, 15, 2) < '30' THEN '15' WHEN substr(received_at, 15, 2) < '45' THEN '30' ELSE '45' END`;
    const kind = KIND((a) => `substr(${a}, 1, instr(${a} || ':', ':') - 1)`).replace("NOT_UNMATCHED", "unmatched = 0");
    db.exec(`INSERT INTO log_counts (period, kind, n, close, again)
      SELECT ${period}, ${kind}, count(*), coalesce(sum(margin >= 0.55), 0), sum(again_of IS NOT NULL) FROM messages GROUP BY 1, 2`);
    db.exec(`INSERT INTO log_reply_ms (period, ms, n) SELECT ${period}, reply_ms, count(*) FROM messages WHERE reply_ms IS NOT NULL GROUP BY 1, 2`);
    db.exec(`WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 20 FROM s WHERE i < ${N - 20})
      INSERT INTO generated (at, msg_key, openid, question, model, sources, outcome, ms, tokens_prompt, tokens_completion)
      SELECT ${at}, 'b:' || i, 'o_' || (i % 50000), 'q', 'm', '[]', CASE i % 7 WHEN 0 THEN 'failed:timeout' WHEN 1 THEN 'refused:grounding' ELSE 'reply' END, 900, 1200, 150 FROM s`);
    db.exec(`WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < 1999)
      INSERT INTO send_failures (at, openid, sent_by, code, detail) SELECT strftime('%Y-%m-%dT%H:%M:%fZ', ${START_S} + i * 3900, 'unixepoch'), 'o_' || i, CASE WHEN i % 2 = 0 THEN 'ai' ELSE 'admin1' END, CASE i % 3 WHEN 0 THEN '45015' WHEN 1 THEN '45047' ELSE '48001' END, '' FROM s`);
  })();
  db.exec("ANALYZE");
  db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
  db.close();
}

export async function fillPostgres(url: string): Promise<void> {
  const backend = await openBackend(url, { clock: fixedClock(NOW), keep: 5, extraKeys: [], firstKey: false, logError: () => {} });
  await backend.close();
  const sql = new SQL(url);
  const at = `to_char(to_timestamp(${START_S} + i * ${STEP_S}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  await sql.unsafe(`INSERT INTO messages (received_at, msg_key, from_user, type, event, content, answer, unmatched, direction, sent_by, reply_ms, margin, again_of)
    SELECT ${at}, 'b:' || i, 'o_' || (i % 50000), ${TYPE}, NULL, ${CONTENT}, ${ANSWER}, ${UNMATCHED},
           CASE WHEN i % 100 = 99 THEN 'out' ELSE 'in' END, CASE WHEN i % 100 = 99 THEN 'admin1' END, ${REPLY_MS}, ${MARGIN}, ${AGAIN}
    FROM generate_series(0, ${N - 1}) AS i`);
  const period = `substr(received_at, 1, 14) || CASE WHEN substr(received_at, 15, 2) < '15' THEN '00' WHEN substr(received_at, 15, 2) < '30' THEN '15' WHEN substr(received_at, 15, 2) < '45' THEN '30' ELSE '45' END`;
  const kind = KIND((a) => `split_part(${a}, ':', 1)`).replace("NOT_UNMATCHED", "NOT unmatched");
  await sql.unsafe(`INSERT INTO log_counts (period, kind, n, close, again)
    SELECT ${period}, ${kind}, count(*), count(*) FILTER (WHERE margin >= 0.55), count(again_of) FROM messages GROUP BY 1, 2`);
  await sql.unsafe(`INSERT INTO log_reply_ms (period, ms, n) SELECT ${period}, reply_ms, count(*) FROM messages WHERE reply_ms IS NOT NULL GROUP BY 1, 2`);
  await sql.unsafe(`INSERT INTO generated (at, msg_key, openid, question, model, sources, outcome, ms, tokens_prompt, tokens_completion)
    SELECT ${at}, 'b:' || i, 'o_' || (i % 50000), 'q', 'm', '[]', CASE i % 7 WHEN 0 THEN 'failed:timeout' WHEN 1 THEN 'refused:grounding' ELSE 'reply' END, 900, 1200, 150
    FROM generate_series(0, ${N - 1}, 20) AS i`);
  await sql.unsafe(`INSERT INTO send_failures (at, openid, sent_by, code, detail)
    SELECT to_char(to_timestamp(${START_S} + i * 3900) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'o_' || i, CASE WHEN i % 2 = 0 THEN 'ai' ELSE 'admin1' END,
           CASE i % 3 WHEN 0 THEN '45015' WHEN 1 THEN '45047' ELSE '48001' END, '' FROM generate_series(0, 1999) AS i`);
  await sql.unsafe("VACUUM ANALYZE");
  await sql.close();
}

/** dist/replyd serving the store, and its client timed over `replyd report --since … --json`. */
async function measure(store: string[], cwd: string): Promise<Record<string, number>> {
  const p = Bun.spawn([BIN, "serve", ...store, "--host", "127.0.0.1", "--port", "0", "--log-days", "100"], {
    cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", REPLYD_APPKEY: ADMIN.appkey, REPLYD_SECRET: ADMIN.secret, REPLYD_WX_TOKEN: "benchtoken" },
    stdout: "pipe",
    stderr: "pipe",
  });
  try {
    let out = "";
    const reader = (p.stdout as ReadableStream<Uint8Array>).getReader();
    const d = new TextDecoder();
    while (!out.includes('"event":"listening"')) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the server did not start: ${out}`);
      out += d.decode(value, { stream: true });
    }
    void (async () => {
      while (!(await reader.read()).done);
    })();
    const url = (JSON.parse(out.split("\n").find((l) => l.includes('"event":"listening"')) as string) as { url: string }).url;
    const results: Record<string, number> = {};
    for (const since of ["92d", "7d"]) {
      const times: number[] = [];
      let messages = 0;
      for (let run = 0; run < 6; run++) {
        const t0 = performance.now();
        const c = Bun.spawnSync([BIN, "report", "--since", since, "--json", "--tz", "+08:00"], {
          cwd,
          env: { PATH: process.env.PATH ?? "/usr/bin:/bin", REPLYD_URL: url, REPLYD_APPKEY: ADMIN.appkey, REPLYD_SECRET: ADMIN.secret },
          stdout: "pipe",
          stderr: "pipe",
        });
        const ms = performance.now() - t0;
        if (c.exitCode !== 0) throw new Error(`replyd report failed: ${c.stderr.toString()}`);
        const r = JSON.parse(c.stdout.toString()) as { totals: { messages: number }; unanswered_questions: { groups_total: number; grouped: number } };
        messages = r.totals.messages;
        if (run > 0) times.push(ms);
        if (run === 1) console.log(`  --since ${since}: ${messages.toLocaleString("en-US")} follower messages, ${r.unanswered_questions.grouped} unanswered texts grouped into ${r.unanswered_questions.groups_total} groups`);
      }
      results[since] = median(times);
      console.log(`  --since ${since}: median ${results[since]?.toFixed(0)} ms (${times.map((t) => t.toFixed(0)).join(", ")})`);
    }
    // The client alone (start, sign, a request): what the figures above hold besides the report.
    const t0 = performance.now();
    Bun.spawnSync([BIN, "health", "--json"], { cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", REPLYD_URL: url, REPLYD_APPKEY: ADMIN.appkey, REPLYD_SECRET: ADMIN.secret }, stdout: "pipe" });
    console.log(`  replyd health --json for comparison: ${(performance.now() - t0).toFixed(0)} ms`);
    return results;
  } finally {
    p.kill("SIGTERM");
    await p.exited;
  }
}

if (import.meta.main) {
  console.log(`replyd report over ${N.toLocaleString("en-US")} logged messages in ${DAYS} days`);
  for (const store of STORES) {
    const dir = mkdtempSync(join(tmpdir(), "replyd-benchreport-"));
    try {
      if (store === "sqlite") {
        const data = join(dir, "data");
        mkdirSync(data, { mode: 0o700 });
        const t0 = performance.now();
        await fillSqlite(data);
        console.log(`sqlite: filled in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
        await measure(["--data", data], dir);
      } else if (store === "postgres") {
        const pg = startPostgres({ durable: true });
        try {
          const t0 = performance.now();
          await fillPostgres(pg.url);
          console.log(`postgres: filled in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
          await measure(["--db", pg.url], dir);
        } finally {
          pg.stop();
        }
      } else throw new Error(`unknown store ${store}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  // The stores' openers leave a worker behind that would keep this process waiting.
  process.exit(0);
}
