/**
 * The text a reduction of HTML keeps (article/html-reduction.ts), tidy as it grows, so that no step is
 * ever spent on the whole of it: HTML's white space one space outside `<pre>`, no spaces before a
 * line break, no more than one blank line, no white space at either end, and no "<" that would
 * start a tag — such a "<" is written `&lt;`, so that the text never reads as HTML again.
 */

/** A `<` that starts a tag, a comment or a declaration: one followed by a letter, `/`, `!` or `?`. */
export const TAG_START = /<[A-Za-z/!?]/;
const TAG_STARTS = /<(?=[A-Za-z/!?])/g;

export const isTagChar = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2f || c === 0x21 || c === 0x3f;

/** White space String.prototype.trimEnd() drops, but "\n". */
const isTrailingSpace = (c: number) =>
  c === 0x20 || (c >= 0x09 && c <= 0x0d && c !== 0x0a) || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;

/** The last line of `s` without the spaces at its end. */
function trimLineEnd(s: string): string {
  let end = s.length;
  while (end > 0 && isTrailingSpace(s.charCodeAt(end - 1))) end--;
  return end === s.length ? s : s.slice(0, end);
}

/** Preformatted text: each line that ends in it without its trailing spaces, blank lines beyond one cut. */
function tidyLines(text: string): string {
  if (!text.includes("\n")) return text;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length - 1; i++) lines[i] = trimLineEnd(lines[i] as string);
  return lines.join("\n").replace(/\n{3,}/g, "\n\n");
}

export class TidyText {
  private readonly pieces: string[] = [];
  /** Line breaks owed before the next words: a run of closing tags makes one break, or a blank line. */
  private owed = 0;

  /** A line break (1) or a blank line (2) before the next words, if any come. */
  owe(breaks: 1 | 2): void {
    this.owed = Math.max(this.owed, breaks);
  }

  /** Words as a reader sees them (`pre`: inside `<pre>`, where white space is kept). */
  words(decoded: string, pre: boolean): void {
    let shown: string;
    if (pre) shown = tidyLines(decoded);
    else {
      // White space is one space, across tags too; at a line's start it is dropped.
      shown = decoded.replace(/[ \t\r\n\f]+/g, " ");
      if (shown.startsWith(" ") && (this.owed > 0 || !this.pieces.length || this.endsWith(" ") || this.endsWith("\n"))) shown = shown.slice(1);
    }
    if (!shown) return;
    if (this.owed) {
      if (this.pieces.length) this.add(this.owed >= 2 ? "\n\n" : "\n");
      this.owed = 0;
    }
    this.add(shown);
  }

  text(): string {
    return this.pieces.join("").trim();
  }

  private endsWith(s: string): boolean {
    return (this.pieces[this.pieces.length - 1] ?? "").endsWith(s);
  }

  private add(piece: string): void {
    const pieces = this.pieces;
    if (piece.startsWith("\n")) {
      // Spaces before a line break say nothing (a piece left empty goes, and the one before is looked at).
      while (pieces.length) {
        const kept = trimLineEnd(pieces.pop() as string);
        if (kept) {
          pieces.push(kept);
          break;
        }
      }
      // Never more than two line breaks in a row: those already at the end are counted, up to two.
      let ending = 0;
      for (let i = pieces.length - 1; i >= 0 && ending < 2; i--) {
        const p = pieces[i] as string;
        let j = p.length - 1;
        while (j >= 0 && p[j] === "\n" && ending < 2) (j--, ending++);
        if (j >= 0) break;
      }
      let lead = 0;
      while (piece[lead] === "\n") lead++;
      const allowed = pieces.length ? 2 - ending : 0;
      if (lead > allowed) piece = piece.slice(lead - allowed);
      if (!piece) return;
    }
    if (piece.includes("<")) piece = piece.replace(TAG_STARTS, "&lt;");
    // A "<" that ended the last piece starts a tag with this one.
    if (isTagChar(piece.charCodeAt(0)) && this.endsWith("<")) pieces.push((pieces.pop() as string).slice(0, -1) + "&lt;");
    pieces.push(piece);
  }
}
