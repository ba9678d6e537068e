/**
 * Generated answers through the binary against the platform's own timings (issue 29 C): a model
 * (the local fake, test/model/fake.ts) that takes L ms, and the platform played as it behaves —
 * a delivery given up on at 5 s, delivered again, three times in all, 5 s apart — with customer-
 * service messages taken by the platform's fake. Per latency: which delivery carried the answer,
 * when the follower had an answer (first delivery → the reply, or the follow-up message), and that
 * the last delivery was answered within 4 s. Then the cost replyd adds around a model that answers
 * at once: the reply time of the same questions with a model and without.
 *
 *   bun bench/generated.ts [--latencies 500,3000,7000,12000,20000] [--questions 4] [--overhead 300]
 *   ./scripts/bench --only generated
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { wxSignature } from "../src/wechat/door/crypto.ts";
import { startFakeModel } from "../test/model/fake.ts";
import { startFakePlatform } from "../test/platform/fake.ts";
import { loadSet, type Account } from "./eval/sets.ts";
import { clientFor, port, ROOT, spawn, TOKEN, KEY, BIN, waitHealthy } from "./servers.ts";

const AI_KEY = "sk-bench-0123456789abcdefghij";
const APPID = "wx0123456789abcdef";
const SECRET = "0123456789abcdef0123456789abcdef";
const URL_BASE = "https://example.com/a/";

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return +(s[Math.min(s.length - 1, Math.floor((s.length * p) / 100))] ?? 0).toFixed(1);
};

/** A server in `dir`; with `model`, connected to it and to the platform's fake (the secrets from the environment, as operators give them). */
function serve(dir: string, extra: string[], model: boolean) {
  mkdirSync(dir, { recursive: true });
  const p0 = port();
  const p = spawn([BIN, "serve", "--data", join(dir, "data"), "--host", "127.0.0.1", "--port", String(p0), ...extra], {
    env: {
      PATH: process.env.PATH ?? "",
      REPLYD_APPKEY: KEY.appkey,
      REPLYD_SECRET: KEY.secret,
      REPLYD_WX_TOKEN: TOKEN,
      ...(model ? { REPLYD_AI_KEY: AI_KEY, REPLYD_WX_SECRET: SECRET } : {}),
    },
    stdout: Bun.file(join(dir, `replyd-${p0}.log`)),
    stderr: "inherit",
  });
  return { p, url: `http://127.0.0.1:${p0}` };
}

let nonce = 0;
/** One delivery as the platform makes it: closed at 5 s. */
async function delivery(url: string, question: string, follower: string, msgId: string): Promise<string | null> {
  const ts = String(Math.floor(Date.now() / 1000));
  const n = `g${process.pid}x${++nonce}`;
  const body = `<xml><ToUserName><![CDATA[gh_bench]]></ToUserName><FromUserName><![CDATA[${follower}]]></FromUserName><CreateTime>${ts}</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[${question}]]></Content><MsgId>${msgId}</MsgId></xml>`;
  try {
    const res = await fetch(`${url}/wechat?signature=${wxSignature(TOKEN, ts, n)}&timestamp=${ts}&nonce=${n}&openid=${follower}`, {
      method: "POST",
      body,
      signal: AbortSignal.timeout(5000),
    });
    return await res.text();
  } catch {
    return null;
  }
}

/** The platform's three deliveries of one message, 5 s apart, until one is answered. */
async function platformDelivers(url: string, question: string, follower: string, msgId: string) {
  const t0 = performance.now();
  for (let d = 1; d <= 3; d++) {
    const at = performance.now();
    const xml = await delivery(url, question, follower, msgId);
    if (xml !== null) return { delivery: d, ms: performance.now() - t0, deliveryMs: performance.now() - at, xml };
    // The next delivery comes 5 s after this one began.
    await Bun.sleep(Math.max(0, at + 5000 - performance.now()));
  }
  return { delivery: 0, ms: performance.now() - t0, deliveryMs: 0, xml: "" };
}

export interface GeneratedOptions {
  latencies: number[];
  questions: number;
  overhead: number;
}

