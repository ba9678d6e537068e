/**
 * Columns that line up whatever their content: each as wide as its widest cell (up to its cap),
 * measured as the terminal shows it — a Chinese character takes two columns (Bun.stringWidth) — a
 * cell past its cap cut with "…". The last column is never padded or cut: long text runs on.
 */

export interface Column {
  /** Cut past this many terminal columns (the last column is never cut). */
  max?: number;
  /** Numbers line up on the right. */
  right?: boolean;
}

const width = (s: string) => Bun.stringWidth(s);

/** `s` cut to at most `cols` terminal columns, "…" where it was cut. */
export function cutColumns(s: string, cols: number): string {
  if (width(s) <= cols) return s;
  let out = "";
  for (const ch of s) {
    if (width(out + ch) > cols - 1) break;
    out += ch;
  }
  return `${out}…`;
}

/** `rows` (the header first, if any) as lines of columns two spaces apart. */
export function table(rows: readonly (readonly string[])[], columns: readonly Column[] = []): string[] {
  const n = Math.max(0, ...rows.map((r) => r.length));
  const cells = rows.map((r) => Array.from({ length: n }, (_, i) => (i < n - 1 ? cutColumns(r[i] ?? "", columns[i]?.max ?? 60) : (r[i] ?? ""))));
  const widths = Array.from({ length: n - 1 }, (_, i) => Math.max(0, ...cells.map((r) => width(r[i] as string))));
  return cells.map((r) =>
    r
      .map((c, i) => {
        if (i === n - 1) return c;
        const pad = " ".repeat((widths[i] as number) - width(c));
        return columns[i]?.right ? pad + c : c + pad;
      })
      .join("  ")
      .trimEnd(),
  );
}
