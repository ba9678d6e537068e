// The floor: the least code that does the work the callback must do, flat in one function, to
// show what that work costs on this runtime apart from how replyd is built. Per message: signature
// and timestamp check, body cap, strict UTF-8, the six fields read by indexOf, the answer
// remembered for retries (replyd's own RetryCache: the cheapest store found), the signature bound to
// its one message (replyd's own SignatureLedger), the code looked up in
// a Map, the news reply rendered, one message-log row handed to a SQLite writer thread (same table
// and indexes as replyd's), one request-log line. Not done: XML validation, error answers beyond
// 401/413, rules, help, tags, search, safe mode, the client address.
//   bun bench/floor.ts PORT TOKEN ARTICLES.json LOGDB
import { readFileSync } from "node:fs";
import { openDatabase } from "../src/store/model/db.ts";
import { SignatureLedger } from "../src/wechat/door/ledger.ts";
import { RetryCache } from "../src/wechat/door/retries.ts";

const [portArg, token = "", articlesFile = "", logDb = ""] = process.argv.slice(2);
const byCode = new Map<string, { title: string; description?: string; url: string }>();
for (const a of JSON.parse(readFileSync(articlesFile, "utf8"))) byCode.set(a.code.toLowerCase(), a);

// replyd's own schema (its migrations), so the rows go into the same table and indexes.
openDatabase(logDb).close();
const WORKER = `
const { Database } = require("bun:sqlite");
const db = new Database(${JSON.stringify(logDb)});
db.exec("PRAGMA synchronous = NORMAL");
const insert = db.query("INSERT OR IGNORE INTO messages (received_at, msg_key, from_user, type, event, content, answer, unmatched) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
const write = db.transaction((r) => { for (let i = 0; i < r.length; i += 8) insert.run(new Date(r[i]).toISOString(), r[i + 1], r[i + 2], r[i + 3], r[i + 4], r[i + 5], r[i + 6], r[i + 7]); });
self.onmessage = (e) => write(JSON.parse(e.data));
`;
const worker = new Worker(URL.createObjectURL(new Blob([WORKER], { type: "application/javascript" })));
let rows: unknown[] = [];
let rowTimer: Timer | null = null;
const flushRows = () => {
  if (rowTimer) clearTimeout(rowTimer);
  rowTimer = null;
  worker.postMessage(JSON.stringify(rows));
  rows = [];
};
let lines: string[] = [];
let lineTimer: Timer | null = null;
const flushLines = () => {
  lineTimer = null;
  process.stdout.write(lines.join("\n") + "\n");
  lines = [];
};
let stampMs = 0;
let stamp = "";

const retries = new RetryCache();
const ledger = new SignatureLedger(300_000);
const UTF8 = new TextDecoder("utf-8", { fatal: true });
const TEXT = { headers: { "content-type": "text/plain; charset=utf-8" } };
const XML = { headers: { "content-type": "application/xml; charset=utf-8" } };
const field = (s: string, name: string): string => {
  const open = `<${name}>`;
  const at = s.indexOf(open);
  if (at < 0) return "";
  const from = at + open.length;
  const v = s.slice(from, s.indexOf(`</${name}>`, from));
  return v.startsWith("<![CDATA[") ? v.slice(9, -3) : v;
};

async function receive(req: Request): Promise<Response> {
  const url = req.url;
  const q: Record<string, string> = {};
  for (const part of url.slice(url.indexOf("?") + 1).split("&")) {
    const eq = part.indexOf("=");
    q[part.slice(0, eq)] = part.slice(eq + 1);
  }
  const ts = q.timestamp ?? "";
  if (Bun.SHA1.hash([token, ts, q.nonce ?? ""].sort().join(""), "hex") !== q.signature || Math.abs(Date.now() - Number(ts) * 1000) > 300_000)
    return new Response("", { status: 401, ...TEXT });
  if (Number(req.headers.get("content-length")) > 65536) return new Response("too large", { status: 413, ...TEXT });
  const body = UTF8.decode(await req.bytes());
  const from = field(body, "FromUserName");
  const to = field(body, "ToUserName");
  const type = field(body, "MsgType");
  const content = field(body, "Content");
  const key = `m:${from}:${field(body, "MsgId")}`;
  if (!ledger.admit(ts, q.nonce ?? "", key, Date.now())) return new Response("", { status: 401, ...TEXT });
  const out = retries.get(key, Date.now(), () => {
    const a = byCode.get(content.trim().toLowerCase());
    const now = Date.now();
    rows.push(now, key, from, type, null, content.slice(0, 1024), a ? "code" : "fallback", a ? 0 : 1);
    if (rows.length >= 256 * 8) flushRows();
    else rowTimer ??= setTimeout(flushRows, 10);
    return a
      ? `<xml><ToUserName><![CDATA[${from}]]></ToUserName><FromUserName><![CDATA[${to}]]></FromUserName><CreateTime>${Math.floor(now / 1000)}</CreateTime><MsgType><![CDATA[news]]></MsgType><ArticleCount>1</ArticleCount><Articles><item><Title><![CDATA[${a.title}]]></Title><Description><![CDATA[${a.description ?? ""}]]></Description><PicUrl><![CDATA[]]></PicUrl><Url><![CDATA[${a.url}]]></Url></item></Articles></xml>`
      : "success";
  }) as string;
  return new Response(out, out === "success" ? TEXT : XML);
}

const server = Bun.serve({
  port: Number(portArg),
  hostname: "127.0.0.1",
  routes: {
    "/wechat": {
      POST: async (req) => {
        const started = performance.now();
        const res = await receive(req);
        const ms = Date.now();
        if (ms !== stampMs) stamp = new Date((stampMs = ms)).toISOString();
        lines.push(`{"t":"${stamp}","method":"POST","path":"/wechat","status":${res.status},"ms":${Math.round((performance.now() - started) * 100) / 100}}`);
        lineTimer ??= setTimeout(flushLines, 20);
        return res;
      },
    },
  },
  fetch: () => new Response("not found", { status: 404 }),
});
console.error(JSON.stringify({ event: "listening", port: server.port }));
