/**
 * Charts in a terminal's text: bars and sparklines of Unicode block characters, and text cut to a
 * width in columns as the terminal shows it (a Chinese character takes two: Bun.stringWidth).
 */

const EIGHTHS = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
const SPARKS = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"];

/** A bar `value / max` of `width` columns, to an eighth of a column; a value above 0 shows at least ▏. */
export function bar(value: number, max: number, width: number): string {
  if (!(max > 0) || !(value > 0)) return "";
  const eighths = Math.max(1, Math.round((Math.min(value, max) / max) * width * 8));
  return "█".repeat(Math.floor(eighths / 8)) + (EIGHTHS[eighths % 8] as string);
}

/**
 * One character per value, ▁ for the least and █ for the most (null: a space, nothing known). More
 * values than `width`: each character is the mean of its share of them, so the line is `width` long.
 */
export function sparkline(values: readonly (number | null)[], width: number): string {
  let vs = values;
  if (vs.length > width) {
    const n = vs.length;
    vs = Array.from({ length: width }, (_, j) => {
      const known = values.slice(Math.floor((j * n) / width), Math.floor(((j + 1) * n) / width)).filter((v): v is number => v !== null);
      return known.length ? known.reduce((a, b) => a + b, 0) / known.length : null;
    });
  }
  const known = vs.filter((v): v is number => v !== null);
  if (!known.length) return " ".repeat(vs.length);
  const [lo, hi] = [Math.min(...known), Math.max(...known)];
  return vs.map((v) => (v === null ? " " : (SPARKS[hi === lo ? (hi > 0 ? 7 : 0) : Math.round(((v - lo) / (hi - lo)) * 7)] as string))).join("");
}

/** A follower's text on one line: controls and line breaks as spaces (an escape would print wider than it counts). */
export const oneLine = (text: string): string => text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\s]+/gu, " ").trim();

/** The columns `text` takes in a terminal. */
export const columns = (text: string): number => Bun.stringWidth(text);

/** `text` within `width` columns, cut with … where it did not fit. */
export function fit(text: string, width: number): string {
  if (columns(text) <= width) return text;
  let out = "";
  let used = 0;
  for (const ch of text) {
    const w = columns(ch);
    if (used + w > width - 1) break;
    out += ch;
    used += w;
  }
  return `${out}…`;
}

/** `text` padded with spaces to `width` columns (left-aligned), or right-aligned with `right`. */
export const pad = (text: string, width: number, right = false): string => {
  const gap = " ".repeat(Math.max(0, width - columns(text)));
  return right ? gap + text : text + gap;
};

/** 12,345 */
export const count = (n: number): string => Math.round(n).toLocaleString("en-US");

/** A count in at most `width` columns: 12,345, else three significant figures of a unit (12.3k, 1.23M, 4.50G). */
export function countIn(n: number, width: number): string {
  const full = count(n);
  if (full.length <= width) return full;
  for (const [unit, size] of [["k", 1e3], ["M", 1e6], ["G", 1e9], ["T", 1e12]] as const) {
    const v = n / size;
    const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.max(v, 1))));
    const shown = v.toFixed(digits);
    // 999,999,999 is 1.00G, not 1000M.
    if (Number(shown) >= 1000) continue;
    for (let d = digits; d >= 0; d--) {
      const text = `${v.toFixed(d)}${unit}`;
      if (text.length <= width) return text;
    }
  }
  return full;
}

/** 87.2% (— for nothing to share). */
export const percent = (share: number | null): string => (share === null ? "—" : `${(share * 100).toFixed(1)}%`);

/** 340 ms, 1.2 s */
export const duration = (ms: number | null | undefined): string => (ms === null || ms === undefined ? "—" : ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`);