export async function generatedBench(o: GeneratedOptions, say: (line: string) => void = () => {}): Promise<Record<string, unknown>> {
  const tmp = mkdtempSync(join(tmpdir(), "replyd-generated-"));
  const model = startFakeModel(AI_KEY);
  const platform = startFakePlatform(APPID, SECRET);
  try {
    const set = loadSet("dev").accounts[0] as Account;
    const articles = set.articles.slice(0, 300).map((a, i) => ({ id: `e${i}`, title: a.title, url: `${URL_BASE}${i}`, body: a.body }));
    const questions = set.questions.filter((q) => (q.answers[0] as number) < 300);
    const withModel = serve(
      join(tmp, "model"),
      ["--ai-url", model.base, "--ai-model", "fake-1", "--ai-per-follower", "100000", "--ai-daily", "1000000", "--wx-appid", APPID, "--wx-api", platform.url],
      true,
    );
    const without = serve(join(tmp, "plain"), [], false);
    for (const s of [withModel, without]) {
      await waitHealthy(`${s.url}/healthz`);
      await clientFor(s.url, tmp).call({
        method: "POST",
        path: "/api/cli",
        fields: [["mode", "init"]],
        files: [{ name: "json", filename: "a.json", bytes: new TextEncoder().encode(JSON.stringify({ format: "replyd/1", matter: "articles", articles })) }],
      });
      for (;;) {
        const h = await clientFor(s.url, tmp).call<{ search_index: string }>({ method: "GET", path: "/api/cli" });
        if (h.search_index === "ready") break;
        await Bun.sleep(50);
      }
    }

    // The window: per latency, QUESTIONS messages at once, each delivered as the platform does.
    const window: Record<string, unknown>[] = [];
    let q = 0;
    for (const latency of o.latencies) {
      model.mode = { delayMs: latency };
      const runs = await Promise.all(
        Array.from({ length: o.questions }, async (_, i) => {
          const qa = questions[q++ % questions.length] as { q: string };
          const follower = `f${latency}x${i}`;
          platform.interact(follower);
          const sentBefore = platform.sent.length;
          const t0 = performance.now();
          const r = await platformDelivers(withModel.url, qa.q, follower, `${latency}${i}${Date.now() % 100000}`);
          const generated = r.xml.includes("\n\n[1] ");
          let followUpMs: number | null = null;
          if (!generated && r.delivery) {
            // The model's answer follows as a customer-service message once it is written.
            for (const until = performance.now() + latency + 5000; performance.now() < until; await Bun.sleep(20))
              if (platform.sent.slice(sentBefore).some((m) => m.touser === follower)) {
                followUpMs = performance.now() - t0;
                break;
              }
          }
          return { delivery: r.delivery, replyMs: r.ms, lastDeliveryMs: r.delivery === 3 ? r.deliveryMs : null, generated, followUpMs };
        }),
      );
      const row = {
        model_ms: latency,
        messages: runs.length,
        answered_on_delivery: runs.map((r) => r.delivery),
        generated_in_reply: runs.filter((r) => r.generated).length,
        follower_has_reply_ms: pct(
          runs.map((r) => r.replyMs),
          50,
        ),
        last_delivery_answered_in_ms: runs.some((r) => r.lastDeliveryMs !== null) ? Math.max(...runs.map((r) => r.lastDeliveryMs ?? 0)) : null,
        follow_up_ms: runs.some((r) => r.followUpMs !== null)
          ? pct(
              runs.filter((r) => r.followUpMs !== null).map((r) => r.followUpMs as number),
              50,
            )
          : null,
      };
      window.push(row);
      say(
        `  model ${latency} ms: answered on deliveries ${row.answered_on_delivery.join(",")}, ${row.generated_in_reply}/${row.messages} with the model's answer; the follower had a reply after ${row.follower_has_reply_ms} ms${row.last_delivery_answered_in_ms !== null ? `, the last delivery in ${row.last_delivery_answered_in_ms} ms` : ""}${row.follow_up_ms !== null ? `, the model's answer followed at ${row.follow_up_ms} ms` : ""}`,
      );
    }

    // The cost replyd adds around a model answering at once: the same questions, one at a time.
    model.mode = { delayMs: 0 };
    const overhead: Record<string, { p50_ms: number; p99_ms: number }> = {};
    for (const [name, s] of [
      ["with_model_0ms", withModel],
      ["without_model", without],
    ] as const) {
      const ms: number[] = [];
      for (let i = 0; i < o.overhead; i++) {
        const qa = questions[i % questions.length] as { q: string };
        const t0 = performance.now();
        await delivery(s.url, qa.q, `o${i % 50}`, `${name.length}${i}${Date.now() % 1000000}`);
        ms.push(performance.now() - t0);
      }
      overhead[name] = { p50_ms: pct(ms, 50), p99_ms: pct(ms, 99) };
    }
    say(
      `  around a model answering at once: reply p50/p99 ${overhead.with_model_0ms?.p50_ms}/${overhead.with_model_0ms?.p99_ms} ms, without a model ${overhead.without_model?.p50_ms}/${overhead.without_model?.p99_ms} ms`,
    );
    for (const s of [withModel, without]) {
      s.p.kill("SIGTERM");
      await s.p.exited;
    }
    return { articles: articles.length, window, overhead, calls: model.requests.length };
  } finally {
    model.stop();
    platform.stop();
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const opt = (name: string, fallback: string) => (args.includes(name) ? (args[args.indexOf(name) + 1] as string) : fallback);
  const result = {
    when: new Date().toISOString(),
    ...(await generatedBench(
      { latencies: opt("--latencies", "500,3000,7000,12000,20000").split(",").map(Number), questions: Number(opt("--questions", "4")), overhead: Number(opt("--overhead", "300")) },
      (line) => process.stderr.write(line + "\n"),
    )),
  };
  console.log(JSON.stringify(result, null, 2));
  await Bun.write(join(ROOT, "bench/results", `generated-${result.when.slice(0, 10)}.json`), JSON.stringify(result, null, 2) + "\n");
}
