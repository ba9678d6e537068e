/**
 * Documents in the JSON layouts people's tools write (issue 27 A), imported through the real client
 * (dist/replyd import) into a freshly started server on SQLite: compact (what replyd writes),
 * Python's json.dump defaults (", " and ": ", non-ASCII escaped as \uXXXX), and indent=2. For each:
 * the client's wall time and peak RSS, the server's peak RSS growth, and the time against compact.
 * The goal: every layout within 1.5× compact, peak RSS growth ≤ 300 MB on each side.
 */
import { closeSync, mkdirSync, openSync, rmSync, statSync, writeSync } from "node:fs";
import { join } from "node:path";
import { BIN, KEY, procMb, resetPeak, startReplyd, waitHealthy } from "./servers.ts";

export const LAYOUTS = ["compact", "python", "indent2"] as const;
export type Layout = (typeof LAYOUTS)[number];

/** What Python's json.dumps(value) writes with its defaults. */
function python(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(python).join(", ")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.entries(value)
      .map(([k, v]) => `${python(k)}: ${python(v)}`)
      .join(", ")}}`;
  if (typeof value === "string") return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
  return JSON.stringify(value);
}

/** An article with text in Chinese and English, as a real account's are. */
const article = (i: number) => ({
  id: `a${i}`,
  code: `c${i}`,
  tag: `t${i % 20}`,
  title: `Article ${i}：退款与售后说明`,
  description: `About topic ${i % 97}, the questions followers ask most — 常见问题 ${i % 31}`,
  url: `https://example.com/articles/${i}`,
  keywords: ["bench", `k${i % 13}`, "售后"],
});

/** The same document in one layout, written in pieces (a million articles is a few hundred MB). */
export function writeLayout(path: string, size: number, layout: Layout): number {
  const fd = openSync(path, "w");
  const [open, sep, close] =
    layout === "compact" ? ['{"format":"replyd/1","matter":"articles","articles":[', ",", "]}"] : layout === "python" ? ['{"format": "replyd/1", "matter": "articles", "articles": [', ", ", "]}"] : ['{\n  "format": "replyd/1",\n  "matter": "articles",\n  "articles": [\n', ",\n", "\n  ]\n}\n"];
  const one = (a: ReturnType<typeof article>) =>
    layout === "compact" ? JSON.stringify(a) : layout === "python" ? python(a) : JSON.stringify(a, null, 2).replace(/^/gm, "    ");
  writeSync(fd, open);
  for (let i = 0; i < size; i += 10_000) {
    const part: string[] = [];
    for (let j = i; j < Math.min(size, i + 10_000); j++) part.push(one(article(j)));
    writeSync(fd, (i ? sep : "") + part.join(sep));
  }
  writeSync(fd, close);
  closeSync(fd);
  return statSync(path).size;
}

export interface LayoutRow {
  size: number;
  layout: Layout;
  doc_mb: number;
  import_ms: number;
  vs_compact: number;
  client_peak_rss_mb: number;
  server_rss_growth_mb: number;
}

async function importOnce(dir: string, doc: string): Promise<{ ms: number; clientMb: number; serverMb: number }> {
  const s = startReplyd(dir, ["--max-upload", "2G"]);
  try {
    await waitHealthy(`${s.url}/healthz`, 60_000);
    const rss0 = procMb(s.p.pid, "VmRSS");
    resetPeak(s.p.pid);
    const t0 = performance.now();
    const client = Bun.spawn([BIN, "import", doc, "--timeout", "3600"], {
      env: { PATH: process.env.PATH ?? "", REPLYD_URL: s.url, REPLYD_APPKEY: KEY.appkey, REPLYD_SECRET: KEY.secret },
      stdout: "ignore",
      stderr: "pipe",
    });
    // The client's peak, read from the kernel while it runs (its high-water mark only grows).
    let clientMb = 0;
    const watch = setInterval(() => {
      try {
        clientMb = Math.max(clientMb, procMb(client.pid, "VmHWM"));
      } catch {}
    }, 10);
    const code = await client.exited;
    clearInterval(watch);
    const ms = performance.now() - t0;
    if (code !== 0) throw new Error(`replyd import ${doc} failed: ${await new Response(client.stderr as ReadableStream).text()}`);
    return { ms, clientMb, serverMb: procMb(s.p.pid, "VmHWM") - rss0 };
  } finally {
    s.p.kill("SIGTERM");
    await s.p.exited;
  }
}

/** At each size: each layout imported `rounds` times into an empty server, in turn; medians. */
export async function layoutsBench(sizes: number[], tmp: string, rounds: number, report: (line: string) => void): Promise<LayoutRow[]> {
  const rows: LayoutRow[] = [];
  for (const size of sizes) {
    const d = join(tmp, `layouts-${size}`);
    mkdirSync(d);
    const docs = LAYOUTS.map((layout) => {
      const path = join(d, `${layout}.json`);
      return { layout, path, bytes: writeLayout(path, size, layout) };
    });
    const runs = new Map<Layout, { ms: number; clientMb: number; serverMb: number }[]>();
    for (let r = 0; r < rounds; r++)
      for (const doc of docs) {
        const run = join(d, `run-${doc.layout}-${r}`);
        mkdirSync(run);
        runs.set(doc.layout, [...(runs.get(doc.layout) ?? []), await importOnce(run, doc.path)]);
        rmSync(run, { recursive: true, force: true });
      }
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
    const compactMs = med((runs.get("compact") ?? []).map((x) => x.ms));
    for (const doc of docs) {
      const xs = runs.get(doc.layout) ?? [];
      const row: LayoutRow = {
        size,
        layout: doc.layout,
        doc_mb: +(doc.bytes / 2 ** 20).toFixed(1),
        import_ms: Math.round(med(xs.map((x) => x.ms))),
        vs_compact: +(med(xs.map((x) => x.ms)) / compactMs).toFixed(2),
        client_peak_rss_mb: Math.round(Math.max(...xs.map((x) => x.clientMb))),
        server_rss_growth_mb: Math.round(Math.max(...xs.map((x) => x.serverMb))),
      };
      rows.push(row);
      report(
        `  ${String(size).padStart(8)} ${doc.layout.padEnd(8)} ${String(row.doc_mb).padStart(6)} MB: import ${row.import_ms} ms (${row.vs_compact}× compact)   client peak RSS ${row.client_peak_rss_mb} MB   server RSS growth ${row.server_rss_growth_mb} MB`,
      );
    }
    rmSync(d, { recursive: true, force: true });
  }
  return rows;
}
