/**
 * The thread operator regex rules run on (regex.ts): each request's patterns tested against its
 * text, the request and the pattern being tested marked in shared memory, so that a match that
 * runs past its deadline names its culprit when the thread is replaced.
 */
import { refuseMainThread } from "../../base/worker-only.ts";

export type RegexRequest = { progress: SharedArrayBuffer } | { id: number; patterns: string[]; text: string };
export interface RegexAnswer {
  id: number;
  /** Positions in the request's patterns that matched. */
  matched: number[];
}

declare const self: Worker;

refuseMainThread("src/wechat/answering/regex-worker.ts");

const cache = new Map<string, RegExp | null>();
let progress: Int32Array | null = null;

self.onmessage = (event: MessageEvent<RegexRequest>) => {
  const m = event.data;
  if ("progress" in m) {
    progress = new Int32Array(m.progress);
    return;
  }
  const matched: number[] = [];
  for (let i = 0; i < m.patterns.length; i++) {
    const pattern = m.patterns[i] as string;
    Atomics.store(progress as Int32Array, 0, m.id);
    Atomics.store(progress as Int32Array, 1, i);
    let re = cache.get(pattern);
    if (re === undefined) {
      try {
        re = new RegExp(pattern, "iu");
      } catch {
        re = null;
      }
      if (cache.size > 1000) cache.clear();
      cache.set(pattern, re);
    }
    if (re?.test(m.text)) matched.push(i);
  }
  self.postMessage({ id: m.id, matched } satisfies RegexAnswer);
};
