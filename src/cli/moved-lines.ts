/**
 * What a teach or an added question or keyword moved (server/teach-moves.ts), as the client prints
 * it: the followers' recent questions the article now comes first for, with what came first before,
 * and those sent another article alone that now get a list with it.
 */
import { cutColumns } from "./table.ts";

export interface Moved {
  seq: number;
  text: string;
  was: string | null;
  alone?: boolean;
}

/** The lines saying so, none when nothing moved (or a server too old to say). */
export function movedLines(moved: readonly Moved[] = [], count = moved.length, other = ""): string[] {
  if (!count) return [];
  return [
    `it now comes first for ${count} ${other}question${count === 1 ? "" : "s"} followers asked lately, which it did not before:`,
    ...moved.map((m) => `  ${String(m.seq).padStart(6)}  "${cutColumns(m.text, 60)}" (before: ${m.was ?? "the fallback"}${m.alone === undefined ? "" : m.alone ? "; now alone" : "; now first of a list"})`),
    ...(count > moved.length ? [`  and ${count - moved.length} more`] : []),
  ];
}

export interface ListedBeside {
  seq: number;
  text: string;
  first: string;
}

/** The lines saying which questions sent another article alone now list this one behind it; none when none (or a server too old to say). */
export function besideLines(beside: readonly ListedBeside[] = [], count = beside.length): string[] {
  if (!count) return [];
  return [
    `it is now listed behind the article ${count} question${count === 1 ? "" : "s"} followers asked lately had alone (they get a list now):`,
    ...beside.map((b) => `  ${String(b.seq).padStart(6)}  "${cutColumns(b.text, 60)}" (first: ${b.first})`),
    ...(count > beside.length ? [`  and ${count - beside.length} more`] : []),
  ];
}
