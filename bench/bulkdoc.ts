import { closeSync, openSync, writeSync } from "node:fs";

/** A bare array of `n` generated articles written to `path` in pieces (a million is ~300 MB of JSON): the in-process bulk benches' document. */
export function writeBulkDocument(path: string, n: number): void {
  const out = openSync(path, "w");
  writeSync(out, "[");
  for (let i = 0; i < n; i += 10_000) {
    const part = Array.from({ length: Math.min(10_000, n - i) }, (_, j) => ({
      id: `a${i + j}`,
      code: `c${i + j}`,
      tag: "news",
      title: `Article ${i + j} about things`,
      description: "A description of moderate length, as articles have.",
      url: `https://example.com/articles/${i + j}`,
      keywords: ["alpha", "beta"],
    }));
    writeSync(out, (i ? "," : "") + JSON.stringify(part).slice(1, -1));
  }
  writeSync(out, "]");
  closeSync(out);
}
