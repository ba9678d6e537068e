/**
 * kill -9 during a flood of follower messages: how many messages that were answered 200 are missing
 * from the log after the crash, and how far back before the kill the oldest of them was answered.
 * The log is written by its own thread in batches (every 10 ms or 256 messages, docs/wechat.md), so
 * a crash loses at most the messages of the batch being handed over and the one being committed:
 * this measures that window. Used by scripts/crash-test (--log-trials).
 */
import { join } from "node:path";
import type { CrashStore } from "./crash-stores.ts";

const TOKEN = "crashtoken";
const sha1 = (s: string) => new Bun.CryptoHasher("sha1").update(s).digest("hex");

export interface Started {
  proc: ReturnType<typeof Bun.spawn>;
  url: string;
}

export async function logKillTrials(trials: number, root: string, start: (dir: string, extra: string[]) => Promise<Started>, store: CrashStore) {
  const results: { acked: number; lost: number; window_ms: number }[] = [];
  for (let t = 0; t < trials; t++) {
    const dir = join(root, `log${t}`);
    const { proc, url } = await start(dir, ["--wx-token", TOKEN]);
    const acked = new Map<string, number>();
    let next = 0;
    let stop = false;
    const sender = async () => {
      while (!stop) {
        const i = next++;
        const ts = String(Math.floor(Date.now() / 1000));
        const nonce = `t${t}n${i}`;
        const body = `<xml><ToUserName><![CDATA[gh]]></ToUserName><FromUserName><![CDATA[o_crash]]></FromUserName><CreateTime>${ts}</CreateTime><MsgType><![CDATA[text]]></MsgType><Content><![CDATA[hello ${i}]]></Content><MsgId>${i}</MsgId></xml>`;
        try {
          const res = await fetch(`${url}/wechat?signature=${sha1([TOKEN, ts, nonce].sort().join(""))}&timestamp=${ts}&nonce=${nonce}`, { method: "POST", body });
          await res.text();
          if (res.status === 200) acked.set(`m:o_crash:${i}`, performance.now());
        } catch {
          return; // the server is gone
        }
      }
    };
    const senders = Array.from({ length: 16 }, sender);
    await Bun.sleep(300 + Math.random() * 500);
    const killedAt = performance.now();
    proc.kill("SIGKILL");
    stop = true;
    await proc.exited;
    await Promise.all(senders);
    const logged = await store.loggedKeys(dir);
    await store.forget(dir);
    const missing = [...acked].filter(([key]) => !logged.has(key)).map(([, at]) => at);
    results.push({ acked: acked.size, lost: missing.length, window_ms: missing.length ? Math.round(killedAt - Math.min(...missing)) : 0 });
  }
  return {
    log_trials: trials,
    acked: results.reduce((n, r) => n + r.acked, 0),
    max_lost: Math.max(0, ...results.map((r) => r.lost)),
    max_window_ms: Math.max(0, ...results.map((r) => r.window_ms)),
  };
}
