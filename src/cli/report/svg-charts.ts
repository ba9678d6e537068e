/**
 * Charts as inline SVG for the report's HTML page (report-html.ts): drawn here, as text, with
 * nothing fetched and no script — stacked bars per day, lines per day, horizontal bars. Every
 * label is escaped.
 */

/** Text for HTML and SVG: the five characters that could open markup, and controls dropped. */
export const esc = (text: string): string =>
  text.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface Series {
  label: string;
  colour: string;
  values: readonly (number | null)[];
}

const W = 760;
const LEFT = 56;
const RIGHT = 12;
const TOP = 12;
const BOTTOM = 28;

const round = (n: number) => Math.round(n * 10) / 10;

/** A round top for an axis over values up to `max`: 1, 2 or 5 times a power of ten. */
export function niceMax(max: number): number {
  if (!(max > 0)) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  return ([1, 2, 5, 10].find((m) => m * p >= max) as number) * p;
}

function frame(title: string, height: number, body: string): string {
  // No xmlns: inline in HTML an svg element needs none, and the page names no address at all.
  return `<svg viewBox="0 0 ${W} ${height}" width="${W}" height="${height}" role="img" aria-label="${esc(title)}"><title>${esc(title)}</title>${body}</svg>`;
}

/** The y axis's lines and labels, and the days under the x axis (thinned to fit). */
function axes(days: readonly string[], top: number, height: number, label: (v: number) => string): string {
  const plot = height - TOP - BOTTOM;
  const lines = [0, 0.5, 1].map((f) => {
    const y = round(TOP + plot * (1 - f));
    return `<line x1="${LEFT}" x2="${W - RIGHT}" y1="${y}" y2="${y}" stroke="#ddd"/><text x="${LEFT - 6}" y="${y + 4}" text-anchor="end" font-size="11" fill="#555">${esc(label(top * f))}</text>`;
  });
  const step = (W - LEFT - RIGHT) / Math.max(1, days.length);
  const every = Math.max(1, Math.ceil(days.length / 12));
  const names = days.map((d, i) =>
    i % every ? "" : `<text x="${round(LEFT + step * (i + 0.5))}" y="${height - 10}" text-anchor="middle" font-size="11" fill="#555">${esc(d.slice(5))}</text>`,
  );
  return lines.join("") + names.join("");
}

/** Bars per day, each the series stacked in order. */
export function stackedBars(title: string, days: readonly string[], series: readonly Series[], label: (v: number) => string): string {
  const height = 240;
  const totals = days.map((_, i) => series.reduce((s, x) => s + (x.values[i] ?? 0), 0));
  const top = niceMax(Math.max(0, ...totals));
  const plot = height - TOP - BOTTOM;
  const step = (W - LEFT - RIGHT) / Math.max(1, days.length);
  const width = round(Math.max(1, step * 0.7));
  const bars: string[] = [];
  days.forEach((day, i) => {
    let y = TOP + plot;
    for (const s of series) {
      const v = s.values[i] ?? 0;
      if (v <= 0) continue;
      const h = (v / top) * plot;
      y -= h;
      bars.push(`<rect x="${round(LEFT + step * i + (step - width) / 2)}" y="${round(y)}" width="${width}" height="${round(Math.max(h, 0.5))}" fill="${s.colour}"><title>${esc(`${day} ${s.label}: ${label(v)}`)}</title></rect>`);
    }
  });
  return frame(title, height, axes(days, top, height, label) + bars.join(""));
}

/** A line per series over the days, a dot at each known value (null: a gap). */
export function lines(title: string, days: readonly string[], series: readonly Series[], label: (v: number) => string, fixedTop?: number): string {
  const height = 200;
  const known = series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const top = fixedTop ?? niceMax(Math.max(0, ...known));
  const plot = height - TOP - BOTTOM;
  const step = (W - LEFT - RIGHT) / Math.max(1, days.length);
  const at = (i: number, v: number) => [round(LEFT + step * (i + 0.5)), round(TOP + plot * (1 - Math.min(v, top) / top))] as const;
  const drawn = series.map((s) => {
    const runs: string[][] = [[]];
    const dots: string[] = [];
    s.values.forEach((v, i) => {
      if (v === null) return void runs.push([]);
      const [x, y] = at(i, v);
      (runs[runs.length - 1] as string[]).push(`${x},${y}`);
      dots.push(`<circle cx="${x}" cy="${y}" r="4" fill="${s.colour}"><title>${esc(`${days[i]} ${s.label}: ${label(v)}`)}</title></circle>`);
    });
    const paths = runs.filter((r) => r.length > 1).map((r) => `<polyline points="${r.join(" ")}" fill="none" stroke="${s.colour}" stroke-width="3"/>`);
    return paths.join("") + dots.join("");
  });
  return frame(title, height, axes(days, top, height, label) + drawn.join(""));
}

/** One bar per item, its label on the left and its value after it. */
export function horizontalBars(title: string, items: readonly { label: string; value: number; colour: string }[], label: (v: number) => string): string {
  const row = 24;
  const height = TOP * 2 + row * Math.max(1, items.length);
  const most = Math.max(0, ...items.map((i) => i.value));
  const left = 220;
  const room = W - left - 90;
  const body = items.map((item, i) => {
    const y = TOP + row * i;
    const w = most > 0 && item.value > 0 ? round(Math.max(1, (item.value / most) * room)) : 0;
    return (
      `<text x="${left - 8}" y="${y + 16}" text-anchor="end" font-size="12" fill="#333">${esc(item.label)}</text>` +
      `<rect x="${left}" y="${y + 4}" width="${w}" height="${row - 8}" fill="${item.colour}"><title>${esc(`${item.label}: ${label(item.value)}`)}</title></rect>` +
      `<text x="${left + w + 6}" y="${y + 16}" font-size="12" fill="#333">${esc(label(item.value))}</text>`
    );
  });
  return frame(title, height, items.length ? body.join("") : `<text x="${W / 2}" y="${TOP + 16}" text-anchor="middle" font-size="12" fill="#777">none</text>`);
}
