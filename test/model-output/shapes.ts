/** Model answers that cost a careless check the square of their length: the shapes the old check froze on, and random mixes. */

/** The shapes that froze the old check, and others that start a mark without ending it. */
export const SHAPES = ["[", " ", "\t", "\n", "![", "**x", "`", "~~", "<a", "<!--", "<<", "&#", "&amp;", "[x](", "](", "a.", "a . ", "//", "1", "一", "9:", "[1,", "_1", "@", "-", "(", "|", "ｈ", "\u200b", "微信 ", "#", "> "];
export const fill = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

/** Random answers from the pieces of markup, links and figures: a seeded generator, so a failure can be replayed. */
export function randomAnswers(n: number, length: number, seed = 33): string[] {
  const pieces = [...SHAPES, "退款", "https://", "evil", ".example", "]", ")", ">", "*", "10元", "七天", "\n\n", "[1]"];
  let x = seed;
  const next = () => ((x = (x * 1103515245 + 12345) % 2 ** 31), x / 2 ** 31);
  return Array.from({ length: n }, () => {
    let s = "";
    while (s.length < length) s += (pieces[Math.floor(next() * pieces.length)] as string).repeat(1 + Math.floor(next() * 50));
    return s.slice(0, length);
  });
}


/** `unit` repeated to the longest answer the model client reads whole: its JSON body within `maxBytes` (MAX_ANSWER_BYTES) with room for the rest of the reply. */
export function atReadLimit(unit: string, maxBytes: number): string {
  const room = maxBytes - 512;
  let s = unit.repeat(Math.ceil(room / unit.length));
  while (Buffer.byteLength(JSON.stringify(s)) > room) s = s.slice(0, Math.floor(s.length * 0.95));
  return s;
}
