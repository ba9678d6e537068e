/**
 * Pieces of a secret in a text, however spelled: case changed, characters spread by spaces,
 * dashes or zero-width characters, written full-width, or only a prefix of it. Both the text and
 * the secret are folded to their ASCII letters and digits, lower case, and any SECRET_RUN
 * consecutive characters of the folded secret found in the folded text is a piece of it.
 * `mask` hides each piece found where it was written, so a failure's detail or a model's
 * output can be logged and shown without the key in any spelling. Linear in the text.
 */

/** A run of this many letters and digits of a secret is a piece of it (keys are 32 and more). */
export const SECRET_RUN = 8;

/** Letters and digits, ASCII and full-width, folded to lower-case ASCII; `at` maps each back to its place in `s`. */
function fold(s: string): { folded: string; at: Int32Array } {
  const at = new Int32Array(s.length);
  const chars: string[] = [];
  for (let i = 0; i < s.length; i++) {
    let c = s.charCodeAt(i);
    if (c >= 0xff10 && c <= 0xff5a) c -= 0xfee0;
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    if ((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a)) {
      at[chars.length] = i;
      chars.push(String.fromCharCode(c));
    }
  }
  return { folded: chars.join(""), at };
}

/** Every run of `run` characters of each secret, folded. */
function piecesOf(secrets: readonly string[], run: number): Set<string> {
  const pieces = new Set<string>();
  for (const s of secrets) {
    const f = fold(s).folded;
    for (let i = 0; i + run <= f.length; i++) pieces.add(f.slice(i, i + run));
  }
  return pieces;
}

/** Where pieces of the secrets are written in `text`: [start, end) ranges, merged, in order. */
export function secretSpans(text: string, secrets: readonly string[], run = SECRET_RUN): [number, number][] {
  const pieces = piecesOf(secrets, run);
  if (!pieces.size) return [];
  const { folded, at } = fold(text);
  const spans: [number, number][] = [];
  for (let i = 0; i + run <= folded.length; i++) {
    if (!pieces.has(folded.slice(i, i + run))) continue;
    const start = at[i] as number;
    const end = (at[i + run - 1] as number) + 1;
    const last = spans.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else spans.push([start, end]);
  }
  return spans;
}

export const holdsSecret = (text: string, secrets: readonly string[], run = SECRET_RUN): boolean => secretSpans(text, secrets, run).length > 0;

/** `text` with every piece of the secrets replaced by "…". */
export function mask(text: string, secrets: readonly (string | undefined)[]): string {
  const given = secrets.filter((s): s is string => Boolean(s));
  if (!given.length) return text;
  const spans = secretSpans(text, given);
  if (!spans.length) return text;
  let out = "";
  let from = 0;
  for (const [start, end] of spans) {
    out += text.slice(from, start) + "…";
    from = end;
  }
  return out + text.slice(from);
}
