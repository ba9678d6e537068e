/**
 * What a teach or an added question or keyword moved (server/teach-moves.ts), as the client prints
 * it: the followers' recent questions the article now comes first for, with what came first before,
 * those sent another article alone that now get a list with it, and those it no longer comes first for.
 */
import { cutColumns } from "./table.ts";

export interface Moved {
  seq: number;
  text: string;
  was: string | null;
  alone?: boolean;
}

/**
 * The followers' questions a change moved, under `header`: each with its SEQ, its text cut to 60
 * columns and `said` of it; "and N more" past those listed; none when `count` is 0 (or a server too
 * old to say).
 */
function questionLines<T extends { seq: number; text: string }>(header: (count: number, s: string) => string, items: readonly T[], count: number, said: (item: T) => string): string[] {
  if (!count) return [];
  return [
    header(count, count === 1 ? "" : "s"),
    ...items.map((m) => `  ${String(m.seq).padStart(6)}  "${cutColumns(m.text, 60)}" (${said(m)})`),
    ...(count > items.length ? [`  and ${count - items.length} more`] : []),
  ];
}

/** The questions the article now comes first for. */
export const movedLines = (moved: readonly Moved[] = [], count = moved.length, other = ""): string[] =>
  questionLines((n, s) => `it now comes first for ${n} ${other}question${s} followers asked lately, which it did not before:`, moved, count, (m) => `before: ${m.was ?? "the fallback"}${m.alone === undefined ? "" : m.alone ? "; now alone" : "; now first of a list"}`);

/** The questions it no longer comes first for, with what they get now (`set … questions-=`). */
export const leftLines = (left: readonly { seq: number; text: string; now: string | null }[] = [], count = left.length): string[] =>
  questionLines((n, s) => `it no longer comes first for ${n} question${s} followers asked lately:`, left, count, (m) => `now: ${m.now ?? "the fallback"}`);

export interface ListedBeside {
  seq: number;
  text: string;
  first: string;
}

/** The questions sent another article alone that now list this one behind it. */
export const besideLines = (beside: readonly ListedBeside[] = [], count = beside.length): string[] =>
  questionLines((n, s) => `it is now listed behind the article ${n} question${s} followers asked lately had alone (they get a list now):`, beside, count, (b) => `first: ${b.first}`);
